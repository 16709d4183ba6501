// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison view's charts and table model, fed with comparisons of known results
// (E1000 / E1000E / VMXNET3, three runs each): bars, error bars and delta labels against
// the statistics, overlays of two sources, the timeline, latency boxes and CDFs against
// the merged histograms, and exports that must produce valid files atomically.
//
// With NICBENCH_CHART_SHOTS=<dir> set, screenshots() writes PNGs of every chart in light
// and dark palettes at two sizes there, for people to look at.
#include <chartactions.h>
#include <chartstyle.h>
#include <comparisoncharts.h>
#include <comparisontablemodel.h>

#include <compare/comparisonoverlay.h>
#include <compare/comparisonstatistics.h>
#include <compare/comparisontable.h>

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#if __has_include(<QSvgRenderer>)
#include <QPainter>
#include <QSvgRenderer>
#endif

#include <cmath>

using namespace nb;
using namespace nb::ui;

namespace {

const QStringList kAdapters{QStringLiteral("E1000"), QStringLiteral("E1000E"), QStringLiteral("VMXNET3")};

// Deterministic spread between runs: -2%, +0.5%, +2.5% of the configuration's level.
constexpr double kRunFactor[] = {0.98, 1.005, 1.025};

TestResult streamResult(double gbps, double cpuPct, int seed)
{
    TestResult r;
    r.params.duration = 6;
    r.params.streams = 1;
    const double seconds = 6;
    StreamSummary s;
    s.id = 5;
    s.seconds = seconds;
    s.receiverSeconds = seconds;
    s.bytesSent = s.bytesReceived = std::uint64_t(gbps * 1e9 / 8 * seconds);
    r.streams.append(s);
    for (int i = 0; i < int(seconds); ++i) {
        IntervalReport ir;
        StreamInterval si;
        si.id = 5;
        si.start = i;
        si.end = i + 1;
        // A ramp in the first second and a little wobble, as real runs have.
        const double level = (i == 0 ? 0.8 : 1.0) * (1 + 0.03 * std::sin(i * 1.7 + seed));
        si.bytes = std::uint64_t(gbps * level * 1e9 / 8);
        ir.streams.append(si);
        r.intervals.append(ir);
    }
    r.localCpuKnown = true;
    r.localCpu.end = seconds;
    r.localCpu.cpuCount = 4;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = cpuPct * (1 + 0.04 * std::sin(seed * 2.3));
    return r;
}

// Latencies around `typicalUs` with a long tail, from a fixed pseudo-random sequence.
TestResult rrResult(double typicalUs, int seed)
{
    TestResult r;
    r.params.kind = TestKind::Rr;
    r.params.duration = 4;
    r.hasRr = true;
    r.rr.seconds = 4;
    quint32 state = 2463534242u + quint32(seed) * 7919u;
    const auto next = [&state] {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return (state & 0xffffff) / double(0x1000000);
    };
    const int samples = 4000;
    for (int i = 0; i < samples; ++i) {
        const double u = next();
        // Mostly near typicalUs, 2% in a tail up to 6x.
        const double us = u < 0.98 ? typicalUs * (0.8 + 0.5 * next()) : typicalUs * (1.5 + 4.5 * next());
        r.rr.histogram.record(std::int64_t(us * 1000));
    }
    // One connection, one transaction in flight: the rate follows the latency.
    r.rr.transactions = std::uint64_t(r.rr.seconds * 1e6 / (typicalUs * 1.02));
    r.rr.latencyUs = r.rr.histogram.summary();
    for (int i = 0; i < 4; ++i) {
        IntervalReport ir;
        ir.hasRr = true;
        ir.rr.start = i;
        ir.rr.end = i + 1;
        ir.rr.transactions = std::uint64_t(r.rr.transactions / 4 * (1 + 0.02 * ((i + seed) % 3)));
        r.intervals.append(ir);
    }
    r.localCpuKnown = true;
    r.localCpu.end = 4;
    r.localCpu.cpuCount = 4;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = (10 + typicalUs / 10) * (1 + 0.05 * std::sin(seed));
    return r;
}

Comparison makeComparison(const QStringList &labels, const QList<double> &levels, bool rr, double scale = 1.0)
{
    Comparison c;
    c.title = rr ? QStringLiteral("RR adapters") : QStringLiteral("Adapters");
    c.repeats = 3;
    c.baselineIndex = 0;
    for (int i = 0; i < labels.size(); ++i) {
        Configuration conf;
        conf.label = labels[i];
        conf.params.host = QStringLiteral("198.18.1.%1").arg(10 + i);
        conf.params.kind = rr ? TestKind::Rr : TestKind::Stream;
        c.configurations.append(conf);
    }
    const QList<ScheduledRun> schedule = c.schedule();
    for (int i = 0; i < schedule.size(); ++i) {
        Run run;
        run.configIndex = schedule[i].configIndex;
        run.repeatIndex = schedule[i].repeatIndex;
        run.orderIndex = i;
        const double level = levels[run.configIndex] * scale * kRunFactor[run.repeatIndex];
        run.result = rr ? rrResult(level, i) : streamResult(level, 45.0 / (levels[run.configIndex] * scale) * 3, i);
        c.runs.append(run);
    }
    return c;
}

Comparison adapters(double scale = 1.0)
{
    return makeComparison(kAdapters, {2.9, 3.4, 4.7}, false, scale);
}

Comparison rrAdapters(double scale = 1.0)
{
    return makeComparison(kAdapters, {62, 48, 31}, true, scale);
}

ComparisonOverlay single(const Comparison &c)
{
    return overlayComparisons({{QStringLiteral("adapters.nicbench"), c}});
}

ComparisonOverlay beforeAfter(bool rr = false)
{
    return overlayComparisons({{QStringLiteral("before tuning"), rr ? rrAdapters() : adapters()},
                               {QStringLiteral("after tuning"), rr ? rrAdapters(0.8) : adapters(1.15)}});
}

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

// Names in the legend; the legend grid may hold empty cells after wrapping.
QStringList legendNames(const QCustomPlot *plot)
{
    QStringList out;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
            out.append(item->plottable()->name());
    return out;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor base(0x1e, 0x1e, 0x1e), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Button, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::ButtonText, text);
    return p;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestGuiComparisonCharts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void barsMatchStatistics_data();
    void barsMatchStatistics();
    void deltaLabels();
    void overlayTwoSources();
    void labelsAboveTheirBars();
    void emptyBarChart();
    void timeline();
    void timelineMixedKinds();
    void latencyBoxes();
    void latencyCdf();
    void latencyEmpty();
    void tableModel();
    void paletteFollowed();
    void exports_data();
    void exports();
    void csv();
    void saveFailureLeavesNoFile();
    void tooltips();
    void screenshots();

private:
    QTemporaryDir m_dir;
};

