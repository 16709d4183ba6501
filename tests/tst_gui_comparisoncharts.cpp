// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison charts against the statistics they draw: grouped bars (one group per
// variant, one bar per series, values = statistics means in display units, no empty
// slots), deltas against the same variant's baseline, colours fixed per adapter in every
// chart and fill per source, CI whiskers clipped at 0, the timeline (one unit, x from the
// data's start), latency boxes and CDFs from the merged histograms, and CSV.
#include "comparisonchartdata.h"

#include <common/chartactions.h>
#include <common/chartstyle.h>
#include <comparison/comparisonchartparts.h>
#include <comparison/comparisoncharts.h>

#include <compare/comparisonstatistics.h>
#include <compare/comparisontable.h>

#include <qcustomplot.h>

#include <QTest>

#include <cmath>

using namespace nb;
using namespace nb::ui;
using namespace chartdata;

namespace {

template <typename T> QList<T *> plottablesOf(QCustomPlot *plot)
{
    QList<T *> out;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto *p = qobject_cast<T *>(plot->plottable(i)))
            out.append(p);
    return out;
}

QList<QCPItemText *> visibleTexts(QCustomPlot *plot)
{
    QList<QCPItemText *> out;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *t = qobject_cast<QCPItemText *>(plot->item(i)); t && t->visible())
            out.append(t);
    return out;
}

QStringList legendNames(const QCustomPlot *plot)
{
    QStringList out;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
            out.append(item->plottable()->name());
    return out;
}

// The bars' (key, value) in barConfigurations() order: series by series.
QList<QPointF> barPoints(QCustomPlot *plot)
{
    QList<QPointF> out;
    for (QCPBars *b : plottablesOf<QCPBars>(plot))
        for (int i = 0; i < b->dataCount(); ++i)
            out.append({b->data()->at(i)->key, b->data()->at(i)->value});
    return out;
}

QCPBars *barsNamed(QCustomPlot *plot, const QString &name)
{
    for (QCPBars *b : plottablesOf<QCPBars>(plot))
        if (b->property("fullName").toString() == name)
            return b;
    return nullptr;
}

} // namespace

class TestGuiComparisonCharts : public QObject {
    Q_OBJECT
private slots:
    void barsMatchStatistics_data();
    void barsMatchStatistics();
    void deltasAgainstSameVariant();
    void noEmptySlots();
    void coloursFixedPerAdapter();
    void overlayComparesLikeWithLike();
    void ciClippedAtZero();
    void emptyBarChart();
    void timeline();
    void timelineStartsWithData();
    void latencyBoxes();
    void latencyCdf();
    void csv();
};

void TestGuiComparisonCharts::barsMatchStatistics_data()
{
    QTest::addColumn<int>("metric");
    QTest::addColumn<QStringList>("groups");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("divisor");
    QTest::addColumn<QString>("title");
    const QStringList both{QStringLiteral("P=4"), QStringLiteral("TCP_RR")};
    const QStringList p4{QStringLiteral("P=4")}, rr{QStringLiteral("TCP_RR")};
    QTest::newRow("throughput") << int(Metric::Throughput) << p4 << QStringLiteral("Gbit/s") << 1e9
                                << QStringLiteral("Throughput");
    QTest::newRow("CPU per Gbit/s") << int(Metric::LocalCpuPerGbps) << p4 << QStringLiteral("% per Gbit/s") << 1.0
                                    << QStringLiteral("Client CPU per Gbit/s");
    QTest::newRow("service demand") << int(Metric::LocalServiceDemand) << p4 << QStringLiteral("\u00b5s/KB") << 1.0
                                    << QStringLiteral("Local service demand per KB");
    QTest::newRow("transactions") << int(Metric::TransactionsPerSecond) << rr << QStringLiteral("/s") << 1.0
                                  << QStringLiteral("Transactions/s");
    QTest::newRow("CPU per 1000/s") << int(Metric::LocalCpuPerKtps) << rr << QStringLiteral("% per 1000/s") << 1.0
                                    << QStringLiteral("Client CPU per 1000 transactions/s");
    QTest::newRow("latency p99") << int(Metric::LatencyP99) << rr << QStringLiteral("\u00b5s") << 1.0
                                 << QStringLiteral("Latency p99");
    QTest::newRow("local CPU") << int(Metric::LocalCpu) << both << QStringLiteral("%") << 1.0
                               << QStringLiteral("Local CPU");
}

