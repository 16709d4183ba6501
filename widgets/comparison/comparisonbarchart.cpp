// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison/comparisonbarchart.h"
#include "core/format.h"

#include "common/chartactions.h"
#include "common/chartstyle.h"
#include "common/chartzoom.h"
#include "common/ratescale.h"
#include "comparison/comparisonchartparts.h"

#include <compare/comparisontable.h>
#include <core/csv.h>
#include <core/units.h>

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace nb::ui {

namespace {

constexpr double kBarFill = 0.84; // share of a bar's slot taken by the bar
constexpr double kMinLabelPointSize = 6.5;
const QString kPlusMinus = QStringLiteral(" \u00b1 ");

// Annotations are a little smaller than the axis text; fonts set in pixels stay as they are.
QFont annotationFont(QFont f, double factor = 0.85)
{
    if (f.pointSizeF() > 0)
        f.setPointSizeF(std::max(kMinLabelPointSize, f.pointSizeF() * factor));
    return f;
}

} // namespace

ComparisonBarChart::ComparisonBarChart(QWidget *parent)
    : ComparisonChart(QStringLiteral("comparisonBarChart"), QStringLiteral("comparison-throughput_bps"), parent)
{
    // The adapters stay side by side; the values zoom (a small difference between two bars).
    actions()->zoom()->setOrientation(Qt::Vertical);
    // A bold title row above the legend: the metric's name, so the y axis needs only the unit.
    m_title = addTitleRow();
    axisRect()->setMinimumMargins(QMargins(15, 8, 15, 15));
    xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    xAxis->setTickLength(0, 0);
    xAxis->setSubTicks(false);
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new GroupedTicker));
    rebuild();
}

void ComparisonBarChart::setMetric(Metric metric)
{
    m_metric = metric;
    ChartZoom::resetOf(this);
    actions()->setBaseName(QStringLiteral("comparison-%1").arg(metricKey(metric)));
    rebuild();
}

void ComparisonBarChart::setData(const ComparisonOverlay &overlay, const ComparisonStatistics &statistics)
{
    m_overlay = overlay;
    m_stats = statistics;
    ChartZoom::resetOf(this);
    m_hasOverlay = true;
    rebuild();
}

void ComparisonBarChart::clearData()
{
    m_overlay = {};
    m_stats = {};
    ChartZoom::resetOf(this);
    m_hasOverlay = false;
    rebuild();
}

bool ComparisonBarChart::hasData() const
{
    return !m_bars.isEmpty();
}

int ComparisonBarChart::barCount() const
{
    return int(m_bars.size());
}

QStringList ComparisonBarChart::categoryLabels() const
{
    QStringList out;
    for (int g : m_groups)
        out.append(m_overlay.groupLabels.value(g));
    return out;
}

QStringList ComparisonBarChart::seriesNames() const
{
    QStringList out;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
            out.append(item->plottable()->property("fullName").toString());
    return out;
}

QStringList ComparisonBarChart::deltaLabels() const
{
    return m_deltaLabels;
}

QList<int> ComparisonBarChart::barConfigurations() const
{
    QList<int> out;
    for (const Bar &b : m_bars)
        out.append(b.config);
    return out;
}

QString ComparisonBarChart::unitLabel() const
{
    return m_unit;
}

QString ComparisonBarChart::title() const
{
    return m_title->text();
}

double ComparisonBarChart::barTop(const Bar &b) const
{
    return (b.summary.spreadKnown ? std::max(b.summary.ciHigh, b.summary.mean) : b.summary.mean) / m_divisor;
}

