// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/comparisonreport.h"
#include "compareview/reportpage.h"
#include "core/format.h"

#include <common/chartstyle.h>
#include <compare/comparisonanswer.h>
#include <compare/comparisontable.h>
#include <compare/configurationends.h>
#include <compare/cpuside.h>
#include <compare/meshmatrix.h>
#include <comparison/comparisoncharts.h>
#include <comparison/meshmatrixview.h>

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

using report::drawFooter;
using report::drawLine;
using report::drawList;
using report::lightPalette;
using report::ReportPage;

// Metric names for the report's table, short enough for its columns.
QString reportMetricName(nb::Metric m)
{
    switch (m) {
    case nb::Metric::LocalCpuPerGbps:
        return QObject::tr("Client CPU per Gbit/s");
    case nb::Metric::RemoteCpuPerGbps:
        return QObject::tr("Server CPU per Gbit/s");
    case nb::Metric::LocalServiceDemand:
        return QObject::tr("Local svc demand");
    case nb::Metric::RemoteServiceDemand:
        return QObject::tr("Remote svc demand");
    default:
        return nb::metricName(m);
    }
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

// `localCost` (LocalCpuPerGbps, LocalCpuPerKtps, ...) or its server counterpart: the side the
// answer quotes over the configurations that have it.
nb::Metric costMetricOfSide(nb::Metric localCost, const nb::Comparison &comparison,
                            const nb::ComparisonStatistics &statistics)
{
    const nb::Metric server = nb::serverCostMetric(localCost);
    if (server == localCost)
        return localCost;
    QList<int> configs;
    for (int i = 0; i < comparison.configurations.size(); ++i) {
        if (statistics.find(i, localCost))
            configs.append(i);
    }
    return nb::chooseCpuSide(comparison, configs, statistics, server).server ? server : localCost;
}

} // namespace

QList<nb::Metric> headlineMetrics(const nb::Comparison &comparison, const nb::ComparisonStatistics &statistics)
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
    // The cost charts show the side the answer quotes: host -> guest, the guests' (issue 27).
    for (nb::Metric &m : out)
        m = costMetricOfSide(m, comparison, statistics);
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

