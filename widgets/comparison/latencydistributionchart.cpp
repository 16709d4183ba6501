// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison/latencydistributionchart.h"
#include "core/format.h"

#include "common/chartactions.h"
#include "common/chartstyle.h"
#include "common/chartzoom.h"
#include "common/ratescale.h"
#include "common/rrformat.h"
#include "comparison/comparisonchartparts.h"

#include <core/csv.h>

#include <QActionGroup>
#include <QFontMetricsF>
#include <QMenu>

#include <algorithm>
#include <limits>

namespace nb::ui {

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

LatencyDistributionChart::LatencyDistributionChart(QWidget *parent)
    : ComparisonChart(QStringLiteral("latencyDistribution"), QStringLiteral("latency-distribution"), parent)
{
    // Boxes zoom their latencies; the distribution (setMode) its latency axis.
    actions()->zoom()->setOrientation(Qt::Vertical);
    actions()->setValueFormatter([](const QCPGraph *, double value) {
        return tr("%1% of transactions").arg(nb::formatSignificant(value * 100, 3));
    });
    actions()->setKeyFormatter([](double key) { return tr("at most %1").arg(nb::formatMicroseconds(key)); });
    actions()->setMenuExtender([this](QMenu *menu) {
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
    actions()->zoom()->setOrientation(mode == Mode::Box ? Qt::Vertical : Qt::Horizontal);
    m_mode = mode;
    rebuild();
}

void LatencyDistributionChart::setData(const ComparisonOverlay &overlay)
{
    m_overlay = overlay;
    m_hasOverlay = true;
    ChartZoom::resetOf(this);
    rebuild();
}

void LatencyDistributionChart::clearData()
{
    m_overlay = {};
    m_hasOverlay = false;
    ChartZoom::resetOf(this);
    rebuild();
}

bool LatencyDistributionChart::hasData() const
{
    return !m_data.isEmpty();
}

int LatencyDistributionChart::seriesCount() const
{
    return int(m_data.size());
}

QStringList LatencyDistributionChart::categoryLabels() const
{
    QStringList out;
    for (int g : m_groups)
        out.append(m_overlay.groupLabels.value(g));
    return out;
}

double LatencyDistributionChart::collectSeries()
{
    // Group by variant like the bars: only RR variants, only series with latencies.
    double maxP99 = 0;
    int widest = 1;
    for (int g = 0; g < m_overlay.groupLabels.size(); ++g) {
        QList<Series> inGroup;
        for (int s = 0; s < m_overlay.seriesCount(); ++s) {
            const int config = m_overlay.configurationFor(g, s);
            if (config < 0)
                continue;
            Series series;
            series.config = config;
            series.group = int(m_groups.size());
            series.series = s;
            for (const Run *run : m_overlay.merged.runsOf(config)) {
                if (!run->result.hasRr || run->result.rr.histogram.isEmpty())
                    continue;
                series.histogram.merge(run->result.rr.histogram);
                ++series.runs;
            }
            if (series.histogram.isEmpty())
                continue;
            for (double p : cdfPercentiles()) {
                const double us = series.histogram.valueAtPercentile(p) / 1000.0;
                if (us > 0)
                    series.cdf.append({us, p / 100});
            }
            maxP99 = std::max(maxP99, series.histogram.valueAtPercentile(99) / 1000.0);
            inGroup.append(series);
        }
        if (inGroup.isEmpty())
            continue;
        m_groups.append(g);
        widest = std::max(widest, int(inGroup.size()));
        m_data += inGroup;
    }
    const double slot = kGroupWidth / widest;
    m_boxWidth = slot * 0.7;
    placeInGroups(m_data, slot);
    return maxP99;
}

void LatencyDistributionChart::drawBoxes(const QPalette &pal, double maxP99)
{
    const QColor text = pal.color(QPalette::Text);
    const DisplayUnit unit = latencyUnit(maxP99);
    m_unit = unit.name;
    m_divisor = unit.divisor;
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int i = 0; i < m_groups.size(); ++i)
        ticker->addTick(i + 1, m_overlay.groupLabels.value(m_groups[i]));
    xAxis->setTicker(ticker);
    xAxis->setRange(0.5, std::max(1, int(m_groups.size())) + 0.5);
    xAxis->setLabel(tr("Whiskers p1 and p99, box p25 to p75, line p50"));
    yAxis->setLabel(tr("Latency (%1)").arg(m_unit));
    yAxis->setRange(0, niceCeiling(std::max(maxP99, 1.0) / m_divisor * 1.08));
    QList<int> inLegend;
    for (const Series &s : std::as_const(m_data)) {
        auto *box = new QCPStatisticalBox(xAxis, yAxis);
        box->setName(m_overlay.seriesLabels.value(s.series));
        const QColor colour = adapterColor(pal, m_overlay.seriesAdapter.value(s.series, s.series));
        box->setBrush(sourceBrush(pal, colour, m_overlay.seriesSource.value(s.series)));
        box->setPen(QPen(text, 1.2));
        box->setWhiskerPen(QPen(text, 1.2, Qt::SolidLine));
        box->setWhiskerBarPen(QPen(text, 1.4));
        box->setMedianPen(QPen(text, 2.6));
        box->setWidth(m_boxWidth);
        box->setWhiskerWidth(m_boxWidth * 0.5);
        box->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
        const auto at = [&](double p) { return s.histogram.valueAtPercentile(p) / 1000.0 / m_divisor; };
        box->addData(s.key, at(1), at(25), at(50), at(75), at(99));
        if (inLegend.contains(s.series) || box->name().isEmpty())
            box->removeFromLegend();
        else
            inLegend.append(s.series);
    }
}

void LatencyDistributionChart::drawCdf(const QPalette &pal)
{
    m_unit = QStringLiteral("\u00b5s");
    m_divisor = 1;
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new LatencyLogTicker));
    xAxis->setTickLength(0, 5);
    xAxis->setSubTicks(false);
    xAxis->setLabel(tr("Latency (log scale)"));
    yAxis->setLabel(tr("Fraction of transactions"));
    yAxis->setRange(0, 1.02);
    double lo = std::numeric_limits<double>::max(), hi = 0;
    const bool manyVariants = m_groups.size() > 1;
    static constexpr QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
                                                               QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond};
    for (const Series &s : std::as_const(m_data)) {
        QCPGraph *graph = addGraph(xAxis, yAxis);
        QString name = m_overlay.seriesLabels.value(s.series);
        if (manyVariants)
            name += QStringLiteral(", ") + m_overlay.groupLabels.value(m_groups[s.group]);
        graph->setName(name);
        const QColor colour = adapterColor(pal, m_overlay.seriesAdapter.value(s.series, s.series));
        graph->setPen(QPen(colour, 2.0, sourceLineStyle(m_overlay.seriesSource.value(s.series))));
        if (manyVariants) {
            graph->setScatterStyle(QCPScatterStyle(shapes[std::size_t(s.group) % std::size(shapes)], colour, 5));
            graph->setScatterSkip(12);
        }
        QVector<double> keys, values;
        for (const QPointF &p : s.cdf) {
            keys.append(p.x());
            values.append(p.y());
            lo = std::min(lo, p.x());
            hi = std::max(hi, p.x());
        }
        graph->setData(keys, values, true);
    }
    if (hi > 0)
        xAxis->setRange(lo / 1.3, hi * 1.3);
    else
        xAxis->setRange(1, 1000);
}

