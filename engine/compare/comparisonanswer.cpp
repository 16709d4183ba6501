// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonanswer.h"

#include "compare/comparisontable.h"
#include "compare/udpmetrics.h"
#include "core/format.h"

#include <algorithm>

namespace nb {

namespace {

QString seriesName(const Comparison &c, const QStringList &names, int config)
{
    if (config >= 0 && config < names.size())
        return names[config];
    return c.configurations.value(config).adapterName();
}

// Welch's test (stats::welchTest) needs this many successful runs on each side.
constexpr int kMinRunsForVerdict = 2;

QString runWords(int n)
{
    return n == 1 ? QStringLiteral("1 run") : QStringLiteral("%1 runs").arg(n);
}

// "2 runs each" / "1 and 3 runs": the runs behind a comparison, candidate first.
QString runCounts(int candidate, int base)
{
    if (candidate == base)
        return runWords(candidate) + QStringLiteral(" each");
    return QStringLiteral("%1 and %2").arg(candidate).arg(runWords(base));
}

// "is faster than", "is slower than", "does not differ significantly from", ...; runs and
// baseRuns: the successful runs behind each side, to say plainly when they are too few;
// equivalencePercent: the threshold an Equivalent verdict names.
QString primarySentence(const QString &who, const QString &base, Metric primary, const stats::BaselineComparison &b,
                        int runs, int baseRuns, double equivalencePercent)
{
    const QString delta = ComparisonTable::formatDelta(primary, b);
    const QString what = primaryName(primary);
    const bool loaded = isLoadedLatencyMetric(primary);
    switch (b.verdict) {
    case stats::Verdict::Faster:
        return (loaded ? QStringLiteral("%1 adds less latency under load than %2: %3 %4")
                       : QStringLiteral("%1 is faster than %2: %3 %4"))
            .arg(who, base, delta, what);
    case stats::Verdict::Slower:
        return (loaded ? QStringLiteral("%1 adds more latency under load than %2: %3 %4")
                       : QStringLiteral("%1 is slower than %2: %3 %4"))
            .arg(who, base, delta, what);
    case stats::Verdict::NoSignificantDifference:
        return QStringLiteral("%1 and %2 do not differ significantly in %3 (%4)").arg(who, base, what, delta);
    case stats::Verdict::Equivalent:
        return QStringLiteral("%1 and %2 are equivalent in %3: %4, within the %5 threshold")
            .arg(who, base, what, delta, equivalenceText(equivalencePercent));
    case stats::Verdict::NotEnoughRuns:
        break;
    }
    if (runs < kMinRunsForVerdict || baseRuns < kMinRunsForVerdict)
        return QStringLiteral("%1 vs %2: %3: too few for a verdict on %4; use --repeats %5 or more")
            .arg(who, base, runCounts(runs, baseRuns), what)
            .arg(kMinRunsForVerdict);
    return QStringLiteral("%1 vs %2: not enough runs for a verdict on %3").arg(who, base, what);
}

QString costClause(Metric cost, const stats::BaselineComparison &b)
{
    const QString delta = ComparisonTable::formatDelta(cost, b);
    const bool cpu = !isBitrateMetric(cost);
    switch (b.verdict) {
    case stats::Verdict::Faster:
        return QStringLiteral("%1 %2 (%3)")
            .arg(costName(cost), delta, cpu ? QStringLiteral("less CPU") : QStringLiteral("more throughput"));
    case stats::Verdict::Slower:
        return QStringLiteral("%1 %2 (%3)")
            .arg(costName(cost), delta, cpu ? QStringLiteral("more CPU") : QStringLiteral("less throughput"));
    case stats::Verdict::NoSignificantDifference:
        return QStringLiteral("%1 %2 (no significant difference)").arg(costName(cost), delta);
    case stats::Verdict::Equivalent:
        return QStringLiteral("%1 %2 (equivalent)").arg(costName(cost), delta);
    case stats::Verdict::NotEnoughRuns:
        break;
    }
    return QStringLiteral("%1: not enough runs").arg(costName(cost));
}

// "loss 0.12% vs 0.80% (-85.0% ± 9.1%, less loss)": loss figures are small and often zero,
// so the sentence gives both values; a zero baseline has no relative difference.
QString lossClause(Metric loss, const MetricStatistics &candidate, const MetricStatistics &base)
{
    const QString what = loss == Metric::UdpRrLostPercent ? QStringLiteral("lost requests") : QStringLiteral("loss");
    const QString values = QStringLiteral("%1 %2 vs %3")
                               .arg(what, ComparisonTable::formatValue(loss, candidate.summary.mean, metricUnit(loss)),
                                    ComparisonTable::formatValue(loss, base.summary.mean, metricUnit(loss)));
    const stats::BaselineComparison &b = candidate.vsBaseline;
    switch (b.verdict) {
    case stats::Verdict::Faster:
        return QStringLiteral("%1 (less %2)").arg(values, what);
    case stats::Verdict::Slower:
        return QStringLiteral("%1 (more %2)").arg(values, what);
    case stats::Verdict::NoSignificantDifference:
        return QStringLiteral("%1 (no significant difference)").arg(values);
    case stats::Verdict::Equivalent:
        return QStringLiteral("%1 (equivalent)").arg(values);
    case stats::Verdict::NotEnoughRuns:
        break;
    }
    return values;
}

// What a UDP stream configuration offers: -b per stream x streams x directions; 0 when
// unpaced (-b 0) or not a UDP stream.
double offeredBps(const Configuration &conf)
{
    const TestParams &p = conf.params;
    if (!p.udp || p.isRequestResponse() || p.bandwidth == 0)
        return 0;
    return double(p.bandwidth) * std::max(1, p.streams) * (p.isBidir() ? 2 : 1);
}

// The rate every configuration of a UDP stream variant offered and carried (see
// VariantAnswer::offeredRateReachedBps), else 0.
double offeredRateReached(const Comparison &c, const VariantAnswer &a)
{
    if (a.primary != Metric::UdpGoodput || a.entries.size() < 2)
        return 0;
    double offered = 0;
    for (const AnswerEntry &e : a.entries) {
        const double o = offeredBps(c.configurations.value(e.configIndex));
        if (!e.primary || o <= 0 || (offered > 0 && o != offered) || e.primary->summary.mean < kOfferedRateReached * o)
            return 0;
        offered = o;
    }
    return offered;
}

// "VMXNET3 and E1000 both carried the offered 100 Mbit/s (UDP goodput 99.9 Mbit/s vs 99.8
// Mbit/s): the rate does not rank them".
QString offeredSentence(const QString &who, const QString &base, double offered, const MetricStatistics &candidate,
                        const MetricStatistics *baseline)
{
    const QString values = baseline
                               ? QStringLiteral(" (UDP goodput %1 vs %2)")
                                     .arg(formatBitrate(candidate.summary.mean), formatBitrate(baseline->summary.mean))
                               : QString();
    return QStringLiteral("%1 and %2 both carried the offered %3%4: the rate does not rank them")
        .arg(who, base, formatBitrate(offered), values);
}

// Each configuration's runs so far: how many, how many failed, the first failure.
void countRuns(const Comparison &c, AnswerEntry *e)
{
    for (const Run &run : c.runs) {
        if (run.configIndex != e->configIndex)
            continue;
        ++e->runs;
        if (run.ok())
            continue;
        ++e->failedRuns;
        if (e->failure.isEmpty())
            e->failure = run.result.error.left(200);
    }
}

QString failedWords(int failed, int runs, const QString &why)
{
    return QStringLiteral("%1 of %2 runs failed%3")
        .arg(failed)
        .arg(runs)
        .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why);
}

// A variant none of whose runs succeeded keeps its place in the answer, with the reason.
std::optional<VariantAnswer> failedVariant(const Comparison &c, const QString &variant, const QList<int> &configs,
                                           const QStringList &seriesNames)
{
    VariantAnswer a;
    a.variant = variant;
    int runs = 0, failed = 0;
    QString why;
    for (int i : configs) {
        AnswerEntry e;
        e.configIndex = i;
        e.adapter = seriesName(c, seriesNames, i);
        countRuns(c, &e);
        runs += e.runs;
        failed += e.failedRuns;
        if (why.isEmpty())
            why = e.failure;
        a.entries.append(e);
    }
    if (runs == 0 || failed < runs)
        return std::nullopt; // not run yet, or runs without this kind's figures
    a.failure = failedWords(failed, runs, why);
    a.sentences.append(a.failure);
    return a;
}

} // namespace