void TestGuiComparisonCharts::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestGuiComparisonCharts::barsMatchStatistics_data()
{
    QTest::addColumn<int>("metric");
    QTest::addColumn<bool>("rr");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<double>("divisor");
    QTest::addColumn<QString>("title");
    QTest::newRow("throughput") << int(Metric::Throughput) << false << QStringLiteral("Gbit/s") << 1e9
                                << QStringLiteral("Throughput");
    QTest::newRow("local CPU") << int(Metric::LocalCpu) << false << QStringLiteral("%") << 1.0
                               << QStringLiteral("Local CPU");
    QTest::newRow("CPU per Gbit/s") << int(Metric::LocalCpuPerGbps) << false << QStringLiteral("% per Gbit/s") << 1.0
                                    << QStringLiteral("CPU per Gbit/s");
    QTest::newRow("service demand") << int(Metric::LocalServiceDemand) << false << QStringLiteral("us/KB") << 1.0
                                    << QStringLiteral("Local service demand");
    QTest::newRow("transactions") << int(Metric::TransactionsPerSecond) << true << QStringLiteral("k/s") << 1e3
                                  << QStringLiteral("Transactions/s");
    QTest::newRow("latency p99") << int(Metric::LatencyP99) << true << QStringLiteral("us") << 1.0
                                 << QStringLiteral("Latency p99");
}

void TestGuiComparisonCharts::barsMatchStatistics()
{
    QFETCH(int, metric);
    QFETCH(bool, rr);
    QFETCH(QString, unit);
    QFETCH(double, divisor);
    QFETCH(QString, title);
    const Metric m = Metric(metric);
    const ComparisonOverlay o = single(rr ? rrAdapters() : adapters());
    const ComparisonStatistics stats = computeStatistics(o.merged);
    ComparisonBarChart chart;
    chart.resize(420, 300);
    chart.setMetric(m);
    chart.setData(o, stats);
    chart.replot();

    QVERIFY(chart.hasData());
    QCOMPARE(chart.barCount(), 3);
    QCOMPARE(chart.categoryLabels(), kAdapters);
    QCOMPARE(chart.unitLabel(), unit);
    // The metric's name in the bold title row above the plot, only the unit on the y axis
    // (a long axis title is clipped in a chart 200 px high).
    QCOMPARE(chart.yAxis->label(), unit);
    QCOMPARE(chart.title(), title);
    QCPTextElement *titleElement = nullptr;
    for (int i = 0; i < chart.plotLayout()->elementCount(); ++i)
        if (auto *t = qobject_cast<QCPTextElement *>(chart.plotLayout()->elementAt(i)))
            titleElement = t;
    QVERIFY(titleElement);
    QVERIFY(titleElement->font().bold());
    QCOMPARE(titleElement->text(), title);
    QVERIFY2(titleElement->outerRect().bottom() <= chart.axisRect()->outerRect().top(), "title above the plot");
    QVERIFY2(titleElement->outerRect().height() < chart.height() / 8, "the title row leaves the bars their room");
    // No hidden legend row or spacing between the title and the plot.
    QVERIFY2(
        chart.axisRect()->rect().top() - titleElement->outerRect().bottom() <= 12,
        qPrintable(QStringLiteral("%1 px").arg(chart.axisRect()->rect().top() - titleElement->outerRect().bottom())));
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(chart.xAxis->ticker());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().size(), 3);
    QCOMPARE(ticker->ticks().value(2).remove(QLatin1Char('\n')), kAdapters[1]);

    const QList<QCPBars *> bars = plottablesOf<QCPBars>(&chart);
    const QList<QCPErrorBars *> errors = plottablesOf<QCPErrorBars>(&chart);
    QCOMPARE(bars.size(), 1);
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first()->dataPlottable(), bars.first());
    QCOMPARE(bars.first()->dataCount(), 3);
    double top = 0;
    for (int i = 0; i < 3; ++i) {
        const MetricStatistics *ms = stats.find(i, m);
        QVERIFY(ms);
        const double mean = bars.first()->data()->at(i)->value;
        QCOMPARE(bars.first()->data()->at(i)->key, double(i + 1));
        QVERIFY(qFuzzyCompare(mean, ms->summary.mean / divisor));
        const QCPErrorBarsData e = errors.first()->data()->at(i);
        QVERIFY(qFuzzyCompare(mean - e.errorMinus, ms->summary.ciLow / divisor));
        QVERIFY(qFuzzyCompare(mean + e.errorPlus, ms->summary.ciHigh / divisor));
        top = std::max(top, ms->summary.ciHigh / divisor);
    }
    // The y axis starts at 0 and leaves room above the tallest error bar for its label.
    QCOMPARE(chart.yAxis->range().lower, 0.0);
    QVERIFY(chart.yAxis->range().upper > top * 1.05);
}

