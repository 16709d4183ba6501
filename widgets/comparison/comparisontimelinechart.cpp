// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison/comparisontimelinechart.h"
#include "core/format.h"

#include "common/chartactions.h"
#include "common/chartstyle.h"
#include "common/chartzoom.h"
#include "common/ratescale.h"
#include "common/rateticker.h"
#include "common/rrformat.h"
#include "comparison/comparisonchartparts.h"

#include <core/csv.h>

#include <QActionGroup>
#include <QMenu>

#include <algorithm>
#include <limits>

namespace nb::ui {

namespace {

using Points = TimelineRun;

// Per-interval value of a run: received bit/s summed over the directions it carried, or
// transactions/s for request/response runs. Warm-up intervals are left out.
Points intervalPoints(const TestResult &result)
{
    Points out;
    out.transactions = result.hasRr;
    out.start = std::numeric_limits<double>::max();
    for (const IntervalReport &report : result.intervals) {
        if (result.hasRr) {
            if (report.hasRr && report.rr.end > report.rr.start) {
                out.points.append({report.rr.end, report.rr.transactionsPerSecond()});
                out.starts.append(report.rr.start);
                out.start = std::min(out.start, report.rr.start);
            }
            continue;
        }
        double bps = 0, start = -1, end = -1;
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
            start = start < 0 ? sum.start : std::min(start, sum.start);
        }
        if (!omitted && end >= 0) {
            out.points.append({end, bps});
            out.starts.append(start);
            out.start = std::min(out.start, start);
        }
    }
    return out;
}

QCPScatterStyle variantShape(int variant, const QColor &colour)
{
    static constexpr QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssNone,    QCPScatterStyle::ssCircle,
                                                               QCPScatterStyle::ssSquare,  QCPScatterStyle::ssTriangle,
                                                               QCPScatterStyle::ssDiamond, QCPScatterStyle::ssCross};
    const auto shape = shapes[std::size_t(std::max(variant, 0)) % std::size(shapes)];
    return QCPScatterStyle(shape, colour, 5);
}

} // namespace

ComparisonTimelineChart::ComparisonTimelineChart(QWidget *parent)
    : ComparisonChart(QStringLiteral("comparisonTimeline"), QStringLiteral("comparison-timeline"), parent)
{
    m_title = addTitleRow();
    legend->setIconSize(26, 10);
    xAxis->setLabel(tr("Seconds since run start"));
    yAxis2->setVisible(false);
    actions()->setValueFormatter([this](const QCPGraph *, double value) {
        return m_shown == Kind::Transactions ? nb::formatTransactionsPerSecond(value) : nb::formatBitrate(value);
    });
    actions()->setMenuExtender([this](QMenu *menu) {
        if (!(m_hasRate && m_hasTps))
            return;
        auto *group = new QActionGroup(menu);
        QAction *rate = menu->addAction(tr("Show throughput"));
        QAction *tps = menu->addAction(tr("Show transactions/s"));
        for (QAction *a : {rate, tps}) {
            a->setCheckable(true);
            group->addAction(a);
        }
        (m_shown == Kind::Throughput ? rate : tps)->setChecked(true);
        connect(rate, &QAction::triggered, this, [this] { setKind(Kind::Throughput); });
        connect(tps, &QAction::triggered, this, [this] { setKind(Kind::Transactions); });
    });
    rebuild();
}

void ComparisonTimelineChart::setData(const ComparisonOverlay &overlay)
{
    m_overlay = overlay;
    ChartZoom::resetOf(this);
    rebuild();
}

void ComparisonTimelineChart::clearData()
{
    m_overlay = {};
    ChartZoom::resetOf(this);
    rebuild();
}

void ComparisonTimelineChart::setKind(Kind kind)
{
    m_wanted = kind;
    ChartZoom::resetOf(this);
    rebuild();
}

bool ComparisonTimelineChart::hasKind(Kind kind) const
{
    return kind == Kind::Throughput ? m_hasRate : m_hasTps;
}

int ComparisonTimelineChart::curveCount() const
{
    return int(m_curves.size());
}

QString ComparisonTimelineChart::title() const
{
    return m_title->text();
}

QList<TimelineRun> ComparisonTimelineChart::collectRuns() const
{
    QList<TimelineRun> all;
    for (int i = 0; i < m_overlay.merged.runs.size(); ++i) {
        const Run &run = m_overlay.merged.runs[i];
        if (!run.ok())
            continue;
        TimelineRun p = intervalPoints(run.result);
        p.run = i;
        if (!p.points.isEmpty())
            all.append(p);
    }
    return all;
}

void ComparisonTimelineChart::chooseKind(const QList<TimelineRun> &all)
{
    m_hasRate = std::any_of(all.begin(), all.end(), [](const TimelineRun &p) { return !p.transactions; });
    m_hasTps = std::any_of(all.begin(), all.end(), [](const TimelineRun &p) { return p.transactions; });
    m_shown = m_wanted;
    if (!hasKind(m_shown) && hasKind(m_shown == Kind::Throughput ? Kind::Transactions : Kind::Throughput))
        m_shown = m_shown == Kind::Throughput ? Kind::Transactions : Kind::Throughput;
}