QString equivalenceText(double percent)
{
    return QStringLiteral("\u00b1%1%").arg(QString::number(percent, 'g', 3));
}

QString verdictRule(double equivalencePercent)
{
    const QString test = QStringLiteral("Welch's t-test at alpha 0.05");
    if (!(equivalencePercent > 0))
        return test;
    return QStringLiteral("%1; a difference under %2 is equivalent").arg(test, equivalenceText(equivalencePercent));
}

QString costName(Metric cost)
{
    switch (cost) {
    case Metric::LocalCpuPerKtps:
    case Metric::UdpRrLocalCpuPerKtps:
        return QStringLiteral("client CPU per 1000 trans/s");
    case Metric::RemoteCpuPerKtps:
    case Metric::UdpRrRemoteCpuPerKtps:
        return QStringLiteral("server CPU per 1000 trans/s");
    case Metric::RemoteCpuPerGbps:
    case Metric::UdpRemoteCpuPerGbps:
        return QStringLiteral("server CPU per Gbit/s");
    case Metric::LoadedBidirThroughput:
        return QStringLiteral("bidir throughput");
    case Metric::LoadedDownloadThroughput:
        return QStringLiteral("download throughput");
    case Metric::LoadedUploadThroughput:
        return QStringLiteral("upload throughput");
    default:
        return QStringLiteral("client CPU per Gbit/s");
    }
}