void TestGuiComparisonCharts::deltaLabels()
{
    const ComparisonOverlay o = single(adapters());
    const ComparisonStatistics stats = computeStatistics(o.merged);
    ComparisonBarChart chart;
    chart.resize(420, 300);
    chart.setData(o, stats);
    const QStringList labels = chart.deltaLabels();
    QCOMPARE(labels.size(), 3);
    QCOMPARE(labels[0], QStringLiteral("baseline"));
    for (int i = 1; i < 3; ++i) {
        const MetricStatistics *ms = stats.find(i, Metric::Throughput);
        QVERIFY(ms && ms->hasBaseline);
        const QStringList lines = labels[i].split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], ComparisonTable::formatDelta(ms->vsBaseline.difference));
        QCOMPARE(ms->vsBaseline.verdict, stats::Verdict::Faster);
        QCOMPARE(lines[1], QStringLiteral("\u25B2 faster"));
    }
    // Every label is drawn as a text item, above its bar.
    int drawn = 0;
    for (QCPItemText *t : visibleTexts(&chart)) {
        if (t->text().contains(QStringLiteral("faster")) || t->text() == QStringLiteral("baseline"))
            ++drawn;
    }
    QCOMPARE(drawn, 3);

    // Lower is better for CPU: VMXNET3 uses less, which is "better", pointing down.
    ComparisonBarChart cpu;
    cpu.setMetric(Metric::LocalCpu);
    cpu.setData(o, stats);
    QCOMPARE(cpu.deltaLabels().value(2).section(QLatin1Char('\n'), 1), QStringLiteral("\u25BC better"));

    // With one run per configuration there is no verdict.
    Comparison few = adapters();
    few.repeats = 1;
    QList<Run> firstRound;
    for (const Run &r : std::as_const(few.runs))
        if (r.repeatIndex == 0)
            firstRound.append(r);
    few.runs = firstRound;
    for (int i = 0; i < few.runs.size(); ++i)
        few.runs[i].orderIndex = i;
    const ComparisonOverlay fo = single(few);
    ComparisonBarChart fewChart;
    fewChart.setData(fo, computeStatistics(fo.merged));
    QCOMPARE(fewChart.deltaLabels().value(1).section(QLatin1Char('\n'), 1), QStringLiteral("too few runs"));
    // No interval, so no error bars drawn (NaN errors).
    const QList<QCPErrorBars *> errors = plottablesOf<QCPErrorBars>(&fewChart);
    QCOMPARE(errors.size(), 1);
    QVERIFY(std::isnan(errors.first()->data()->at(0).errorMinus));
}

void TestGuiComparisonCharts::overlayTwoSources()
{
    const ComparisonOverlay o = beforeAfter();
    const ComparisonStatistics stats = computeStatistics(o.merged);
    ComparisonBarChart chart;
    chart.resize(800, 400);
    chart.setData(o, stats);
    chart.replot();
    QCOMPARE(chart.barCount(), 6);
    QCOMPARE(chart.categoryLabels(), kAdapters);
    const QList<QCPBars *> bars = plottablesOf<QCPBars>(&chart);
    QCOMPARE(bars.size(), 2);
    for (QCPBars *b : bars) {
        QCOMPARE(b->dataCount(), 3);
        QVERIFY(b->barsGroup());
    }
    QVERIFY(bars[0]->brush().color().rgb() != bars[1]->brush().color().rgb());
    QVERIFY(chart.legend->visible());
    QCOMPARE(legendNames(&chart), (QStringList{QStringLiteral("before tuning"), QStringLiteral("after tuning")}));
    // The "after" E1000 is compared with the "before" E1000, the merged baseline.
    QCOMPARE(chart.deltaLabels().value(0), QStringLiteral("baseline"));
    QVERIFY(chart.deltaLabels().value(3).startsWith(QLatin1Char('+')));
    // Bars of one group sit side by side: the two E1000 bars have different pixel centres.
    const double x0 = bars[0]->dataPixelPosition(0).x();
    const double x1 = bars[1]->dataPixelPosition(0).x();
    QVERIFY(x1 - x0 > 10);
}

