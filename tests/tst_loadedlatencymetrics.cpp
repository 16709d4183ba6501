// SPDX-License-Identifier: GPL-3.0-or-later
// The latency-under-load comparison metrics (issue 16): each Metric::Loaded* taken from a
// run's phases (idle baseline, increases over it, loaded p99, throughput per phase kind),
// phase kinds that ran twice averaged, negative increases counted as zero, nothing from a
// run whose probe was refused; the stream and RR metrics stay out of such runs; verdicts
// with 95% intervals across repeated runs, and the answer's sentence for the variant.
#include "comparisonchartdata.h"

#include "compare/comparisonanswer.h"
#include "compare/comparisonstatistics.h"
#include "compare/comparisontable.h"
#include "compare/loadedlatencymetrics.h"
#include "core/format.h"
#include "core/units.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <optional>

using namespace nb;

Q_DECLARE_METATYPE(nb::Metric)
Q_DECLARE_METATYPE(std::optional<double>)

namespace {

LoadPhaseResult phase(LoadPhase kind, int index, double uploadBps, double downloadBps, std::optional<double> p50,
                      std::optional<double> p99)
{
    LoadPhaseResult p;
    p.phase = kind;
    p.start = index * 2.0;
    p.end = p.start + 2.0;
    p.uploadBitsPerSecond = uploadBps;
    p.downloadBitsPerSecond = downloadBps;
    if (p50 && p99) {
        p.hasProbe = true;
        p.transactions = 1000;
        p.latencyUs.count = 1000;
        p.latencyUs.p50 = *p50;
        p.latencyUs.p99 = *p99;
    }
    return p;
}

// idle (50/80 µs), download, upload, bidir (no probe figures), upload again, idle (60/90).
TestResult knownRun()
{
    TestResult r;
    r.params.kind = TestKind::LoadedLatency;
    LoadedLatencyResult l;
    l.phaseSeconds = 2;
    l.phases = {phase(LoadPhase::Idle, 0, 0, 0, 50, 80),       phase(LoadPhase::Download, 1, 0, 4e9, 450, 900),
                phase(LoadPhase::Upload, 2, 3e9, 0, 300, 500), phase(LoadPhase::Bidir, 3, 2e9, 2.5e9, {}, {}),
                phase(LoadPhase::Upload, 4, 1e9, 0, 500, 700), phase(LoadPhase::Idle, 5, 0, 0, 60, 90)};
    r.loadedLatency = l;
    r.localCpuKnown = true;
    r.localCpu.end = 12;
    r.localCpu.cpuCount = 2;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = 33;
    return r;
}

} // namespace

class TestLoadedLatencyMetrics : public QObject {
    Q_OBJECT
private slots:
    void valueOfKnownRun_data();
    void valueOfKnownRun();
    void negativeIncreaseCountsAsZero();
    void refusedProbeGivesThroughputOnly();
    void otherMetricsStayOut();
    void keysNamesUnits();
    void verdictsAcrossRuns();
    void answerForTheVariant();
};

void TestLoadedLatencyMetrics::valueOfKnownRun_data()
{
    QTest::addColumn<Metric>("metric");
    QTest::addColumn<std::optional<double>>("expected");
    using O = std::optional<double>;
    QTest::newRow("idle p50: the first idle phase") << Metric::LoadedIdleP50 << O(50);
    QTest::newRow("idle p99") << Metric::LoadedIdleP99 << O(80);
    QTest::newRow("download p50 increase") << Metric::LoadedDownloadP50Increase << O(400);
    QTest::newRow("download p99 increase") << Metric::LoadedDownloadP99Increase << O(820);
    QTest::newRow("download p99") << Metric::LoadedDownloadP99 << O(900);
    QTest::newRow("download throughput") << Metric::LoadedDownloadThroughput << O(4e9);
    // Two upload phases: the mean of (300-50, 500-50), of (500-80, 700-80), ...
    QTest::newRow("upload p50 increase, two phases") << Metric::LoadedUploadP50Increase << O(350);
    QTest::newRow("upload p99 increase, two phases") << Metric::LoadedUploadP99Increase << O(520);
    QTest::newRow("upload p99, two phases") << Metric::LoadedUploadP99 << O(600);
    QTest::newRow("upload throughput, two phases") << Metric::LoadedUploadThroughput << O(2e9);
    // The bidir phase has no probe figures: no latency, but its throughput (both ways).
    QTest::newRow("bidir p50 increase without probe") << Metric::LoadedBidirP50Increase << O();
    QTest::newRow("bidir p99 without probe") << Metric::LoadedBidirP99 << O();
    QTest::newRow("bidir throughput, both ways") << Metric::LoadedBidirThroughput << O(4.5e9);
    QTest::newRow("local CPU over the whole test") << Metric::LocalCpu << O(33);
}