void TestGuiComparisonCharts::barsMatchStatistics()
{
    QFETCH(int, metric);
    QFETCH(QStringList, groups);
    QFETCH(QString, unit);
    QFETCH(double, divisor);
    QFETCH(QString, title);
    const Metric m = Metric(metric);
    const ComparisonOverlay o = single(mixed());
    const ComparisonStatistics stats = computeStatistics(o.merged);
    ComparisonBarChart chart;
    chart.resize(420, 300);
    chart.setMetric(m);
    chart.setData(o, stats);
    chart.replot();

    QVERIFY(chart.hasData());
    QCOMPARE(chart.categoryLabels(), groups);
    QCOMPARE(chart.barCount(), 2 * int(groups.size()));
    QCOMPARE(chart.unitLabel(), unit);
    QCOMPARE(chart.yAxis->label(), unit);
    QCOMPARE(chart.title(), title);
    QCOMPARE(legendNames(&chart), (QStringList{QStringLiteral("E1000"), QStringLiteral("VMXNET3")}));
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(chart.xAxis->ticker());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), groups.size());

    const QList<int> configs = chart.barConfigurations();
    const QList<QPointF> points = barPoints(&chart);
    QCOMPARE(points.size(), configs.size());
    double top = 0;
    for (int i = 0; i < configs.size(); ++i) {
        const MetricStatistics *ms = stats.find(configs[i], m);
        QVERIFY(ms);
        QVERIFY2(qFuzzyCompare(points[i].y(), ms->summary.mean / divisor),
                 qPrintable(QStringLiteral("bar %1: %2 vs %3").arg(i).arg(points[i].y()).arg(ms->summary.mean)));
        // The bar stands in its variant's group.
        const QString variant = o.merged.configurations[configs[i]].variantName();
        QCOMPARE(int(std::lround(points[i].x())), int(groups.indexOf(variant)) + 1);
        top = std::max(top, ms->summary.ciHigh / divisor);
    }
    QCOMPARE(chart.yAxis->range().lower, 0.0);
    QVERIFY(chart.yAxis->range().upper > top * 1.05);
}

void TestGuiComparisonCharts::deltasAgainstSameVariant()
{
    const ComparisonOverlay o = single(mixed());
    const ComparisonStatistics stats = computeStatistics(o.merged);
    for (Metric m : {Metric::LocalCpu, Metric::Throughput, Metric::TransactionsPerSecond, Metric::LatencyP50}) {
        ComparisonBarChart chart;
        chart.resize(600, 320);
        chart.setMetric(m);
        chart.setData(o, stats);
        const QList<int> configs = chart.barConfigurations();
        const QStringList labels = chart.deltaLabels();
        QCOMPARE(labels.size(), configs.size());
        int compared = 0;
        for (int i = 0; i < configs.size(); ++i) {
            const Configuration &conf = o.merged.configurations[configs[i]];
            const MetricStatistics *ms = stats.find(configs[i], m);
            if (conf.adapterName() == QStringLiteral("E1000")) {
                QCOMPARE(labels[i], QStringLiteral("baseline"));
                continue;
            }
            // VMXNET3 of a variant against E1000 of the same variant.
            const int base = stats.configurations[configs[i]].baselineConfig;
            QCOMPARE(o.merged.configurations[base].variantName(), conf.variantName());
            QCOMPARE(o.merged.configurations[base].adapterName(), QStringLiteral("E1000"));
            QVERIFY(ms->hasBaseline);
            const QStringList lines = labels[i].split(QLatin1Char('\n'));
            QCOMPARE(lines.size(), 2);
            QCOMPARE(lines[0], ComparisonTable::formatDelta(ms->vsBaseline.difference));
            QCOMPARE(lines[1], verdictMarker(ms->vsBaseline, m));
            ++compared;
        }
        QCOMPARE(compared, configs.size() / 2);
    }
    // The wording readable without colour: VMXNET3 is faster, and uses less CPU per Gbit/s.
    ComparisonBarChart tput;
    tput.setData(o, stats);
    QCOMPARE(tput.deltaLabels().value(1).section(QLatin1Char('\n'), 1), QStringLiteral("\u25B2 faster"));
    ComparisonBarChart cpu;
    cpu.setMetric(Metric::LocalCpuPerGbps);
    cpu.setData(o, stats);
    QCOMPARE(cpu.deltaLabels().value(1).section(QLatin1Char('\n'), 1), QStringLiteral("\u25BC better"));
}