void TestGuiComparisonCharts::labelsAboveTheirBars()
{
    // The second source has no throughput at all (request/response runs); a third has only
    // VMXNET3. Every source keeps its slot, so labels stay above their own bars.
    const Comparison partial = makeComparison({QStringLiteral("E1000"), QStringLiteral("VMXNET3")}, {60, 30}, true);
    const Comparison only = makeComparison({QStringLiteral("VMXNET3")}, {6.0}, false);
    const ComparisonOverlay o = overlayComparisons(
        {{QStringLiteral("a"), adapters()}, {QStringLiteral("b"), partial}, {QStringLiteral("c"), only}});
    ComparisonBarChart chart;
    chart.resize(800, 400);
    chart.setData(o, computeStatistics(o.merged));
    chart.replot();
    QCOMPARE(chart.barCount(), 4);
    QCOMPARE(legendNames(&chart), (QStringList{QStringLiteral("a"), QStringLiteral("c")}));
    const QList<QCPBars *> bars = plottablesOf<QCPBars>(&chart);
    QCOMPARE(bars.size(), 3);
    QList<QCPItemText *> labels;
    for (QCPItemText *t : visibleTexts(&chart))
        labels.append(t);
    QCOMPARE(labels.size(), 4);
    QCOMPARE(bars[1]->dataCount(), 0);
    for (QCPBars *b : bars) {
        for (int i = 0; i < b->dataCount(); ++i) {
            const QPointF top = b->dataPixelPosition(i);
            bool above = false;
            for (QCPItemText *t : std::as_const(labels)) {
                const QPointF at = t->position->pixelPosition();
                above = above || (std::abs(at.x() - top.x()) < 1 && at.y() <= top.y() + 0.5);
            }
            QVERIFY2(above, qPrintable(QStringLiteral("%1 bar %2").arg(b->name()).arg(i)));
        }
    }
}

void TestGuiComparisonCharts::emptyBarChart()
{
    ComparisonBarChart chart;
    chart.setMetric(Metric::TransactionsPerSecond);
    const ComparisonOverlay o = single(adapters());
    chart.setData(o, computeStatistics(o.merged));
    QVERIFY(!chart.hasData());
    QCOMPARE(chart.barCount(), 0);
    const QList<QCPItemText *> texts = visibleTexts(&chart);
    QCOMPARE(texts.size(), 1);
    QVERIFY(texts.first()->text().startsWith(QStringLiteral("No ")));
    chart.clearData();
    QCOMPARE(chart.categoryLabels(), QStringList());
}

void TestGuiComparisonCharts::timeline()
{
    Comparison c = adapters();
    c.runs[4].result.intervals.clear(); // a run without intervals draws nothing
    const ComparisonOverlay o = single(c);
    ComparisonTimelineChart chart;
    chart.resize(800, 400);
    chart.setData(o);
    QCOMPARE(chart.curveCount(), 8);
    // One legend entry per configuration, not per run.
    QCOMPARE(legendNames(&chart), kAdapters);
    QVERIFY(chart.yAxis->label().contains(QStringLiteral("Gbit/s")));
    int withData = 0;
    for (int i = 0; i < chart.graphCount(); ++i) {
        const QCPGraph *g = chart.graph(i);
        if (g->dataCount() == 0)
            continue;
        ++withData;
        QCOMPARE(g->dataCount(), 6);
    }
    QCOMPARE(withData, 8);
    // The first interval of the first run, in bit/s.
    const Run &run = c.runs.first();
    const double expected = run.result.intervals.first().streams.first().bitsPerSecond();
    bool found = false;
    for (int i = 0; i < chart.graphCount() && !found; ++i) {
        const QCPGraph *g = chart.graph(i);
        found = g->dataCount() > 0 && g->name().startsWith(c.configurations[run.configIndex].label) &&
                qFuzzyCompare(g->data()->at(0)->value, expected);
    }
    QVERIFY(found);

    // Two sources: same colour per label, different line styles.
    ComparisonTimelineChart overlay;
    overlay.setData(beforeAfter());
    QCOMPARE(overlay.curveCount(), 18);
    QCOMPARE(legendNames(&overlay).size(), 6);
    QPen before, after;
    for (int i = 0; i < overlay.graphCount(); ++i) {
        if (overlay.graph(i)->name() == QStringLiteral("E1000 (before tuning)"))
            before = overlay.graph(i)->pen();
        if (overlay.graph(i)->name() == QStringLiteral("E1000 (after tuning)"))
            after = overlay.graph(i)->pen();
    }
    QCOMPARE(before.color(), after.color());
    QVERIFY(before.style() != after.style());

    const QStringList csv = chart.toCsv().trimmed().split(QLatin1Char('\n'));
    QCOMPARE(csv.first(), QStringLiteral("configuration,source,run,time_s,value,unit"));
    QCOMPARE(csv.size(), 1 + 8 * 6);
}

