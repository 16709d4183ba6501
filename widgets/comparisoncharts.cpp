// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisoncharts.h"

#include "chartactions.h"
#include "chartstyle.h"
#include "ratescale.h"
#include "rateticker.h"
#include "rrformat.h"

#include <compare/comparisontable.h>
#include <core/csv.h>

#include <QActionGroup>
#include <QEvent>
#include <QFontMetricsF>
#include <QMenu>

#include <algorithm>
#include <cmath>
#include <limits>

namespace nb::ui {

namespace {

constexpr double kGroupWidth = 0.8; // share of a category taken by its bars
constexpr double kBarFill = 0.84;   // share of a source's slot taken by its bar
constexpr double kMinLabelPointSize = 6.5;

const QString kUp = QStringLiteral("\u25B2");
const QString kDown = QStringLiteral("\u25BC");

// A unit for display: values are divided by `divisor` and shown with `name`.
struct DisplayUnit {
    double divisor = 1;
    QString name;
};

DisplayUnit latencyUnit(double maxMicroseconds)
{
    if (maxMicroseconds >= 1e6)
        return {1e6, QStringLiteral("s")};
    if (maxMicroseconds >= 1e3)
        return {1e3, QStringLiteral("ms")};
    return {1, QStringLiteral("us")};
}

DisplayUnit transactionsUnit(double maxPerSecond)
{
    if (maxPerSecond >= 1e6)
        return {1e6, QStringLiteral("M/s")};
    if (maxPerSecond >= 1e3)
        return {1e3, QStringLiteral("k/s")};
    return {1, QStringLiteral("/s")};
}

DisplayUnit displayUnit(Metric metric, double maxValue, TestKind)
{
    switch (metric) {
    case Metric::Throughput: {
        const RateUnit u = rateUnitFor(maxValue);
        return {u.divisor, u.name};
    }
    case Metric::TransactionsPerSecond:
        return transactionsUnit(maxValue);
    case Metric::LatencyP50:
    case Metric::LatencyP99:
        return latencyUnit(maxValue);
    case Metric::LocalCpuPerGbps:
        return {1, QObject::tr("% per Gbit/s")};
    default:
        return {1, metricUnit(metric)};
    }
}

// The chart's title row: the metric's name, short enough for a narrow chart; the y axis
// says the unit.
QString chartTitle(Metric metric)
{
    if (metric == Metric::LocalCpuPerGbps)
        return QObject::tr("CPU per Gbit/s");
    return metricName(metric);
}

// Short marker that says the verdict in words (and an arrow for the direction of the
// value), so the chart reads the same printed in black and white.
QString verdictMarker(const stats::BaselineComparison &b, Metric metric, bool compact = false)
{
    switch (b.verdict) {
    case stats::Verdict::NotEnoughRuns:
        return compact ? QObject::tr("n<2") : QObject::tr("too few runs");
    case stats::Verdict::NoSignificantDifference:
        return QObject::tr("n.s.");
    case stats::Verdict::Faster:
    case stats::Verdict::Slower:
        break;
    }
    const bool up = b.difference.valid
                        ? b.difference.relative >= 0
                        : (b.verdict == stats::Verdict::Faster) == (metricBetter(metric) == stats::Better::Higher);
    const bool good = b.verdict == stats::Verdict::Faster;
    if (compact)
        return up ? kUp : kDown;
    QString word;
    if (metricBetter(metric) == stats::Better::Higher)
        word = good ? QObject::tr("faster") : QObject::tr("slower");
    else
        word = good ? QObject::tr("better") : QObject::tr("worse");
    return QStringLiteral("%1 %2").arg(up ? kUp : kDown, word);
}

Qt::PenStyle sourceLineStyle(int source)
{
    static constexpr Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                              Qt::DashDotDotLine};
    return styles[std::size_t(source) % std::size(styles)];
}

// Position of source `s` of `count` within a category: bars of one group sit side by
// side, centred on the category's tick.
double sourceOffset(int source, int count, double slot)
{
    return (source - (count - 1) / 2.0) * slot;
}

// Category labels too wide for their slot break at spaces into two lines.
QString wrapLabel(const QString &label, const QFontMetricsF &fm, double width)
{
    if (fm.horizontalAdvance(label) <= width || !label.contains(QLatin1Char(' ')))
        return label;
    // Break at the space nearest the middle.
    const qsizetype middle = label.size() / 2;
    qsizetype best = -1;
    for (qsizetype i = 0; i < label.size(); ++i)
        if (label[i] == QLatin1Char(' ') && (best < 0 || std::abs(i - middle) < std::abs(best - middle)))
            best = i;
    QString out = label;
    out[best] = QLatin1Char('\n');
    return out;
}

// Log axis ticks at 1-2-5 (or 1-3, or decades only when the range is wide) times a
// power of ten, labelled with a latency unit: QCPAxisTickerLog ticks only whole decades,
// which leaves a one-decade CDF with a single label.
class LatencyLogTicker : public QCPAxisTicker {
protected:
    QVector<double> createTickVector(double, const QCPRange &range) override
    {
        QVector<double> ticks;
        if (range.lower <= 0 || range.upper <= range.lower)
            return ticks;
        const int lo = int(std::floor(std::log10(range.lower)));
        const int hi = int(std::ceil(std::log10(range.upper)));
        static const QList<double> fine{1, 2, 5}, medium{1, 3}, coarse{1};
        const QList<double> &steps = hi - lo <= 2 ? fine : (hi - lo <= 4 ? medium : coarse);
        for (int e = lo - 1; e <= hi; ++e)
            for (double m : steps)
                ticks.append(m * std::pow(10.0, e));
        return ticks;
    }
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        if (tick >= 1e6)
            return QStringLiteral("%1 s").arg(QString::number(tick / 1e6, 'g', 3));
        if (tick >= 1e3)
            return QStringLiteral("%1 ms").arg(QString::number(tick / 1e3, 'g', 3));
        return QStringLiteral("%1 us").arg(QString::number(tick, 'g', 3));
    }
};

