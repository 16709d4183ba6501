// SPDX-License-Identifier: GPL-3.0-or-later
// overlayComparisons(): several comparisons ("before" and "after" snapshots) merged into
// one whose statistics and charts work unchanged, grouped by configuration label.
#include "comparisonruns.h"

#include "compare/comparisonoverlay.h"
#include "compare/comparisonstatistics.h"

#include <QTest>

using namespace nb;

namespace {

TestResult throughputResult(double gbps)
{
    TestResult r;
    r.params.duration = 2;
    StreamSummary s;
    s.id = 1;
    s.seconds = 2;
    s.receiverSeconds = 2;
    s.bytesSent = s.bytesReceived = std::uint64_t(gbps * 1e9 / 8 * 2);
    r.streams.append(s);
    return r;
}

// A comparison of the given labels, `repeats` interleaved runs each; configuration c in
// round k delivers base[c] + k * 0.1 Gbit/s.
Comparison makeComparison(const QStringList &labels, const QList<double> &base, int repeats, int baseline,
                          const QStringList &warnings = {})
{
    Comparison c;
    c.title = labels.join(QLatin1Char('/'));
    c.repeats = repeats;
    c.baselineIndex = baseline;
    c.warnings = warnings;
    for (const QString &label : labels) {
        Configuration conf;
        conf.label = label;
        conf.params.host = QStringLiteral("198.18.0.%1").arg(c.configurations.size() + 1);
        c.configurations.append(conf);
    }
    nbtest::addScheduledRuns(
        c, [&base](const Run &run) { return throughputResult(base[run.configIndex] + 0.1 * run.repeatIndex); });
    return c;
}

} // namespace

Q_DECLARE_METATYPE(QList<nb::ComparisonSource>)

class TestComparisonOverlay : public QObject {
    Q_OBJECT
private slots:
    void overlay_data();
    void overlay();
    void singleSourceIsUnchanged();
    void runsRemapped();
    void statisticsAcrossSources();
    void empty();
};

void TestComparisonOverlay::overlay_data()
{
    QTest::addColumn<QList<ComparisonSource>>("sources");
    QTest::addColumn<QStringList>("mergedLabels");
    QTest::addColumn<QStringList>("groupLabels"); // variants on the axis
    QTest::addColumn<QStringList>("seriesLabels");
    QTest::addColumn<QList<int>>("seriesOf");
    QTest::addColumn<QList<int>>("groupOf");
    QTest::addColumn<int>("baseline");
    // Per merged configuration, the configuration its verdicts compare with (-1: none).
    QTest::addColumn<QList<int>>("baselineFor");
    // (group, series) -> expected merged configuration, row by row.
    QTest::addColumn<QList<QList<int>>>("lookup");
    QTest::addColumn<QStringList>("warnings");

    const QStringList three{QStringLiteral("E1000"), QStringLiteral("E1000E"), QStringLiteral("VMXNET3")};
    QTest::newRow("one source") << QList<ComparisonSource>{{QStringLiteral("adapters.nicbench"),
                                                            makeComparison(three, {2.9, 3.4, 4.7}, 3, 0,
                                                                           {QStringLiteral("w")})}}
                                << three << QStringList{QString()} << three << QList<int>{0, 1, 2}
                                << QList<int>{0, 0, 0} << 0 << QList<int>{-1, 0, 0} << QList<QList<int>>{{0, 1, 2}}
                                << QStringList{QStringLiteral("w")};

    // Adapters x variants: each variant's bars compare with the baseline adapter's bar
    // of the same variant (the review's M1: RR got no verdict against a throughput baseline).
    const QStringList matrix{QStringLiteral("E1000, P=4"), QStringLiteral("E1000, TCP_RR"),
                             QStringLiteral("VMXNET3, P=4"), QStringLiteral("VMXNET3, TCP_RR")};
    QTest::newRow("adapters x variants") << QList<ComparisonSource>{{QStringLiteral("m"),
                                                                     makeComparison(matrix, {1, 2, 3, 4}, 2, 0)}}
                                         << matrix << QStringList{QStringLiteral("P=4"), QStringLiteral("TCP_RR")}
                                         << QStringList{QStringLiteral("E1000"), QStringLiteral("VMXNET3")}
                                         << QList<int>{0, 0, 1, 1} << QList<int>{0, 1, 0, 1} << 0
                                         << QList<int>{-1, -1, 0, 1} << QList<QList<int>>{{0, 2}, {1, 3}}
                                         << QStringList{};

    // Before/after: each "after" configuration compares with the same one "before".
    QTest::newRow("two sources, same labels")
        << QList<ComparisonSource>{{QStringLiteral("before"),
                                    makeComparison(three, {2.9, 3.4, 4.7}, 3, 1, {QStringLiteral("adapters differ")})},
                                   {QStringLiteral("after"),
                                    makeComparison(three, {3.0, 3.6, 6.1}, 3, 0, {QStringLiteral("run 2 failed")})}}
        << QStringList{QStringLiteral("E1000 (before)"),   QStringLiteral("E1000E (before)"),
                       QStringLiteral("VMXNET3 (before)"), QStringLiteral("E1000 (after)"),
                       QStringLiteral("E1000E (after)"),   QStringLiteral("VMXNET3 (after)")}
        << QStringList{QString()} << QStringList{QStringLiteral("E1000 (before)"),   QStringLiteral("E1000E (before)"),
                                                 QStringLiteral("VMXNET3 (before)"), QStringLiteral("E1000 (after)"),
                                                 QStringLiteral("E1000E (after)"),   QStringLiteral("VMXNET3 (after)")}
        << QList<int>{0, 1, 2, 3, 4, 5} << QList<int>{0, 0, 0, 0, 0, 0} << 1 << QList<int>{-1, -1, -1, 0, 1, 2}
        << QList<QList<int>>{{0, 1, 2, 3, 4, 5}}
        << QStringList{QStringLiteral("before: adapters differ"), QStringLiteral("after: run 2 failed")};

    // An adapter the baseline source lacks compares with that source's baseline adapter.
    QTest::newRow("adapter only in one source")
        << QList<ComparisonSource>{{QStringLiteral("a"),
                                    makeComparison({QStringLiteral("E1000"), QStringLiteral("VMXNET3")}, {2.9, 4.7}, 2,
                                                   0)},
                                   {QStringLiteral("b"),
                                    makeComparison({QStringLiteral("VMXNET3"), QStringLiteral("virtio")}, {5.0, 7.0}, 2,
                                                   1)}}
        << QStringList{QStringLiteral("E1000 (a)"), QStringLiteral("VMXNET3 (a)"), QStringLiteral("VMXNET3 (b)"),
                       QStringLiteral("virtio (b)")}
        << QStringList{QString()}
        << QStringList{QStringLiteral("E1000 (a)"), QStringLiteral("VMXNET3 (a)"), QStringLiteral("VMXNET3 (b)"),
                       QStringLiteral("virtio (b)")}
        << QList<int>{0, 1, 2, 3} << QList<int>{0, 0, 0, 0} << 0 << QList<int>{-1, -1, 1, 0}
        << QList<QList<int>>{{0, 1, 2, 3}} << QStringList{};
}