QString primaryName(Metric primary)
{
    switch (primary) {
    case Metric::Throughput:
        return QStringLiteral("throughput");
    case Metric::TransactionsPerSecond:
        return QStringLiteral("transactions/s");
    case Metric::UdpGoodput:
        return QStringLiteral("UDP goodput");
    case Metric::UdpRrTransactionsPerSecond:
        return QStringLiteral("UDP transactions/s");
    case Metric::LoadedBidirP99Increase:
        return QStringLiteral("bidir p99 latency increase");
    case Metric::LoadedDownloadP99Increase:
        return QStringLiteral("download p99 latency increase");
    case Metric::LoadedUploadP99Increase:
        return QStringLiteral("upload p99 latency increase");
    default:
        return metricName(primary);
    }
}

QString winnerPhrase(Metric primary)
{
    return isLoadedLatencyMetric(primary) ? QStringLiteral("adds less latency under load")
                                          : QStringLiteral("is faster");
}

QString testKindPhrase(Metric primary)
{
    if (isLoadedLatencyMetric(primary))
        return QStringLiteral("Latency under load test");
    if (isUdpRrMetric(primary))
        return QStringLiteral("UDP request/response test");
    if (isUdpMetric(primary))
        return QStringLiteral("UDP test");
    return primary == Metric::Throughput ? QStringLiteral("Throughput test") : QStringLiteral("Request/response test");
}