void TestLoadedLatencyMetrics::valueOfKnownRun()
{
    QFETCH(Metric, metric);
    QFETCH(std::optional<double>, expected);
    const std::optional<double> v = metricValue(knownRun(), metric);
    QCOMPARE(v.has_value(), expected.has_value());
    if (expected)
        QCOMPARE(*v, *expected);
}

void TestLoadedLatencyMetrics::negativeIncreaseCountsAsZero()
{
    TestResult r = knownRun();
    r.loadedLatency->phases[1].latencyUs.p50 = 45; // below idle's 50: noise, not a gain
    QCOMPARE(*metricValue(r, Metric::LoadedDownloadP50Increase), 0.0);
    QCOMPARE(*metricValue(r, Metric::LoadedDownloadP99Increase), 820.0);
    // The raw figure stays what the engine computed.
    QCOMPARE(*r.loadedLatency->increaseUs(1, &LatencySummary::p50), -5.0);
}

void TestLoadedLatencyMetrics::refusedProbeGivesThroughputOnly()
{
    // A stock iperf3 server: the load ran, the probe was refused.
    TestResult r = knownRun();
    r.loadedLatency->probeError = QStringLiteral("the server does not run request/response tests");
    for (LoadPhaseResult &p : r.loadedLatency->phases) {
        p.hasProbe = false;
        p.latencyUs = {};
    }
    for (Metric m : allMetrics()) {
        if (!isLoadedLatencyMetric(m))
            continue;
        const auto v = metricValue(r, m);
        QCOMPARE(v.has_value(), isBitrateMetric(m));
    }
    // A failed run gives nothing at all.
    r.error = QStringLiteral("connection refused");
    QVERIFY(!metricValue(r, Metric::LoadedDownloadThroughput));
}

void TestLoadedLatencyMetrics::otherMetricsStayOut()
{
    // The whole test mixes idle and loaded phases: no overall throughput or transactions.
    TestResult r = knownRun();
    r.hasRr = true;
    r.rr.seconds = 12;
    r.rr.transactions = 5000;
    r.rr.latencyUs.count = 5000;
    r.rr.latencyUs.p99 = 700;
    StreamSummary s;
    s.seconds = 12;
    s.bytesReceived = s.bytesSent = 1000000000;
    r.streams.append(s);
    for (Metric m :
         {Metric::Throughput, Metric::LocalCpuPerGbps, Metric::TransactionsPerSecond, Metric::LocalCpuPerKtps,
          Metric::LatencyP50, Metric::LatencyP99, Metric::LocalServiceDemand, Metric::LocalServiceDemandPerTransaction})
        QVERIFY2(!metricValue(r, m), qPrintable(metricKey(m)));
    // And the loaded metrics stay out of stream and RR runs.
    const TestResult stream = chartdata::streamResult(3, 40, 1);
    const TestResult rr = chartdata::rrResult(60, 1);
    for (Metric m : allMetrics()) {
        if (!isLoadedLatencyMetric(m))
            continue;
        QVERIFY(!metricValue(stream, m));
        QVERIFY(!metricValue(rr, m));
    }
    QVERIFY(metricValue(stream, Metric::Throughput));
}

void TestLoadedLatencyMetrics::keysNamesUnits()
{
    QSet<QString> keys, names;
    int loaded = 0;
    for (Metric m : allMetrics()) {
        keys.insert(metricKey(m));
        names.insert(metricName(m));
        if (!isLoadedLatencyMetric(m))
            continue;
        ++loaded;
        QVERIFY(metricKey(m).startsWith(QLatin1String("loaded_")));
        QVERIFY(!isRequestResponseMetric(m));
        // One unit per metric: µs for latency, bit/s for throughput.
        QCOMPARE(metricUnit(m), isBitrateMetric(m) ? QStringLiteral("bit/s") : QStringLiteral("\u00b5s"));
        QCOMPARE(isLatencyMetric(m), !isBitrateMetric(m));
        QCOMPARE(metricBetter(m), isBitrateMetric(m) ? stats::Better::Higher : stats::Better::Lower);
    }
    QCOMPARE(loaded, 14);
    QCOMPARE(keys.size(), allMetrics().size());
    QCOMPARE(names.size(), allMetrics().size());
    QCOMPARE(ComparisonTable::formatValue(Metric::LoadedBidirP99, 1500, metricUnit(Metric::LoadedBidirP99)),
             formatMicroseconds(1500));
    QCOMPARE(ComparisonTable::formatValue(Metric::LoadedUploadThroughput, 2e9, QString()), formatBitrate(2e9));
}