void TestComparisonOverlay::overlay()
{
    QFETCH(QList<ComparisonSource>, sources);
    QFETCH(QStringList, mergedLabels);
    QFETCH(QStringList, groupLabels);
    QFETCH(QStringList, seriesLabels);
    QFETCH(QList<int>, seriesOf);
    QFETCH(QList<int>, groupOf);
    QFETCH(int, baseline);
    QFETCH(QList<int>, baselineFor);
    QFETCH(QList<QList<int>>, lookup);
    QFETCH(QStringList, warnings);

    const ComparisonOverlay o = overlayComparisons(sources);
    QCOMPARE(o.sourceCount(), int(sources.size()));
    for (int s = 0; s < sources.size(); ++s)
        QCOMPARE(o.sourceNames[s], sources[s].name);
    QStringList labels;
    for (const Configuration &c : o.merged.configurations)
        labels.append(c.label);
    QCOMPARE(labels, mergedLabels);
    QCOMPARE(o.groupLabels, groupLabels);
    QCOMPARE(o.seriesLabels, seriesLabels);
    QCOMPARE(o.seriesOf, seriesOf);
    QCOMPARE(o.groupOf, groupOf);
    QCOMPARE(o.merged.baselineIndex, baseline);
    QCOMPARE(o.merged.warnings, warnings);
    QList<int> gotBaselines;
    for (int i = 0; i < o.merged.configurations.size(); ++i)
        gotBaselines.append(o.merged.baselineFor(i));
    QCOMPARE(gotBaselines, baselineFor);
    for (int g = 0; g < lookup.size(); ++g)
        for (int s = 0; s < lookup[g].size(); ++s)
            QCOMPARE(o.configurationFor(g, s), lookup[g][s]);
    QCOMPARE(o.configurationFor(int(groupLabels.size()), 0), -1);
    QCOMPARE(o.configurationFor(0, o.seriesCount()), -1);
    QCOMPARE(o.configurationFor(-1, 0), -1);

    qsizetype runs = 0;
    for (const ComparisonSource &s : sources)
        runs += s.comparison.runs.size();
    QCOMPARE(o.merged.runs.size(), runs);
    QCOMPARE(o.merged.validate(), QString());
    QCOMPARE(o.merged.environment.local.hostName, sources.first().comparison.environment.local.hostName);
}