void TestGuiComparisonCharts::noEmptySlots()
{
    // E1000 has P=4 and P=16, VMXNET3 only P=4 and TCP_RR: the throughput chart has two
    // groups, the P=16 bar alone in the middle of its group, no TCP_RR group.
    const Comparison c = makeComparison({{QStringLiteral("E1000"), QStringLiteral("P=4"), 2.9},
                                         {QStringLiteral("VMXNET3"), QStringLiteral("P=4"), 4.7},
                                         {QStringLiteral("E1000"), QStringLiteral("P=16"), 3.1},
                                         {QStringLiteral("VMXNET3"), QStringLiteral("TCP_RR"), 31}});
    const ComparisonOverlay o = single(c);
    ComparisonBarChart chart;
    chart.resize(500, 300);
    chart.setData(o, computeStatistics(o.merged));
    chart.replot();
    QCOMPARE(chart.categoryLabels(), (QStringList{QStringLiteral("P=4"), QStringLiteral("P=16")}));
    QCOMPARE(chart.barCount(), 3);
    const QList<QPointF> points = barPoints(&chart);
    const QList<int> configs = chart.barConfigurations();
    for (int i = 0; i < configs.size(); ++i)
        if (configs[i] == 2)
            QCOMPARE(points[i].x(), 2.0);
    // The two P=4 bars side by side, symmetric about their tick, not overlapping.
    QList<double> p4;
    for (int i = 0; i < configs.size(); ++i)
        if (configs[i] < 2)
            p4.append(points[i].x());
    QCOMPARE(p4.size(), 2);
    QVERIFY(qFuzzyCompare(p4[0] + p4[1], 2.0));
    const double width = plottablesOf<QCPBars>(&chart).first()->width();
    QVERIFY(std::abs(p4[0] - p4[1]) >= width);
    // No P=16 bar for VMXNET3: the VMXNET3 series holds one bar.
    QCOMPARE(barsNamed(&chart, QStringLiteral("VMXNET3"))->dataCount(), 1);
}

void TestGuiComparisonCharts::coloursFixedPerAdapter()
{
    // VMXNET3 keeps its colour in every chart, even where E1000 has no bar.
    const Comparison c = makeComparison({{QStringLiteral("E1000"), QStringLiteral("TCP_RR"), 62},
                                         {QStringLiteral("VMXNET3"), QStringLiteral("TCP_RR"), 31},
                                         {QStringLiteral("VMXNET3"), QStringLiteral("P=4"), 4.7}});
    const ComparisonOverlay o = single(c);
    const ComparisonStatistics stats = computeStatistics(o.merged);
    const QPalette pal;
    const QColor e1000 = seriesColor(pal, 0), vmxnet3 = seriesColor(pal, 1);
    QVERIFY(e1000 != vmxnet3);
    ComparisonBarChart tput, tps;
    tput.setData(o, stats);
    tps.setMetric(Metric::TransactionsPerSecond);
    tps.setData(o, stats);
    QCOMPARE(tput.barCount(), 1);
    QCOMPARE(barsNamed(&tput, QStringLiteral("VMXNET3"))->brush().color().rgb(), vmxnet3.rgb());
    QCOMPARE(barsNamed(&tps, QStringLiteral("VMXNET3"))->brush().color().rgb(), vmxnet3.rgb());
    QCOMPARE(barsNamed(&tps, QStringLiteral("E1000"))->brush().color().rgb(), e1000.rgb());

    LatencyDistributionChart latency;
    latency.setData(o);
    for (QCPStatisticalBox *box : plottablesOf<QCPStatisticalBox>(&latency))
        QCOMPARE(box->brush().color().rgb(), (box->name() == QStringLiteral("VMXNET3") ? vmxnet3 : e1000).rgb());

    ComparisonTimelineChart timeline;
    timeline.setData(o);
    QCOMPARE(timeline.kind(), ComparisonTimelineChart::Kind::Throughput);
    QVERIFY(timeline.curveCount() > 0);
    for (int i = 0; i < timeline.graphCount(); ++i)
        QCOMPARE(timeline.graph(i)->pen().color(), vmxnet3);
    timeline.setKind(ComparisonTimelineChart::Kind::Transactions);
    for (int i = 0; i < timeline.graphCount(); ++i)
        QCOMPARE(timeline.graph(i)->pen().color(),
                 timeline.graph(i)->name().startsWith(QStringLiteral("VMXNET3")) ? vmxnet3 : e1000);

    // Dark palette: the dark table, same index.
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    tps.setPalette(dark);
    QCOMPARE(barsNamed(&tps, QStringLiteral("VMXNET3"))->brush().color().rgb(), seriesColor(dark, 1).rgb());
    for (QCPItemText *t : visibleTexts(&tps))
        QCOMPARE(t->color(), dark.color(QPalette::Text));
}