// Delta labels are a little smaller than the axis text; fonts set in pixels stay as they are.
QFont deltaLabelFont(QFont f)
{
    if (f.pointSizeF() > 0)
        f.setPointSizeF(std::max(kMinLabelPointSize, f.pointSizeF() * 0.85));
    return f;
}

QCPItemText *makePlaceholder(QCustomPlot *plot)
{
    auto *text = new QCPItemText(plot);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.5, 0.5);
    text->setPositionAlignment(Qt::AlignCenter);
    text->setClipToAxisRect(false);
    text->setVisible(false);
    return text;
}

void stylePlaceholder(QCPItemText *text, const QWidget *widget)
{
    text->setColor(widget->palette().color(QPalette::PlaceholderText));
    QFont f = widget->font();
    f.setPointSizeF(f.pointSizeF() * 1.2);
    text->setFont(f);
}

// Axes and grid hidden: an empty chart says so instead of showing a bare grid.
void showAxes(QCustomPlot *plot, bool show)
{
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        axis->setVisible(show);
        axis->grid()->setVisible(show);
    }
}

QString configurationName(const ComparisonOverlay &o, int config)
{
    if (config < 0 || config >= o.merged.configurations.size())
        return QString();
    return o.merged.configurations[config].label;
}

QString groupName(const ComparisonOverlay &o, int config)
{
    const int g = config < o.groupOf.size() ? o.groupOf[config] : -1;
    return g >= 0 && g < o.groupLabels.size() ? o.groupLabels[g] : configurationName(o, config);
}

QString sourceName(const ComparisonOverlay &o, int config)
{
    const int s = config < o.seriesOf.size() ? o.seriesOf[config] : -1;
    return s >= 0 && s < o.seriesLabels.size() ? o.seriesLabels[s] : QString();
}

int groupIndex(const ComparisonOverlay &o, int config)
{
    return config < o.groupOf.size() ? o.groupOf[config] : config;
}

int sourceIndex(const ComparisonOverlay &o, int config)
{
    return config < o.seriesOf.size() ? o.seriesOf[config] : 0;
}

void setupLegend(QCustomPlot *plot)
{
    plot->legend->setIconSize(18, 10);
    placeLegendAbove(plot, 4);
    plot->legend->setMargins(QMargins(4, 4, 4, 2));
}

void styleLegend(QCustomPlot *plot)
{
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
}

} // namespace

// ---------------------------------------------------------------------------------------
// ComparisonBarChart

ComparisonBarChart::ComparisonBarChart(QWidget *parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("comparisonBarChart"));
    setMinimumSize(260, 200);
    setupLegend(this);
    // A bold title row above the legend: the metric's name, so the y axis needs only the unit.
    m_title = new QCPTextElement(this);
    // Tight rows: the title, the legend (collapsed when hidden) and the plot, with just room
    // above the plot for the top tick label, so a chart 200 px high keeps its bars.
    m_title->setMargins(QMargins(4, 3, 4, 2));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowSpacing(0);
    axisRect()->setMinimumMargins(QMargins(15, 8, 15, 15));
    m_group = new QCPBarsGroup(this);
    m_group->setSpacingType(QCPBarsGroup::stPlotCoords);
    xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    xAxis->setTickLength(0, 0);
    xAxis->setSubTicks(false);
    xAxis->grid()->setVisible(false);
    m_placeholder = makePlaceholder(this);
    m_actions = new ChartActions(this, QStringLiteral("comparison-throughput_bps"), [this] { return toCsv(); });
    m_actions->setTooltipProvider([this](const QPoint &pos) { return tooltipAt(pos); });
    // Labels and headroom depend on the size; fit them before every screen and export draw.
    connect(this, &QCustomPlot::beforeReplot, this, &ComparisonBarChart::fitLayout);
    rebuild();
}

void ComparisonBarChart::setMetric(Metric metric)
{
    m_metric = metric;
    m_actions->setBaseName(QStringLiteral("comparison-%1").arg(metricKey(metric)));
    rebuild();
}

void ComparisonBarChart::setData(const ComparisonOverlay &overlay, const ComparisonStatistics &statistics)
{
    m_overlay = overlay;
    m_stats = statistics;
    m_hasOverlay = true;
    rebuild();
}

void ComparisonBarChart::clearData()
{
    m_overlay = {};
    m_stats = {};
    m_hasOverlay = false;
    rebuild();
}

bool ComparisonBarChart::hasData() const
{
    return m_barCount > 0;
}

