// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/testreport.h"

#include "compareview/comparisonreport.h"
#include "compareview/reportpage.h"
#include "testview/testcharts.h"

#include <compare/rundescription.h>
#include <live/cpuchart.h>
#include <live/livetestchart.h>
#include <live/loadedlatencychart.h>
#include <live/rrchart.h>
#include <live/udpchart.h>
#include <results/streamresultsmodel.h>
#include <results/summarycontent.h>

#include <QFontMetrics>
#include <QLocale>
#include <QTimeZone>

#include <algorithm>
#include <memory>

namespace nb::gui {

namespace {

using report::ReportPage;

// The charts a report draws, made for it (never the window's, which follow its theme).
struct OwnedTestCharts {
    std::unique_ptr<nb::ui::LiveTestChart> throughput = std::make_unique<nb::ui::LiveTestChart>();
    std::unique_ptr<nb::ui::RrChart> rr = std::make_unique<nb::ui::RrChart>();
    std::unique_ptr<nb::ui::LoadedLatencyChart> loaded = std::make_unique<nb::ui::LoadedLatencyChart>();
    std::unique_ptr<nb::ui::UdpChart> udp = std::make_unique<nb::ui::UdpChart>();
    std::unique_ptr<nb::ui::CpuChart> cpu = std::make_unique<nb::ui::CpuChart>();

