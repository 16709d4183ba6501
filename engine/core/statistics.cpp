// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nb::stats {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Continued fraction of I_x(a, b) (the expansion in Abramowitz & Stegun 26.5.8), evaluated
// with the modified Lentz algorithm. Returns F where I_x(a,b) = front / F.
double betaContinuedFraction(double a, double b, double x)
{
    constexpr double tiny = 1e-300;
    constexpr double eps = 1e-16;
    constexpr int maxTerms = 20000; // converges in O(sqrt(max(a, b))) terms
    double f = 1.0, c = 1.0, d = 0.0;
    for (int j = 1; j <= maxTerms; ++j) {
        const int m = j / 2;
        double coeff;
        if (j % 2 == 1)
            coeff = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        else
            coeff = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        d = 1.0 + coeff * d;
        if (std::fabs(d) < tiny)
            d = tiny;
        c = 1.0 + coeff / c;
        if (std::fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        const double delta = c * d;
        f *= delta;
        if (std::fabs(delta - 1.0) < eps)
            break;
    }
    return f;
}

double logBeta(double a, double b)
{
    return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b);
}

// Above this many degrees of freedom the t distribution is the normal to better than 1e-7.
constexpr double kNormalDf = 1e7;

// P(T > t) for t >= 0.
double upperTail(double t, double df)
{
    if (std::isinf(t))
        return 0.0;
    if (df >= kNormalDf)
        return 0.5 * std::erfc(t / std::sqrt(2.0));
    const double x = df / (df + t * t);
    return 0.5 * regularizedIncompleteBeta(df / 2, 0.5, x);
}

} // namespace

double mean(const QList<double> &values)
{
    if (values.isEmpty())
        return kNaN;
    // Two passes: the first mean, then the mean of residuals, to keep precision when the
    // values are large and close together (bits/s around 1e10).
    double sum = 0;
    for (double v : values)
        sum += v;
    const double m = sum / values.size();
    double residual = 0;
    for (double v : values)
        residual += v - m;
    return m + residual / values.size();
}

double median(const QList<double> &values)
{
    if (values.isEmpty())
        return kNaN;
    QList<double> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    const qsizetype n = sorted.size();
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double sampleVariance(const QList<double> &values)
{
    if (values.size() < 2)
        return kNaN;
    const double m = mean(values);
    double ss = 0;
    for (double v : values)
        ss += (v - m) * (v - m);
    return ss / double(values.size() - 1);
}

double sampleStdDev(const QList<double> &values)
{
    return std::sqrt(sampleVariance(values));
}

double regularizedIncompleteBeta(double a, double b, double x)
{
    if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1) || std::isinf(a) || std::isinf(b))
        return kNaN;
    if (x == 0)
        return 0.0;
    if (x == 1)
        return 1.0;
    // The fraction converges fast for x below the mean of the Beta(a+1, b+1) density;
    // above it use the symmetry I_x(a, b) = 1 - I_{1-x}(b, a).
    if (x > (a + 1) / (a + b + 2))
        return 1.0 - regularizedIncompleteBeta(b, a, 1 - x);
    const double logFront = a * std::log(x) + b * std::log1p(-x) - logBeta(a, b) - std::log(a);
    return std::exp(logFront) / betaContinuedFraction(a, b, x);
}

double studentTCdf(double t, double df)
{
    if (std::isnan(t) || !(df > 0))
        return kNaN;
    const double tail = upperTail(std::fabs(t), df);
    return t >= 0 ? 1.0 - tail : tail;
}

double twoSidedPValue(double t, double df)
{
    if (std::isnan(t) || !(df > 0))
        return kNaN;
    if (std::isinf(t))
        return 0.0;
    if (df >= kNormalDf)
        return std::erfc(std::fabs(t) / std::sqrt(2.0));
    return regularizedIncompleteBeta(df / 2, 0.5, df / (df + t * t));
}