int ComparisonBarChart::barCount() const
{
    return m_barCount;
}

QStringList ComparisonBarChart::categoryLabels() const
{
    return m_hasOverlay ? m_overlay.groupLabels : QStringList();
}

QStringList ComparisonBarChart::deltaLabels() const
{
    return m_deltaLabels;
}

QString ComparisonBarChart::unitLabel() const
{
    return m_unit;
}

QString ComparisonBarChart::title() const
{
    return m_title->text();
}

void ComparisonBarChart::rebuild()
{
    clearPlottables();
    for (const Bar &b : std::as_const(m_bars))
        removeItem(b.label);
    m_bars.clear();
    m_deltaLabels.clear();
    m_barCount = 0;

    const QPalette pal = palette();
    applyPaletteToPlot(this, pal);
    styleLegend(this);
    xAxis->grid()->setVisible(false);
    stylePlaceholder(m_placeholder, this);

    const int groups = m_hasOverlay ? int(m_overlay.groupLabels.size()) : 0;
    const int sources = m_hasOverlay ? std::max(1, m_overlay.seriesCount()) : 1;
    m_slot = kGroupWidth / sources;

    // Collect the bars first: the unit depends on the largest value shown.
    double maxValue = 0;
    TestKind kind = TestKind::Stream;
    bool kindKnown = false;
    for (int s = 0; s < sources && m_hasOverlay; ++s) {
        for (int g = 0; g < groups; ++g) {
            const int config = m_overlay.configurationFor(g, s);
            const MetricStatistics *ms = config >= 0 ? m_stats.find(config, m_metric) : nullptr;
            if (!ms || ms->summary.n == 0)
                continue;
            Bar bar;
            bar.config = config;
            bar.group = g;
            bar.source = s;
            bar.key = g + 1 + sourceOffset(s, sources, m_slot);
            bar.summary = ms->summary;
            bar.isBaseline = m_stats.configurations.value(config).isBaseline;
            bar.hasBaseline = ms->hasBaseline;
            bar.vsBaseline = ms->vsBaseline;
            if (bar.isBaseline) {
                bar.marker = tr("baseline");
                bar.shortMarker = tr("base");
            } else if (ms->hasBaseline) {
                bar.delta = ComparisonTable::formatDelta(ms->vsBaseline.difference);
                bar.marker = verdictMarker(ms->vsBaseline, m_metric);
                bar.shortMarker = verdictMarker(ms->vsBaseline, m_metric, true);
            } else {
                bar.marker = tr("no baseline");
                bar.shortMarker = QStringLiteral("-");
            }
            m_bars.append(bar);
            maxValue = std::max({maxValue, bar.summary.mean, bar.summary.spreadKnown ? bar.summary.ciHigh : 0.0});
            if (!kindKnown && config < m_overlay.merged.configurations.size()) {
                kind = m_overlay.merged.configurations[config].params.kind;
                kindKnown = true;
            }
        }
    }
    m_barCount = int(m_bars.size());

    const DisplayUnit unit = displayUnit(m_metric, maxValue, kind);
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
    for (int g = 0; g < groups; ++g)
        ticker->addTick(g + 1, m_overlay.groupLabels[g]);
    xAxis->setRange(0.5, std::max(groups, 1) + 0.5);

    const QColor text = pal.color(QPalette::Text);
    for (int s = 0; s < sources && m_hasOverlay; ++s) {
        QList<Bar *> mine;
        for (Bar &b : m_bars)
            if (b.source == s)
                mine.append(&b);
        // A source without values still takes its slot: the QCPBarsGroup places bars by
        // their position in the group, and the labels assume every source is there.
        if (mine.isEmpty() && sources == 1)
            continue;
        auto *bars = new QCPBars(xAxis, yAxis);
        bars->setName(s < m_overlay.seriesLabels.size() ? m_overlay.seriesLabels[s] : QString());
        bars->setWidthType(QCPBars::wtPlotCoords);
        bars->setWidth(m_slot * kBarFill);
        const QColor colour = seriesColor(pal, s);
        QColor fill = colour;
        fill.setAlpha(isDarkPalette(pal) ? 200 : 215);
        bars->setBrush(fill);
        bars->setPen(QPen(isDarkPalette(pal) ? colour.lighter(130) : colour.darker(130), 1));
        if (sources > 1)
            bars->setBarsGroup(m_group);
        if (sources == 1 || mine.isEmpty())
            bars->removeFromLegend();
        auto *errors = new QCPErrorBars(xAxis, yAxis);
        errors->removeFromLegend();
        errors->setName(tr("95% CI"));
        errors->setPen(QPen(text, 1.4));
        errors->setWhiskerWidth(std::clamp(m_slot * 40, 6.0, 14.0));
        errors->setSymbolGap(0);
        errors->setDataPlottable(bars);
        QVector<double> keys, values, minus, plus;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (Bar *b : std::as_const(mine)) {
            // Keys without the group offset: the QCPBarsGroup shifts each source's bars.
            keys.append(b->group + 1);
            values.append(b->summary.mean / m_divisor);
            minus.append(b->summary.spreadKnown ? (b->summary.mean - b->summary.ciLow) / m_divisor : nan);
            plus.append(b->summary.spreadKnown ? (b->summary.ciHigh - b->summary.mean) / m_divisor : nan);
        }
        bars->setData(keys, values, true);
        errors->setData(minus, plus);
    }
    if (sources > 1) {
        m_group->setSpacing(m_slot * (1 - kBarFill));
    }

    QFont labelFont = deltaLabelFont(font());
    for (Bar &b : m_bars) {
        b.label = new QCPItemText(this);
        b.label->setClipToAxisRect(true);
        b.label->position->setType(QCPItemPosition::ptPlotCoords);
        const double top = b.summary.spreadKnown ? std::max(b.summary.ciHigh, b.summary.mean) : b.summary.mean;
        b.label->position->setCoords(b.key, top / m_divisor);
        b.label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        b.label->setTextAlignment(Qt::AlignHCenter);
        b.label->setPadding(QMargins(1, 1, 1, 3));
        b.label->setColor(text);
        b.label->setFont(labelFont);
        m_deltaLabels.append(b.delta.isEmpty() ? b.marker : b.delta + QLatin1Char('\n') + b.marker);
        b.label->setText(m_deltaLabels.constLast());
    }

    legend->setVisible(sources > 1 && m_barCount > 0);
    // The layout reserves a hidden legend's margins: none then, so its row takes no height.
    legend->setMargins(legend->visible() ? QMargins(4, 4, 4, 2) : QMargins());
    showAxes(this, m_barCount > 0);
    xAxis->grid()->setVisible(false);
    if (m_barCount == 0) {
        m_placeholder->setText(m_hasOverlay ? tr("No %1 in these runs").arg(metricName(m_metric).toLower())
                                            : tr("No comparison loaded"));
    }
    m_placeholder->setVisible(m_barCount == 0);
    replot(rpQueuedReplot);
}