void TestLoadedLatencyMetrics::verdictsAcrossRuns()
{
    // Three runs of each: VMXNET3's load adds 0.4x E1000's latency.
    const Comparison c = chartdata::withLoadedLatency();
    const ComparisonStatistics s = computeStatistics(c);
    int e1000 = -1, vmxnet3 = -1, p1 = -1, rr = -1;
    for (int i = 0; i < c.configurations.size(); ++i) {
        const Configuration &conf = c.configurations[i];
        if (conf.variantName() == QLatin1String("Latency under load"))
            (conf.adapterName() == QLatin1String("E1000") ? e1000 : vmxnet3) = i;
        else if (conf.variantName() == QLatin1String("P=1"))
            p1 = i;
        else
            rr = i;
    }
    QVERIFY(e1000 >= 0 && vmxnet3 >= 0 && p1 >= 0 && rr >= 0);
    QVERIFY(s.configurations[e1000].isBaseline);
    QCOMPARE(s.configurations[vmxnet3].baselineConfig, e1000);
    for (Metric m : allMetrics()) {
        if (!isLoadedLatencyMetric(m))
            continue;
        // Only the latency-under-load variant has them: no empty slots elsewhere.
        QVERIFY(!s.find(p1, m));
        QVERIFY(!s.find(rr, m));
        const MetricStatistics *ms = s.find(vmxnet3, m);
        QVERIFY2(ms, qPrintable(metricKey(m)));
        QCOMPARE(ms->summary.n, 3);
        QVERIFY(ms->summary.spreadKnown);
        QVERIFY(ms->summary.ciLow <= ms->summary.mean && ms->summary.mean <= ms->summary.ciHigh);
        QVERIFY(ms->hasBaseline);
    }
    for (Metric m : {Metric::Throughput, Metric::TransactionsPerSecond, Metric::LatencyP99})
        QVERIFY(!s.find(vmxnet3, m));
    // Less latency added under load: better ("faster") in every loaded phase, by about -60%.
    for (Metric m : {Metric::LoadedDownloadP99Increase, Metric::LoadedUploadP99Increase, Metric::LoadedBidirP99Increase,
                     Metric::LoadedBidirP50Increase}) {
        const MetricStatistics *ms = s.find(vmxnet3, m);
        QCOMPARE(ms->vsBaseline.verdict, stats::Verdict::Faster);
        QVERIFY2(ms->vsBaseline.difference.relative < -0.5 && ms->vsBaseline.difference.relative > -0.7,
                 qPrintable(QString::number(ms->vsBaseline.difference.relative)));
        QVERIFY(ms->vsBaseline.difference.intervalKnown);
        QVERIFY(ms->vsBaseline.difference.high < 0);
    }
    // More throughput (2 + 2/0.4 = 7 against 4 Gbit/s): higher is better.
    QCOMPARE(s.find(vmxnet3, Metric::LoadedDownloadThroughput)->vsBaseline.verdict, stats::Verdict::Faster);
    // The statistics JSON carries them under their keys.
    const QJsonObject metrics = s.toJson()
                                    .value(QStringLiteral("configurations"))
                                    .toArray()
                                    .at(vmxnet3)
                                    .toObject()
                                    .value(QStringLiteral("metrics"))
                                    .toObject();
    QVERIFY(metrics.contains(QStringLiteral("loaded_bidir_p99_increase_us")));
    QCOMPARE(metrics.value(QStringLiteral("loaded_bidir_p99_increase_us"))
                 .toObject()
                 .value(QStringLiteral("vs_baseline"))
                 .toObject()
                 .value(QStringLiteral("verdict"))
                 .toString(),
             QStringLiteral("faster"));
}

void TestLoadedLatencyMetrics::answerForTheVariant()
{
    const Comparison c = chartdata::withLoadedLatency();
    const QList<VariantAnswer> answers = answerComparison(c, computeStatistics(c));
    QCOMPARE(answers.size(), 3);
    const VariantAnswer &a = answers[2];
    QCOMPARE(a.variant, QStringLiteral("Latency under load"));
    QCOMPARE(a.primary, Metric::LoadedBidirP99Increase);
    QCOMPARE(a.cost, Metric::LoadedBidirThroughput);
    QVERIFY(a.decided);
    QCOMPARE(a.entries.value(a.winner).adapter, QStringLiteral("VMXNET3"));
    QCOMPARE(a.sentences.size(), 1);
    const QString s = a.sentences.first();
    QVERIFY2(s.startsWith(QLatin1String("VMXNET3 adds less latency under load than E1000: -")), qPrintable(s));
    QVERIFY2(s.contains(QLatin1String("bidir p99 latency increase; bidir throughput +")), qPrintable(s));
    QVERIFY2(s.endsWith(QLatin1String("(more throughput)")), qPrintable(s));
    QCOMPARE(winnerPhrase(a.primary), QStringLiteral("adds less latency under load"));
    // The other variants keep their questions.
    QCOMPARE(answers[0].primary, Metric::Throughput);
    QCOMPARE(answers[1].primary, Metric::TransactionsPerSecond);
    // Its sentence among the other variants' (the CPU side line comes last).
    const QStringList lines = answerLines(answers);
    QVERIFY(!lines.filter(QRegularExpression(QStringLiteral("^Latency under load: VMXNET3 adds less"))).isEmpty());
}

QTEST_GUILESS_MAIN(TestLoadedLatencyMetrics)
#include "tst_loadedlatencymetrics.moc"
