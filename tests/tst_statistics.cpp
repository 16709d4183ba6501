// SPDX-License-Identifier: GPL-3.0-or-later
// The statistics behind comparison verdicts, checked against values computed elsewhere:
// printed t tables, closed forms of the t distribution (df 1 and 2), R's t.test on its
// `sleep` data set, and Simpson integration of the t density in python3 (independent of
// the incomplete-beta route the engine takes).
#include "core/statistics.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <numbers>

using namespace nb::stats;

namespace {

bool closeTo(double actual, double expected, double tolerance)
{
    if (std::isinf(expected))
        return actual == expected;
    return std::fabs(actual - expected) <= tolerance;
}

#define QCOMPARE_NEAR(actual, expected, tol)                                                                           \
    do {                                                                                                               \
        const double a_ = (actual), e_ = (expected);                                                                   \
        if (!closeTo(a_, e_, (tol)))                                                                                   \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3 +/- %4")                                             \
                                 .arg(QStringLiteral(#actual))                                                         \
                                 .arg(a_, 0, 'g', 12)                                                                  \
                                 .arg(e_, 0, 'g', 12)                                                                  \
                                 .arg(tol)));                                                                          \
    } while (false)

const QList<double> kSleep1{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
const QList<double> kSleep2{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

} // namespace

class TestStatistics : public QObject {
    Q_OBJECT
private slots:
    void descriptive_data();
    void descriptive();
    void descriptiveEmptyAndSingle();
    void precisionWithLargeValues();

    void incompleteBeta_data();
    void incompleteBeta();
    void tCdf_data();
    void tCdf();
    void tQuantile_data();
    void tQuantile();
    void tQuantileInvertsCdf();
    void tDomain();

    void confidenceInterval_data();
    void confidenceInterval();

    void welch_data();
    void welch();
    void welchEdgeCases();

    void relativeDifference_data();
    void relativeDifference();
    void relativeDifferenceEdges();

    void verdict_data();
    void equivalence_data();
    void equivalence();
    void absoluteEquivalence();
    void verdict();
    void verdictKeys();
};

void TestStatistics::descriptive_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<double>("mean");
    QTest::addColumn<double>("median");
    QTest::addColumn<double>("stddev");
    // python3: statistics.mean / median / stdev
    QTest::newRow("textbook 2 4 4 4 5 5 7 9")
        << QList<double>{2, 4, 4, 4, 5, 5, 7, 9} << 5.0 << 4.5 << 2.138089935299395;
    QTest::newRow("odd count") << QList<double>{3, 1, 2} << 2.0 << 2.0 << 1.0;
    QTest::newRow("R sleep group 1") << kSleep1 << 0.75 << 0.35 << 1.7890096577591625;
    QTest::newRow("two values") << QList<double>{10, 20} << 15.0 << 15.0 << 7.0710678118654755;
    QTest::newRow("constant") << QList<double>{941e6, 941e6, 941e6} << 941e6 << 941e6 << 0.0;
}

void TestStatistics::descriptive()
{
    QFETCH(QList<double>, values);
    QFETCH(double, mean);
    QFETCH(double, median);
    QFETCH(double, stddev);
    QCOMPARE_NEAR(nb::stats::mean(values), mean, 1e-12 * std::max(1.0, std::fabs(mean)));
    QCOMPARE_NEAR(nb::stats::median(values), median, 1e-12 * std::max(1.0, std::fabs(median)));
    QCOMPARE_NEAR(sampleStdDev(values), stddev, 1e-12 * std::max(1.0, stddev));
    const Summary s = summarize(values);
    QCOMPARE(s.n, values.size());
    QVERIFY(s.spreadKnown);
    QCOMPARE_NEAR(s.stddev, stddev, 1e-12 * std::max(1.0, stddev));
}

void TestStatistics::descriptiveEmptyAndSingle()
{
    QVERIFY(std::isnan(mean({})));
    QVERIFY(std::isnan(median({})));
    QVERIFY(std::isnan(sampleStdDev({})));
    QVERIFY(std::isnan(sampleStdDev({5})));
    const Summary empty = summarize({});
    QVERIFY(empty.isEmpty());
    QVERIFY(!empty.spreadKnown);
    const Summary one = summarize({7.5});
    QCOMPARE(one.n, 1);
    QCOMPARE(one.mean, 7.5);
    QCOMPARE(one.median, 7.5);
    QVERIFY(!one.spreadKnown);
    QCOMPARE(one.stddev, 0.0);
    QCOMPARE(one.ciLow, 7.5);
    QCOMPARE(one.ciHigh, 7.5);
}

void TestStatistics::precisionWithLargeValues()
{
    // Throughput in bit/s: large values with tiny spread must not lose the spread.
    const QList<double> v{1e10 + 1, 1e10 + 2, 1e10 + 3};
    QCOMPARE_NEAR(mean(v), 1e10 + 2, 1e-6);
    QCOMPARE_NEAR(sampleStdDev(v), 1.0, 1e-6);
}

void TestStatistics::incompleteBeta_data()
{
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("b");
    QTest::addColumn<double>("x");
    QTest::addColumn<double>("expected");
    // Closed forms: I_x(1,1) = x; I_x(a,1) = x^a; I_x(1,b) = 1-(1-x)^b; I_0.5(a,a) = 1/2.
    QTest::newRow("uniform") << 1.0 << 1.0 << 0.3 << 0.3;
    QTest::newRow("x^a") << 3.5 << 1.0 << 0.7 << std::pow(0.7, 3.5);
    QTest::newRow("1-(1-x)^b") << 1.0 << 4.0 << 0.2 << 1 - std::pow(0.8, 4);
    QTest::newRow("symmetric small") << 2.5 << 2.5 << 0.5 << 0.5;
    QTest::newRow("symmetric large") << 400.0 << 400.0 << 0.5 << 0.5;
    QTest::newRow("x=0") << 2.0 << 3.0 << 0.0 << 0.0;
    QTest::newRow("x=1") << 2.0 << 3.0 << 1.0 << 1.0;
    // I_x(2,3) = 6x^2/2 - 8x^3/... : the Beta(2,3) CDF is 6x^2 - 8x^3 + 3x^4.
    QTest::newRow("Beta(2,3) cdf") << 2.0 << 3.0 << 0.4 << 6 * 0.16 - 8 * 0.064 + 3 * 0.0256;
}

void TestStatistics::incompleteBeta()
{
    QFETCH(double, a);
    QFETCH(double, b);
    QFETCH(double, x);
    QFETCH(double, expected);
    // lgamma's rounding grows with its argument: ~3e-13 absolute at a = b = 400.
    QCOMPARE_NEAR(regularizedIncompleteBeta(a, b, x), expected, a > 100 ? 1e-11 : 1e-13);
}

void TestStatistics::tCdf_data()
{
    QTest::addColumn<double>("t");
    QTest::addColumn<double>("df");
    QTest::addColumn<double>("expected");
    QTest::addColumn<double>("tolerance");
    const double pi = std::numbers::pi;
    // df = 1 is the Cauchy distribution: 1/2 + atan(t)/pi.
    QTest::newRow("cauchy 1") << 1.0 << 1.0 << 0.75 << 1e-13;
    QTest::newRow("cauchy -3") << -3.0 << 1.0 << 0.5 + std::atan(-3.0) / pi << 1e-13;
    QTest::newRow("cauchy 1000") << 1000.0 << 1.0 << 0.5 + std::atan(1000.0) / pi << 1e-13;
    // df = 2: 1/2 + t / (2 sqrt(2 + t^2)).
    QTest::newRow("df2 1.5") << 1.5 << 2.0 << 0.5 + 1.5 / (2 * std::sqrt(2 + 2.25)) << 1e-13;
    QTest::newRow("df2 -0.2") << -0.2 << 2.0 << 0.5 - 0.2 / (2 * std::sqrt(2 + 0.04)) << 1e-13;
    QTest::newRow("zero") << 0.0 << 7.0 << 0.5 << 1e-15;
    // python3, Simpson's rule on the density (200000 panels).
    QTest::newRow("simpson df3") << 1.0 << 3.0 << 0.8044988905221144 << 1e-9;
    QTest::newRow("simpson df7.5") << 2.5 << 7.5 << 0.980589870863183 << 1e-9;
    QTest::newRow("simpson df17.776") << -1.3 << 17.776 << 0.10510297241770422 << 1e-9;
    QTest::newRow("simpson df4.2") << 2.0 << 4.2 << 0.9436226941476322 << 1e-9;
    // Normal limit: Phi(1.959963984540054) = 0.975.
    QTest::newRow("normal") << 1.959963984540054 << std::numeric_limits<double>::infinity() << 0.975 << 1e-12;
    QTest::newRow("huge df") << 1.959963984540054 << 1e9 << 0.975 << 1e-8;
}

void TestStatistics::tCdf()
{
    QFETCH(double, t);
    QFETCH(double, df);
    QFETCH(double, expected);
    QFETCH(double, tolerance);
    QCOMPARE_NEAR(studentTCdf(t, df), expected, tolerance);
}

void TestStatistics::tQuantile_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("df");
    QTest::addColumn<double>("expected");
    // Printed t tables (4 decimals), two-sided 95% unless noted.
    QTest::newRow("df1") << 0.975 << 1.0 << 12.7062;
    QTest::newRow("df2") << 0.975 << 2.0 << 4.3027;
    QTest::newRow("df3") << 0.975 << 3.0 << 3.1824;
    QTest::newRow("df4") << 0.975 << 4.0 << 2.7764;
    QTest::newRow("df5") << 0.975 << 5.0 << 2.5706;
    QTest::newRow("df9") << 0.975 << 9.0 << 2.2622;
    QTest::newRow("df10") << 0.975 << 10.0 << 2.2281;
    QTest::newRow("df20") << 0.975 << 20.0 << 2.0860;
    QTest::newRow("df30") << 0.975 << 30.0 << 2.0423;
    QTest::newRow("df120") << 0.975 << 120.0 << 1.9799;
    QTest::newRow("df inf") << 0.975 << std::numeric_limits<double>::infinity() << 1.9600;
    QTest::newRow("df 1e6") << 0.975 << 1e6 << 1.9600;
    QTest::newRow("one-sided 95% df10") << 0.95 << 10.0 << 1.8125;
    QTest::newRow("99% df10") << 0.995 << 10.0 << 3.1693;
    QTest::newRow("lower tail df4") << 0.025 << 4.0 << -2.7764;
    QTest::newRow("median") << 0.5 << 3.0 << 0.0;
    // Closed form for df = 1: tan(pi (p - 1/2)).
    QTest::newRow("cauchy 0.9999") << 0.9999 << 1.0 << std::tan(std::numbers::pi * 0.4999);
}

void TestStatistics::tQuantile()
{
    QFETCH(double, p);
    QFETCH(double, df);
    QFETCH(double, expected);
    const double tol = std::fabs(expected) > 100 ? 1e-9 * std::fabs(expected) : 5e-5;
    QCOMPARE_NEAR(studentTQuantile(p, df), expected, tol);
}

void TestStatistics::tQuantileInvertsCdf()
{
    for (double df : {0.5, 1.0, 1.7, 3.0, 17.776, 60.0, 1000.0}) {
        for (double p : {1e-6, 0.01, 0.2, 0.6, 0.975, 0.999999}) {
            const double t = studentTQuantile(p, df);
            QVERIFY2(std::isfinite(t), qPrintable(QStringLiteral("df %1 p %2").arg(df).arg(p)));
            QCOMPARE_NEAR(studentTCdf(t, df), p, 1e-9 * std::min(p, 1 - p) + 1e-14);
        }
    }
}

void TestStatistics::tDomain()
{
    QVERIFY(std::isnan(studentTQuantile(0, 5)));
    QVERIFY(std::isnan(studentTQuantile(1, 5)));
    QVERIFY(std::isnan(studentTQuantile(0.5, 0)));
    QVERIFY(std::isnan(studentTCdf(1, -1)));
    QVERIFY(std::isnan(studentTCdf(std::numeric_limits<double>::quiet_NaN(), 3)));
    QVERIFY(std::isnan(regularizedIncompleteBeta(0, 1, 0.5)));
    QVERIFY(std::isnan(regularizedIncompleteBeta(1, 1, 1.5)));
    QCOMPARE(twoSidedPValue(std::numeric_limits<double>::infinity(), 3), 0.0);
    QCOMPARE(studentTCdf(std::numeric_limits<double>::infinity(), 3), 1.0);
    QCOMPARE(studentTCdf(-std::numeric_limits<double>::infinity(), 3), 0.0);
    QCOMPARE_NEAR(tCritical(4), 2.7764, 5e-5);
}

void TestStatistics::confidenceInterval_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<double>("low");
    QTest::addColumn<double>("high");
    // mean +/- t(0.975, n-1) s / sqrt(n), worked out by hand from the table values.
    // {2,4,4,4,5,5,7,9}: mean 5, s 2.1380899, t(7) = 2.3646243 -> half 1.7874851.
    QTest::newRow("n=8") << QList<double>{2, 4, 4, 4, 5, 5, 7, 9} << 5 - 1.7874851 << 5 + 1.7874851;
    // {10, 20}: mean 15, s 7.0710678, t(1) = 12.7062047 -> half 63.531024.
    QTest::newRow("n=2") << QList<double>{10, 20} << 15 - 63.531024 << 15 + 63.531024;
    // Three runs of a throughput test: 9.1, 9.4, 9.7 Gbit/s: s 0.3, t(2) 4.3026527 -> half 0.7452410.
    QTest::newRow("n=3 Gbit/s") << QList<double>{9.1e9, 9.4e9, 9.7e9} << 9.4e9 - 0.7452410e9 << 9.4e9 + 0.7452410e9;
    // R: t.test(sleep$extra[1:10])$conf.int = -0.5297804 2.0297804
    QTest::newRow("R sleep group 1") << kSleep1 << -0.5297804 << 2.0297804;
    QTest::newRow("zero variance") << QList<double>{4, 4, 4} << 4.0 << 4.0;
}