namespace {

// Title and what was run.
int drawTitleSection(ReportPage &page, const nb::ComparisonOverlay &overlay)
{
    const nb::Comparison &c = overlay.merged;
    QCPPainter &p = page.p;
    int y = 0;
    page.setFont(16, true);
    y += drawLine(p, 0, y, page.width, c.title.isEmpty() ? QObject::tr("NicBench comparison") : c.title);
    page.setFont(8.5);
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
    y += drawLine(p, 0, y, page.width, facts.join(QStringLiteral(" \u00b7 "))) + 2;
    page.setFont(7.5);
    y += drawLine(p, 0, y, page.width,
                  QObject::tr("Bars: mean of the runs, whiskers: 95% confidence interval (Student t). "
                              "Verdicts: %1, each adapter against the baseline in the same test variant.")
                      .arg(nb::verdictRule(c.equivalencePercent)));
    return y + 6;
}

// The answer first: per variant, who is faster and at what CPU cost.
int drawAnswerSection(ReportPage &page, int y, const nb::ComparisonOverlay &overlay,
                      const nb::ComparisonStatistics &statistics)
{
    page.setFont(10, true);
    y += drawLine(page.p, 0, y, page.width, QObject::tr("Answer"));
    page.setFont(8.5);
    const QStringList answer = reportAnswerLines(overlay, statistics);
    const int lineHeight = QFontMetrics(page.p.font()).height();
    const QRect box(0, y, page.width, 6 * (lineHeight + 2));
    y += drawList(page.p, box,
                  answer.isEmpty()
                      ? QStringList{QObject::tr("Verdicts need two adapters (or two sources) with two runs each.")}
                      : answer,
                  QStringLiteral("\u2022 "));
    return y + 8;
}

bool isPrimaryMetric(nb::Metric m)
{
    return m == nb::Metric::Throughput || m == nb::Metric::TransactionsPerSecond ||
           m == nb::Metric::LoadedBidirP99Increase || m == nb::Metric::UdpGoodput || m == nb::Metric::UdpLossPercent ||
           m == nb::Metric::UdpRrTransactionsPerSecond;
}

// Where the middle band (charts left, environment right) goes and how the charts tile it.
struct BandLayout {
    int top = 0;
    int height = 0;
    int chartsWidth = 0;
    int rightX = 0;
    int rightWidth = 0;
    int chartColumns = 1;
    int chartRows = 0;
};

// The table's rows (the charted metrics) and the band above it. The charts take what the
// table leaves, within reason: one page whatever the data.
BandLayout layoutBand(const ReportPage &page, int y, int rowHeight, const QList<nb::Metric> &charted,
                      QList<const nb::ComparisonTableRow *> &rows)
{
    BandLayout band;
    band.top = y;
    const int colGap = 16;
    band.chartsWidth = int(page.width * 0.64);
    band.rightX = band.chartsWidth + colGap;
    band.rightWidth = page.width - band.rightX;
    band.chartColumns = charted.size() <= 1 ? 1 : 2;
    band.chartRows = (int(charted.size()) + band.chartColumns - 1) / band.chartColumns;
    // Each chart at least ~190 px high, so its labels and legend keep their room.
    const int minBand = band.chartRows > 1 ? 390 : 260;
    const int maxBand = band.chartRows > 1 ? 420 : 280;
    if ((int(rows.size()) + 2) * rowHeight > page.bottom - y - 10 - minBand) {
        // Not every row fits (an overlay doubles them): the table keeps the throughput and
        // transactions/s rows (UDP: goodput, loss, transactions/s); their CPU cost is in the
        // answer and the charts above.
        QList<const nb::ComparisonTableRow *> primary;
        for (const nb::ComparisonTableRow *row : std::as_const(rows)) {
            if (isPrimaryMetric(row->metric))
                primary.append(row);
        }
        if (!primary.isEmpty())
            rows = primary;
    }
    const int tableNeeds = (std::max(int(rows.size()), 4) + 2) * rowHeight;
    band.height = std::clamp(page.bottom - y - 10 - tableNeeds, minBand, maxBand);
    return band;
}

// The charts, 2x2 (or side by side when there are two), on the left of the band.
void drawChartsSection(ReportPage &page, const BandLayout &band, const QList<nb::Metric> &charted,
                       const nb::ComparisonOverlay &overlay, const nb::ComparisonStatistics &statistics,
                       QList<ReportChartLabels> *charts)
{
    const int gap = 10;
    const int chartWidth = (band.chartsWidth - gap * (band.chartColumns - 1)) / band.chartColumns;
    const int chartHeight = (band.height - gap * (band.chartRows - 1)) / band.chartRows;
    const QPalette light = lightPalette();
    for (int i = 0; i < charted.size(); ++i) {
        auto chart = std::make_unique<nb::ui::ComparisonBarChart>();
        chart->setPalette(light);
        chart->setMetric(charted[i]);
        chart->resize(chartWidth, chartHeight);
        chart->setData(overlay, statistics);
        nb::ui::applyPaletteToPlot(chart.get(), light);
        page.p.save();
        page.p.translate((i % band.chartColumns) * (chartWidth + gap),
                         band.top + (i / band.chartColumns) * (chartHeight + gap));
        page.p.setClipRect(QRect(0, 0, chartWidth, chartHeight));
        chart->toPainter(&page.p, chartWidth, chartHeight);
        page.p.restore();
        if (charts)
            charts->append({charted[i], QSize(chartWidth, chartHeight), chart->labelRects()});
    }
}

// Both machines' environment, the adapters each configuration used (and its server, when
// they differ) and the warnings, on the right of the band.
void drawEnvironmentSection(ReportPage &page, const BandLayout &band, const nb::Comparison &c)
{
    QCPPainter &p = page.p;
    const int bandBottom = band.top + band.height;
    int yy = band.top;
    const bool severalServers = nb::serversDiffer(nb::configurationEnds(c));
    const auto section = [&](const QString &title, const QStringList &lines, double points, const QString &bullet) {
        page.setFont(9, true);
        yy += drawLine(p, band.rightX, yy, band.rightWidth, title);
        page.setFont(points);
        yy += drawList(p, QRect(band.rightX, yy, band.rightWidth, bandBottom - yy), lines, bullet) + 6;
    };
    const auto hostLines = [](const nb::HostEnvironment &h) {
        return h.known ? environmentLines(h) : QStringList{QObject::tr("Unknown")};
    };
    section(QObject::tr("This side (client)"), hostLines(c.environment.local), 7.5, QString());
    if (!severalServers)
        section(QObject::tr("Server side"), hostLines(c.environment.remote), 7.5, QString());
    section(severalServers ? QObject::tr("Adapters and servers per configuration")
                           : QObject::tr("Adapters per configuration"),
            nb::configurationEndsLines(c), 7, QStringLiteral("\u2022 "));
    if (!c.warnings.isEmpty() && yy + 40 < bandBottom)
        section(QObject::tr("Warnings"), c.warnings, 7, QStringLiteral("\u2022 "));
}

struct ReportTableRow {
    QStringList cells;
    bool bold = false;
};

constexpr int kConfigColumn = 1;
constexpr int kComparedColumn = 7;
constexpr int kCellPad = 4; // each side of a cell

QStringList reportTableHeader()
{
    return {QObject::tr("Metric"), QObject::tr("Configuration"), QObject::tr("Runs"),    QObject::tr("Mean"),
            QObject::tr("95% CI"), QObject::tr("vs baseline"),   QObject::tr("Verdict"), QObject::tr("Compared with")};
}

// What the table shows: one row of text per comparison-table row.
QList<ReportTableRow> reportTableRows(const QList<const nb::ComparisonTableRow *> &rows)
{
    QList<ReportTableRow> tableRows;
    for (const nb::ComparisonTableRow *r : rows) {
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
            cells << (row.stats->hasBaseline ? nb::ComparisonTable::formatDelta(row.metric, row.stats->vsBaseline)
                                             : QString());
        } else {
            cells << QObject::tr("no data") << QString() << QString();
        }
        cells << verdictCell(row) << row.comparedWith;
        tableRows.append({cells, row.isBaseline});
    }
    return tableRows;
}