void TestComparisonOverlay::singleSourceIsUnchanged()
{
    Comparison c = makeComparison({QStringLiteral("lo, P=1"), QStringLiteral("lo, P=4")}, {10, 20}, 3, 1,
                                  {QStringLiteral("adapters differ")});
    c.environment.local.known = true;
    c.environment.local.hostName = QStringLiteral("bench1");
    const ComparisonOverlay o = overlayComparisons({{QStringLiteral("one"), c}});
    QCOMPARE(o.merged.title, c.title);
    QCOMPARE(o.merged.configurations.size(), c.configurations.size());
    QCOMPARE(o.merged.configurations[0].label, c.configurations[0].label);
    QCOMPARE(o.merged.runs.size(), c.runs.size());
    for (int i = 0; i < c.runs.size(); ++i) {
        QCOMPARE(o.merged.runs[i].configIndex, c.runs[i].configIndex);
        QCOMPARE(o.merged.runs[i].orderIndex, c.runs[i].orderIndex);
    }
    QCOMPARE(o.merged.baselineIndex, 1);
    QCOMPARE(o.merged.warnings, c.warnings);
    QCOMPARE(o.merged.environment.local.hostName, QStringLiteral("bench1"));
    QCOMPARE(o.merged.repeats, 3);
}

void TestComparisonOverlay::runsRemapped()
{
    const Comparison a = makeComparison({QStringLiteral("E1000"), QStringLiteral("VMXNET3")}, {2.9, 4.7}, 2, 0);
    const Comparison b = makeComparison({QStringLiteral("VMXNET3"), QStringLiteral("E1000")}, {6.0, 3.0}, 3, 0);
    const ComparisonOverlay o = overlayComparisons({{QStringLiteral("a"), a}, {QStringLiteral("b"), b}});
    QCOMPARE(o.merged.runs.size(), a.runs.size() + b.runs.size());
    QCOMPARE(o.merged.repeats, 3); // enough rounds for both sources' runs
    for (int i = 0; i < o.merged.runs.size(); ++i) {
        const Run &run = o.merged.runs[i];
        const bool fromA = i < a.runs.size();
        const Run &original = fromA ? a.runs[i] : b.runs[i - a.runs.size()];
        QCOMPARE(run.configIndex, original.configIndex + (fromA ? 0 : 2));
        QCOMPARE(run.repeatIndex, original.repeatIndex);
        QCOMPARE(run.orderIndex, i);
        QCOMPARE(run.result.streams.first().bytesReceived, original.result.streams.first().bytesReceived);
        // The run's configuration keeps its adapter.
        const QString label = (fromA ? a : b).configurations[original.configIndex].label;
        QCOMPARE(o.adapterLabels[o.adapterOf[run.configIndex]], label);
        QCOMPARE(o.sourceOf[run.configIndex], fromA ? 0 : 1);
    }
}

void TestComparisonOverlay::statisticsAcrossSources()
{
    // "after" VMXNET3 (6.0-6.2 Gbit/s) against "before" VMXNET3 (4.7-4.9 Gbit/s).
    const Comparison a = makeComparison({QStringLiteral("E1000"), QStringLiteral("VMXNET3")}, {3.0, 4.7}, 3, 0);
    const Comparison b = makeComparison({QStringLiteral("E1000"), QStringLiteral("VMXNET3")}, {3.0, 6.0}, 3, 0);
    const ComparisonOverlay o = overlayComparisons({{QStringLiteral("before"), a}, {QStringLiteral("after"), b}});
    const ComparisonStatistics s = computeStatistics(o.merged);
    QCOMPARE(s.configurations.size(), 4);
    const int vmxAfter = o.configurationFor(0, 3);
    QCOMPARE(o.merged.configurations[vmxAfter].label, QStringLiteral("VMXNET3 (after)"));
    const MetricStatistics *after = s.find(vmxAfter, Metric::Throughput);
    QVERIFY(after);
    QCOMPARE(after->summary.n, 3);
    QVERIFY(qFuzzyCompare(after->summary.mean, 6.1e9));
    QVERIFY(after->hasBaseline);
    QCOMPARE(s.configurations[vmxAfter].baselineConfig, o.configurationFor(0, 1));
    QCOMPARE(after->vsBaseline.verdict, stats::Verdict::Faster);
    QVERIFY(qFuzzyCompare(after->vsBaseline.difference.relative, 6.1 / 4.8 - 1));
    QVERIFY(s.configurations[o.configurationFor(0, 1)].isBaseline);
    // E1000 after against E1000 before: equal values, no difference.
    const MetricStatistics *sameBase = s.find(o.configurationFor(0, 2), Metric::Throughput);
    QVERIFY(sameBase && sameBase->hasBaseline);
    QCOMPARE(sameBase->vsBaseline.verdict, stats::Verdict::NoSignificantDifference);
}

void TestComparisonOverlay::empty()
{
    const ComparisonOverlay o = overlayComparisons({});
    QCOMPARE(o.sourceCount(), 0);
    QVERIFY(o.merged.configurations.isEmpty());
    QVERIFY(o.groupLabels.isEmpty());
    QCOMPARE(o.configurationFor(0, 0), -1);
}

QTEST_GUILESS_MAIN(TestComparisonOverlay)
#include "tst_comparisonoverlay.moc"
