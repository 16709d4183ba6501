// SPDX-License-Identifier: GPL-3.0-or-later
// answerComparison(): per test variant, the winning adapter, its difference from the
// baseline adapter's configuration of the SAME variant, and its CPU cost; the per-variant
// baselines behind it (Comparison::baselineFor) and the new cost metrics.
#include "compare/comparisonanswer.h"
#include "compare/comparisonstatistics.h"

#include <QTest>

using namespace nb;

namespace {

TestResult streamResult(double gbps, double cpuPct)
{
    TestResult r;
    r.params.duration = 2;
    StreamSummary s;
    s.id = 1;
    s.seconds = 2;
    s.receiverSeconds = 2;
    s.bytesSent = s.bytesReceived = std::uint64_t(gbps * 1e9 / 8 * 2);
    r.streams.append(s);
    r.localCpuKnown = true;
    r.localCpu.end = 2;
    r.localCpu.cpuCount = 2;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = cpuPct;
    return r;
}

TestResult rrResult(double tps, double cpuPct)
{
    TestResult r;
    r.params.kind = TestKind::Rr;
    r.hasRr = true;
    r.rr.seconds = 2;
    r.rr.transactions = std::uint64_t(tps * 2);
    r.localCpuKnown = true;
    r.localCpu.end = 2;
    r.localCpu.cpuCount = 2;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = cpuPct;
    return r;
}

struct Spec {
    QString adapter, variant;
    bool rr = false;
    double value = 0; // Gbit/s or transactions/s
    double cpu = 0;
};

// Three interleaved rounds; round k adds k * 1% of the value so the intervals are narrow
// but not zero.
Comparison makeComparison(const QList<Spec> &specs, int baseline)
{
    Comparison c;
    c.repeats = 3;
    c.baselineIndex = baseline;
    for (const Spec &s : specs) {
        Configuration conf;
        conf.adapter = s.adapter;
        conf.variant = s.variant;
        conf.label = Configuration::joinLabel(s.adapter, s.variant);
        conf.params.kind = s.rr ? TestKind::Rr : TestKind::Stream;
        c.configurations.append(conf);
    }
    const QList<ScheduledRun> schedule = c.schedule();
    for (int i = 0; i < schedule.size(); ++i) {
        const Spec &s = specs[schedule[i].configIndex];
        Run run;
        run.configIndex = schedule[i].configIndex;
        run.repeatIndex = schedule[i].repeatIndex;
        run.orderIndex = i;
        const double f = 1 + 0.01 * run.repeatIndex;
        run.result = s.rr ? rrResult(s.value * f, s.cpu) : streamResult(s.value * f, s.cpu);
        c.runs.append(run);
    }
    return c;
}

// E1000 vs VMXNET3 x (P=4, TCP_RR), the review's matrix.
const QList<Spec> kMatrix{
    {QStringLiteral("E1000"), QStringLiteral("P=4"), false, 1.0, 40},
    {QStringLiteral("E1000"), QStringLiteral("TCP_RR"), true, 10000, 30},
    {QStringLiteral("VMXNET3"), QStringLiteral("P=4"), false, 9.0, 60},
    {QStringLiteral("VMXNET3"), QStringLiteral("TCP_RR"), true, 20000, 30},
};

} // namespace

class TestComparisonAnswer : public QObject {
    Q_OBJECT
private slots:
    void perVariantBaselines_data();
    void perVariantBaselines();
    void answers();
    void costMetrics();
    void notDecided();
};

void TestComparisonAnswer::perVariantBaselines_data()
{
    QTest::addColumn<int>("baseline");
    QTest::addColumn<QList<int>>("expected"); // baselineFor per configuration
    QTest::newRow("E1000") << 0 << QList<int>{-1, -1, 0, 1};
    QTest::newRow("E1000 via its RR configuration") << 1 << QList<int>{-1, -1, 0, 1};
    QTest::newRow("VMXNET3") << 2 << QList<int>{2, 3, -1, -1};
}

void TestComparisonAnswer::perVariantBaselines()
{
    QFETCH(int, baseline);
    QFETCH(QList<int>, expected);
    const Comparison c = makeComparison(kMatrix, baseline);
    QList<int> got;
    for (int i = 0; i < c.configurations.size(); ++i)
        got.append(c.baselineFor(i));
    QCOMPARE(got, expected);
    // Every non-baseline configuration gets verdicts on the metrics of its own kind.
    const ComparisonStatistics s = computeStatistics(c);
    for (int i = 0; i < c.configurations.size(); ++i) {
        const Metric primary = kMatrix[i].rr ? Metric::TransactionsPerSecond : Metric::Throughput;
        QVERIFY(s.find(i, primary));
        QCOMPARE(s.find(i, primary)->hasBaseline, expected[i] >= 0);
        QCOMPARE(s.configurations[i].isBaseline, expected[i] < 0);
        QVERIFY(!s.find(i, kMatrix[i].rr ? Metric::Throughput : Metric::TransactionsPerSecond));
    }
}