// Columns measured with the fonts they are drawn in, so no number is cut short; a long
// configuration label is elided in the middle, which keeps the suffix ("..., P=4") that
// tells rows apart.
QList<int> reportColumnWidths(ReportPage &page, const QStringList &header, const QList<ReportTableRow> &tableRows)
{
    const int columns = int(header.size());
    QList<int> widths(columns, 0);
    // The painter's fonts: metrics for the PDF's resolution, not the screen's.
    page.setFont(8);
    const QFontMetrics plain(page.p.font());
    page.setFont(8, true);
    const QFontMetrics bold(page.p.font());
    const auto measure = [&](const QStringList &cells, const QFontMetrics &fm) {
        for (int col = 0; col < columns; ++col)
            widths[col] = std::max(widths[col], fm.horizontalAdvance(cells.value(col)) + 2 * kCellPad + 1);
    };
    measure(header, bold);
    for (const ReportTableRow &r : tableRows)
        measure(r.cells, r.bold ? bold : plain);
    int natural = 0;
    for (int w : std::as_const(widths))
        natural += w;
    const int W = page.width;
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
    return widths;
}

// Bottom: the table over the whole width.
void drawTableSection(ReportPage &page, int y, int rowHeight, const QList<const nb::ComparisonTableRow *> &rows)
{
    QCPPainter &p = page.p;
    const QStringList header = reportTableHeader();
    const QList<ReportTableRow> tableRows = reportTableRows(rows);
    const QList<int> widths = reportColumnWidths(page, header, tableRows);
    page.setFont(8, true);
    const auto drawRow = [&](const QStringList &cells, int yy) {
        int x = 0;
        const QFontMetrics fm(p.font());
        for (int col = 0; col < cells.size(); ++col) {
            const int w = widths[col];
            const bool label = col == kConfigColumn || col == kComparedColumn;
            const Qt::TextElideMode elide = label ? Qt::ElideMiddle : Qt::ElideRight;
            p.drawText(QRect(x + kCellPad, yy, w - 2 * kCellPad, rowHeight),
                       Qt::AlignVCenter | (col >= 2 && col <= 5 ? Qt::AlignRight : Qt::AlignLeft),
                       fm.elidedText(cells[col], elide, w - 2 * kCellPad + 1));
            x += w;
        }
    };
    drawRow(header, y);
    y += rowHeight;
    p.setPen(QPen(Qt::gray, 0.5));
    p.drawLine(QLineF(0, y, page.width, y));
    p.setPen(Qt::black);
    page.setFont(8);
    const int maxRows = std::max(0, (page.bottom - y) / rowHeight - 1);
    const int shown = int(tableRows.size()) <= maxRows ? int(tableRows.size()) : std::max(0, maxRows - 1);
    for (int i = 0; i < shown; ++i) {
        page.setFont(8, tableRows[i].bold);
        drawRow(tableRows[i].cells, y);
        y += rowHeight;
    }
    page.setFont(8);
    if (shown < tableRows.size()) {
        drawLine(p, 2, y, page.width,
                 QObject::tr("... %n more row(s) in the table export (CSV, Markdown)", nullptr,
                             int(tableRows.size()) - shown));
    }
}