QList<VariantAnswer> answerComparison(const Comparison &comparison, const ComparisonStatistics &statistics,
                                      const QStringList &seriesNames)
{
    QList<VariantAnswer> out;
    for (const QString &variant : comparison.variants()) {
        QList<int> configs;
        for (int i = 0; i < comparison.configurations.size(); ++i)
            if (comparison.configurations[i].variantName() == variant)
                configs.append(i);
        VariantAnswer a;
        a.variant = variant;
        a.equivalencePercent = statistics.equivalencePercent;
        const auto has = [&](Metric m) {
            for (int i : configs)
                if (statistics.find(i, m))
                    return true;
            return false;
        };
        if (has(Metric::Throughput)) {
            a.primary = Metric::Throughput;
            a.cost = Metric::LocalCpuPerGbps;
        } else if (has(Metric::TransactionsPerSecond)) {
            a.primary = Metric::TransactionsPerSecond;
            a.cost = Metric::LocalCpuPerKtps;
        } else if (has(Metric::UdpGoodput)) {
            a.primary = Metric::UdpGoodput;
            a.cost = Metric::UdpLocalCpuPerGbps;
            a.loss = Metric::UdpLossPercent;
        } else if (has(Metric::UdpRrTransactionsPerSecond)) {
            a.primary = Metric::UdpRrTransactionsPerSecond;
            a.cost = Metric::UdpRrLocalCpuPerKtps;
            a.loss = Metric::UdpRrLostPercent;
        } else if (has(Metric::LoadedBidirP99Increase)) {
            a.primary = Metric::LoadedBidirP99Increase;
            a.cost = Metric::LoadedBidirThroughput;
        } else if (has(Metric::LoadedDownloadP99Increase)) {
            a.primary = Metric::LoadedDownloadP99Increase;
            a.cost = Metric::LoadedDownloadThroughput;
        } else if (has(Metric::LoadedUploadP99Increase)) {
            a.primary = Metric::LoadedUploadP99Increase;
            a.cost = Metric::LoadedUploadThroughput;
        } else {
            if (const auto failed = failedVariant(comparison, variant, configs, seriesNames))
                out.append(*failed);
            continue;
        }
        if (const Metric server = serverCostMetric(a.cost); server != a.cost) {
            a.cpuSide = chooseCpuSide(comparison, configs, statistics, server);
            if (a.cpuSide.server)
                a.cost = server;
        }
        for (int i : configs) {
            AnswerEntry e;
            e.configIndex = i;
            e.adapter = seriesName(comparison, seriesNames, i);
            const ConfigurationStatistics &cs = statistics.configurations.value(i);
            e.isBaseline = cs.isBaseline;
            if (cs.baselineConfig >= 0)
                e.baseline = seriesName(comparison, seriesNames, cs.baselineConfig);
            if (const MetricStatistics *p = statistics.find(i, a.primary))
                e.primary = *p;
            if (const MetricStatistics *c = statistics.find(i, a.cost))
                e.cost = *c;
            if (a.loss)
                if (const MetricStatistics *l = statistics.find(i, *a.loss))
                    e.loss = *l;
            countRuns(comparison, &e);
            a.entries.append(e);
        }
        const bool higher = metricBetter(a.primary) == stats::Better::Higher;
        for (int k = 0; k < a.entries.size(); ++k) {
            const auto &p = a.entries[k].primary;
            if (!p)
                continue;
            const auto &best = a.winner >= 0 ? a.entries[a.winner].primary : std::nullopt;
            if (!best || (higher ? p->summary.mean > best->summary.mean : p->summary.mean < best->summary.mean))
                a.winner = k;
        }
        // Decided: every comparison that involves the winner says it is better.
        bool anyCompared = false, allBetter = true;
        for (int k = 0; k < a.entries.size(); ++k) {
            const AnswerEntry &e = a.entries[k];
            if (!e.primary || !e.primary->hasBaseline)
                continue;
            const bool winnerIsCandidate = k == a.winner;
            const bool winnerIsBaseline = a.winner >= 0 && a.entries[a.winner].configIndex ==
                                                               statistics.configurations[e.configIndex].baselineConfig;
            if (!winnerIsCandidate && !winnerIsBaseline)
                continue;
            anyCompared = true;
            const stats::Verdict v = e.primary->vsBaseline.verdict;
            if (winnerIsCandidate ? v != stats::Verdict::Faster : v != stats::Verdict::Slower)
                allBetter = false;
        }
        a.offeredRateReachedBps = offeredRateReached(comparison, a);
        a.decided = anyCompared && allBetter && a.offeredRateReachedBps == 0;
        for (const AnswerEntry &e : a.entries) {
            if (!e.primary || !e.primary->hasBaseline)
                continue;
            const MetricStatistics *basePrimary =
                statistics.find(statistics.configurations[e.configIndex].baselineConfig, a.primary);
            QString s =
                a.offeredRateReachedBps > 0
                    ? offeredSentence(e.adapter, e.baseline, a.offeredRateReachedBps, *e.primary, basePrimary)
                    : primarySentence(e.adapter, e.baseline, a.primary, e.primary->vsBaseline,
                                      int(e.primary->values.size()), basePrimary ? int(basePrimary->values.size()) : 0,
                                      statistics.equivalencePercent);
            if (e.cost && e.cost->hasBaseline)
                s += QStringLiteral("; ") + costClause(a.cost, e.cost->vsBaseline);
            if (a.loss && e.loss && e.loss->hasBaseline)
                if (const MetricStatistics *base =
                        statistics.find(statistics.configurations[e.configIndex].baselineConfig, *a.loss))
                    s += QStringLiteral("; ") + lossClause(*a.loss, *e.loss, *base);
            // Run counts, when some failed: the candidate's, then its baseline's.
            QStringList failures;
            if (e.failedRuns > 0)
                failures << QStringLiteral("%1: %2").arg(e.adapter, failedWords(e.failedRuns, e.runs, QString()));
            const int baseConfig = statistics.configurations[e.configIndex].baselineConfig;
            for (const AnswerEntry &b : a.entries)
                if (b.configIndex == baseConfig && b.failedRuns > 0)
                    failures << QStringLiteral("%1: %2").arg(b.adapter, failedWords(b.failedRuns, b.runs, QString()));
            if (!failures.isEmpty())
                s += QStringLiteral(" (%1)").arg(failures.join(QStringLiteral("; ")));
            a.sentences.append(s);
        }
        // A configuration with no successful run is named, with the reason, not left out.
        for (const AnswerEntry &e : a.entries)
            if (e.runs > 0 && e.failedRuns == e.runs)
                a.sentences.append(
                    QStringLiteral("%1: %2").arg(e.adapter, failedWords(e.failedRuns, e.runs, e.failure)));
        out.append(a);
    }
    return out;
}

QStringList answerLines(const QList<VariantAnswer> &answers)
{
    QStringList out;
    const bool prefix = answers.size() > 1 || (answers.size() == 1 && !answers.first().variant.isEmpty());
    const auto named = [prefix](const VariantAnswer &a, const QString &s) {
        return prefix && !a.variant.isEmpty() ? QStringLiteral("%1: %2").arg(a.variant, s) : s;
    };
    // Whose CPU each variant's cost is: one line when they agree, else one per variant.
    const auto hasSide = [](const VariantAnswer &a) { return !a.cpuSide.reason.isEmpty() && !a.sentences.isEmpty(); };
    QStringList sides;
    for (const VariantAnswer &a : answers)
        if (hasSide(a) && !sides.contains(cpuSideLine(a.cpuSide)))
            sides.append(cpuSideLine(a.cpuSide));
    for (const VariantAnswer &a : answers) {
        for (const QString &s : a.sentences)
            out.append(named(a, s));
        if (sides.size() > 1 && hasSide(a))
            out.append(named(a, cpuSideLine(a.cpuSide)));
    }
    if (sides.size() == 1)
        out.append(sides.first());
    return out;
}

} // namespace nb