ComparisonBarChart::Bar ComparisonBarChart::makeBar(int config, int series, const MetricStatistics &ms) const
{
    Bar bar;
    bar.config = config;
    bar.group = int(m_groups.size());
    bar.series = series;
    bar.summary = ms.summary;
    bar.isBaseline = m_stats.configurations.value(config).isBaseline;
    bar.hasBaseline = ms.hasBaseline;
    bar.vsBaseline = ms.vsBaseline;
    bar.ciClipped = bar.summary.spreadKnown && bar.summary.ciLow < 0;
    if (bar.isBaseline) {
        bar.marker = tr("baseline");
        bar.shortMarker = tr("base");
    } else if (ms.hasBaseline) {
        bar.delta = ComparisonTable::formatDelta(ms.metric, ms.vsBaseline);
        bar.marker = verdictMarker(ms.vsBaseline, m_metric);
        bar.shortMarker = verdictMarker(ms.vsBaseline, m_metric, true);
    } else {
        bar.marker = tr("no baseline");
        bar.shortMarker = QStringLiteral("-");
    }
    return bar;
}

double ComparisonBarChart::collectBars()
{
    // The bars: only (variant, series) pairs with a value for this metric.
    const int groups = m_hasOverlay ? int(m_overlay.groupLabels.size()) : 0;
    const int series = m_hasOverlay ? m_overlay.seriesCount() : 0;
    double maxValue = 0;
    int widest = 1;
    for (int g = 0; g < groups; ++g) {
        QList<Bar> inGroup;
        for (int s = 0; s < series; ++s) {
            const int config = m_overlay.configurationFor(g, s);
            const MetricStatistics *ms = config >= 0 ? m_stats.find(config, m_metric) : nullptr;
            if (!ms || ms->summary.n == 0)
                continue;
            const Bar bar = makeBar(config, s, *ms);
            maxValue = std::max({maxValue, bar.summary.mean, bar.summary.spreadKnown ? bar.summary.ciHigh : 0.0});
            inGroup.append(bar);
        }
        if (inGroup.isEmpty())
            continue;
        m_groups.append(g);
        widest = std::max(widest, int(inGroup.size()));
        m_bars += inGroup;
    }
    // One slot width for all groups (bars as wide everywhere), groups with fewer bars
    // centred on their tick.
    m_slot = kGroupWidth / widest;
    placeInGroups(m_bars, m_slot);
    // Series by series, as the QCPBars hold them.
    std::stable_sort(m_bars.begin(), m_bars.end(), [](const Bar &a, const Bar &b) { return a.series < b.series; });
    return maxValue;
}

void ComparisonBarChart::setUpAxes(const QPalette &pal, double maxValue)
{
    const DisplayUnit unit = displayUnit(m_metric, maxValue);
    m_divisor = unit.divisor;
    m_unit = unit.name;
    yAxis->setLabel(m_unit);
    m_title->setText(chartTitle(m_metric));
    QFont titleFont = font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextColor(pal.color(QPalette::Text));

    auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    ticker->clear();
    for (int i = 0; i < m_groups.size(); ++i)
        ticker->addTick(i + 1, m_overlay.groupLabels.value(m_groups[i]));
    xAxis->setRange(0.5, std::max(int(m_groups.size()), 1) + 0.5);
}

void ComparisonBarChart::addSeriesBars(const QPalette &pal, int s)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QVector<double> keys, values, minus, plus;
    for (const Bar &b : std::as_const(m_bars)) {
        if (b.series != s)
            continue;
        const double mean = b.summary.mean / m_divisor;
        keys.append(b.key);
        values.append(mean);
        // The interval's low end stops at 0: a negative throughput or latency means
        // only that the runs were too few or too noisy (the tooltip says so).
        minus.append(b.summary.spreadKnown ? mean - std::max(b.summary.ciLow, 0.0) / m_divisor : nan);
        plus.append(b.summary.spreadKnown ? (b.summary.ciHigh - b.summary.mean) / m_divisor : nan);
    }
    if (keys.isEmpty())
        return;
    const QString name = m_overlay.seriesLabels.value(s);
    const int adapter = m_overlay.seriesAdapter.value(s, s);
    const int source = m_overlay.seriesSource.value(s, 0);
    auto *bars = new QCPBars(xAxis, yAxis);
    bars->setName(name);
    bars->setProperty("fullName", name);
    bars->setWidthType(QCPBars::wtPlotCoords);
    bars->setWidth(m_slot * kBarFill);
    const QColor colour = adapterColor(pal, adapter);
    bars->setBrush(sourceBrush(pal, colour, source));
    bars->setPen(barPen(pal, colour));
    if (name.isEmpty())
        bars->removeFromLegend();
    auto *errors = new QCPErrorBars(xAxis, yAxis);
    errors->removeFromLegend();
    errors->setName(tr("95% CI"));
    errors->setPen(QPen(pal.color(QPalette::Text), 1.4));
    errors->setWhiskerWidth(std::clamp(m_slot * 40, 6.0, 14.0));
    errors->setSymbolGap(0);
    errors->setDataPlottable(bars);
    bars->setData(keys, values, true);
    errors->setData(minus, plus);
}