// The whole page, top to bottom.
void drawReportPage(ReportPage &page, const QString &path, const nb::ComparisonOverlay &overlay,
                    const nb::ComparisonStatistics &statistics, QList<ReportChartLabels> *charts)
{
    page.p.setPen(Qt::black);
    int y = drawTitleSection(page, overlay);
    y = drawAnswerSection(page, y, overlay, statistics);

    const QList<nb::Metric> charted = headlineMetrics(overlay.merged, statistics);
    const nb::ComparisonTable table(overlay.merged);
    QList<const nb::ComparisonTableRow *> rows;
    for (const nb::ComparisonTableRow &row : table.rows()) {
        if (charted.contains(row.metric))
            rows.append(&row);
    }
    page.setFont(8);
    const int rowHeight = QFontMetrics(page.p.font()).height() + 3;
    const BandLayout band = layoutBand(page, y, rowHeight, charted, rows);
    if (!charted.isEmpty())
        drawChartsSection(page, band, charted, overlay, statistics, charts);
    drawEnvironmentSection(page, band, overlay.merged);
    drawTableSection(page, band.top + band.height + 10, rowHeight, rows);
    drawFooter(page, path);
}

// A mesh's second page: the matrix of its headline metric, as the Compare view draws it (on
// the report's light palette), scaled to the page when the fleet is large.
void drawMatrixPage(ReportPage &page, const QString &path, const nb::Comparison &c,
                    const nb::ComparisonStatistics &statistics)
{
    QCPPainter &p = page.p;
    const nb::Metric metric = nb::MeshMatrix::defaultMetric(statistics);
    p.setPen(Qt::black);
    page.setFont(14, true);
    int y = drawLine(p, 0, 0, page.width, QObject::tr("Matrix: %1").arg(nb::metricName(metric)));
    page.setFont(8.5);
    y += drawLine(p, 0, y, page.width,
                  QObject::tr("Rows: the agent that ran the test (source); columns: its destination. Mean over %n "
                              "run(s); the stronger the colour, the better.",
                              nullptr, c.repeats));
    y += 8;
    nb::ui::MeshGrid grid;
    grid.setPalette(lightPalette());
    grid.setFont(page.font(8));
    grid.setMatrix(nb::MeshMatrix::of(c, statistics, metric));
    grid.resize(grid.sizeHint());
    const double scale = std::min({1.0, double(page.width) / grid.width(), double(page.bottom - y) / grid.height()});
    p.save();
    p.translate(0, y);
    p.scale(scale, scale);
    grid.render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
    p.restore();
    drawFooter(page, path);
}

} // namespace

bool writeComparisonReport(const QString &path, const nb::ComparisonOverlay &overlay,
                           const nb::ComparisonStatistics &statistics, QString *error, QList<ReportChartLabels> *charts)
{
    const nb::Comparison &c = overlay.merged;
    return report::writePages(
        path, c.title.isEmpty() ? QObject::tr("NicBench comparison") : c.title,
        [&](ReportPage &page) {
            drawReportPage(page, path, overlay, statistics, charts);
            if (!nb::MeshMatrix::isMesh(c))
                return true;
            if (!page.newPage())
                return false;
            drawMatrixPage(page, path, c, statistics);
            return true;
        },
        error);
}

} // namespace nb::gui