void ComparisonBarChart::fitLayout()
{
    if (m_fitting)
        return;
    m_fitting = true;
    fitLegendToWidth(this, viewport().width());
    updateLayout();
    const QRect rect = axisRect()->rect();
    const int groups = std::max(1, int(m_overlay.groupLabels.size()));
    const double groupPx = rect.width() / double(groups);
    const double slotPx = groupPx * m_slot;

    // Category labels: wrap at a space when they would run into the neighbour.
    if (m_hasOverlay) {
        auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
        const QFontMetricsF tickFm(xAxis->tickLabelFont());
        ticker->clear();
        for (int g = 0; g < int(m_overlay.groupLabels.size()); ++g)
            ticker->addTick(g + 1, wrapLabel(m_overlay.groupLabels[g], tickFm, groupPx - 6));
    }

    // Delta labels: one line per part when the slot is narrow, and a smaller font when even
    // that does not fit, so neighbouring labels never overlap.
    QFont labelFont = deltaLabelFont(font());
    // Tries, in order: one line for the delta, "±" on its own line, a smaller font, and
    // short markers; the first that fits the bar's slot wins.
    int lines = 1;
    const auto apply = [&](const QFont &f, bool split, bool compact) {
        const QFontMetricsF fm(f);
        double widest = 0;
        lines = 1;
        for (Bar &b : m_bars) {
            QString t = compact ? b.shortMarker : b.marker;
            if (!b.delta.isEmpty()) {
                QString delta = b.delta;
                if (split)
                    delta.replace(QStringLiteral(" \u00b1 "), QStringLiteral("\n\u00b1 "));
                t = delta + QLatin1Char('\n') + t;
            }
            b.label->setText(t);
            b.label->setFont(f);
            const QStringList parts = t.split(QLatin1Char('\n'));
            lines = std::max(lines, int(parts.size()));
            for (const QString &part : parts)
                widest = std::max(widest, fm.horizontalAdvance(part));
        }
        return widest + 2;
    };
    if (!m_bars.isEmpty() && apply(labelFont, false, false) > slotPx) {
        const double widest = apply(labelFont, true, false);
        if (widest > slotPx) {
            QFont smaller = labelFont;
            if (labelFont.pointSizeF() > 0)
                smaller.setPointSizeF(std::max(kMinLabelPointSize, labelFont.pointSizeF() * slotPx / widest));
            if (apply(smaller, true, false) > slotPx)
                apply(smaller, true, true);
            labelFont = smaller;
        }
    }

    // Headroom: the tallest bar's label must fit under the top of the axis.
    double maxValue = 0;
    for (const Bar &b : std::as_const(m_bars))
        maxValue =
            std::max(maxValue,
                     (b.summary.spreadKnown ? std::max(b.summary.ciHigh, b.summary.mean) : b.summary.mean) / m_divisor);
    const double labelPx = lines * QFontMetricsF(labelFont).lineSpacing() + 8;
    const double h = rect.height();
    double top = maxValue > 0 ? maxValue * 1.05 : 1;
    if (maxValue > 0 && h > labelPx * 1.6)
        top = std::max(top, maxValue * h / (h - labelPx));
    else if (maxValue > 0)
        top = maxValue * 1.6;
    yAxis->setRange(0, niceCeiling(top));
    m_fitting = false;
}

void ComparisonBarChart::draw(QCPPainter *painter)
{
    // Exports lay the plot out at their own size: fit labels and headroom to that size.
    fitLayout();
    QCustomPlot::draw(painter);
}

void ComparisonBarChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        rebuild();
    QCustomPlot::changeEvent(event);
}

QString ComparisonBarChart::tooltipAt(const QPoint &pos) const
{
    if (!axisRect()->rect().contains(pos))
        return QString();
    const double halfWidth = std::abs(xAxis->coordToPixel(m_slot / 2) - xAxis->coordToPixel(0));
    for (const Bar &b : m_bars) {
        if (std::abs(xAxis->coordToPixel(b.key) - pos.x()) > halfWidth)
            continue;
        const QString unit = metricUnit(m_metric);
        const auto fmt = [&](double v) { return ComparisonTable::formatValue(m_metric, v, unit); };
        QStringList lines{groupName(m_overlay, b.config)};
        if (m_overlay.seriesCount() > 1)
            lines.first() += QStringLiteral(" (%1)").arg(sourceName(m_overlay, b.config));
        lines.append(tr("Mean %1 over %n run(s)", nullptr, b.summary.n).arg(fmt(b.summary.mean)));
        if (b.summary.spreadKnown)
            lines.append(tr("95% CI %1 .. %2").arg(fmt(b.summary.ciLow), fmt(b.summary.ciHigh)));
        if (b.isBaseline) {
            lines.append(tr("Baseline"));
        } else if (b.hasBaseline) {
            QString verdict = stats::verdictText(b.vsBaseline.verdict, metricBetter(m_metric));
            if (b.vsBaseline.welch.valid && b.vsBaseline.verdict != stats::Verdict::NotEnoughRuns)
                verdict += QStringLiteral(" (p=%1)").arg(formatSignificantDigits(b.vsBaseline.welch.pValue, 2));
            lines.append(tr("vs baseline %1: %2").arg(b.delta.isEmpty() ? QStringLiteral("-") : b.delta, verdict));
        }
        return lines.join(QLatin1Char('\n'));
    }
    return QString();
}

QString ComparisonBarChart::toCsv() const
{
    QString out = QStringLiteral("label,source,unit,n,mean,ci95_low,ci95_high,relative,relative_ci95_low,"
                                 "relative_ci95_high,verdict\n");
    for (const Bar &b : m_bars) {
        const QString unit = metricUnit(m_metric);
        const stats::Summary &s = b.summary;
        const stats::RelativeDifference &d = b.vsBaseline.difference;
        const bool rel = b.hasBaseline && d.valid;
        const bool relCi = rel && d.intervalKnown;
        QString verdict;
        if (b.isBaseline)
            verdict = QStringLiteral("baseline");
        else if (b.hasBaseline)
            verdict = stats::verdictKey(b.vsBaseline.verdict);
        const QStringList fields{csv::field(groupName(m_overlay, b.config)),
                                 csv::field(sourceName(m_overlay, b.config)),
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

// ---------------------------------------------------------------------------------------
// ComparisonTimelineChart

namespace {

// Per-interval value of a run: received bit/s summed over the directions it carried, or
// transactions/s for request/response runs. Warm-up intervals are left out.
QList<QPointF> intervalPoints(const TestResult &result, bool *transactions)
{
    QList<QPointF> out;
    *transactions = result.hasRr;
    for (const IntervalReport &report : result.intervals) {
        if (result.hasRr) {
            if (report.hasRr && report.rr.end > report.rr.start)
                out.append({report.rr.end, report.rr.transactionsPerSecond()});
            continue;
        }
        double bps = 0;
        double end = -1;
        bool omitted = false;
        for (bool sender : {true, false}) {
            if (!report.hasDirection(sender))
                continue;
            const IntervalSum sum = report.sum(sender);
            if (sum.omitted || sum.seconds() <= 0) {
                omitted = true;
                continue;
            }
            bps += sum.bitsPerSecond();
            end = std::max(end, sum.end);
        }
        if (!omitted && end >= 0)
            out.append({end, bps});
    }
    return out;
}

} // namespace

ComparisonTimelineChart::ComparisonTimelineChart(QWidget *parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("comparisonTimeline"));
    setMinimumSize(260, 200);
    setupLegend(this);
    legend->setIconSize(26, 10);
    xAxis->setLabel(tr("Seconds since run start"));
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new RateTicker));
    yAxis2->setTicker(QSharedPointer<QCPAxisTicker>(new RateTicker));
    m_placeholder = makePlaceholder(this);
    m_actions = new ChartActions(this, QStringLiteral("comparison-timeline"), [this] { return toCsv(); });
    connect(this, &QCustomPlot::beforeReplot, this, [this] { fitLegendToWidth(this, viewport().width()); });
    m_actions->setValueFormatter([](const QCPGraph *graph, double value) {
        return graph->property("transactions").toBool() ? formatTransactionsPerSecond(value) : formatRate(value);
    });
    rebuild();
}

void ComparisonTimelineChart::setData(const ComparisonOverlay &overlay)
{
    m_overlay = overlay;
    rebuild();
}

void ComparisonTimelineChart::clearData()
{
    m_overlay = {};
    rebuild();
}

int ComparisonTimelineChart::curveCount() const
{
    return int(m_curves.size());
}