double studentTQuantile(double p, double df)
{
    if (!(p > 0) || !(p < 1) || !(df > 0))
        return kNaN;
    if (p == 0.5)
        return 0.0;
    // Solve upperTail(t) = target for t > 0, then restore the sign. Working on the tail
    // keeps full relative precision for p close to 0 or 1.
    const double target = p > 0.5 ? 1.0 - p : p;
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 2000 && upperTail(hi, df) > target; ++i) {
        lo = hi;
        hi *= 2;
        if (std::isinf(hi))
            return p > 0.5 ? kInf : -kInf;
    }
    for (int i = 0; i < 400; ++i) {
        const double mid = lo + (hi - lo) / 2;
        if (mid <= lo || mid >= hi)
            break;
        if (upperTail(mid, df) > target)
            lo = mid;
        else
            hi = mid;
        if (hi - lo <= 1e-15 * hi)
            break;
    }
    const double t = lo + (hi - lo) / 2;
    return p > 0.5 ? t : -t;
}

double tCritical(double df, double alpha)
{
    return studentTQuantile(1.0 - alpha / 2, df);
}

Summary summarize(const QList<double> &values, double confidence)
{
    Summary s;
    s.n = int(values.size());
    if (values.isEmpty())
        return s;
    s.mean = mean(values);
    s.median = median(values);
    const auto [mn, mx] = std::minmax_element(values.cbegin(), values.cend());
    s.min = *mn;
    s.max = *mx;
    s.ciLow = s.ciHigh = s.mean;
    if (s.n >= 2) {
        s.spreadKnown = true;
        s.stddev = sampleStdDev(values);
        const double half = tCritical(s.n - 1, 1.0 - confidence) * s.stddev / std::sqrt(double(s.n));
        s.ciLow = s.mean - half;
        s.ciHigh = s.mean + half;
    }
    return s;
}

WelchResult welchTest(const Summary &a, const Summary &b)
{
    WelchResult w;
    if (a.n < 2 || b.n < 2)
        return w;
    w.valid = true;
    const double va = a.stddev * a.stddev / a.n;
    const double vb = b.stddev * b.stddev / b.n;
    const double diff = b.mean - a.mean;
    if (va + vb == 0) {
        w.df = a.n + b.n - 2;
        if (diff == 0) {
            w.t = 0;
            w.pValue = 1;
        } else {
            w.t = diff > 0 ? kInf : -kInf;
            w.pValue = 0;
        }
        return w;
    }
    w.t = diff / std::sqrt(va + vb);
    w.df = (va + vb) * (va + vb) / (va * va / (a.n - 1) + vb * vb / (b.n - 1));
    w.pValue = twoSidedPValue(w.t, w.df);
    return w;
}

WelchResult welchTest(const QList<double> &a, const QList<double> &b)
{
    return welchTest(summarize(a), summarize(b));
}

RelativeDifference relativeDifference(const Summary &baseline, const Summary &candidate, double alpha)
{
    RelativeDifference d;
    if (baseline.n < 1 || candidate.n < 1 || baseline.mean == 0 || !std::isfinite(baseline.mean) ||
        !std::isfinite(candidate.mean))
        return d;
    d.valid = true;
    const double r = candidate.mean / baseline.mean;
    d.relative = r - 1;
    d.low = d.high = d.relative;
    if (baseline.n < 2 || candidate.n < 2)
        return d;
    d.intervalKnown = true;
    const double vc = candidate.stddev * candidate.stddev / candidate.n;
    const double vb = r * r * baseline.stddev * baseline.stddev / baseline.n;
    if (vc + vb == 0)
        return d;
    const double df = (vc + vb) * (vc + vb) / (vc * vc / (candidate.n - 1) + vb * vb / (baseline.n - 1));
    const double half = tCritical(df, alpha) * std::sqrt(vc + vb) / std::fabs(baseline.mean);
    d.low = d.relative - half;
    d.high = d.relative + half;
    return d;
}

