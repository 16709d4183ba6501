// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small-sample statistics for comparing repeated benchmark runs: summaries with Student-t
// confidence intervals, Welch's unequal-variance t-test, and the relative difference of two
// means with its interval. Plain functions on plain values, no external libraries: the
// t distribution comes from the regularized incomplete beta function (continued fraction,
// modified Lentz) and its inverse from bisection on the CDF.
//
// Conventions: "stddev" is the sample standard deviation (n - 1 in the denominator).
// Anything that cannot be computed (empty input, n < 2 where a spread is needed, a zero
// baseline) is NaN, and the structs carry a `valid` flag so callers need not test NaN.

#include <QList>
#include <QString>

namespace nb::stats {

double mean(const QList<double> &values);           // NaN when empty
double median(const QList<double> &values);         // NaN when empty; mean of the middle two
double sampleStdDev(const QList<double> &values);   // NaN when n < 2
double sampleVariance(const QList<double> &values); // NaN when n < 2

// I_x(a, b) for a, b > 0 and x in [0, 1]; NaN outside that domain.
double regularizedIncompleteBeta(double a, double b, double x);

// Student t with df > 0 degrees of freedom (df need not be an integer; Welch's df is not).
// df = +infinity gives the standard normal.
double studentTCdf(double t, double df);
// Inverse CDF: the t with P(T <= t) = p, p in (0, 1). NaN outside the domain.
double studentTQuantile(double p, double df);
// Two-sided critical value for a (1 - alpha) interval: studentTQuantile(1 - alpha/2, df).
double tCritical(double df, double alpha = 0.05);
// Two-sided p-value of a t statistic: P(|T| >= |t|).
double twoSidedPValue(double t, double df);

struct Summary {
    int n = 0;
    double mean = 0;
    double median = 0;
    double stddev = 0; // sample; 0 when n < 2 (see spreadKnown)
    double min = 0;
    double max = 0;
    // 95% confidence interval of the mean: mean +/- t(0.975, n-1) * stddev / sqrt(n).
    double ciLow = 0;
    double ciHigh = 0;
    bool spreadKnown = false; // n >= 2: stddev and the interval mean something

    bool isEmpty() const { return n == 0; }
    double ciHalfWidth() const { return (ciHigh - ciLow) / 2; }
};
// `confidence` is the two-sided level of the interval (0.95 by default).
Summary summarize(const QList<double> &values, double confidence = 0.95);

struct WelchResult {
    bool valid = false;
    double t = 0;      // (mean(b) - mean(a)) / sqrt(var(a)/na + var(b)/nb)
    double df = 0;     // Welch-Satterthwaite
    double pValue = 1; // two-sided
};
// Welch's t-test of b against a. Needs n >= 2 on both sides. When both variances are 0
// the test degenerates: equal means give t = 0, p = 1; different means give t = +/-inf,
// p = 0 (every run gave the same number on each side, so the difference is certain as far
// as the data can tell), with df = na + nb - 2.
WelchResult welchTest(const Summary &a, const Summary &b);
WelchResult welchTest(const QList<double> &a, const QList<double> &b);

// Relative difference of the candidate's mean against the baseline's: mean(c)/mean(b) - 1
// (+0.69 = "69% more"), with a (1 - alpha) interval from the delta method (first-order
// Taylor expansion of the ratio r of two independent means):
//   var(r) ~= ( var(c)/nc + r^2 var(b)/nb ) / mean(b)^2
//   interval = (r - 1) +/- t(1 - alpha/2, df) * sqrt(var(r))
// with df the Welch-Satterthwaite degrees of freedom of that same linear combination,
//   df = (vc + r^2 vb)^2 / ( vc^2/(nc-1) + r^4 vb^2/(nb-1) ),  vx = var(x)/nx.
// The approximation is good while the baseline's relative standard error is small (under
// ~10%, typical for repeated network runs); Fieller's interval would be exact but becomes
// unbounded when the baseline mean is not clearly non-zero, which a chart cannot draw.
struct RelativeDifference {
    bool valid = false;         // both means known and the baseline's is non-zero
    bool intervalKnown = false; // n >= 2 on both sides
    double relative = 0;        // mean(c)/mean(b) - 1
    double low = 0;             // interval bounds of `relative`
    double high = 0;
    double halfWidth() const { return (high - low) / 2; }
};
RelativeDifference relativeDifference(const Summary &baseline, const Summary &candidate, double alpha = 0.05);

// mean(c) - mean(b) in the metric's own unit, with its Welch interval: how figures near zero
// (loss, jitter) are compared, where a relative difference reads +1619% for 0.01 points.
struct AbsoluteDifference {
    bool valid = false;         // both means known
    bool intervalKnown = false; // n >= 2 on both sides
    double value = 0;
    double halfWidth = 0;
};
AbsoluteDifference absoluteDifference(const Summary &baseline, const Summary &candidate, double alpha = 0.05);

// Which way is good for a metric: throughput and transactions/s are HigherIsBetter,
// latency, CPU % and service demand LowerIsBetter.
enum class Better { Higher, Lower };

// Faster: significantly better than the baseline in the metric's own sense (more
// throughput, or less latency/CPU), by at least the equivalence threshold. Slower:
// significantly worse by as much. Equivalent: the difference is smaller than the threshold
// (significant but smaller, or not significant with its whole 95% interval inside
// +-threshold). NoSignificantDifference: not significant, and the interval is too wide to
// call the two equivalent.
enum class Verdict { Faster, Slower, NoSignificantDifference, NotEnoughRuns, Equivalent };

// "faster", "slower", "no_difference", "not_enough_runs", "equivalent"
QString verdictKey(Verdict v);
bool verdictFromKey(const QString &key, Verdict *out);
// Human wording that fits the direction: "faster"/"slower" for Higher, "lower (better)"/
// "higher (worse)" for Lower; "no significant difference"; "not enough runs"; "equivalent".
QString verdictText(Verdict v, Better better);

struct BaselineComparison {
    RelativeDifference difference;
    AbsoluteDifference absolute;
    WelchResult welch;
    Verdict verdict = Verdict::NotEnoughRuns;
};
// Welch's test at `alpha`; fewer than 2 values on either side gives NotEnoughRuns.
// `equivalence`: the practical threshold as a fraction (0.02: differences under 2% are
// Equivalent); 0 turns it off (every significant difference is Faster or Slower).
// `absoluteEquivalence` > 0 judges equivalence on the absolute difference instead, in the
// metric's unit (0.1 for loss in percent: 0.01% vs 0.02% loss is equivalent).
BaselineComparison compareToBaseline(const Summary &baseline, const Summary &candidate, Better better,
                                     double alpha = 0.05, double equivalence = 0, double absoluteEquivalence = 0);

} // namespace nb::stats