void TestStatistics::confidenceInterval()
{
    QFETCH(QList<double>, values);
    QFETCH(double, low);
    QFETCH(double, high);
    const Summary s = summarize(values);
    const double tol = 1e-6 * std::max(1.0, std::fabs(high));
    QCOMPARE_NEAR(s.ciLow, low, tol);
    QCOMPARE_NEAR(s.ciHigh, high, tol);
}

void TestStatistics::welch_data()
{
    QTest::addColumn<QList<double>>("a");
    QTest::addColumn<QList<double>>("b");
    QTest::addColumn<double>("t");
    QTest::addColumn<double>("df");
    QTest::addColumn<double>("p");
    // R: t.test(extra ~ group, data = sleep): t = -1.8608, df = 17.776, p-value = 0.07939
    // (R subtracts group 2 from group 1; welchTest(a, b) reports b - a).
    QTest::newRow("R sleep") << kSleep1 << kSleep2 << 1.8608134675 << 17.7764735 << 0.0793941;
    QTest::newRow("R sleep swapped") << kSleep2 << kSleep1 << -1.8608134675 << 17.7764735 << 0.0793941;
    // Wikipedia "Welch's t-test", example 1: t = 2.46, df = 25.0, p = 0.021 (python3 with
    // Simpson integration: 2.455356398, 24.98852929, 0.021378001).
    QTest::newRow("wikipedia 1") << QList<double>{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                                                  21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
                                 << QList<double>{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                                                  24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
                                 << 2.455356398286006 << 24.98852929023142 << 0.02137800146286173;
    // Identical groups: t = 0, p = 1.
    QTest::newRow("identical") << QList<double>{1, 2, 3} << QList<double>{1, 2, 3} << 0.0 << 4.0 << 1.0;
    // By hand: a = {1,2,3} (var 1), b = {3,4,5,6,7} (var 2.5): va = 1/3, vb = 0.5,
    // t = 3 / sqrt(5/6) = 3.2863353, df = (5/6)^2 / ((1/9)/2 + 0.25/4) = 5.8823529; p by
    // Simpson integration in python3: 0.017177850667.
    QTest::newRow("by hand") << QList<double>{1, 2, 3} << QList<double>{3, 4, 5, 6, 7} << 3.2863353 << 5.8823529
                             << 0.017177850667;
}

void TestStatistics::welch()
{
    QFETCH(QList<double>, a);
    QFETCH(QList<double>, b);
    QFETCH(double, t);
    QFETCH(double, df);
    QFETCH(double, p);
    const WelchResult w = welchTest(a, b);
    QVERIFY(w.valid);
    QCOMPARE_NEAR(w.t, t, 1e-6);
    QCOMPARE_NEAR(w.df, df, 1e-6);
    QCOMPARE_NEAR(w.pValue, p, 1e-6);
}

void TestStatistics::welchEdgeCases()
{
    QVERIFY(!welchTest(QList<double>{1}, QList<double>{1, 2, 3}).valid);
    QVERIFY(!welchTest(QList<double>{}, QList<double>{}).valid);
    // Both constant and equal: no difference at all.
    WelchResult w = welchTest(QList<double>{5, 5}, QList<double>{5, 5, 5});
    QVERIFY(w.valid);
    QCOMPARE(w.t, 0.0);
    QCOMPARE(w.pValue, 1.0);
    QCOMPARE(w.df, 3.0);
    // Both constant, different: as certain as the data can make it.
    w = welchTest(QList<double>{5, 5}, QList<double>{6, 6});
    QCOMPARE(w.pValue, 0.0);
    QVERIFY(std::isinf(w.t) && w.t > 0);
    // One side constant: df is the other side's n - 1.
    w = welchTest(QList<double>{5, 5, 5}, QList<double>{4, 6, 5, 5});
    QCOMPARE_NEAR(w.df, 3.0, 1e-12);
    QCOMPARE_NEAR(w.t, 0.0, 1e-12);
}

void TestStatistics::relativeDifference_data()
{
    QTest::addColumn<QList<double>>("baseline");
    QTest::addColumn<QList<double>>("candidate");
    QTest::addColumn<double>("relative");
    QTest::addColumn<double>("halfWidth");
    // baseline {9,10,11}: mean 10; candidate {16,17,18}: mean 17 -> +70%. A negative
    // halfWidth means: check against the documented delta-method formula (and by hand in
    // relativeDifferenceEdges).
    QTest::newRow("+70%") << QList<double>{9, 10, 11} << QList<double>{16, 17, 18} << 0.7 << -1.0;
    // Zero variance on both sides: the interval collapses to the point.
    QTest::newRow("exact") << QList<double>{2, 2} << QList<double>{3, 3} << 0.5 << 0.0;
    QTest::newRow("same") << QList<double>{1, 2, 3} << QList<double>{1, 2, 3} << 0.0 << -1.0;
}

void TestStatistics::relativeDifference()
{
    QFETCH(QList<double>, baseline);
    QFETCH(QList<double>, candidate);
    QFETCH(double, relative);
    QFETCH(double, halfWidth);
    const Summary b = summarize(baseline), c = summarize(candidate);
    const RelativeDifference d = nb::stats::relativeDifference(b, c);
    QVERIFY(d.valid);
    QVERIFY(d.intervalKnown);
    QCOMPARE_NEAR(d.relative, relative, 1e-12);
    if (halfWidth >= 0) {
        QCOMPARE_NEAR(d.halfWidth(), halfWidth, 1e-12);
    } else {
        // Recompute the documented delta-method formula independently of the code path.
        const double r = c.mean / b.mean;
        const double vc = c.stddev * c.stddev / c.n, vb = r * r * b.stddev * b.stddev / b.n;
        const double df = (vc + vb) * (vc + vb) / (vc * vc / (c.n - 1) + vb * vb / (b.n - 1));
        const double expected = tCritical(df) * std::sqrt(vc + vb) / b.mean;
        QCOMPARE_NEAR(d.halfWidth(), expected, 1e-12);
        QCOMPARE_NEAR((d.low + d.high) / 2, relative, 1e-12);
    }
}

void TestStatistics::relativeDifferenceEdges()
{
    // The +70% case by hand: df = 3.24138, t(0.975, 3.24138) between t(3) = 3.1824 and
    // t(4) = 2.7764; half = t * sqrt(0.012966667) = t * 0.1138713.
    const RelativeDifference d = nb::stats::relativeDifference(summarize({9, 10, 11}), summarize({16, 17, 18}));
    QVERIFY(d.halfWidth() > 2.7764 * 0.1138713 && d.halfWidth() < 3.1824 * 0.1138713);
    // Baseline mean 0: undefined.
    QVERIFY(!nb::stats::relativeDifference(summarize({-1, 1}), summarize({1, 2})).valid);
    // One run: a point estimate, no interval.
    const RelativeDifference one = nb::stats::relativeDifference(summarize({10}), summarize({12}));
    QVERIFY(one.valid);
    QVERIFY(!one.intervalKnown);
    QCOMPARE_NEAR(one.relative, 0.2, 1e-12);
    QVERIFY(!nb::stats::relativeDifference(summarize({}), summarize({12})).valid);
    // Candidate mean 0 is fine (-100%).
    const RelativeDifference zero = nb::stats::relativeDifference(summarize({10, 12}), summarize({0, 0}));
    QVERIFY(zero.valid && zero.intervalKnown);
    QCOMPARE_NEAR(zero.relative, -1.0, 1e-12);
}

void TestStatistics::verdict_data()
{
    QTest::addColumn<QList<double>>("baseline");
    QTest::addColumn<QList<double>>("candidate");
    QTest::addColumn<bool>("higherIsBetter");
    QTest::addColumn<int>("expected");
    const QList<double> base{9.1, 9.4, 9.7};
    const QList<double> much{15.8, 16.0, 16.3};
    const QList<double> same{9.0, 9.5, 9.9};
    QTest::newRow("throughput up") << base << much << true << int(Verdict::Faster);
    QTest::newRow("throughput down") << much << base << true << int(Verdict::Slower);
    QTest::newRow("latency up is worse") << base << much << false << int(Verdict::Slower);
    QTest::newRow("cpu down is better") << much << base << false << int(Verdict::Faster);
    QTest::newRow("within noise") << base << same << true << int(Verdict::NoSignificantDifference);
    QTest::newRow("identical") << base << base << true << int(Verdict::NoSignificantDifference);
    QTest::newRow("one run") << QList<double>{9.4} << much << true << int(Verdict::NotEnoughRuns);
    QTest::newRow("no runs") << QList<double>{} << much << true << int(Verdict::NotEnoughRuns);
    // R sleep: p = 0.079 > 0.05, so no verdict despite a big mean difference.
    QTest::newRow("R sleep") << kSleep1 << kSleep2 << true << int(Verdict::NoSignificantDifference);
    // Wikipedia 1: p = 0.021 < 0.05.
    QTest::newRow("wikipedia 1") << QList<double>{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                                                  21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
                                 << QList<double>{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                                                  24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
                                 << true << int(Verdict::Faster);
    QTest::newRow("constant different") << QList<double>{5, 5} << QList<double>{6, 6} << false << int(Verdict::Slower);
}

void TestStatistics::verdict()
{
    QFETCH(QList<double>, baseline);
    QFETCH(QList<double>, candidate);
    QFETCH(bool, higherIsBetter);
    QFETCH(int, expected);
    const BaselineComparison c =
        compareToBaseline(summarize(baseline), summarize(candidate), higherIsBetter ? Better::Higher : Better::Lower);
    QCOMPARE(int(c.verdict), expected);
}

// The practical threshold (review M8): a significant difference smaller than it, or a
// non-significant one whose whole interval lies inside it, is Equivalent; 0 turns it off.
void TestStatistics::equivalence_data()
{
    QTest::addColumn<QList<double>>("baseline");
    QTest::addColumn<QList<double>>("candidate");
    QTest::addColumn<bool>("higherIsBetter");
    QTest::addColumn<double>("threshold"); // a fraction
    QTest::addColumn<int>("expected");
    const QList<double> base{100.0, 100.1, 100.2};
    const QList<double> onePercentUp{101.0, 101.1, 101.2}; // +1.0%, p < 0.001
    const QList<double> tenPercentUp{110.0, 110.1, 110.2};
    // +0.1% (100.3 vs 100.2), not significant; the 95% interval is about +-0.45%.
    const QList<double> tightBase{100.0, 100.2, 100.4}, tightCandidate{100.1, 100.3, 100.5};
    const QList<double> wideBase{90, 100, 110}, wideCandidate{92, 102, 112}; // +2%, interval +-30%
    QTest::newRow("1% up, 2% threshold") << base << onePercentUp << true << 0.02 << int(Verdict::Equivalent);
    QTest::newRow("1% up, threshold off") << base << onePercentUp << true << 0.0 << int(Verdict::Faster);
    QTest::newRow("1% up, 0.5% threshold") << base << onePercentUp << true << 0.005 << int(Verdict::Faster);
    QTest::newRow("1% down, 2% threshold") << onePercentUp << base << true << 0.02 << int(Verdict::Equivalent);
    QTest::newRow("CPU 1% lower, 2% threshold") << onePercentUp << base << false << 0.02 << int(Verdict::Equivalent);
    QTest::newRow("10% up, 2% threshold") << base << tenPercentUp << true << 0.02 << int(Verdict::Faster);
    QTest::newRow("10% lower latency, 2% threshold") << tenPercentUp << base << false << 0.02 << int(Verdict::Faster);
    QTest::newRow("tight, 2% threshold") << tightBase << tightCandidate << true << 0.02 << int(Verdict::Equivalent);
    QTest::newRow("tight, threshold off")
        << tightBase << tightCandidate << true << 0.0 << int(Verdict::NoSignificantDifference);
    QTest::newRow("tight, 0.3% threshold")
        << tightBase << tightCandidate << true << 0.003 << int(Verdict::NoSignificantDifference);
    QTest::newRow("wide, 2% threshold") << wideBase << wideCandidate << true << 0.02
                                        << int(Verdict::NoSignificantDifference);
    QTest::newRow("one run, 2% threshold")
        << QList<double>{100.0} << onePercentUp << true << 0.02 << int(Verdict::NotEnoughRuns);
}

// Loss near zero (percent; lower is better): 0.011% against 0.021% is +91% relatively,
// significant, "higher (worse)"; judged absolutely (+0.01 points under a 0.1-point
// threshold) it is Equivalent; a 1-point rise stays Slower.
void TestStatistics::absoluteEquivalence()
{
    const Summary base = summarize({0.010, 0.012, 0.011});
    const Summary near = summarize({0.020, 0.021, 0.022});
    const Summary far = summarize({1.0, 1.1, 1.2});
    QCOMPARE(compareToBaseline(base, near, Better::Lower, 0.05, 0.02).verdict, Verdict::Slower);
    const BaselineComparison nearAbs = compareToBaseline(base, near, Better::Lower, 0.05, 0.02, 0.1);
    QCOMPARE(nearAbs.verdict, Verdict::Equivalent);
    QVERIFY(nearAbs.absolute.valid && nearAbs.absolute.intervalKnown);
    QVERIFY(qAbs(nearAbs.absolute.value - 0.010) < 1e-12);
    // Welch: sqrt(1e-6/3 + 1e-6/3) = 8.165e-4 with df = 4, t(0.975, 4) = 2.7764.
    QVERIFY2(qAbs(nearAbs.absolute.halfWidth - 2.7764 * 8.165e-4) < 1e-5,
             qPrintable(QString::number(nearAbs.absolute.halfWidth)));
    QCOMPARE(compareToBaseline(base, far, Better::Lower, 0.05, 0.02, 0.1).verdict, Verdict::Slower);
    // A zero baseline has no relative difference but an absolute one.
    const Summary zero = summarize({0, 0, 0});
    const BaselineComparison fromZero = compareToBaseline(zero, near, Better::Lower, 0.05, 0.02, 0.1);
    QVERIFY(!fromZero.difference.valid);
    QCOMPARE(fromZero.verdict, Verdict::Equivalent);
    QCOMPARE(compareToBaseline(zero, near, Better::Lower, 0.05, 0.02).verdict, Verdict::Slower);
}

void TestStatistics::equivalence()
{
    QFETCH(QList<double>, baseline);
    QFETCH(QList<double>, candidate);
    QFETCH(bool, higherIsBetter);
    QFETCH(double, threshold);
    QFETCH(int, expected);
    const BaselineComparison c = compareToBaseline(summarize(baseline), summarize(candidate),
                                                   higherIsBetter ? Better::Higher : Better::Lower, 0.05, threshold);
    QCOMPARE(int(c.verdict), expected);
}

void TestStatistics::verdictKeys()
{
    for (Verdict v : {Verdict::Faster, Verdict::Slower, Verdict::NoSignificantDifference, Verdict::NotEnoughRuns,
                      Verdict::Equivalent}) {
        Verdict back = Verdict::Faster;
        QVERIFY(verdictFromKey(verdictKey(v), &back));
        QCOMPARE(back, v);
    }
    Verdict ignored;
    QVERIFY(!verdictFromKey(QStringLiteral("bogus"), &ignored));
    QCOMPARE(verdictText(Verdict::Faster, Better::Higher), QStringLiteral("faster"));
    QCOMPARE(verdictText(Verdict::Faster, Better::Lower), QStringLiteral("lower (better)"));
    QCOMPARE(verdictKey(Verdict::Equivalent), QStringLiteral("equivalent"));
    QCOMPARE(verdictText(Verdict::Equivalent, Better::Higher), QStringLiteral("equivalent"));
}

QTEST_APPLESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