void ComparisonBarChart::addBarLabels(const QPalette &pal)
{
    const QFont labelFont = annotationFont(font());
    for (Bar &b : m_bars) {
        b.label = new QCPItemText(this);
        b.label->setClipToAxisRect(true);
        b.label->position->setType(QCPItemPosition::ptPlotCoords);
        b.label->position->setCoords(b.key, barTop(b));
        b.label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        b.label->setTextAlignment(Qt::AlignHCenter);
        b.label->setPadding(QMargins(1, 1, 1, 3));
        b.label->setColor(pal.color(QPalette::Text));
        b.label->setFont(labelFont);
        m_deltaLabels.append(b.delta.isEmpty() ? b.marker : b.delta + QLatin1Char('\n') + b.marker);
        b.label->setText(m_deltaLabels.constLast());
    }
}

void ComparisonBarChart::rebuild()
{
    clearPlottables();
    for (const Bar &b : std::as_const(m_bars))
        removeItem(b.label);
    m_bars.clear();
    m_groups.clear();
    m_deltaLabels.clear();

    const QPalette pal = palette();
    applyPaletteToPlot(this, pal);
    styleCommon();

    const double maxValue = collectBars();
    setUpAxes(pal, maxValue);
    const int series = m_hasOverlay ? m_overlay.seriesCount() : 0;
    for (int s = 0; s < series; ++s)
        addSeriesBars(pal, s);
    addBarLabels(pal);

    const bool empty = m_bars.isEmpty();
    legend->setVisible(!empty && legend->itemCount() > 0);
    // The layout reserves a hidden legend's margins: none then, so its row takes no height.
    legend->setMargins(legend->visible() ? QMargins(4, 4, 4, 2) : QMargins());
    setPlaceholder(!empty         ? QString()
                   : m_hasOverlay ? tr("No %1 in these runs").arg(metricName(m_metric).toLower())
                                  : tr("No comparison loaded"));
    xAxis->grid()->setVisible(false);
    replot(rpQueuedReplot);
}