void LatencyDistributionChart::rebuild()
{
    clearPlottables();
    m_data.clear();
    m_groups.clear();
    const QPalette pal = palette();
    const double maxP99 = collectSeries();

    xAxis->setScaleType(QCPAxis::stLinear);
    xAxis->setLabel(QString());
    xAxis->setTickLength(0, 0);
    xAxis->setSubTicks(false);
    yAxis->setLabel(QString());
    yAxis->setScaleType(QCPAxis::stLinear);
    yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new GroupedTicker));
    if (m_mode == Mode::Box)
        drawBoxes(pal, maxP99);
    else
        drawCdf(pal);

    applyPaletteToPlot(this, pal);
    styleCommon();
    legend->setVisible(!m_data.isEmpty() && legend->itemCount() > 0);
    legend->setMargins(legend->visible() ? QMargins(4, 4, 4, 2) : QMargins());
    setPlaceholder(!m_data.isEmpty() ? QString()
                   : m_hasOverlay    ? tr("No request/response runs")
                                     : tr("No comparison loaded"));
    xAxis->grid()->setVisible(m_mode == Mode::Cdf && !m_data.isEmpty());
    replot(rpQueuedReplot);
}

void LatencyDistributionChart::fitLayout()
{
    ComparisonChart::fitLayout();
    if (m_mode != Mode::Box || m_groups.isEmpty())
        return;
    updateLayout();
    const double groupPx = axisRect()->rect().width() / double(m_groups.size());
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    if (!ticker)
        return;
    const QFontMetricsF fm(xAxis->tickLabelFont());
    ticker->clear();
    for (int i = 0; i < m_groups.size(); ++i)
        ticker->addTick(i + 1, fitLabel(m_overlay.groupLabels.value(m_groups[i]), fm, groupPx - 8));
}