void TestGuiComparisonCharts::timelineMixedKinds()
{
    ComparisonTimelineChart chart;
    chart.setData(single(rrAdapters()));
    QCOMPARE(chart.curveCount(), 9);
    QVERIFY(chart.yAxis->label().startsWith(QStringLiteral("Transactions")));
    QVERIFY(!chart.yAxis2->visible());

    Comparison both = adapters();
    const Comparison rr = rrAdapters();
    both.configurations.append(rr.configurations.first());
    both.configurations.last().label = QStringLiteral("E1000 RR");
    Run run = rr.runs.first();
    run.configIndex = 3;
    run.repeatIndex = 0;
    run.orderIndex = int(both.runs.size());
    both.runs.append(run);
    chart.setData(single(both));
    QCOMPARE(chart.curveCount(), 10);
    QVERIFY(chart.yAxis2->visible());
    QVERIFY(chart.yAxis2->label().startsWith(QStringLiteral("Transactions")));
}

void TestGuiComparisonCharts::latencyBoxes()
{
    const Comparison c = rrAdapters();
    const ComparisonOverlay o = single(c);
    LatencyDistributionChart chart;
    chart.resize(420, 300);
    chart.setData(o);
    QVERIFY(chart.hasData());
    QCOMPARE(chart.mode(), LatencyDistributionChart::Mode::Box);
    QCOMPARE(chart.seriesCount(), 3);
    QCOMPARE(chart.unitLabel(), QStringLiteral("us"));
    const QList<QCPStatisticalBox *> boxes = plottablesOf<QCPStatisticalBox>(&chart);
    QCOMPARE(boxes.size(), 3);
    for (int config = 0; config < 3; ++config) {
        LatencyHistogram merged;
        for (const Run *r : c.runsOf(config))
            merged.merge(r->result.rr.histogram);
        QCOMPARE(merged.count(), std::uint64_t(3 * 4000));
        const QCPStatisticalBoxData &d = *boxes[config]->data()->at(0);
        QCOMPARE(d.key, double(config + 1));
        QCOMPARE(d.minimum, merged.valueAtPercentile(1) / 1000.0);
        QCOMPARE(d.lowerQuartile, merged.valueAtPercentile(25) / 1000.0);
        QCOMPARE(d.median, merged.valueAtPercentile(50) / 1000.0);
        QCOMPARE(d.upperQuartile, merged.valueAtPercentile(75) / 1000.0);
        QCOMPARE(d.maximum, merged.valueAtPercentile(99) / 1000.0);
        QVERIFY(d.outliers.isEmpty());
    }
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(chart.xAxis->ticker());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().values(), kAdapters);

    // Milliseconds when the latencies are that long.
    LatencyDistributionChart slow;
    slow.setData(single(rrAdapters(40)));
    QCOMPARE(slow.unitLabel(), QStringLiteral("ms"));
    const QList<QCPStatisticalBox *> slowBoxes = plottablesOf<QCPStatisticalBox>(&slow);
    QVERIFY(slowBoxes.first()->data()->at(0)->median > 1 && slowBoxes.first()->data()->at(0)->median < 5);

    // Two sources: two boxes per group, a legend naming the sources.
    LatencyDistributionChart overlay;
    overlay.setData(beforeAfter(true));
    QCOMPARE(overlay.seriesCount(), 6);
    QVERIFY(overlay.legend->visible());
    QCOMPARE(legendNames(&overlay), (QStringList{QStringLiteral("before tuning"), QStringLiteral("after tuning")}));
}

void TestGuiComparisonCharts::latencyCdf()
{
    const Comparison c = rrAdapters();
    LatencyDistributionChart chart;
    chart.setMode(LatencyDistributionChart::Mode::Cdf);
    chart.setData(single(c));
    QCOMPARE(chart.seriesCount(), 3);
    QCOMPARE(chart.graphCount(), 3);
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
        LatencyHistogram merged;
        for (const Run *r : c.runsOf(i))
            merged.merge(r->result.rr.histogram);
        QCOMPARE((data->constEnd() - 1)->key, merged.max() / 1000.0);
    }
    const QStringList csv = chart.toCsv().trimmed().split(QLatin1Char('\n'));
    QCOMPARE(csv.first(), QStringLiteral("configuration,source,latency_us,fraction"));
    chart.setMode(LatencyDistributionChart::Mode::Box);
    QCOMPARE(plottablesOf<QCPStatisticalBox>(&chart).size(), 3);
    QCOMPARE(chart.graphCount(), 0);
}

void TestGuiComparisonCharts::latencyEmpty()
{
    LatencyDistributionChart chart;
    chart.setData(single(adapters()));
    QVERIFY(!chart.hasData());
    QCOMPARE(chart.seriesCount(), 0);
    const QList<QCPItemText *> texts = visibleTexts(&chart);
    QCOMPARE(texts.size(), 1);
    QCOMPARE(texts.first()->text(), QStringLiteral("No request/response runs"));
    QVERIFY(!chart.xAxis->visible());
    QVERIFY(!chart.yAxis->grid()->visible());
    chart.setMode(LatencyDistributionChart::Mode::Cdf);
    QCOMPARE(visibleTexts(&chart).size(), 1);
}