void TestComparisonAnswer::answers()
{
    const Comparison c = makeComparison(kMatrix, 0);
    const QList<VariantAnswer> a = answerComparison(c, computeStatistics(c));
    QCOMPARE(a.size(), 2);
    QCOMPARE(a[0].variant, QStringLiteral("P=4"));
    QCOMPARE(a[0].primary, Metric::Throughput);
    QCOMPARE(a[0].cost, Metric::LocalCpuPerGbps);
    QCOMPARE(a[1].variant, QStringLiteral("TCP_RR"));
    QCOMPARE(a[1].primary, Metric::TransactionsPerSecond);
    QCOMPARE(a[1].cost, Metric::LocalCpuPerKtps);
    for (const VariantAnswer &v : a) {
        QCOMPARE(v.entries.size(), 2);
        QCOMPARE(v.entries[v.winner].adapter, QStringLiteral("VMXNET3"));
        QVERIFY(v.decided);
        QCOMPARE(v.entries[1].baseline, QStringLiteral("E1000"));
        QCOMPARE(v.sentences.size(), 1);
        QVERIFY2(v.sentences[0].startsWith(QStringLiteral("VMXNET3 is faster than E1000: +")),
                 qPrintable(v.sentences[0]));
    }
    // P=4: 9 vs 1 Gbit/s (+800%); CPU per Gbit/s 60/9 vs 40/1 (less CPU).
    QVERIFY(qAbs(a[0].entries[1].primary->vsBaseline.difference.relative - 8.0) < 1e-9);
    QVERIFY2(a[0].sentences[0].contains(QStringLiteral("CPU per Gbit/s -83.")), qPrintable(a[0].sentences[0]));
    QVERIFY(a[0].sentences[0].endsWith(QStringLiteral("(less CPU)")));
    // TCP_RR: 20,000 vs 10,000 transactions/s; CPU per 1000 trans/s 1.5 vs 3.0.
    QVERIFY(a[1].sentences[0].contains(QStringLiteral("+100.0%")));
    QVERIFY(a[1].sentences[0].contains(QStringLiteral("CPU per 1000 trans/s -50.0%")));
    const QStringList lines = answerLines(a);
    QCOMPARE(lines.size(), 2);
    QVERIFY(lines[0].startsWith(QStringLiteral("P=4: VMXNET3")));
    QVERIFY(lines[1].startsWith(QStringLiteral("TCP_RR: VMXNET3")));
}

void TestComparisonAnswer::costMetrics()
{
    const Comparison c = makeComparison(kMatrix, 0);
    const ComparisonStatistics s = computeStatistics(c);
    // Means over rounds with factors 1.00, 1.01, 1.02 and constant CPU.
    const double f = (1 / 1.00 + 1 / 1.01 + 1 / 1.02) / 3;
    QVERIFY(qAbs(s.find(0, Metric::LocalCpuPerGbps)->summary.mean - 40 * f) < 1e-6);
    QVERIFY(qAbs(s.find(1, Metric::LocalCpuPerKtps)->summary.mean - 30 / 10.0 * f) < 1e-6);
    // Service demand per KB only for streams, per transaction only for RR: one unit per chart.
    QVERIFY(s.find(0, Metric::LocalServiceDemand));
    QVERIFY(!s.find(0, Metric::LocalServiceDemandPerTransaction));
    QVERIFY(s.find(1, Metric::LocalServiceDemandPerTransaction));
    QVERIFY(!s.find(1, Metric::LocalServiceDemand));
    // 30% of 2 CPUs for 2 s over 20,000 transactions: 60 us each.
    QVERIFY(qAbs(s.find(1, Metric::LocalServiceDemandPerTransaction)->values.first() - 60.0) < 1e-6);
    QCOMPARE(metricUnit(Metric::LocalServiceDemandPerTransaction), QStringLiteral("\u00b5s/transaction"));
    QVERIFY(isRequestResponseMetric(Metric::LocalCpuPerKtps));
    QVERIFY(!isRequestResponseMetric(Metric::LocalCpuPerGbps));
}

void TestComparisonAnswer::notDecided()
{
    // Equal adapters: the winner is whichever mean is higher, but nothing is decided.
    const Comparison c = makeComparison(
        {{QStringLiteral("A"), QString(), false, 5.0, 40}, {QStringLiteral("B"), QString(), false, 5.0, 40}}, 0);
    const QList<VariantAnswer> a = answerComparison(c, computeStatistics(c));
    QCOMPARE(a.size(), 1);
    QVERIFY(!a[0].decided);
    QVERIFY2(a[0].sentences.value(0).contains(QStringLiteral("do not differ significantly")),
             qPrintable(a[0].sentences.value(0)));
    // A single unnamed variant is not prefixed.
    QVERIFY(answerLines(a).value(0).startsWith(QStringLiteral("B and A")));
}

QTEST_GUILESS_MAIN(TestComparisonAnswer)
#include "tst_comparisonanswer.moc"