void ComparisonTimelineChart::rebuild()
{
    clearGraphs();
    m_curves.clear();
    const QPalette pal = palette();
    applyPaletteToPlot(this, pal); // all four axes, yAxis2 included
    styleLegend(this);
    stylePlaceholder(m_placeholder, this);

    // Which units are present decides the axes: throughput on the left, transactions/s on
    // the left too when alone, else on the right.
    struct Pending {
        int run;
        bool transactions;
        QList<QPointF> points;
    };
    QList<Pending> pending;
    double maxRate = 0, maxTps = 0, maxX = 0;
    for (int i = 0; i < m_overlay.merged.runs.size(); ++i) {
        const Run &run = m_overlay.merged.runs[i];
        if (!run.ok())
            continue;
        bool transactions = false;
        QList<QPointF> points = intervalPoints(run.result, &transactions);
        if (points.isEmpty())
            continue;
        double &peak = transactions ? maxTps : maxRate;
        for (const QPointF &p : std::as_const(points)) {
            peak = std::max(peak, p.y());
            maxX = std::max(maxX, p.x());
        }
        pending.append({i, transactions, points});
    }
    const bool haveRate = std::any_of(pending.begin(), pending.end(), [](const Pending &p) { return !p.transactions; });
    const bool haveTps = std::any_of(pending.begin(), pending.end(), [](const Pending &p) { return p.transactions; });
    QCPAxis *rateAxis = yAxis;
    QCPAxis *tpsAxis = haveRate ? yAxis2 : yAxis;
    yAxis2->setVisible(haveRate && haveTps);

    if (haveRate) {
        const double top = throughputAxisMax(maxRate);
        const RateUnit unit = rateUnitFor(top);
        static_cast<RateTicker *>(rateAxis->ticker().data())->setUnit(unit);
        rateAxis->setLabel(tr("Throughput (%1)").arg(unit.name));
        rateAxis->setRange(0, top);
    }
    if (haveTps) {
        const double top = niceCeiling(maxTps * 1.08);
        const DisplayUnit u = transactionsUnit(top);
        static_cast<RateTicker *>(tpsAxis->ticker().data())->setUnit(RateUnit{u.divisor, u.name});
        tpsAxis->setLabel(tr("Transactions (%1)").arg(u.name));
        tpsAxis->setRange(0, top);
    }
    if (!haveRate && !haveTps) {
        yAxis->setLabel(QString());
        yAxis->setRange(0, 1);
    }
    xAxis->setRange(0, maxX > 0 ? maxX : 1);

    // One legend entry per configuration: an empty graph carrying the style, since the
    // runs' own curves are many.
    QList<int> legendDone;
    for (const Pending &p : std::as_const(pending)) {
        const Run &run = m_overlay.merged.runs[p.run];
        const int config = run.configIndex;
        QPen pen(seriesColor(pal, groupIndex(m_overlay, config)), 1.6, sourceLineStyle(sourceIndex(m_overlay, config)));
        QCPAxis *valueAxis = p.transactions ? tpsAxis : rateAxis;
        if (!legendDone.contains(config)) {
            legendDone.append(config);
            QCPGraph *entry = addGraph(xAxis, valueAxis);
            QPen legendPen = pen;
            legendPen.setWidthF(2.2);
            entry->setPen(legendPen);
            entry->setName(configurationName(m_overlay, config));
        }
        QCPGraph *graph = addGraph(xAxis, valueAxis);
        graph->setPen(pen);
        graph->setName(tr("%1, run %2").arg(configurationName(m_overlay, config)).arg(run.repeatIndex + 1));
        graph->setProperty("transactions", p.transactions);
        graph->removeFromLegend();
        QVector<double> keys, values;
        for (const QPointF &pt : p.points) {
            keys.append(pt.x());
            values.append(pt.y());
        }
        graph->setData(keys, values, true);
        m_curves.append({p.run, config, p.transactions, graph});
    }
    legend->setVisible(!m_curves.isEmpty());
    showAxes(this, !m_curves.isEmpty());
    m_placeholder->setText(tr("No per-interval results"));
    m_placeholder->setVisible(m_curves.isEmpty());
    replot(rpQueuedReplot);
}

void ComparisonTimelineChart::draw(QCPPainter *painter)
{
    fitLegendToWidth(this, viewport().width());
    QCustomPlot::draw(painter);
}

void ComparisonTimelineChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        rebuild();
    QCustomPlot::changeEvent(event);
}

