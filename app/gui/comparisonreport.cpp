// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisonreport.h"

#include <chartstyle.h>
#include <compare/comparisontable.h>
#include <comparisoncharts.h>
#include <core/units.h>

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
#include <memory>

namespace nb::gui {

namespace {

QString lowerName(nb::Metric m)
{
    switch (m) {
    case nb::Metric::TransactionsPerSecond:
        return QObject::tr("transactions/s");
    case nb::Metric::LatencyP50:
        return QObject::tr("latency p50");
    case nb::Metric::LatencyP99:
        return QObject::tr("latency p99");
    case nb::Metric::LocalCpuPerGbps:
        return QObject::tr("CPU per Gbit/s");
    default:
        return nb::metricName(m).toLower();
    }
}

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
    const QList<nb::Metric> present = statistics.presentMetrics();
    QList<nb::Metric> out;
    for (nb::Metric m : {nb::Metric::Throughput, nb::Metric::TransactionsPerSecond, nb::Metric::LatencyP99,
                         nb::Metric::LocalCpuPerGbps, nb::Metric::LocalCpu, nb::Metric::RemoteCpu,
                         nb::Metric::LatencyP50, nb::Metric::LocalServiceDemand, nb::Metric::RemoteServiceDemand}) {
        if (present.contains(m))
            out.append(m);
    }
    return out;
}

QStringList verdictLines(const nb::Comparison &comparison, const nb::ComparisonStatistics &statistics)
{
    QStringList lines;
    const QString baseline = comparison.configurations.value(statistics.baselineIndex).label;
    const QList<nb::Metric> present = statistics.presentMetrics();
    for (nb::Metric m : {nb::Metric::Throughput, nb::Metric::TransactionsPerSecond, nb::Metric::LatencyP99,
                         nb::Metric::LocalCpuPerGbps}) {
        if (!present.contains(m))
            continue;
        const bool higher = nb::metricBetter(m) == nb::stats::Better::Higher;
        for (int i = 0; i < comparison.configurations.size(); ++i) {
            const nb::MetricStatistics *s = statistics.find(i, m);
            if (!s || !s->hasBaseline)
                continue;
            const QString label = comparison.configurations.at(i).label;
            const QString delta = nb::ComparisonTable::formatDelta(s->vsBaseline.difference);
            const QString in = m == nb::Metric::Throughput ? QString() : QObject::tr(" in %1").arg(lowerName(m));
            switch (s->vsBaseline.verdict) {
            case nb::stats::Verdict::Faster:
                lines << (higher
                              ? QObject::tr("%1 is faster than %2%3: %4").arg(label, baseline, in, delta)
                              : QObject::tr("%1 has lower %2 than %3: %4").arg(label, lowerName(m), baseline, delta));
                break;
            case nb::stats::Verdict::Slower:
                lines << (higher
                              ? QObject::tr("%1 is slower than %2%3: %4").arg(label, baseline, in, delta)
                              : QObject::tr("%1 has higher %2 than %3: %4").arg(label, lowerName(m), baseline, delta));
                break;
            case nb::stats::Verdict::NoSignificantDifference:
                lines << QObject::tr("%1 and %2: no significant difference in %3 (%4)")
                             .arg(label, baseline, lowerName(m), delta);
                break;
            case nb::stats::Verdict::NotEnoughRuns:
                lines << QObject::tr("%1 vs %2, %3: not enough runs for a verdict").arg(label, baseline, lowerName(m));
                break;
            }
        }
    }
    return lines;
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
        cpu << QObject::tr("%1 GHz").arg(h.cpuClockHz / 1e9, 0, 'f', 2);
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

bool writeComparisonReport(const QString &path, const nb::ComparisonOverlay &overlay,
                           const nb::ComparisonStatistics &statistics, QString *error)
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
    if (overlay.sourceCount() > 1)
        facts << QObject::tr("%1 sources overlaid: %2")
                     .arg(overlay.sourceCount())
                     .arg(overlay.sourceNames.join(QStringLiteral(", ")));
    facts << QObject::tr("%n repeat(s), %1 order", nullptr, c.repeats).arg(nb::orderPolicyName(c.order));
    facts << QObject::tr("baseline: %1").arg(c.configurations.value(statistics.baselineIndex).label);
    y += drawLine(p, 0, y, W, facts.join(QStringLiteral(" \u00b7 "))) + 2;
    p.setFont(font(7.5));
    y += drawLine(p, 0, y, W,
                  QObject::tr("Bars: mean of the runs, whiskers: 95% confidence interval (Student t). "
                              "Verdicts: Welch's t-test at alpha 0.05 against the baseline."));
    y += 6;

    // Environment of both sides, two columns.
    const int colGap = 16;
    const int half = (W - colGap) / 2;
    const int envTop = y;
    int envBottom = y;
    const std::pair<QString, const nb::HostEnvironment *> sides[] = {
        {QObject::tr("This side (client)"), &c.environment.local}, {QObject::tr("Server side"), &c.environment.remote}};
    for (int i = 0; i < 2; ++i) {
        const int x = i * (half + colGap);
        int yy = envTop;
        p.setFont(font(9, true));
        yy += drawLine(p, x, yy, half, sides[i].first);
        p.setFont(font(7.5));
        QStringList lines =
            sides[i].second->known ? environmentLines(*sides[i].second) : QStringList{QObject::tr("Unknown")};
        if (lines.size() > 5) {
            const int more = int(lines.size()) - 4;
            lines = lines.mid(0, 4);
            lines << QObject::tr("... and %n more adapter(s)", nullptr, more);
        }
        for (const QString &l : std::as_const(lines))
            yy += drawLine(p, x, yy, half, l);
        envBottom = std::max(envBottom, yy);
    }
    y = envBottom + 8;

    // The main bar charts, up to three side by side, drawn in light colours whatever the
    // desktop's theme.
    QList<nb::Metric> metrics = headlineMetrics(statistics);
    const QList<nb::Metric> charted = metrics.mid(0, 3);
    const QList<nb::Metric> tableMetrics = metrics.mid(0, 4);
    const nb::ComparisonTable table(c);
    QList<const nb::ComparisonTableRow *> rows;
    for (const nb::ComparisonTableRow &row : table.rows()) {
        if (tableMetrics.contains(row.metric))
            rows.append(&row);
    }
    p.setFont(font(8));
    const int rowHeight = QFontMetrics(p.font()).height() + 3;
    // The charts take what the table leaves, within reason: one page whatever the data.
    const int tableNeeds = std::max(int(rows.size()) + 2, 8) * rowHeight;
    const int chartHeight = std::clamp(bottom - y - 10 - tableNeeds, 200, 360);
    if (!charted.isEmpty()) {
        const int gap = 10;
        const int chartWidth = (W - gap * (int(charted.size()) - 1)) / int(charted.size());
        const QPalette light = lightPalette();
        for (int i = 0; i < charted.size(); ++i) {
            auto chart = std::make_unique<nb::ui::ComparisonBarChart>();
            chart->setPalette(light);
            chart->setMetric(charted[i]);
            chart->resize(chartWidth, chartHeight);
            chart->setData(overlay, statistics);
            nb::ui::applyPaletteToPlot(chart.get(), light);
            p.save();
            p.translate(i * (chartWidth + gap), y);
            p.setClipRect(QRect(0, 0, chartWidth, chartHeight));
            chart->toPainter(&p, chartWidth, chartHeight);
            p.restore();
        }
        y += chartHeight + 10;
    }

    // Bottom: the table (left) and the verdicts and warnings (right). The table's columns
    // are measured with the fonts they are drawn in, so no cell is cut short; the verdicts
    // take the rest of the width (at least a quarter of the page).
    struct TableRow {
        QStringList cells;
        bool bold = false;
    };
    const QStringList header{QObject::tr("Metric"), QObject::tr("Configuration"), QObject::tr("Runs"),
                             QObject::tr("Mean"),   QObject::tr("95% CI"),        QObject::tr("vs baseline"),
                             QObject::tr("Verdict")};
    const int columns = int(header.size());
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
        cells << verdictCell(row);
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
    const int tableWidth = std::clamp(natural, int(W * 0.55), W - colGap - int(W * 0.25));
    if (natural < tableWidth) {
        // Room to spare: spread it over the columns.
        const int extra = tableWidth - natural;
        for (int col = 0; col < columns; ++col)
            widths[col] += extra / columns + (col < extra % columns ? 1 : 0);
    } else if (natural > tableWidth) {
        // Last resort, for very long labels: the metric and configuration columns give up
        // width (and elide), the numbers never do.
        int over = natural - tableWidth;
        for (int col : {1, 0}) {
            const int give = std::min(over, std::max(0, widths[col] - 60));
            widths[col] -= give;
            over -= give;
        }
    }
    const int rightX = tableWidth + colGap;
    const int rightWidth = W - rightX;
    const int bottomTop = y;
    {
        p.setFont(font(8, true));
        const auto drawRow = [&](const QStringList &cells, int yy) {
            int x = 0;
            const QFontMetrics fm(p.font());
            for (int col = 0; col < cells.size(); ++col) {
                const int w = widths[col];
                p.drawText(QRect(x + cellPad, yy, w - 2 * cellPad, rowHeight),
                           Qt::AlignVCenter | (col >= 2 ? Qt::AlignRight : Qt::AlignLeft),
                           fm.elidedText(cells[col], Qt::ElideRight, w - 2 * cellPad + 1));
                x += w;
            }
        };
        drawRow(header, y);
        y += rowHeight;
        p.setPen(QPen(Qt::gray, 0.5));
        p.drawLine(QLineF(0, y, tableWidth, y));
        p.setPen(Qt::black);
        p.setFont(font(8));
        const int maxRows = std::max(0, (bottom - y) / rowHeight - 1);
        const int shown = int(tableRows.size()) <= maxRows ? int(tableRows.size()) : maxRows - 1;
        for (int i = 0; i < shown; ++i) {
            p.setFont(font(8, tableRows[i].bold));
            drawRow(tableRows[i].cells, y);
            y += rowHeight;
        }
        p.setFont(font(8));
        if (shown < tableRows.size()) {
            drawLine(p, 2, y, tableWidth,
                     QObject::tr("... %n more row(s) in the table export (CSV, Markdown)", nullptr,
                                 int(tableRows.size()) - shown));
        }
    }
    {
        int yy = bottomTop;
        p.setFont(font(9, true));
        yy += drawLine(p, rightX, yy, rightWidth, QObject::tr("Verdicts"));
        p.setFont(font(8));
        const QStringList verdicts = verdictLines(c, statistics);
        const int warningsReserve = c.warnings.isEmpty() ? 0 : 4 * QFontMetrics(p.font()).height() + 20;
        const QRect vbox(rightX, yy, rightWidth, std::max(20, bottom - yy - warningsReserve));
        yy += drawList(p, vbox,
                       verdicts.isEmpty()
                           ? QStringList{QObject::tr("Verdicts need two configurations with two runs each.")}
                           : verdicts,
                       QStringLiteral("\u2022 "));
        if (!c.warnings.isEmpty()) {
            yy += 8;
            p.setFont(font(9, true));
            yy += drawLine(p, rightX, yy, rightWidth, QObject::tr("Warnings"));
            p.setFont(font(7));
            drawList(p, QRect(rightX, yy, rightWidth, bottom - yy), c.warnings, QStringLiteral("\u2022 "));
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