AbsoluteDifference absoluteDifference(const Summary &baseline, const Summary &candidate, double alpha)
{
    AbsoluteDifference d;
    if (baseline.n < 1 || candidate.n < 1 || !std::isfinite(baseline.mean) || !std::isfinite(candidate.mean))
        return d;
    d.valid = true;
    d.value = candidate.mean - baseline.mean;
    if (baseline.n < 2 || candidate.n < 2)
        return d;
    d.intervalKnown = true;
    const double vc = candidate.stddev * candidate.stddev / candidate.n;
    const double vb = baseline.stddev * baseline.stddev / baseline.n;
    if (vc + vb == 0)
        return d;
    const double df = (vc + vb) * (vc + vb) / (vc * vc / (candidate.n - 1) + vb * vb / (baseline.n - 1));
    d.halfWidth = tCritical(df, alpha) * std::sqrt(vc + vb);
    return d;
}

QString verdictKey(Verdict v)
{
    switch (v) {
    case Verdict::Faster:
        return QStringLiteral("faster");
    case Verdict::Slower:
        return QStringLiteral("slower");
    case Verdict::NoSignificantDifference:
        return QStringLiteral("no_difference");
    case Verdict::Equivalent:
        return QStringLiteral("equivalent");
    case Verdict::NotEnoughRuns:
        break;
    }
    return QStringLiteral("not_enough_runs");
}

bool verdictFromKey(const QString &key, Verdict *out)
{
    for (Verdict v : {Verdict::Faster, Verdict::Slower, Verdict::NoSignificantDifference, Verdict::NotEnoughRuns,
                      Verdict::Equivalent}) {
        if (verdictKey(v) == key) {
            *out = v;
            return true;
        }
    }
    return false;
}

QString verdictText(Verdict v, Better better)
{
    switch (v) {
    case Verdict::Faster:
        return better == Better::Higher ? QStringLiteral("faster") : QStringLiteral("lower (better)");
    case Verdict::Slower:
        return better == Better::Higher ? QStringLiteral("slower") : QStringLiteral("higher (worse)");
    case Verdict::NoSignificantDifference:
        return QStringLiteral("no significant difference");
    case Verdict::Equivalent:
        return QStringLiteral("equivalent");
    case Verdict::NotEnoughRuns:
        break;
    }
    return QStringLiteral("not enough runs");
}

BaselineComparison compareToBaseline(const Summary &baseline, const Summary &candidate, Better better, double alpha,
                                     double equivalence, double absoluteEquivalence)
{
    BaselineComparison c;
    c.difference = relativeDifference(baseline, candidate, alpha);
    c.absolute = absoluteDifference(baseline, candidate, alpha);
    c.welch = welchTest(baseline, candidate);
    if (!c.welch.valid) {
        c.verdict = Verdict::NotEnoughRuns;
        return c;
    }
    const bool significant = c.welch.pValue < alpha;
    // Within +-threshold: the difference (significant), or its whole interval (not).
    const auto within = [significant](double value, double low, double high, bool intervalKnown, double threshold) {
        return significant ? std::abs(value) < threshold : intervalKnown && low > -threshold && high < threshold;
    };
    const RelativeDifference &d = c.difference;
    const AbsoluteDifference &a = c.absolute;
    const bool equivalent =
        absoluteEquivalence > 0
            ? a.valid &&
                  within(a.value, a.value - a.halfWidth, a.value + a.halfWidth, a.intervalKnown, absoluteEquivalence)
            : equivalence > 0 && d.valid && within(d.relative, d.low, d.high, d.intervalKnown, equivalence);
    if (equivalent) {
        c.verdict = Verdict::Equivalent;
        return c;
    }
    if (!significant) {
        c.verdict = Verdict::NoSignificantDifference;
        return c;
    }
    const bool higher = candidate.mean > baseline.mean;
    c.verdict = (higher == (better == Better::Higher)) ? Verdict::Faster : Verdict::Slower;
    return c;
}

} // namespace nb::stats