QString ComparisonTimelineChart::toCsv() const
{
    QString out = QStringLiteral("configuration,source,run,time_s,value,unit\n");
    for (const Curve &c : m_curves) {
        const Run &run = m_overlay.merged.runs[c.run];
        const QString prefix =
            QStringLiteral("%1,%2,%3,")
                .arg(csv::field(groupName(m_overlay, c.config)), csv::field(sourceName(m_overlay, c.config)))
                .arg(run.repeatIndex + 1);
        const QString unit = c.transactions ? QStringLiteral("1/s") : QStringLiteral("bit/s");
        for (auto it = c.graph->data()->constBegin(); it != c.graph->data()->constEnd(); ++it)
            out += prefix + QString::number(it->key, 'f', 3) + QLatin1Char(',') + csv::number(it->value) +
                   QLatin1Char(',') + unit + QLatin1Char('\n');
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// LatencyDistributionChart

namespace {

// Percentiles sampled densely enough for a smooth curve, denser in the tail where the
// differences between adapters show.
QList<double> cdfPercentiles()
{
    QList<double> out;
    for (int p = 0; p < 90; ++p)
        out.append(p);
    for (int i = 0; i < 36; ++i)
        out.append(90 + i * 0.25);
    for (int i = 0; i < 18; ++i)
        out.append(99 + i * 0.05);
    for (int i = 0; i < 10; ++i)
        out.append(99.9 + i * 0.01);
    out.append(100);
    return out;
}

} // namespace

LatencyDistributionChart::LatencyDistributionChart(QWidget *parent) : QCustomPlot(parent)
{
    setObjectName(QStringLiteral("latencyDistribution"));
    setMinimumSize(260, 200);
    setupLegend(this);
    m_placeholder = makePlaceholder(this);
    m_actions = new ChartActions(this, QStringLiteral("latency-distribution"), [this] { return toCsv(); });
    connect(this, &QCustomPlot::beforeReplot, this, [this] { fitLegendToWidth(this, viewport().width()); });
    m_actions->setTooltipProvider([this](const QPoint &pos) { return tooltipAt(pos); });
    m_actions->setValueFormatter([](const QCPGraph *, double value) {
        return tr("%1% of transactions").arg(formatSignificantDigits(value * 100, 3));
    });
    m_actions->setKeyFormatter([](double key) { return tr("at most %1").arg(formatLatencyUs(key)); });
    m_actions->setMenuExtender([this](QMenu *menu) {
        auto *group = new QActionGroup(menu);
        QAction *box = menu->addAction(tr("Box plot (p1, p25, p50, p75, p99)"));
        QAction *cdf = menu->addAction(tr("Cumulative distribution"));
        for (QAction *a : {box, cdf}) {
            a->setCheckable(true);
            group->addAction(a);
        }
        (m_mode == Mode::Box ? box : cdf)->setChecked(true);
        connect(box, &QAction::triggered, this, [this] { setMode(Mode::Box); });
        connect(cdf, &QAction::triggered, this, [this] { setMode(Mode::Cdf); });
    });
    rebuild();
}

void LatencyDistributionChart::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    rebuild();
}

void LatencyDistributionChart::setData(const ComparisonOverlay &overlay)
{
    m_overlay = overlay;
    m_hasOverlay = true;
    rebuild();
}

void LatencyDistributionChart::clearData()
{
    m_overlay = {};
    m_hasOverlay = false;
    rebuild();
}

bool LatencyDistributionChart::hasData() const
{
    return !m_data.isEmpty();
}

int LatencyDistributionChart::seriesCount() const
{
    return m_series;
}

void LatencyDistributionChart::rebuild()
{
    clearPlottables();
    m_data.clear();
    m_series = 0;
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::Text);

    const int sources = std::max(1, m_overlay.seriesCount());
    const double slot = kGroupWidth / sources;
    m_boxWidth = slot * 0.7;
    double maxP99 = 0;
    for (int config = 0; config < m_overlay.merged.configurations.size(); ++config) {
        Series s;
        s.config = config;
        s.group = groupIndex(m_overlay, config);
        s.source = sourceIndex(m_overlay, config);
        s.key = s.group + 1 + sourceOffset(s.source, sources, slot);
        for (const Run *run : m_overlay.merged.runsOf(config)) {
            if (!run->result.hasRr || run->result.rr.histogram.isEmpty())
                continue;
            s.histogram.merge(run->result.rr.histogram);
            ++s.runs;
        }
        if (s.histogram.isEmpty())
            continue;
        for (double p : cdfPercentiles()) {
            const double us = s.histogram.valueAtPercentile(p) / 1000.0;
            if (us > 0)
                s.cdf.append({us, p / 100});
        }
        maxP99 = std::max(maxP99, s.histogram.valueAtPercentile(99) / 1000.0);
        m_data.append(s);
    }

    xAxis->setScaleType(QCPAxis::stLinear);
    xAxis->setLabel(QString());
    xAxis->setTickLength(0, 0);
    xAxis->setSubTicks(false);
    yAxis->setLabel(QString());
    yAxis->setScaleType(QCPAxis::stLinear);
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));

    QList<bool> sourceInLegend(sources, false);
    if (m_mode == Mode::Box) {
        const DisplayUnit unit = latencyUnit(maxP99);
        m_unit = unit.name;
        m_divisor = unit.divisor;
        auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
        for (int g = 0; g < m_overlay.groupLabels.size(); ++g)
            ticker->addTick(g + 1, m_overlay.groupLabels[g]);
        xAxis->setTicker(ticker);
        xAxis->setRange(0.5, std::max(1, int(m_overlay.groupLabels.size())) + 0.5);
        xAxis->setLabel(tr("Whiskers p1 and p99, box p25 to p75, line p50"));
        yAxis->setLabel(tr("Latency (%1)").arg(m_unit));
        yAxis->setRange(0, niceCeiling(maxP99 / m_divisor * 1.08));
        for (const Series &s : std::as_const(m_data)) {
            auto *box = new QCPStatisticalBox(xAxis, yAxis);
            box->setName(sources > 1 ? m_overlay.seriesLabels.value(s.source) : configurationName(m_overlay, s.config));
            QColor fill = seriesColor(pal, s.source);
            fill.setAlpha(isDarkPalette(pal) ? 170 : 190);
            box->setBrush(fill);
            box->setPen(QPen(text, 1.2));
            box->setWhiskerPen(QPen(text, 1.2, Qt::SolidLine));
            box->setWhiskerBarPen(QPen(text, 1.4));
            box->setMedianPen(QPen(text, 2.6));
            box->setWidth(m_boxWidth);
            box->setWhiskerWidth(m_boxWidth * 0.5);
            box->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
            const auto at = [&](double p) { return s.histogram.valueAtPercentile(p) / 1000.0 / m_divisor; };
            box->addData(s.key, at(1), at(25), at(50), at(75), at(99));
            if (sources > 1 && !sourceInLegend[s.source])
                sourceInLegend[s.source] = true;
            else
                box->removeFromLegend();
            ++m_series;
        }
    } else {
        m_unit = QStringLiteral("us");
        m_divisor = 1;
        xAxis->setScaleType(QCPAxis::stLogarithmic);
        xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LatencyLogTicker));
        xAxis->setTickLength(0, 5);
        xAxis->setSubTicks(false);
        xAxis->setLabel(tr("Latency (log scale)"));
        yAxis->setLabel(tr("Fraction of transactions"));
        yAxis->setRange(0, 1.02);
        double lo = std::numeric_limits<double>::max(), hi = 0;
        for (const Series &s : std::as_const(m_data)) {
            QCPGraph *graph = addGraph(xAxis, yAxis);
            graph->setName(configurationName(m_overlay, s.config));
            graph->setPen(QPen(seriesColor(pal, s.group), 2.0, sourceLineStyle(s.source)));
            QVector<double> keys, values;
            for (const QPointF &p : s.cdf) {
                keys.append(p.x());
                values.append(p.y());
                lo = std::min(lo, p.x());
                hi = std::max(hi, p.x());
            }
            graph->setData(keys, values, true);
            ++m_series;
        }
        if (hi > 0)
            xAxis->setRange(lo / 1.3, hi * 1.3);
        else
            xAxis->setRange(1, 1000);
    }

    applyPaletteToPlot(this, pal);
    styleLegend(this);
    xAxis->grid()->setVisible(m_mode == Mode::Cdf);
    legend->setVisible(m_series > 0 && (m_mode == Mode::Cdf || sources > 1));
    stylePlaceholder(m_placeholder, this);
    showAxes(this, m_series > 0);
    if (m_mode == Mode::Box)
        xAxis->grid()->setVisible(false);
    m_placeholder->setText(m_hasOverlay ? tr("No request/response runs") : tr("No comparison loaded"));
    m_placeholder->setVisible(m_series == 0);
    replot(rpQueuedReplot);
}