    TestCharts view() const { return {throughput.get(), rr.get(), loaded.get(), udp.get(), cpu.get()}; }
};

// The plots to draw: each test's chart once, then CPU.
QList<QCustomPlot *> reportPlots(const OwnedTestCharts &owned, const QList<nb::TestResult> &results)
{
    const TestCharts charts = owned.view();
    QList<QWidget *> widgets;
    for (const nb::TestResult &r : results) {
        QWidget *w = charts.chartFor(r.params);
        if (!widgets.contains(w))
            widgets << w;
    }
    QList<QCustomPlot *> plots;
    for (QWidget *w : std::as_const(widgets)) {
        if (w == owned.throughput.get())
            plots << owned.throughput->plot();
        else if (w == owned.rr.get())
            plots << owned.rr->plot();
        else if (w == owned.loaded.get())
            plots << owned.loaded->plot();
        else if (w == owned.udp.get())
            plots << owned.udp->plot();
    }
    plots << owned.cpu->plot();
    return plots;
}

QDateTime reportTime(const TestReportInput &in)
{
    if (in.finishedAt.isValid())
        return in.finishedAt;
    for (const nb::TestResult &r : in.results) {
        if (r.timestampSecs > 0)
            return QDateTime::fromSecsSinceEpoch(r.timestampSecs, QTimeZone::utc());
    }
    return QDateTime::currentDateTimeUtc();
}

QString reportTitle(const TestReportInput &in)
{
    const QString kind = nb::runKindLabel(in.results);
    return in.label.isEmpty() ? QObject::tr("NicBench test: %1").arg(kind)
                              : QObject::tr("NicBench test: %1 (%2)").arg(kind, in.label);
}

// Title, what ran and how it ended.
int drawTestTitle(ReportPage &page, const TestReportInput &in)
{
    int y = 0;
    page.setFont(16, true);
    y += report::drawLine(page.p, 0, y, page.width, reportTitle(in));
    page.setFont(8.5);
    QStringList facts;
    facts << QLocale().toString(reportTime(in).toLocalTime(), QLocale::LongFormat);
    facts << QObject::tr("to %1").arg(nb::runTargetLabel(in.results));
    if (const QString adapter = nb::runAdapterLabel(in.results); !adapter.isEmpty())
        facts << QObject::tr("adapter %1").arg(adapter);
    y += report::drawLine(page.p, 0, y, page.width, facts.join(QStringLiteral(" \u00b7 "))) + 2;
    for (const nb::TestResult &r : in.results) {
        if (r.ok())
            continue;
        page.setFont(9, true);
        page.p.setPen(QColor(0xa0, 0x20, 0x20));
        y += report::drawLine(page.p, 0, y, page.width, QObject::tr("Failed: %1").arg(r.error));
        page.p.setPen(Qt::black);
    }
    return y + 8;
}

// Charts on the left of the band: stacked, or the test charts side by side over CPU.
QList<QRectF> drawTestCharts(ReportPage &page, const QRect &band, const TestReportInput &in)
{
    OwnedTestCharts owned;
    const QPalette light = report::lightPalette();
    for (QWidget *w : std::initializer_list<QWidget *>{owned.throughput.get(), owned.rr.get(), owned.loaded.get(),
                                                       owned.udp.get(), owned.cpu.get()}) {
        w->setPalette(light);
        w->resize(band.width(), band.height() / 2);
    }
    owned.view().showFinished(in.results);
    const QList<QCustomPlot *> plots = reportPlots(owned, in.results);
    const int gap = 10;
    const int upperCount = int(plots.size()) - 1; // the CPU chart goes below
    const int upperHeight = (band.height() - gap) * 3 / 5;
    const int upperWidth = (band.width() - gap * (upperCount - 1)) / std::max(1, upperCount);
    QList<QRectF> rects;
    for (int i = 0; i < plots.size(); ++i) {
        const bool cpu = i == plots.size() - 1;
        const QRect r =
            cpu ? QRect(band.left(), band.top() + upperHeight + gap, band.width(), band.height() - upperHeight - gap)
                : QRect(band.left() + i * (upperWidth + gap), band.top(), upperWidth, upperHeight);
        page.p.save();
        page.p.translate(r.topLeft());
        page.p.setClipRect(QRect(QPoint(0, 0), r.size()));
        plots[i]->toPainter(&page.p, r.width(), r.height());
        page.p.restore();
        rects << r;
    }
    return rects;
}

// The summary's figures in the order the Test view shows them.
QStringList summaryLines(const QList<nb::TestResult> &results)
{
    const nb::ui::SummaryContent c = nb::ui::summaryContent(results);
    QStringList lines = c.headline;
    const auto add = [&lines](const QString &title, const QStringList &values) {
        for (const QString &v : values)
            lines << QStringLiteral("%1: %2").arg(title, v);
    };
    if (c.requestResponse)
        add(QObject::tr("Request/response"), {*c.requestResponse});
    if (c.latency && c.latencyShown)
        add(QObject::tr("Latency"), {*c.latency});
    if (c.loadedLatency)
        add(QObject::tr("Phases"), *c.loadedLatency);
    add(QObject::tr("UDP"), c.udp);
    if (c.udpLostRequests)
        add(QObject::tr("Lost requests"), {*c.udpLostRequests});
    add(QObject::tr("CPU per Gbit/s"), c.cpuPerGbps);
    add(QObject::tr("CPU per 1000 transactions/s"), c.cpuPerKiloTransactions);
    add(QObject::tr("CPU"), c.cpu);
    add(QObject::tr("Service demand"), c.serviceDemand);
    add(QObject::tr("Flows"), c.fairness);
    add(QObject::tr("Adapter"), c.adapters);
    add(QObject::tr("Test"), c.test);
    add(QObject::tr("Note"), c.notes);
    return lines;
}

// Right of the charts: the figures, then both machines.
QRectF drawTestSummary(ReportPage &page, const QRect &box, const TestReportInput &in)
{
    int y = box.top();
    page.setFont(10, true);
    y += report::drawLine(page.p, box.left(), y, box.width(), QObject::tr("Results"));
    page.setFont(8);
    const int machines = 6 * QFontMetrics(page.p.font()).height() + 40;
    y += report::drawList(page.p, QRect(box.left(), y, box.width(), std::max(40, box.bottom() - y - machines)),
                          summaryLines(in.results), QStringLiteral("\u2022 ")) +
         8;
    const nb::HostEnvironment remote = nb::remoteHostFromResults(in.results);
    const std::pair<QString, nb::HostEnvironment> sides[] = {{QObject::tr("This side (client)"), in.host},
                                                             {QObject::tr("Server side"), remote}};
    for (const auto &[title, host] : sides) {
        if (y + 20 > box.bottom())
            break;
        page.setFont(9, true);
        y += report::drawLine(page.p, box.left(), y, box.width(), title);
        page.setFont(7.5);
        const QStringList lines = host.known ? environmentLines(host) : QStringList{QObject::tr("Unknown")};
        y += report::drawList(page.p, QRect(box.left(), y, box.width(), box.bottom() - y), lines, QString()) + 6;
    }
    return QRectF(box.left(), box.top(), box.width(), y - box.top());
}

// Bottom: one row per stream of the (last) throughput test.
QRectF drawStreamTable(ReportPage &page, int y, int rowHeight, const nb::TestResult *streams, TestReportLayout *layout)
{
    if (!streams)
        return {};
    nb::ui::StreamResultsModel model;
    model.setResult(*streams);
    const int columns = model.columnCount();
    const int top = y;
    const int width = page.width / columns;
    const auto drawRow = [&](const QStringList &cells) {
        const QFontMetrics fm(page.p.font());
        for (int c = 0; c < cells.size(); ++c)
            page.p.drawText(QRect(c * width + 4, y, width - 8, rowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                            fm.elidedText(cells[c], Qt::ElideRight, width - 8));
        y += rowHeight;
    };
    page.setFont(8, true);
    QStringList header;
    for (int c = 0; c < columns; ++c)
        header << model.headerData(c, Qt::Horizontal).toString();
    drawRow(header);
    page.p.setPen(QPen(Qt::gray, 0.5));
    page.p.drawLine(QLineF(0, y, page.width, y));
    page.p.setPen(Qt::black);
    page.setFont(8);
    const int room = std::max(0, (page.bottom - y) / rowHeight);
    const int rows = model.rowCount();
    const int shown = rows <= room ? rows : std::max(0, room - 1);
    for (int r = 0; r < shown; ++r) {
        QStringList cells;
        for (int c = 0; c < columns; ++c)
            cells << model.data(model.index(r, c)).toString();
        drawRow(cells);
    }
    if (shown < rows)
        y += report::drawLine(page.p, 4, y, page.width,
                              QObject::tr("... %n more stream(s) in the CSV export", nullptr, rows - shown));
    if (layout) {
        layout->streamRows = shown;
        layout->streamsLeftOut = rows - shown;
    }
    return QRectF(0, top, page.width, y - top);
}

void drawTestReport(ReportPage &page, const QString &path, const TestReportInput &in, TestReportLayout *layout)
{
    page.p.setPen(Qt::black);
    const int top = drawTestTitle(page, in);
    const nb::TestResult *streams = nullptr;
    for (const nb::TestResult &r : in.results) {
        if (!r.isServerSide && !r.hasRr && !r.streams.isEmpty())
            streams = &r;
    }
    page.setFont(8);
    const int rowHeight = QFontMetrics(page.p.font()).height() + 3;
    const int tableRows = streams ? std::min(int(streams->streams.size()), 8) + 2 : 0;
    const int bandHeight = std::clamp(page.bottom - top - 10 - tableRows * rowHeight, 260, 460);
    const int chartsWidth = int(page.width * 0.64);
    const QList<QRectF> charts = drawTestCharts(page, QRect(0, top, chartsWidth, bandHeight), in);
    const QRectF summary =
        drawTestSummary(page, QRect(chartsWidth + 16, top, page.width - chartsWidth - 16, bandHeight), in);
    const QRectF table = drawStreamTable(page, top + bandHeight + 10, rowHeight, streams, layout);
    report::drawFooter(page, path);
    if (layout) {
        layout->charts = charts;
        layout->summary = summary;
        layout->table = table;
    }
}

} // namespace

bool writeTestReport(const QString &path, const TestReportInput &input, QString *error, TestReportLayout *layout)
{
    if (input.results.isEmpty()) {
        if (error)
            *error = QObject::tr("There is no result to report.");
        return false;
    }
    return report::writePages(
        path, reportTitle(input),
        [&](ReportPage &page) {
            drawTestReport(page, path, input, layout);
            return true;
        },
        error);
}

} // namespace nb::gui
