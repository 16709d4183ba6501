// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/comparisonreport.h"
#include "core/format.h"

#include <common/chartstyle.h>
#include <compare/comparisonanswer.h>
#include <compare/comparisontable.h>
#include <comparison/comparisoncharts.h>

#include <QApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QFontMetrics>
#include <QLocale>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>

#include <algorithm>
#include <initializer_list>
#include <memory>

namespace nb::gui {

namespace {

// Metric names for the report's table, short enough for its columns.
QString reportMetricName(nb::Metric m)
{
    switch (m) {
    case nb::Metric::LocalCpuPerGbps:
        return QObject::tr("CPU per Gbit/s");
    case nb::Metric::LocalServiceDemand:
        return QObject::tr("Local svc demand");
    case nb::Metric::RemoteServiceDemand:
        return QObject::tr("Remote svc demand");
    default:
        return nb::metricName(m);
    }
}

QString adapterLine(const nb::AdapterInfo &a)
{
    QStringList parts;
    parts << nb::familyName(a.family);
    if (!a.driver.isEmpty() && a.driver != nb::familyName(a.family))
        parts << a.driver;
    if (a.linkSpeedBps > 0)
        parts << nb::formatBitrate(double(a.linkSpeedBps));
    if (a.mtu > 0)
        parts << QObject::tr("MTU %1").arg(a.mtu);
    for (const nb::AdapterAddress &addr : a.addresses) {
        if (!addr.address.isLinkLocal()) {
            parts << QStringLiteral("%1/%2").arg(addr.address.toString()).arg(addr.prefixLength);
            break;
        }
    }
    return QStringLiteral("%1: %2").arg(a.name, parts.join(QStringLiteral(", ")));
}

QString verdictCell(const nb::ComparisonTableRow &row)
{
    if (row.isBaseline)
        return QObject::tr("baseline");
    if (!row.stats || !row.stats->hasBaseline)
        return QString();
    if (row.stats->vsBaseline.verdict == nb::stats::Verdict::NoSignificantDifference)
        return QObject::tr("no difference"); // the full words do not fit the column
    return nb::stats::verdictText(row.stats->vsBaseline.verdict, nb::metricBetter(row.metric));
}

// Draws `text` elided to `width` at the baseline-free top-left (x, y); returns the height.
int drawLine(QPainter &p, int x, int y, int width, const QString &text)
{
    const QFontMetrics fm(p.font());
    p.drawText(QRect(x, y, width, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(text, Qt::ElideRight, width));
    return fm.height();
}

// Draws wrapped lines into the box; stops (with "... N more") when the box is full.
int drawList(QPainter &p, const QRect &box, const QStringList &lines, const QString &bullet)
{
    const QFontMetrics fm(p.font());
    int y = box.top();
    for (int i = 0; i < lines.size(); ++i) {
        const QString text = bullet + lines[i];
        QRect need = fm.boundingRect(QRect(box.left(), y, box.width(), 10000), Qt::TextWordWrap, text);
        const bool last = i == lines.size() - 1;
        const int reserve = last ? 0 : fm.height();
        if (y + need.height() + reserve > box.bottom()) {
            drawLine(p, box.left(), y, box.width(),
                     lines.size() - i == 1 ? text : QObject::tr("... and %1 more").arg(lines.size() - i));
            return y + fm.height() - box.top();
        }
        p.drawText(QRect(box.left(), y, box.width(), need.height()), Qt::TextWordWrap, text);
        y += need.height() + 2;
    }
    return y - box.top();
}

// The first of `candidates` that has data is in the four headline metrics: if it is not
// there yet, it takes the last slot when all four are taken.
void keepFirstPresentMetric(QList<nb::Metric> &headline, const QList<nb::Metric> &present,
                            std::initializer_list<nb::Metric> candidates)
{
    for (nb::Metric m : candidates) {
        if (!present.contains(m))
            continue;
        if (!headline.contains(m)) {
            if (headline.size() >= 4)
                headline.removeLast();
            headline.append(m);
        }
        return;
    }
}

QPalette lightPalette()
{
    QPalette pal(QColor(0xf0, 0xf0, 0xf0), QColor(Qt::white));
    pal.setColor(QPalette::Base, Qt::white);
    pal.setColor(QPalette::Window, Qt::white);
    pal.setColor(QPalette::WindowText, Qt::black);
    pal.setColor(QPalette::Text, Qt::black);
    pal.setColor(QPalette::ToolTipBase, Qt::white);
    return pal;
}

} // namespace

QList<nb::Metric> headlineMetrics(const nb::ComparisonStatistics &statistics)
{
    // How fast and at what CPU cost, for stream and request/response tests, and how much latency
    // CPU only fill in when fewer than four of those have data.
    const QList<nb::Metric> present = statistics.presentMetrics();
    QList<nb::Metric> out;
    for (nb::Metric m :
         {nb::Metric::Throughput, nb::Metric::LocalCpuPerGbps, nb::Metric::TransactionsPerSecond,
          nb::Metric::LocalCpuPerKtps, nb::Metric::UdpGoodput, nb::Metric::UdpLossPercent, nb::Metric::UdpJitter,
          nb::Metric::UdpRrTransactionsPerSecond, nb::Metric::UdpRrLostPercent, nb::Metric::LoadedBidirP99Increase,
          nb::Metric::LoadedDownloadP99Increase, nb::Metric::LoadedUploadP99Increase, nb::Metric::LoadedIdleP50,
          nb::Metric::LatencyP99, nb::Metric::LocalCpu}) {
        if (present.contains(m) && out.size() < 4)
            out.append(m);
    }
    // UDP loss and latency under load beside other variants still get their charts (and
    // their table rows): each takes the last slot.
    keepFirstPresentMetric(out, present, {nb::Metric::UdpLossPercent, nb::Metric::UdpRrLostPercent});
    keepFirstPresentMetric(out, present,
                           {nb::Metric::LoadedBidirP99Increase, nb::Metric::LoadedDownloadP99Increase,
                            nb::Metric::LoadedUploadP99Increase});
    return out;
}

QStringList environmentLines(const nb::HostEnvironment &h)
{
    QStringList lines;
    QStringList system;
    if (!h.hostName.isEmpty())
        system << h.hostName;
    if (!h.os.isEmpty())
        system << h.os;
    if (!h.kernel.isEmpty())
        system << QObject::tr("kernel %1").arg(h.kernel);
    if (!system.isEmpty())
        lines << system.join(QStringLiteral(", "));
    QStringList cpu;
    if (!h.cpuModel.isEmpty())
        cpu << h.cpuModel;
    if (h.cpuCount > 0)
        cpu << QObject::tr("%n CPU(s)", nullptr, h.cpuCount);
    if (h.cpuClockHz > 0)
        cpu << nb::formatClock(h.cpuClockHz);
    if (!cpu.isEmpty())
        lines << cpu.join(QStringLiteral(", "));
    if (!h.nicbenchVersion.isEmpty())
        lines << QObject::tr("NicBench %1").arg(h.nicbenchVersion);
    for (const nb::AdapterInfo &a : h.adapters)
        lines << adapterLine(a);
    if (lines.isEmpty())
        lines << QObject::tr("Nothing known");
    return lines;
}

QStringList reportAnswerLines(const nb::ComparisonOverlay &overlay, const nb::ComparisonStatistics &statistics)
{
    // Series names as in the legends; with a single adapter the variants are what is
    // compared, so the configurations' labels.
    const bool oneAdapter = overlay.adapterLabels.size() == 1 && overlay.sourceCount() == 1;
    QStringList names;
    for (int i = 0; i < overlay.merged.configurations.size(); ++i)
        names << (oneAdapter ? overlay.merged.configurations[i].label
                             : overlay.seriesLabels.value(overlay.seriesOf.value(i)));
    return nb::answerLines(nb::answerComparison(overlay.merged, statistics, names));
}

bool writeComparisonReport(const QString &path, const nb::ComparisonOverlay &overlay,
                           const nb::ComparisonStatistics &statistics, QString *error, QList<ReportChartLabels> *charts)
{
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    const nb::Comparison &c = overlay.merged;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));