void ComparisonBarChart::fitLayout()
{
    ComparisonChart::fitLayout();
    updateLayout();
    const QRect rect = axisRect()->rect();
    const double groupPx = rect.width() / double(std::max(1, int(m_groups.size())));
    const double slotPx = groupPx * m_slot;

    // Variants: wrapped or elided to their group's width (the full text is in the tooltip).
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    const QFontMetricsF tickFm(xAxis->tickLabelFont());
    ticker->clear();
    for (int i = 0; i < m_groups.size(); ++i)
        ticker->addTick(i + 1, fitLabel(m_overlay.groupLabels.value(m_groups[i]), tickFm, groupPx - 8));

    // Annotations: the first of these that fits every bar's slot wins, so neighbouring
    // labels never overlap: delta and marker; the delta on two lines; a smaller font; the
    // difference without its interval over the compact marker; the marker alone; the
    // compact marker; nothing. The tooltip always has the whole text.
    enum class Text { Full, Split, DeltaOnly, Marker, Compact };
    int lines = 1;
    const auto apply = [&](const QFont &f, Text mode) {
        const QFontMetricsF fm(f);
        double widest = 0;
        lines = 1;
        for (Bar &b : m_bars) {
            QString t = mode == Text::Compact || mode == Text::DeltaOnly ? b.shortMarker : b.marker;
            if (!b.delta.isEmpty() && mode == Text::DeltaOnly)
                t = b.delta.section(kPlusMinus, 0, 0) + QLatin1Char('\n') + t;
            if (!b.delta.isEmpty() && (mode == Text::Full || mode == Text::Split)) {
                QString delta = b.delta;
                if (mode == Text::Split)
                    delta.replace(kPlusMinus, QStringLiteral("\n\u00b1 "));
                t = delta + QLatin1Char('\n') + t;
            }
            b.label->setText(t);
            b.label->setFont(f);
            b.label->setVisible(true);
            const QStringList parts = t.split(QLatin1Char('\n'));
            lines = std::max(lines, int(parts.size()));
            for (const QString &part : parts)
                widest = std::max(widest, fm.horizontalAdvance(part));
        }
        return widest + 4; // padding and a pixel of air on each side
    };
    const QFont normal = annotationFont(font());
    const double room = slotPx - 2;
    QFont used = normal;
    if (!m_bars.isEmpty() && apply(normal, Text::Full) > room) {
        const double split = apply(normal, Text::Split);
        if (split > room) {
            QFont smaller = normal;
            if (normal.pointSizeF() > 0)
                smaller.setPointSizeF(std::max(kMinLabelPointSize, normal.pointSizeF() * room / split));
            used = smaller;
            if (apply(smaller, Text::Split) > room && apply(smaller, Text::DeltaOnly) > room &&
                apply(smaller, Text::Marker) > room && apply(smaller, Text::Compact) > room) {
                // Even the compact markers are too wide for some slots: hide those ("base"
                // before "n.s."), keep the others; the tooltip still says it all.
                const QFontMetricsF fm(smaller);
                lines = 0;
                for (Bar &b : m_bars) {
                    b.label->setVisible(fm.horizontalAdvance(b.shortMarker) + 4 <= room);
                    lines = std::max(lines, b.label->visible() ? 1 : 0);
                }
            }
        }
    }

    // Headroom: the tallest bar's label must fit under the top of the axis.
    double maxValue = 0;
    for (const Bar &b : std::as_const(m_bars))
        maxValue = std::max(maxValue, barTop(b));
    const double labelPx = lines * QFontMetricsF(used).lineSpacing() + 8;
    const double h = rect.height();
    double top = maxValue > 0 ? maxValue * 1.05 : 1;
    if (maxValue > 0 && h > labelPx * 1.6)
        top = std::max(top, maxValue * h / (h - labelPx));
    else if (maxValue > 0)
        top = maxValue * 1.6;
    // A share of the CPU ends at 100%: the axis stops there unless the labels need the room
    // above, and its ticks stop there in any case.
    const bool share = m_metric == Metric::LocalCpu || m_metric == Metric::RemoteCpu;
    static_cast<GroupedTicker *>(yAxis->ticker().data())
        ->setCeiling(share ? 100 : std::numeric_limits<double>::infinity());
    yAxis->setRange(0, share && maxValue > 0 && maxValue <= 100 ? std::min(niceCeiling(top), std::max(top, 100.0))
                                                                : niceCeiling(top));
}

QList<QRectF> ComparisonBarChart::annotationRects() const
{
    QList<QRectF> out;
    for (const Bar &b : m_bars)
        if (b.label && b.label->visible())
            out.append(itemTextRect(b.label));
    return out;
}