void TestGuiComparisonCharts::tableModel()
{
    ComparisonTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    const ComparisonOverlay o = beforeAfter();
    model.setComparison(o.merged);
    QVERIFY(model.table());
    QCOMPARE(model.rowCount(), int(model.table()->rows().size()));
    QVERIFY(model.rowCount() > 0);
    QCOMPARE(model.columnCount(), int(ComparisonTableModel::ColumnCount));
    QCOMPARE(model.headerData(ComparisonTableModel::VerdictColumn, Qt::Horizontal).toString(),
             QStringLiteral("Verdict"));
    int baselineRows = 0, fasterRows = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        const ComparisonTableRow &row = model.table()->rows()[r];
        QCOMPARE(model.index(r, ComparisonTableModel::ConfigurationColumn).data().toString(), row.label);
        QCOMPARE(model.index(r, ComparisonTableModel::MeanColumn).data(ComparisonTableModel::SortRole).toDouble(),
                 row.stats->summary.mean);
        QCOMPARE(model.index(r, ComparisonTableModel::MeanColumn).data().toString(),
                 ComparisonTable::formatValue(row.metric, row.stats->summary.mean, row.unit));
        // The full metric name in the tooltip: the column may elide it when narrow.
        QVERIFY(model.index(r, ComparisonTableModel::MetricColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(metricName(row.metric)));
        if (row.stats->hasBaseline && row.stats->vsBaseline.verdict == stats::Verdict::NoSignificantDifference)
            QCOMPARE(model.index(r, ComparisonTableModel::VerdictColumn).data().toString(),
                     QStringLiteral("not significant"));
        // The interval as "± half width" around the mean, as in the report.
        QCOMPARE(model.index(r, ComparisonTableModel::CiColumn).data().toString(),
                 row.stats->summary.spreadKnown
                     ? QStringLiteral("\u00b1 ") +
                           ComparisonTable::formatValue(row.metric, row.stats->summary.ciHalfWidth(), row.unit)
                     : QStringLiteral("-"));
        if (row.isBaseline) {
            ++baselineRows;
            QVERIFY(model.index(r, 0).data(Qt::FontRole).value<QFont>().bold());
            QCOMPARE(model.index(r, ComparisonTableModel::DeltaColumn).data().toString(), QStringLiteral("baseline"));
        } else if (row.stats->hasBaseline) {
            QCOMPARE(model.index(r, ComparisonTableModel::DeltaColumn).data().toString(),
                     ComparisonTable::formatDelta(row.stats->vsBaseline.difference));
            if (row.stats->vsBaseline.verdict == stats::Verdict::Faster) {
                ++fasterRows;
                QVERIFY(model.index(r, ComparisonTableModel::VerdictColumn).data(Qt::ForegroundRole).isValid());
            }
        }
    }
    QVERIFY(baselineRows > 0);
    QVERIFY(fasterRows > 0);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.table());
}

void TestGuiComparisonCharts::paletteFollowed()
{
    const ComparisonOverlay o = single(adapters());
    ComparisonBarChart chart;
    chart.setData(o, computeStatistics(o.merged));
    chart.setPalette(darkPalette());
    QCOMPARE(chart.yAxis->tickLabelColor(), darkPalette().color(QPalette::Text));
    const QList<QCPBars *> bars = plottablesOf<QCPBars>(&chart);
    QCOMPARE(bars.size(), 1);
    QCOMPARE(bars.first()->brush().color().rgb(), seriesColor(darkPalette(), 0).rgb());
    for (QCPItemText *t : visibleTexts(&chart))
        QCOMPARE(t->color(), darkPalette().color(QPalette::Text));
}

void TestGuiComparisonCharts::exports_data()
{
    QTest::addColumn<int>("chart");
    QTest::newRow("bars") << 0;
    QTest::newRow("timeline") << 1;
    QTest::newRow("latency") << 2;
}