void LatencyDistributionChart::draw(QCPPainter *painter)
{
    fitLegendToWidth(this, viewport().width());
    QCustomPlot::draw(painter);
}

void LatencyDistributionChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        rebuild();
    QCustomPlot::changeEvent(event);
}

QString LatencyDistributionChart::tooltipAt(const QPoint &pos) const
{
    if (m_mode != Mode::Box || !axisRect()->rect().contains(pos))
        return QString();
    const double halfWidth = std::abs(xAxis->coordToPixel(m_boxWidth / 2) - xAxis->coordToPixel(0));
    for (const Series &s : m_data) {
        if (std::abs(xAxis->coordToPixel(s.key) - pos.x()) > halfWidth)
            continue;
        const auto at = [&](double p) { return formatLatencyUs(s.histogram.valueAtPercentile(p) / 1000.0); };
        return tr("%1\n%2 transactions in %n run(s)\np99 %3\np75 %4\np50 %5\np25 %6\np1 %7", nullptr, s.runs)
            .arg(configurationName(m_overlay, s.config))
            .arg(s.histogram.count())
            .arg(at(99), at(75), at(50), at(25), at(1));
    }
    return QString();
}

QString LatencyDistributionChart::toCsv() const
{
    QString out;
    if (m_mode == Mode::Box) {
        out = QStringLiteral("configuration,source,runs,transactions,p1_us,p25_us,p50_us,p75_us,p99_us\n");
        for (const Series &s : m_data) {
            QStringList f{csv::field(groupName(m_overlay, s.config)), csv::field(sourceName(m_overlay, s.config)),
                          QString::number(s.runs), QString::number(s.histogram.count())};
            for (double p : {1.0, 25.0, 50.0, 75.0, 99.0})
                f.append(csv::number(s.histogram.valueAtPercentile(p) / 1000.0));
            out += f.join(QLatin1Char(',')) + QLatin1Char('\n');
        }
        return out;
    }
    out = QStringLiteral("configuration,source,latency_us,fraction\n");
    for (const Series &s : m_data) {
        const QString prefix = csv::field(groupName(m_overlay, s.config)) + QLatin1Char(',') +
                               csv::field(sourceName(m_overlay, s.config)) + QLatin1Char(',');
        for (const QPointF &p : s.cdf)
            out += prefix + csv::number(p.x()) + QLatin1Char(',') + csv::number(p.y()) + QLatin1Char('\n');
    }
    return out;
}

} // namespace nb::ui