    QPdfWriter writer(&file);
    writer.setCreator(QStringLiteral("NicBench %1").arg(QStringLiteral(NICBENCH_VERSION)));
    writer.setTitle(c.title.isEmpty() ? QObject::tr("NicBench comparison") : c.title);
    writer.setResolution(96);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(10, 10, 10, 10),
                                     QPageLayout::Millimeter));
    const QRect page = writer.pageLayout().paintRectPixels(writer.resolution());
    const int W = page.width();
    const int H = page.height();
    const int bottom = H - 16; // above the footer line

    QCPPainter p;
    if (!p.begin(&writer))
        return fail(QObject::tr("Cannot draw the report into %1").arg(path));
    p.setMode(QCPPainter::pmVectorized);
    p.setMode(QCPPainter::pmNoCaching);
    const QFont base = QApplication::font();
    const auto font = [&base](double points, bool bold = false) {
        QFont f = base;
        f.setPointSizeF(points);
        f.setBold(bold);
        return f;
    };
    p.setPen(Qt::black);

    // Title and what was run.
    int y = 0;
    p.setFont(font(16, true));
    y += drawLine(p, 0, y, W, c.title.isEmpty() ? QObject::tr("NicBench comparison") : c.title);
    p.setFont(font(8.5));
    const QDateTime when = c.createdAt.isValid() ? c.createdAt : QDateTime::currentDateTimeUtc();
    QStringList facts;
    facts << QLocale().toString(when.toLocalTime(), QLocale::LongFormat);
    facts << QObject::tr("%n configuration(s)", nullptr, int(c.configurations.size()));
    if (overlay.sourceCount() > 1) {
        facts << QObject::tr("%1 sources overlaid: %2")
                     .arg(overlay.sourceCount())
                     .arg(overlay.sourceNames.join(QStringLiteral(", ")));
        facts << QObject::tr("baseline: %1").arg(overlay.sourceNames.value(overlay.baselineSource));
    } else {
        facts << QObject::tr("baseline: %1").arg(c.baselineAdapter());
    }
    facts << QObject::tr("%n repeat(s), %1 order", nullptr, c.repeats).arg(nb::orderPolicyName(c.order));
    y += drawLine(p, 0, y, W, facts.join(QStringLiteral(" \u00b7 "))) + 2;
    p.setFont(font(7.5));
    y += drawLine(p, 0, y, W,
                  QObject::tr("Bars: mean of the runs, whiskers: 95% confidence interval (Student t). "
                              "Verdicts: Welch's t-test at alpha 0.05, each adapter against the baseline in the "
                              "same test variant."));
    y += 6;

    // The answer first: per variant, who is faster and at what CPU cost.
    {
        p.setFont(font(10, true));
        y += drawLine(p, 0, y, W, QObject::tr("Answer"));
        p.setFont(font(8.5));
        const QStringList answer = reportAnswerLines(overlay, statistics);
        const int lineHeight = QFontMetrics(p.font()).height();
        const QRect box(0, y, W, 6 * (lineHeight + 2));
        y += drawList(p, box,
                      answer.isEmpty()
                          ? QStringList{QObject::tr("Verdicts need two adapters (or two sources) with two runs each.")}
                          : answer,
                      QStringLiteral("\u2022 "));
        y += 8;
    }

    // The table's rows: the charted metrics.
    const QList<nb::Metric> charted = headlineMetrics(statistics);
    const nb::ComparisonTable table(c);
    QList<const nb::ComparisonTableRow *> rows;
    for (const nb::ComparisonTableRow &row : table.rows()) {
        if (charted.contains(row.metric))
            rows.append(&row);
    }
    p.setFont(font(8));
    const int rowHeight = QFontMetrics(p.font()).height() + 3;

    // Middle band: the charts, 2x2 (or side by side when there are two), on the left; both
    // machines' environment and the warnings on the right. The charts take what the table
    // leaves, within reason: one page whatever the data.
    const int colGap = 16;
    const int chartsWidth = int(W * 0.64);
    const int rightX = chartsWidth + colGap;
    const int rightWidth = W - rightX;
    const int chartColumns = charted.size() <= 1 ? 1 : 2;
    const int chartRows = (int(charted.size()) + chartColumns - 1) / chartColumns;
    // Each chart at least ~190 px high, so its labels and legend keep their room.
    const int minBand = chartRows > 1 ? 390 : 260;
    const int maxBand = chartRows > 1 ? 420 : 280;
    if ((int(rows.size()) + 2) * rowHeight > bottom - y - 10 - minBand) {
        // Not every row fits (an overlay doubles them): the table keeps the throughput and
        // transactions/s rows (UDP: goodput, loss, transactions/s); their CPU cost is in the
        // answer and the charts above.
        QList<const nb::ComparisonTableRow *> primary;
        for (const nb::ComparisonTableRow *row : std::as_const(rows)) {
            if (row->metric == nb::Metric::Throughput || row->metric == nb::Metric::TransactionsPerSecond ||
                row->metric == nb::Metric::LoadedBidirP99Increase || row->metric == nb::Metric::UdpGoodput ||
                row->metric == nb::Metric::UdpLossPercent || row->metric == nb::Metric::UdpRrTransactionsPerSecond)
                primary.append(row);
        }
        if (!primary.isEmpty())
            rows = primary;
    }
    const int tableNeeds = (std::max(int(rows.size()), 4) + 2) * rowHeight;
    const int bandHeight = std::clamp(bottom - y - 10 - tableNeeds, minBand, maxBand);
    const int bandTop = y;
    if (!charted.isEmpty()) {
        const int gap = 10;
        const int chartWidth = (chartsWidth - gap * (chartColumns - 1)) / chartColumns;
        const int chartHeight = (bandHeight - gap * (chartRows - 1)) / chartRows;
        const QPalette light = lightPalette();
        for (int i = 0; i < charted.size(); ++i) {
            auto chart = std::make_unique<nb::ui::ComparisonBarChart>();
            chart->setPalette(light);
            chart->setMetric(charted[i]);
            chart->resize(chartWidth, chartHeight);
            chart->setData(overlay, statistics);
            nb::ui::applyPaletteToPlot(chart.get(), light);
            p.save();
            p.translate((i % chartColumns) * (chartWidth + gap), bandTop + (i / chartColumns) * (chartHeight + gap));
            p.setClipRect(QRect(0, 0, chartWidth, chartHeight));
            chart->toPainter(&p, chartWidth, chartHeight);
            p.restore();
            if (charts)
                charts->append({charted[i], QSize(chartWidth, chartHeight), chart->labelRects()});
        }
    }
    {
        int yy = bandTop;
        const std::pair<QString, const nb::HostEnvironment *> sides[] = {
            {QObject::tr("This side (client)"), &c.environment.local},
            {QObject::tr("Server side"), &c.environment.remote}};
        for (const auto &[title, host] : sides) {
            p.setFont(font(9, true));
            yy += drawLine(p, rightX, yy, rightWidth, title);
            p.setFont(font(7.5));
            QStringList lines = host->known ? environmentLines(*host) : QStringList{QObject::tr("Unknown")};
            if (lines.size() > 5) {
                const int more = int(lines.size()) - 4;
                lines = lines.mid(0, 4);
                lines << QObject::tr("... and %n more adapter(s)", nullptr, more);
            }
            yy += drawList(p, QRect(rightX, yy, rightWidth, bandTop + bandHeight - yy), lines, QString()) + 6;
        }
        if (!c.warnings.isEmpty() && yy + 40 < bandTop + bandHeight) {
            p.setFont(font(9, true));
            yy += drawLine(p, rightX, yy, rightWidth, QObject::tr("Warnings"));
            p.setFont(font(7));
            drawList(p, QRect(rightX, yy, rightWidth, bandTop + bandHeight - yy), c.warnings,
                     QStringLiteral("\u2022 "));
        }
    }
    y = bandTop + bandHeight + 10;

    // Bottom: the table over the whole width. Columns are measured with the fonts they are
    // drawn in, so no number is cut short; a long configuration label is elided in the
    // middle, which keeps the suffix ("..., P=4") that tells rows apart.
    struct TableRow {
        QStringList cells;
        bool bold = false;
    };
    const QStringList header{QObject::tr("Metric"),  QObject::tr("Configuration"), QObject::tr("Runs"),
                             QObject::tr("Mean"),    QObject::tr("95% CI"),        QObject::tr("vs baseline"),
                             QObject::tr("Verdict"), QObject::tr("Compared with")};
    const int columns = int(header.size());
    constexpr int kConfigColumn = 1;
    constexpr int kComparedColumn = 7;
    QList<TableRow> tableRows;
    for (const nb::ComparisonTableRow *r : std::as_const(rows)) {
        const nb::ComparisonTableRow &row = *r;
        QStringList cells;
        cells << reportMetricName(row.metric) << row.label
              << (row.failedRuns > 0 ? QObject::tr("%1 (%2 failed)").arg(row.runs).arg(row.failedRuns)
                                     : QString::number(row.runs));
        if (row.stats && row.stats->summary.n > 0) {
            const nb::stats::Summary &s = row.stats->summary;
            cells << nb::ComparisonTable::formatValue(row.metric, s.mean, row.unit)
                  << (s.spreadKnown ? QStringLiteral("\u00b1 ") +
                                          nb::ComparisonTable::formatValue(row.metric, s.ciHalfWidth(), row.unit)
                                    : QString());
            cells << (row.stats->hasBaseline ? nb::ComparisonTable::formatDelta(row.stats->vsBaseline.difference)
                                             : QString());
        } else {
            cells << QObject::tr("no data") << QString() << QString();
        }
        cells << verdictCell(row) << row.comparedWith;
        tableRows.append({cells, row.isBaseline});
    }
    const int cellPad = 4; // each side of a cell
    QList<int> widths(columns, 0);
    {
        // The painter's fonts: metrics for the PDF's resolution, not the screen's.
        p.setFont(font(8));
        const QFontMetrics plain(p.font());
        p.setFont(font(8, true));
        const QFontMetrics bold(p.font());
        const auto measure = [&](const QStringList &cells, const QFontMetrics &fm) {
            for (int col = 0; col < columns; ++col)
                widths[col] = std::max(widths[col], fm.horizontalAdvance(cells.value(col)) + 2 * cellPad + 1);
        };
        measure(header, bold);
        for (const TableRow &r : std::as_const(tableRows))
            measure(r.cells, r.bold ? bold : plain);
    }
    int natural = 0;
    for (int w : std::as_const(widths))
        natural += w;
    if (natural < W) {
        // Room to spare: the labels get it.
        widths[kConfigColumn] += (W - natural) / 2;
        widths[kComparedColumn] += W - natural - (W - natural) / 2;
    } else {
        // Very long labels: the two label columns give up width (elided in the middle), the
        // numbers never do.
        int over = natural - W;
        for (int col : {kComparedColumn, kConfigColumn, 0}) {
            const int give = std::min(over, std::max(0, widths[col] - 90));
            widths[col] -= give;
            over -= give;
        }
    }
    {
        p.setFont(font(8, true));
        const auto drawRow = [&](const QStringList &cells, int yy) {
            int x = 0;
            const QFontMetrics fm(p.font());
            for (int col = 0; col < cells.size(); ++col) {
                const int w = widths[col];
                const bool label = col == kConfigColumn || col == kComparedColumn;
                const Qt::TextElideMode elide = label ? Qt::ElideMiddle : Qt::ElideRight;
                p.drawText(QRect(x + cellPad, yy, w - 2 * cellPad, rowHeight),
                           Qt::AlignVCenter | (col >= 2 && col <= 5 ? Qt::AlignRight : Qt::AlignLeft),
                           fm.elidedText(cells[col], elide, w - 2 * cellPad + 1));
                x += w;
            }
        };
        drawRow(header, y);
        y += rowHeight;
        p.setPen(QPen(Qt::gray, 0.5));
        p.drawLine(QLineF(0, y, W, y));
        p.setPen(Qt::black);
        p.setFont(font(8));
        const int maxRows = std::max(0, (bottom - y) / rowHeight - 1);
        const int shown = int(tableRows.size()) <= maxRows ? int(tableRows.size()) : std::max(0, maxRows - 1);
        for (int i = 0; i < shown; ++i) {
            p.setFont(font(8, tableRows[i].bold));
            drawRow(tableRows[i].cells, y);
            y += rowHeight;
        }
        p.setFont(font(8));
        if (shown < tableRows.size()) {
            drawLine(p, 2, y, W,
                     QObject::tr("... %n more row(s) in the table export (CSV, Markdown)", nullptr,
                                 int(tableRows.size()) - shown));
        }
    }
    p.setFont(font(6.5));
    p.setPen(Qt::darkGray);
    drawLine(p, 0, H - QFontMetrics(p.font()).height(), W,
             QObject::tr("NicBench %1 \u00b7 %2").arg(QStringLiteral(NICBENCH_VERSION), QFileInfo(path).fileName()));
    if (!p.end())
        return fail(QObject::tr("Cannot draw the report into %1").arg(path));
    if (!file.commit())
        return fail(QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

} // namespace nb::gui