void TestGuiComparisonCharts::overlayComparesLikeWithLike()
{
    const ComparisonOverlay o = beforeAfter(mixed(), mixed(1.3));
    const ComparisonStatistics stats = computeStatistics(o.merged);
    ComparisonBarChart chart;
    chart.resize(800, 400);
    chart.setData(o, stats);
    chart.replot();
    QCOMPARE(chart.barCount(), 4);
    QCOMPARE(legendNames(&chart), (QStringList{QStringLiteral("E1000 (before)"), QStringLiteral("VMXNET3 (before)"),
                                               QStringLiteral("E1000 (after)"), QStringLiteral("VMXNET3 (after)")}));
    // Same colour per adapter, another fill for the other source.
    QCPBars *before = barsNamed(&chart, QStringLiteral("VMXNET3 (before)"));
    QCPBars *after = barsNamed(&chart, QStringLiteral("VMXNET3 (after)"));
    QVERIFY(before && after);
    QCOMPARE(before->brush().style(), Qt::SolidPattern);
    QCOMPARE(after->brush().style(), Qt::TexturePattern);
    QCOMPARE(before->pen().color(), after->pen().color());
    QVERIFY(before->pen().color() != barsNamed(&chart, QStringLiteral("E1000 (after)"))->pen().color());
    // Each "after" bar against the same adapter and variant "before".
    const QList<int> configs = chart.barConfigurations();
    const QStringList labels = chart.deltaLabels();
    for (int i = 0; i < configs.size(); ++i) {
        const int config = configs[i];
        if (o.sourceOf[config] == 0) {
            QCOMPARE(labels[i], QStringLiteral("baseline"));
            continue;
        }
        const int base = stats.configurations[config].baselineConfig;
        QCOMPARE(o.sourceOf[base], 0);
        QCOMPARE(o.adapterOf[base], o.adapterOf[config]);
        QCOMPARE(o.groupOf[base], o.groupOf[config]);
        QVERIFY2(labels[i].startsWith(QStringLiteral("+30.")), qPrintable(labels[i]));
    }
    QVERIFY(chart.toCsv().contains(QStringLiteral(",VMXNET3,after,\"VMXNET3, P=4 (before)\",")));
}

void TestGuiComparisonCharts::ciClippedAtZero()
{
    // Runs at 0.2x, 1.2x and 2x the level: the 95% interval of three runs reaches below 0.
    const Comparison c = makeComparison(
        {{QStringLiteral("E1000"), QString(), 1.0}, {QStringLiteral("VMXNET3"), QString(), 2.0}}, 1.0, 40.0);
    const ComparisonOverlay o = single(c);
    const ComparisonStatistics stats = computeStatistics(o.merged);
    QVERIFY(stats.find(0, Metric::Throughput)->summary.ciLow < 0);
    ComparisonBarChart chart;
    chart.resize(600, 400);
    chart.setData(o, stats);
    chart.replot();
    QCPErrorBars *errors = plottablesOf<QCPErrorBars>(&chart).first();
    QCPBars *bars = barsNamed(&chart, QStringLiteral("E1000"));
    QCOMPARE(errors->dataPlottable(), bars);
    const double mean = bars->data()->at(0)->value;
    QCOMPARE(errors->data()->at(0).errorMinus, mean); // the whisker stops at 0
    QVERIFY(
        qFuzzyCompare(mean + errors->data()->at(0).errorPlus, stats.find(0, Metric::Throughput)->summary.ciHigh / 1e9));
    const QPointF top = bars->dataPixelPosition(0);
    const QPoint inside(int(top.x()), int((top.y() + chart.yAxis->coordToPixel(0)) / 2));
    const QString tip = chart.actions()->tooltipAt(inside);
    QVERIFY2(tip.startsWith(QStringLiteral("E1000\nMean ")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("CI clipped at 0")), qPrintable(tip));
}