QString LatencyDistributionChart::tooltipAt(const QPoint &pos) const
{
    if (m_mode != Mode::Box || !axisRect()->rect().contains(pos))
        return QString();
    const double halfWidth = std::abs(xAxis->coordToPixel(m_boxWidth / 2) - xAxis->coordToPixel(0));
    for (const Series &s : m_data) {
        if (std::abs(xAxis->coordToPixel(s.key) - pos.x()) > halfWidth)
            continue;
        const auto at = [&](double p) { return nb::formatMicroseconds(s.histogram.valueAtPercentile(p) / 1000.0); };
        return tr("%1\n%2 transactions in %n run(s)\np99 %3\np75 %4\np50 %5\np25 %6\np1 %7", nullptr, s.runs)
            .arg(m_overlay.merged.configurations.value(s.config).label)
            .arg(s.histogram.count())
            .arg(at(99), at(75), at(50), at(25), at(1));
    }
    return QString();
}

QString LatencyDistributionChart::toCsv() const
{
    const auto prefix = [this](const Series &s) {
        const Configuration &conf = m_overlay.merged.configurations[s.config];
        return csv::field(conf.variantName()) + QLatin1Char(',') + csv::field(conf.adapterName()) + QLatin1Char(',') +
               csv::field(m_overlay.sourceNames.value(m_overlay.sourceOf.value(s.config))) + QLatin1Char(',');
    };
    QString out;
    if (m_mode == Mode::Box) {
        out = QStringLiteral("variant,adapter,source,runs,transactions,p1_us,p25_us,p50_us,p75_us,p99_us\n");
        for (const Series &s : m_data) {
            QStringList f{QString::number(s.runs), QString::number(s.histogram.count())};
            for (double p : {1.0, 25.0, 50.0, 75.0, 99.0})
                f.append(csv::number(s.histogram.valueAtPercentile(p) / 1000.0));
            out += prefix(s) + f.join(QLatin1Char(',')) + QLatin1Char('\n');
        }
        return out;
    }
    out = QStringLiteral("variant,adapter,source,latency_us,fraction\n");
    for (const Series &s : m_data) {
        const QString p = prefix(s);
        for (const QPointF &pt : s.cdf)
            out += p + csv::number(pt.x()) + QLatin1Char(',') + csv::number(pt.y()) + QLatin1Char('\n');
    }
    return out;
}

} // namespace nb::ui