void TestGuiComparisonCharts::exports()
{
    QFETCH(int, chart);
    const ComparisonOverlay o = single(adapters());
    const ComparisonOverlay rr = single(rrAdapters());
    ComparisonBarChart bars;
    bars.setData(o, computeStatistics(o.merged));
    ComparisonTimelineChart timeline;
    timeline.setData(o);
    LatencyDistributionChart latency;
    latency.setData(rr);
    QCustomPlot *plot = chart == 0   ? static_cast<QCustomPlot *>(&bars)
                        : chart == 1 ? static_cast<QCustomPlot *>(&timeline)
                                     : static_cast<QCustomPlot *>(&latency);
    plot->resize(500, 320);
    const QString base = m_dir.filePath(QStringLiteral("chart%1").arg(chart));
    QString error;

    QVERIFY2(ChartActions::saveImage(plot, base + QStringLiteral(".png"), &error, QSize(420, 300), 1.0),
             qPrintable(error));
    QImage png(base + QStringLiteral(".png"));
    QVERIFY(!png.isNull());
    QCOMPARE(png.size(), QSize(420, 300));
    QVERIFY(ChartActions::saveImage(plot, base + QStringLiteral("-2x.png")));
    QCOMPARE(QImage(base + QStringLiteral("-2x.png")).size(), QSize(1000, 640));

    QVERIFY2(ChartActions::saveImage(plot, base + QStringLiteral(".pdf"), &error, QSize(800, 400)), qPrintable(error));
    const QByteArray pdf = readAll(base + QStringLiteral(".pdf"));
    QVERIFY(pdf.startsWith("%PDF"));
    QVERIFY(pdf.contains("/Type /Page"));

    if (ChartActions::imageFilters().contains(QStringLiteral("*.svg"))) {
        QVERIFY2(ChartActions::saveImage(plot, base + QStringLiteral(".svg"), &error), qPrintable(error));
        QXmlStreamReader xml(readAll(base + QStringLiteral(".svg")));
        bool sawSvg = false;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg"))
                sawSvg = true;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(sawSvg);
    }

    QVERIFY2(ChartActions::saveImage(plot, base + QStringLiteral(".jpg"), &error, QSize(300, 200), 1.0),
             qPrintable(error));
    QCOMPARE(QImage(base + QStringLiteral(".jpg")).size(), QSize(300, 200));
    // Nothing but the saved files: no temporary files left next to them.
    const QStringList left = QDir(m_dir.path()).entryList(QDir::Files);
    for (const QString &name : left)
        QVERIFY2(name.startsWith(QStringLiteral("chart")) && !name.contains(QStringLiteral(".tmp")) &&
                     !name.contains(QLatin1Char('~')),
                 qPrintable(name));
}

void TestGuiComparisonCharts::csv()
{
    const ComparisonOverlay o = beforeAfter();
    ComparisonBarChart chart;
    chart.setData(o, computeStatistics(o.merged));
    const QStringList lines = chart.actions()->csv().trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.first(), QStringLiteral("label,source,unit,n,mean,ci95_low,ci95_high,relative,relative_ci95_low,"
                                           "relative_ci95_high,verdict"));
    QCOMPARE(lines.size(), 1 + chart.barCount());
    const int columns = int(lines.first().split(QLatin1Char(',')).size());
    for (const QString &line : lines)
        QCOMPARE(int(line.split(QLatin1Char(',')).size()), columns);
    QVERIFY(lines[1].startsWith(QStringLiteral("E1000,before tuning,bit/s,3,")));
    QVERIFY(lines[1].endsWith(QStringLiteral(",baseline")));
    QVERIFY(lines[3].endsWith(QStringLiteral(",faster")));

    LatencyDistributionChart latency;
    latency.setData(single(rrAdapters()));
    const QStringList box = latency.actions()->csv().trimmed().split(QLatin1Char('\n'));
    QCOMPARE(box.size(), 4);
    QVERIFY(box.first().startsWith(QStringLiteral("configuration,source,runs,transactions,p1_us")));
}

void TestGuiComparisonCharts::saveFailureLeavesNoFile()
{
    const ComparisonOverlay o = single(adapters());
    ComparisonBarChart chart;
    chart.resize(420, 300);
    chart.setData(o, computeStatistics(o.merged));
    const QString dir = m_dir.filePath(QStringLiteral("missing/dir"));
    for (const QString &suffix :
         {QStringLiteral("png"), QStringLiteral("pdf"), QStringLiteral("svg"), QStringLiteral("jpg")}) {
        const QString path = dir + QStringLiteral("/chart.") + suffix;
        QString error;
        QVERIFY(!ChartActions::saveImage(&chart, path, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFile::exists(path));
    }
    QVERIFY(!QDir(dir).exists());
    // A path that is a directory cannot be replaced by an image either.
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("isdir.png")));
    QVERIFY(!ChartActions::saveImage(&chart, m_dir.filePath(QStringLiteral("isdir.png"))));
    QVERIFY(QFileInfo(m_dir.filePath(QStringLiteral("isdir.png"))).isDir());
}

void TestGuiComparisonCharts::tooltips()
{
    const ComparisonOverlay o = single(adapters());
    ComparisonBarChart chart;
    chart.resize(600, 400);
    chart.setData(o, computeStatistics(o.merged));
    chart.replot();
    const QList<QCPBars *> bars = plottablesOf<QCPBars>(&chart);
    const QPointF top = bars.first()->dataPixelPosition(2);
    const QPoint inside(int(top.x()), int((top.y() + chart.yAxis->coordToPixel(0)) / 2));
    const QString tip = chart.actions()->tooltipAt(inside);
    QVERIFY2(tip.startsWith(QStringLiteral("VMXNET3\nMean ")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("95% CI")));
    QVERIFY(tip.contains(QStringLiteral("faster")));

    LatencyDistributionChart latency;
    latency.resize(600, 400);
    latency.setData(single(rrAdapters()));
    latency.replot();
    const QPoint box(int(latency.xAxis->coordToPixel(1)), int(latency.yAxis->coordToPixel(40)));
    QVERIFY(latency.actions()->tooltipAt(box).contains(QStringLiteral("p99")));
}