void TestGuiComparisonCharts::emptyBarChart()
{
    ComparisonBarChart chart;
    chart.setMetric(Metric::TransactionsPerSecond);
    const ComparisonOverlay o = single(adapters());
    chart.setData(o, computeStatistics(o.merged));
    QVERIFY(!chart.hasData());
    QCOMPARE(chart.barCount(), 0);
    QCOMPARE(chart.categoryLabels(), QStringList());
    const QList<QCPItemText *> texts = visibleTexts(&chart);
    QCOMPARE(texts.size(), 1);
    QVERIFY(texts.first()->text().startsWith(QStringLiteral("No ")));
    QVERIFY(!chart.xAxis->visible());
    // One unnamed variant: bars, and no axis text.
    ComparisonBarChart one;
    one.setData(o, computeStatistics(o.merged));
    QCOMPARE(one.categoryLabels(), QStringList{QString()});
    QCOMPARE(one.barCount(), 3);
}

void TestGuiComparisonCharts::timeline()
{
    Comparison c = mixed();
    const ComparisonOverlay o = single(c);
    ComparisonTimelineChart chart;
    chart.resize(800, 400);
    chart.setData(o);
    // Throughput and transactions in one comparison: one unit at a time, never twin axes.
    QVERIFY(chart.hasKind(ComparisonTimelineChart::Kind::Throughput));
    QVERIFY(chart.hasKind(ComparisonTimelineChart::Kind::Transactions));
    QCOMPARE(chart.kind(), ComparisonTimelineChart::Kind::Throughput);
    QCOMPARE(chart.curveCount(), 6);
    QVERIFY(!chart.yAxis2->visible());
    QCOMPARE(chart.yAxis->label(), QStringLiteral("Gbit/s"));
    QVERIFY(chart.title().startsWith(QStringLiteral("Throughput")));
    QCOMPARE(legendNames(&chart), (QStringList{QStringLiteral("E1000"), QStringLiteral("VMXNET3")}));
    // The first interval of the first throughput run, in bit/s.
    const Run *run = o.merged.runsOf(0).first();
    const double expected = run->result.intervals.first().streams.first().bitsPerSecond();
    bool found = false;
    for (int i = 0; i < chart.graphCount() && !found; ++i)
        found = chart.graph(i)->dataCount() > 0 && qFuzzyCompare(chart.graph(i)->data()->at(0)->value, expected);
    QVERIFY(found);
    QCOMPARE(chart.toCsv().trimmed().split(QLatin1Char('\n')).size(), 1 + 6 * 6);

    chart.setKind(ComparisonTimelineChart::Kind::Transactions);
    QCOMPARE(chart.curveCount(), 6);
    QCOMPARE(chart.yAxis->label(), QStringLiteral("/s"));
    QVERIFY(!chart.yAxis2->visible());
    QVERIFY(chart.toCsv().contains(QStringLiteral(",1/s\n")));
    QVERIFY(!chart.toCsv().contains(QStringLiteral("bit/s")));

    // Two sources: same colour per adapter, different line styles.
    ComparisonTimelineChart overlay;
    overlay.setData(beforeAfter(adapters(), adapters(1.15)));
    QCOMPARE(overlay.curveCount(), 18);
    QCOMPARE(legendNames(&overlay).size(), 6);
    QPen before, after;
    for (int i = 0; i < overlay.graphCount(); ++i) {
        if (overlay.graph(i)->name() == QStringLiteral("E1000 (before)"))
            before = overlay.graph(i)->pen();
        if (overlay.graph(i)->name() == QStringLiteral("E1000 (after)"))
            after = overlay.graph(i)->pen();
    }
    QCOMPARE(before.color(), after.color());
    QVERIFY(before.style() != after.style());
}

void TestGuiComparisonCharts::timelineStartsWithData()
{
    ComparisonTimelineChart chart;
    chart.setData(single(adapters()));
    QCOMPARE(chart.xAxis->range().lower, 0.0);
    QCOMPARE(chart.xAxis->range().upper, 6.0);
    // Intervals from 5 s to 11 s (warm-up omitted elsewhere): the axis starts at 5, not 0.
    const Comparison late = makeComparison({{QStringLiteral("E1000"), QString(), 2.9}}, 1.0, 1.0, 5.0);
    chart.setData(single(late));
    QCOMPARE(chart.xAxis->range().lower, 5.0);
    QCOMPARE(chart.xAxis->range().upper, 11.0);
}