QString ComparisonBarChart::tooltipAt(const QPoint &pos) const
{
    const QRect rect = axisRect()->rect();
    if (pos.x() < rect.left() || pos.x() > rect.right())
        return QString();
    // Under the axis: the variant's full name.
    if (pos.y() > rect.bottom()) {
        const int i = int(std::lround(xAxis->pixelToCoord(pos.x()))) - 1;
        const QString full = m_overlay.groupLabels.value(m_groups.value(i, -1));
        return i >= 0 && i < m_groups.size() ? full : QString();
    }
    if (!rect.contains(pos))
        return QString();
    const double halfWidth = std::abs(xAxis->coordToPixel(m_slot / 2) - xAxis->coordToPixel(0));
    for (const Bar &b : m_bars) {
        if (std::abs(xAxis->coordToPixel(b.key) - pos.x()) > halfWidth)
            continue;
        const QString unit = metricUnit(m_metric);
        const auto fmt = [&](double v) { return ComparisonTable::formatValue(m_metric, v, unit); };
        const Configuration conf = m_overlay.merged.configurations.value(b.config);
        QStringList lines{m_overlay.seriesLabels.value(b.series)};
        if (!conf.variantName().isEmpty())
            lines.first() += QStringLiteral(", ") + conf.variantName();
        lines.append(tr("Mean %1 over %n run(s)", nullptr, b.summary.n).arg(fmt(b.summary.mean)));
        if (b.summary.spreadKnown)
            lines.append(tr("95% CI %1 .. %2").arg(fmt(b.summary.ciLow), fmt(b.summary.ciHigh)) +
                         (b.ciClipped ? tr(" (CI clipped at 0)") : QString()));
        if (b.isBaseline) {
            lines.append(tr("Baseline"));
        } else if (b.hasBaseline) {
            const int base = m_stats.configurations.value(b.config).baselineConfig;
            QString verdict = stats::verdictText(b.vsBaseline.verdict, metricBetter(m_metric));
            if (b.vsBaseline.welch.valid && b.vsBaseline.verdict != stats::Verdict::NotEnoughRuns)
                verdict += QStringLiteral(" (p=%1)").arg(nb::formatSignificant(b.vsBaseline.welch.pValue, 2));
            lines.append(tr("vs %1: %2, %3")
                             .arg(m_overlay.merged.configurations.value(base).label,
                                  b.delta.isEmpty() ? QStringLiteral("-") : b.delta, verdict));
        } else {
            lines.append(tr("No baseline of this variant to compare with"));
        }
        return lines.join(QLatin1Char('\n'));
    }
    return QString();
}

QString ComparisonBarChart::toCsv() const
{
    QString out = QStringLiteral("variant,adapter,source,compared_with,unit,n,mean,ci95_low,ci95_high,relative,"
                                 "relative_ci95_low,relative_ci95_high,verdict\n");
    const QString unit = metricUnit(m_metric);
    for (const Bar &b : m_bars) {
        const Configuration conf = m_overlay.merged.configurations.value(b.config);
        const int base = m_stats.configurations.value(b.config).baselineConfig;
        const stats::Summary &s = b.summary;
        const stats::RelativeDifference &d = b.vsBaseline.difference;
        const bool rel = b.hasBaseline && d.valid;
        const bool relCi = rel && d.intervalKnown;
        QString verdict;
        if (b.isBaseline)
            verdict = QStringLiteral("baseline");
        else if (b.hasBaseline)
            verdict = stats::verdictKey(b.vsBaseline.verdict);
        const QStringList fields{
            csv::field(conf.variantName()),
            csv::field(conf.adapterName()),
            csv::field(m_overlay.sourceNames.value(m_overlay.sourceOf.value(b.config))),
            csv::field(b.hasBaseline ? m_overlay.merged.configurations.value(base).label : QString()),
            csv::field(unit),
            QString::number(s.n),
            csv::number(s.mean),
            s.spreadKnown ? csv::number(s.ciLow) : QString(),
            s.spreadKnown ? csv::number(s.ciHigh) : QString(),
            rel ? csv::number(d.relative) : QString(),
            relCi ? csv::number(d.low) : QString(),
            relCi ? csv::number(d.high) : QString(),
            verdict};
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

} // namespace nb::ui
