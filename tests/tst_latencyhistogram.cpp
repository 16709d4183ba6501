// SPDX-License-Identifier: GPL-3.0-or-later
// LatencyHistogram against exactly computed percentiles of known samples.
#include "core/latencyhistogram.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using nb::LatencyHistogram;

namespace {

// Our own inverse-CDF sampling from mt19937_64, whose output the standard fixes, so the
// samples are identical on every compiler (std::*_distribution are not).
double unit(std::mt19937_64 &rng)
{
    return (double(rng() >> 11) + 0.5) / 9007199254740992.0;
}

std::vector<std::int64_t> makeSamples(const QString &kind, int n)
{
    std::mt19937_64 rng(20240601);
    std::vector<std::int64_t> v;
    v.reserve(n);
    for (int i = 0; i < n; ++i) {
        const double u = unit(rng);
        if (kind == QLatin1String("uniform")) {
            v.push_back(1000 + std::int64_t(u * 10'000'000)); // 1 us .. 10 ms
        } else if (kind == QLatin1String("exponential")) {
            v.push_back(100 + std::int64_t(-std::log(u) * 50'000)); // mean ~50 us
        } else if (kind == QLatin1String("bimodal")) {
            // 90% fast path around 20 us, 10% slow path around 5 ms.
            const double jitter = unit(rng);
            v.push_back(u < 0.9 ? std::int64_t(18'000 + jitter * 4'000) : std::int64_t(4'000'000 + jitter * 2'000'000));
        } else if (kind == QLatin1String("single")) {
            v.push_back(123'456);
        } else if (kind == QLatin1String("huge")) {
            v.push_back(std::int64_t(1e9 + u * 99e9)); // 1 s .. 100 s
        } else if (kind == QLatin1String("tiny")) {
            v.push_back(100 + std::int64_t(u * 400)); // 100 ns .. 500 ns, across the linear edge
        } else if (kind == QLatin1String("wide")) {
            v.push_back(std::int64_t(100 * std::pow(1e9, u))); // log-uniform 100 ns .. 100 s
        }
    }
    return v;
}

// Nearest rank in integer arithmetic: p is given in thousandths of a percent.
std::int64_t exactPercentile(const std::vector<std::int64_t> &sorted, std::int64_t pMilli)
{
    const auto n = std::int64_t(sorted.size());
    std::int64_t rank = (pMilli * n + 100'000 - 1) / 100'000;
    rank = std::clamp<std::int64_t>(rank, 1, n);
    return sorted[std::size_t(rank - 1)];
}

} // namespace

class TestLatencyHistogram : public QObject {
    Q_OBJECT
private slots:
    void bucketBounds();
    void percentiles_data();
    void percentiles();
    void clampsAndCounts();
    void merge();
    void jsonRoundTrip();
    void malformedJson_data();
    void malformedJson();
    void summaryJson();
};

void TestLatencyHistogram::bucketBounds()
{
    // Every value lies in its bucket and the midpoint is within 1/256 of it.
    double worst = 0;
    for (double x = 1; x < double(LatencyHistogram::kMaxTrackableNs); x *= 1.0007) {
        const auto v = std::int64_t(x);
        const int i = LatencyHistogram::bucketIndex(v);
        const std::int64_t lo = LatencyHistogram::bucketLowerBound(i);
        const std::int64_t w = LatencyHistogram::bucketWidth(i);
        QVERIFY2(lo <= v && v < lo + w, qPrintable(QString::number(v)));
        const double mid = double(lo + (w - 1) / 2);
        worst = std::max(worst, std::abs(mid - double(v)) / double(v));
    }
    QVERIFY2(worst <= 1.0 / 256, qPrintable(QString::number(worst)));
    QCOMPARE(LatencyHistogram::bucketIndex(LatencyHistogram::kMaxTrackableNs), LatencyHistogram::kBucketCount - 1);
    QVERIFY(LatencyHistogram::kMaxTrackableNs > 100'000'000'000); // 100 s
}

void TestLatencyHistogram::percentiles_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("n");
    QTest::newRow("uniform 1us-10ms") << QStringLiteral("uniform") << 100'000;
    QTest::newRow("exponential seed") << QStringLiteral("exponential") << 100'000;
    QTest::newRow("bimodal") << QStringLiteral("bimodal") << 50'000;
    QTest::newRow("single value") << QStringLiteral("single") << 1000;
    QTest::newRow("one sample") << QStringLiteral("single") << 1;
    QTest::newRow("huge 1s-100s") << QStringLiteral("huge") << 20'000;
    QTest::newRow("tiny 100-500ns") << QStringLiteral("tiny") << 20'000;
    QTest::newRow("log-uniform 100ns-100s") << QStringLiteral("wide") << 100'000;
}

void TestLatencyHistogram::percentiles()
{
    QFETCH(QString, kind);
    QFETCH(int, n);
    std::vector<std::int64_t> samples = makeSamples(kind, n);
    LatencyHistogram h;
    for (std::int64_t v : samples)
        h.record(v);
    std::sort(samples.begin(), samples.end());

    QCOMPARE(h.count(), std::uint64_t(n));
    QCOMPARE(h.min(), samples.front());
    QCOMPARE(h.max(), samples.back());

    long double sum = 0;
    for (std::int64_t v : samples)
        sum += v;
    const long double mean = sum / n;
    long double sq = 0;
    for (std::int64_t v : samples)
        sq += (v - mean) * (v - mean);
    const double stddev = double(std::sqrt(sq / n));
    QVERIFY2(std::abs(h.mean() - double(mean)) <= 1e-9 * double(mean),
             qPrintable(QStringLiteral("%1 vs %2").arg(h.mean()).arg(double(mean))));
    QVERIFY2(std::abs(h.stddev() - stddev) <= 1e-6 * std::max(stddev, 1.0),
             qPrintable(QStringLiteral("%1 vs %2").arg(h.stddev()).arg(stddev)));

    const std::int64_t pMillis[] = {0, 1'000, 25'000, 50'000, 90'000, 99'000, 99'900, 99'990, 100'000};
    for (std::int64_t pm : pMillis) {
        const double exact = double(exactPercentile(samples, pm));
        const double got = double(h.valueAtPercentile(double(pm) / 1000.0));
        const double relError = std::abs(got - exact) / exact;
        QVERIFY2(relError <= 0.01, qPrintable(QStringLiteral("p%1: got %2, exact %3, error %4")
                                                  .arg(double(pm) / 1000.0)
                                                  .arg(got)
                                                  .arg(exact)
                                                  .arg(relError)));
        // The design bound is tighter than the promise: half a bucket, 1/256.
        QVERIFY(relError <= 1.0 / 256 + 1e-12);
    }
    QCOMPARE(h.valueAtPercentile(0), samples.front());
    QCOMPARE(h.valueAtPercentile(100), samples.back());
    QCOMPARE(h.valueAtPercentile(-5), samples.front());
    QCOMPARE(h.valueAtPercentile(250), samples.back());

    const nb::LatencySummary s = h.summary();
    QCOMPARE(s.count, std::uint64_t(n));
    QCOMPARE(s.max, double(samples.back()) / 1000.0);
    QCOMPARE(s.p999, double(h.valueAtPercentile(99.9)) / 1000.0);
}

void TestLatencyHistogram::clampsAndCounts()
{
    LatencyHistogram h;
    QCOMPARE(h.valueAtPercentile(50), std::int64_t(0));
    QCOMPARE(h.stddev(), 0.0);
    h.record(-20);                                      // a clock step: counts as 0
    h.record(LatencyHistogram::kMaxTrackableNs * 4, 3); // clamped
    h.record(500, 0);                                   // no-op
    QCOMPARE(h.count(), std::uint64_t(4));
    QCOMPARE(h.min(), std::int64_t(0));
    QCOMPARE(h.max(), LatencyHistogram::kMaxTrackableNs);
    QCOMPARE(h.valueAtPercentile(25), std::int64_t(0));
    // The top bucket's midpoint, not max itself: still within half a bucket of it.
    const double top = double(LatencyHistogram::kMaxTrackableNs);
    QVERIFY(std::abs(double(h.valueAtPercentile(26)) - top) / top <= 1.0 / 256);

    LatencyHistogram weighted, repeated;
    weighted.record(1000, 7);
    weighted.record(3000, 3);
    for (int i = 0; i < 7; ++i)
        repeated.record(1000);
    for (int i = 0; i < 3; ++i)
        repeated.record(3000);
    QCOMPARE(weighted.toJson(), repeated.toJson());
    QCOMPARE(weighted.mean(), 1600.0);
    QCOMPARE(weighted.stddev(), std::sqrt(0.7 * 600 * 600 + 0.3 * 1400 * 1400));

    h.reset();
    QVERIFY(h.isEmpty());
    QCOMPARE(h.max(), std::int64_t(0));
    QCOMPARE(h.toJson(), LatencyHistogram().toJson());
}

void TestLatencyHistogram::merge()
{
    const std::vector<std::int64_t> samples = makeSamples(QStringLiteral("bimodal"), 20'000);
    LatencyHistogram all, a, b;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        all.record(samples[i]);
        (i % 3 ? a : b).record(samples[i]);
    }
    LatencyHistogram merged;
    merged.merge(a); // into an empty one
    merged.merge(b);
    merged.merge(LatencyHistogram()); // empty other: no change
    QCOMPARE(merged.count(), all.count());
    QCOMPARE(merged.min(), all.min());
    QCOMPARE(merged.max(), all.max());
    QCOMPARE(merged.toJson().value(QStringLiteral("buckets")), all.toJson().value(QStringLiteral("buckets")));
    QVERIFY(std::abs(merged.mean() - all.mean()) <= 1e-9 * all.mean());
    QVERIFY(std::abs(merged.stddev() - all.stddev()) <= 1e-9 * all.stddev());
    for (double p : {50.0, 90.0, 99.0, 99.9})
        QCOMPARE(merged.valueAtPercentile(p), all.valueAtPercentile(p));
}

void TestLatencyHistogram::jsonRoundTrip()
{
    for (const QString &kind : {QStringLiteral("exponential"), QStringLiteral("huge"), QStringLiteral("none")}) {
        LatencyHistogram h;
        for (std::int64_t v : makeSamples(kind, 5000))
            h.record(v);
        // Through text, as a snapshot file would store it.
        const QByteArray text = QJsonDocument(h.toJson()).toJson(QJsonDocument::Compact);
        LatencyHistogram back;
        QString error;
        QVERIFY2(LatencyHistogram::fromJson(QJsonDocument::fromJson(text).object(), &back, &error), qPrintable(error));
        QCOMPARE(back.toJson(), h.toJson());
        QCOMPARE(back.summary(), h.summary());
        // Compact: only non-empty buckets are stored.
        QVERIFY(h.toJson().value(QStringLiteral("buckets")).toArray().size() < 3000);
    }
}

void TestLatencyHistogram::malformedJson_data()
{
    QTest::addColumn<QByteArray>("json");
    const QByteArray head = R"("version":1,"unit":"ns","sub_bucket_bits":7,)";
    auto row = [&](const char *name, const QByteArray &body) { QTest::newRow(name) << ("{" + head + body + "}"); };
    QTest::newRow("not an object") << QByteArray("[1,2]");
    QTest::newRow("no version") << QByteArray(
        R"({"unit":"ns","sub_bucket_bits":7,"count":0,"min":0,"max":0,"mean":0,"m2":0,"buckets":[]})");
    QTest::newRow("other layout") << QByteArray(
        R"({"version":1,"unit":"ns","sub_bucket_bits":5,"count":0,"min":0,"max":0,"mean":0,"m2":0,"buckets":[]})");
    QTest::newRow("other unit") << QByteArray(
        R"({"version":1,"unit":"us","sub_bucket_bits":7,"count":0,"min":0,"max":0,"mean":0,"m2":0,"buckets":[]})");
    row("counts do not add up", R"("count":3,"min":5,"max":5,"mean":5,"m2":0,"buckets":[[5,2]])");
    row("index out of range", R"("count":1,"min":5,"max":5,"mean":5,"m2":0,"buckets":[[99999,1]])");
    row("indices not increasing", R"("count":2,"min":5,"max":9,"mean":7,"m2":8,"buckets":[[9,1],[5,1]])");
    row("duplicate index", R"("count":2,"min":5,"max":5,"mean":5,"m2":0,"buckets":[[5,1],[5,1]])");
    row("negative count", R"("count":1,"min":5,"max":5,"mean":5,"m2":0,"buckets":[[5,-1]])");
    row("fractional count", R"("count":1.5,"min":5,"max":5,"mean":5,"m2":0,"buckets":[[5,1.5]])");
    row("zero-count entry", R"("count":0,"min":0,"max":0,"mean":0,"m2":0,"buckets":[[5,0]])");
    row("pair of three", R"("count":1,"min":5,"max":5,"mean":5,"m2":0,"buckets":[[5,1,1]])");
    row("string count", R"("count":"1","min":5,"max":5,"mean":5,"m2":0,"buckets":[[5,1]])");
    row("min above max", R"("count":2,"min":9,"max":5,"mean":7,"m2":8,"buckets":[[5,1],[9,1]])");
    row("min outside bucket", R"("count":2,"min":6,"max":9,"mean":7,"m2":8,"buckets":[[5,1],[9,1]])");
    row("negative m2", R"("count":1,"min":5,"max":5,"mean":5,"m2":-1,"buckets":[[5,1]])");
    row("buckets missing", R"("count":0,"min":0,"max":0,"mean":0,"m2":0)");
    row("buckets not array", R"("count":0,"min":0,"max":0,"mean":0,"m2":0,"buckets":{})");
}

void TestLatencyHistogram::malformedJson()
{
    QFETCH(QByteArray, json);
    LatencyHistogram h;
    h.record(42);
    const QJsonObject before = h.toJson();
    QString error;
    QVERIFY(!LatencyHistogram::fromJson(QJsonDocument::fromJson(json).object(), &h, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(h.toJson(), before); // untouched on failure
}

void TestLatencyHistogram::summaryJson()
{
    LatencyHistogram h;
    for (std::int64_t v : makeSamples(QStringLiteral("exponential"), 1000))
        h.record(v);
    const nb::LatencySummary s = h.summary();
    const QJsonObject json = s.toJson();
    for (const char *key : {"count", "min", "mean", "stddev", "p50", "p90", "p99", "p999", "max"})
        QVERIFY2(json.contains(QLatin1String(key)), key);
    QCOMPARE(json.value(QStringLiteral("max")).toDouble(), double(h.max()) / 1000.0); // microseconds
    nb::LatencySummary back;
    QString error;
    QVERIFY2(nb::LatencySummary::fromJson(json, &back, &error), qPrintable(error));
    QCOMPARE(back, s);
    QVERIFY(!nb::LatencySummary::fromJson(QJsonObject{{QStringLiteral("count"), 1}}, &back, &error));
}

QTEST_GUILESS_MAIN(TestLatencyHistogram)
#include "tst_latencyhistogram.moc"