void ComparisonTimelineChart::setUpAxes(const QPalette &pal, double peak)
{
    const bool tps = m_shown == Kind::Transactions;
    const QString other =
        m_hasRate && m_hasTps ? tr(" (right-click: %1)").arg(tps ? tr("throughput") : tr("transactions/s")) : QString();
    m_title->setText((tps ? tr("Transactions/s per interval") : tr("Throughput per interval")) + other);
    QFont titleFont = font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextColor(pal.color(QPalette::Text));

    if (tps) {
        yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new GroupedTicker));
        yAxis->setLabel(QStringLiteral("/s"));
        yAxis->setRange(0, niceCeiling(std::max(peak, 1.0) * 1.08));
    } else {
        const double top = throughputAxisMax(std::max(peak, 1.0));
        auto ticker = QSharedPointer<RateTicker>(new RateTicker);
        ticker->setUnit(rateUnitFor(top));
        yAxis->setTicker(ticker);
        yAxis->setLabel(ticker->unit().name);
        yAxis->setRange(0, top);
    }
}

void ComparisonTimelineChart::addRunCurve(const QPalette &pal, const TimelineRun &p, int variant, bool manyVariants,
                                          QList<QPair<int, int>> &legendDone)
{
    const Run &run = m_overlay.merged.runs[p.run];
    const int config = run.configIndex;
    const int series = m_overlay.seriesOf.value(config);
    const QColor colour = adapterColor(pal, m_overlay.adapterOf.value(config));
    const QPen pen(colour, 1.6, sourceLineStyle(m_overlay.sourceOf.value(config)));
    const QCPScatterStyle shape = variantShape(manyVariants ? variant + 1 : 0, colour);
    const Configuration &conf = m_overlay.merged.configurations[config];
    QString name = m_overlay.seriesLabels.value(series);
    if (manyVariants && !conf.variantName().isEmpty())
        name += QStringLiteral(", ") + conf.variantName();
    // One legend entry per series (and variant): an empty graph carrying the style, since
    // the runs' own curves are many.
    if (!legendDone.contains(qMakePair(series, variant))) {
        legendDone.append(qMakePair(series, variant));
        QCPGraph *entry = addGraph();
        QPen legendPen = pen;
        legendPen.setWidthF(2.2);
        entry->setPen(legendPen);
        entry->setScatterStyle(shape);
        entry->setName(name);
    }
    QCPGraph *graph = addGraph();
    graph->setPen(pen);
    graph->setScatterStyle(shape);
    graph->setName(tr("%1, run %2").arg(name).arg(run.repeatIndex + 1));
    graph->removeFromLegend();
    // A step per interval, from its start to its end: the value is the interval's
    // average, and the curve covers the time it was measured over.
    graph->setLineStyle(QCPGraph::lsStepLeft);
    QVector<double> keys, values;
    for (int k = 0; k < p.points.size(); ++k) {
        keys.append(p.starts[k]);
        values.append(p.points[k].y());
    }
    keys.append(p.points.constLast().x());
    values.append(p.points.constLast().y());
    graph->setData(keys, values, true);
    m_curves.append({p.run, config, graph, p.points});
}

void ComparisonTimelineChart::rebuild()
{
    clearGraphs();
    m_curves.clear();
    const QPalette pal = palette();
    applyPaletteToPlot(this, pal);
    styleCommon();

    const QList<TimelineRun> all = collectRuns();
    chooseKind(all);
    const bool tps = m_shown == Kind::Transactions;

    // Variants of the shown kind: a point shape each when there are several.
    QList<int> variants;
    double peak = 0, minX = std::numeric_limits<double>::max(), maxX = 0;
    QList<TimelineRun> shown;
    for (const TimelineRun &p : all) {
        if (p.transactions != tps)
            continue;
        shown.append(p);
        const int g = m_overlay.groupOf.value(m_overlay.merged.runs[p.run].configIndex);
        if (!variants.contains(g))
            variants.append(g);
        minX = std::min(minX, p.start);
        for (const QPointF &pt : p.points) {
            peak = std::max(peak, pt.y());
            maxX = std::max(maxX, pt.x());
        }
    }
    setUpAxes(pal, peak);
    xAxis->setRange(shown.isEmpty() ? 0 : minX, maxX > minX ? maxX : minX + 1);

    QList<QPair<int, int>> legendDone;
    for (const TimelineRun &p : std::as_const(shown)) {
        const int variant = int(variants.indexOf(m_overlay.groupOf.value(m_overlay.merged.runs[p.run].configIndex)));
        addRunCurve(pal, p, variant, variants.size() > 1, legendDone);
    }
    legend->setVisible(!m_curves.isEmpty());
    setPlaceholder(m_curves.isEmpty() ? tr("No per-interval results") : QString());
    replot(rpQueuedReplot);
}

QString ComparisonTimelineChart::toCsv() const
{
    QString out = QStringLiteral("variant,adapter,source,run,time_s,value,unit\n");
    const QString unit = m_shown == Kind::Transactions ? QStringLiteral("1/s") : QStringLiteral("bit/s");
    for (const Curve &c : m_curves) {
        const Run &run = m_overlay.merged.runs[c.run];
        const Configuration &conf = m_overlay.merged.configurations[c.config];
        const QString prefix = QStringLiteral("%1,%2,%3,%4,")
                                   .arg(csv::field(conf.variantName()), csv::field(conf.adapterName()),
                                        csv::field(m_overlay.sourceNames.value(m_overlay.sourceOf.value(c.config))))
                                   .arg(run.repeatIndex + 1);
        for (const QPointF &pt : c.points)
            out += prefix + QString::number(pt.x(), 'f', 3) + QLatin1Char(',') + csv::number(pt.y()) +
                   QLatin1Char(',') + unit + QLatin1Char('\n');
    }
    return out;
}

} // namespace nb::ui