void TestGuiComparisonCharts::screenshots()
{
    const QString dir = qEnvironmentVariable("NICBENCH_CHART_SHOTS");
    if (dir.isEmpty())
        QSKIP("set NICBENCH_CHART_SHOTS=<dir> to write screenshots of the comparison charts");
    QVERIFY(QDir().mkpath(dir));
    const ComparisonOverlay one = single(adapters());
    const ComparisonOverlay two = beforeAfter();
    const ComparisonOverlay rrOne = single(rrAdapters());
    const ComparisonOverlay rrTwo = beforeAfter(true);
    const QList<QSize> sizes{QSize(420, 300), QSize(800, 400)};
    {
        // Exports lay the chart out at their own size, not the widget's.
        ComparisonBarChart chart;
        chart.resize(420, 300);
        chart.setData(two, computeStatistics(two.merged));
        for (const QString &suffix : {QStringLiteral("pdf"), QStringLiteral("svg"), QStringLiteral("png")}) {
            QString error;
            QVERIFY2(ChartActions::saveImage(&chart, dir + QStringLiteral("/export-bars.") + suffix, &error,
                                             QSize(800, 400), 1.0),
                     qPrintable(error));
        }
#if __has_include(<QSvgRenderer>)
        // What a browser would show of the SVG.
        QSvgRenderer svg(dir + QStringLiteral("/export-bars.svg"));
        QVERIFY(svg.isValid());
        QImage rendered(800, 400, QImage::Format_ARGB32);
        rendered.fill(Qt::white);
        QPainter painter(&rendered);
        svg.render(&painter);
        painter.end();
        QVERIFY(rendered.save(dir + QStringLiteral("/export-bars-svg.png")));
#endif
        LatencyDistributionChart cdf;
        cdf.setMode(LatencyDistributionChart::Mode::Cdf);
        cdf.setData(rrTwo);
        QVERIFY(ChartActions::saveImage(&cdf, dir + QStringLiteral("/export-cdf.pdf"), nullptr, QSize(420, 300)));
    }
    for (bool dark : {false, true}) {
        const QPalette pal = dark ? darkPalette() : QPalette();
        const QString theme = dark ? QStringLiteral("dark") : QStringLiteral("light");
        for (const QSize &size : sizes) {
            const QString suffix = QStringLiteral("-%1-%2x%3.png").arg(theme).arg(size.width()).arg(size.height());
            const auto shoot = [&](QWidget *w, const QString &name) {
                w->setPalette(pal);
                w->resize(size);
                w->show();
                QCoreApplication::processEvents();
                static_cast<QCustomPlot *>(w)->replot();
                QVERIFY(w->grab().save(dir + QLatin1Char('/') + name + suffix));
                w->hide();
            };
            for (Metric m : {Metric::Throughput, Metric::LocalCpuPerGbps, Metric::LocalCpu}) {
                for (const ComparisonOverlay *o : {&one, &two}) {
                    ComparisonBarChart chart;
                    chart.setMetric(m);
                    chart.setData(*o, computeStatistics(o->merged));
                    shoot(&chart, QStringLiteral("bars-%1-%2src").arg(metricKey(m)).arg(o->sourceCount()));
                }
            }
            for (const ComparisonOverlay *o : {&rrOne, &rrTwo}) {
                ComparisonBarChart chart;
                chart.setMetric(Metric::TransactionsPerSecond);
                chart.setData(*o, computeStatistics(o->merged));
                shoot(&chart, QStringLiteral("bars-tps-%1src").arg(o->sourceCount()));
            }
            for (const ComparisonOverlay *o : {&one, &two}) {
                ComparisonTimelineChart chart;
                chart.setData(*o);
                shoot(&chart, QStringLiteral("timeline-%1src").arg(o->sourceCount()));
            }
            for (auto mode : {LatencyDistributionChart::Mode::Box, LatencyDistributionChart::Mode::Cdf}) {
                const QString name =
                    mode == LatencyDistributionChart::Mode::Box ? QStringLiteral("box") : QStringLiteral("cdf");
                for (const ComparisonOverlay *o : {&rrOne, &rrTwo}) {
                    LatencyDistributionChart chart;
                    chart.setMode(mode);
                    chart.setData(*o);
                    shoot(&chart, QStringLiteral("latency-%1-%2src").arg(name).arg(o->sourceCount()));
                }
            }
            // Long labels and three sources: wrapping and label fitting at their limits.
            const ComparisonOverlay longLabels =
                single(makeComparison({QStringLiteral("vmxnet3 ens192, P=1"), QStringLiteral("vmxnet3 ens192, P=4"),
                                       QStringLiteral("vmxnet3 ens192, P=16")},
                                      {4.1, 8.9, 9.4}, false));
            const ComparisonOverlay three = overlayComparisons({{QStringLiteral("stock"), adapters()},
                                                                {QStringLiteral("RSS on"), adapters(1.1)},
                                                                {QStringLiteral("jumbo"), adapters(1.6)}});
            for (const ComparisonOverlay *o : {&longLabels, &three}) {
                ComparisonBarChart chart;
                chart.setData(*o, computeStatistics(o->merged));
                shoot(&chart, QStringLiteral("bars-stress-%1src").arg(o->sourceCount()));
            }
            LatencyDistributionChart empty;
            empty.setData(one);
            shoot(&empty, QStringLiteral("latency-empty"));
        }
    }
}

QTEST_MAIN(TestGuiComparisonCharts)
#include "tst_gui_comparisoncharts.moc"