void TestGuiComparisonCharts::latencyBoxes()
{
    const Comparison c = mixed();
    const ComparisonOverlay o = single(c);
    LatencyDistributionChart chart;
    chart.resize(420, 300);
    chart.setData(o);
    QVERIFY(chart.hasData());
    QCOMPARE(chart.seriesCount(), 2);
    QCOMPARE(chart.categoryLabels(), QStringList{QStringLiteral("TCP_RR")});
    QCOMPARE(chart.unitLabel(), QStringLiteral("\u00b5s"));
    const QList<QCPStatisticalBox *> boxes = plottablesOf<QCPStatisticalBox>(&chart);
    QCOMPARE(boxes.size(), 2);
    for (int i = 0; i < 2; ++i) {
        const int config = 2 + i; // E1000 TCP_RR, VMXNET3 TCP_RR
        LatencyHistogram merged;
        for (const Run *r : c.runsOf(config))
            merged.merge(r->result.rr.histogram);
        const QCPStatisticalBoxData &d = *boxes[i]->data()->at(0);
        QCOMPARE(d.minimum, merged.valueAtPercentile(1) / 1000.0);
        QCOMPARE(d.median, merged.valueAtPercentile(50) / 1000.0);
        QCOMPARE(d.maximum, merged.valueAtPercentile(99) / 1000.0);
        QVERIFY(std::abs(d.key - 1.0) < 0.5);
    }
    QCOMPARE(legendNames(&chart), (QStringList{QStringLiteral("E1000"), QStringLiteral("VMXNET3")}));

    LatencyDistributionChart slow;
    slow.setData(single(mixed(40)));
    QCOMPARE(slow.unitLabel(), QStringLiteral("ms"));

    LatencyDistributionChart none;
    none.setData(single(adapters()));
    QVERIFY(!none.hasData());
    QCOMPARE(visibleTexts(&none).size(), 1);
    QCOMPARE(visibleTexts(&none).first()->text(), QStringLiteral("No request/response runs"));
}

void TestGuiComparisonCharts::latencyCdf()
{
    const Comparison c = mixed();
    LatencyDistributionChart chart;
    chart.setMode(LatencyDistributionChart::Mode::Cdf);
    chart.setData(single(c));
    QCOMPARE(chart.seriesCount(), 2);
    QCOMPARE(chart.graphCount(), 2);
    QCOMPARE(chart.xAxis->scaleType(), QCPAxis::stLogarithmic);
    for (int i = 0; i < chart.graphCount(); ++i) {
        const auto data = chart.graph(i)->data();
        QVERIFY(data->size() > 50);
        double lastKey = 0, lastValue = -1;
        for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
            QVERIFY(it->key >= lastKey);
            QVERIFY(it->value >= lastValue);
            lastKey = it->key;
            lastValue = it->value;
        }
        QCOMPARE((data->constEnd() - 1)->value, 1.0);
    }
    QCOMPARE(chart.graph(1)->pen().color(), seriesColor(chart.palette(), 1));
    QVERIFY(chart.toCsv().startsWith(QStringLiteral("variant,adapter,source,latency_us,fraction\n")));
    chart.setMode(LatencyDistributionChart::Mode::Box);
    QCOMPARE(plottablesOf<QCPStatisticalBox>(&chart).size(), 2);
    QCOMPARE(chart.graphCount(), 0);
}

void TestGuiComparisonCharts::csv()
{
    const ComparisonOverlay o = single(mixed());
    ComparisonBarChart chart;
    chart.setData(o, computeStatistics(o.merged));
    const QStringList lines = chart.actions()->csv().trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.first(), QStringLiteral("variant,adapter,source,compared_with,unit,n,mean,ci95_low,ci95_high,"
                                           "relative,relative_ci95_low,relative_ci95_high,verdict"));
    QCOMPARE(lines.size(), 1 + chart.barCount());
    QVERIFY2(lines[1].startsWith(QStringLiteral("P=4,E1000,adapters.nicbench,,bit/s,3,")), qPrintable(lines[1]));
    QVERIFY(lines[1].endsWith(QStringLiteral(",baseline")));
    QVERIFY2(lines[2].startsWith(QStringLiteral("P=4,VMXNET3,adapters.nicbench,\"E1000, P=4\",bit/s,3,")),
             qPrintable(lines[2]));
    QVERIFY(lines[2].endsWith(QStringLiteral(",faster")));

    LatencyDistributionChart latency;
    latency.setData(o);
    const QStringList box = latency.actions()->csv().trimmed().split(QLatin1Char('\n'));
    QCOMPARE(box.size(), 3);
    QVERIFY(box.first().startsWith(QStringLiteral("variant,adapter,source,runs,transactions,p1_us")));
    QVERIFY(box[1].startsWith(QStringLiteral("TCP_RR,E1000,")));
}

QTEST_MAIN(TestGuiComparisonCharts)
#include "tst_gui_comparisoncharts.moc"
