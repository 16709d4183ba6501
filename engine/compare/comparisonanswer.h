// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The answer a comparison is run for: per test variant, which adapter wins, by how much
// (the difference from the baseline adapter with its 95% interval) and at what CPU cost
// (CPU per Gbit/s, or per 1000 transactions/s for request/response). Shown above the
// charts, first in the PDF report and in `nicbench-cli report`. Value types, computed from
// the statistics.

#include "compare/comparisonstatistics.h"
#include "compare/cpuside.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace nb {

struct AnswerEntry {
    int configIndex = 0;
    QString adapter;  // the series: adapter name (with the source's, in an overlay)
    QString baseline; // what it is compared with ("E1000"); empty for a baseline
    bool isBaseline = false;
    std::optional<MetricStatistics> primary; // throughput or transactions/s
    std::optional<MetricStatistics> cost;    // CPU per Gbit/s or per 1000 transactions/s
    std::optional<MetricStatistics> loss;    // UDP: datagrams or requests lost (%)
    int runs = 0, failedRuns = 0;            // of this configuration, as run so far
    QString failure;                         // the first failed run's error
};

struct VariantAnswer {
    QString variant; // "P=4", "TCP_RR"; empty for a single unnamed variant
    // Throughput, TransactionsPerSecond, or for latency under load the p99 increase of its
    // bidir phase (else download, else upload).
    Metric primary = Metric::Throughput;
    // CPU per Gbit/s or per 1000 transactions/s; for latency under load the throughput in
    // the primary's phase (what the latency was paid for).
    Metric cost = Metric::LocalCpuPerGbps;
    // Whose CPU `cost` is, and why (compare/cpuside.h); no reason for latency under load,
    // whose cost is a throughput.
    CpuSideChoice cpuSide;
    // UDP variants: what was lost on the way (UdpLossPercent, UdpRrLostPercent), the figure
    // a UDP comparison is often run for; nullopt for TCP and latency under load.
    std::optional<Metric> loss;
    QList<AnswerEntry> entries; // configuration order
    // Set when no run of the variant succeeded: "6 of 6 runs failed: the server does not
    // answer request/response tests". The variant keeps its row; nothing else is set.
    QString failure;
    int winner = -1; // index into entries: the best mean of the primary metric
    // The winner is significantly better than every configuration it was compared with
    // (or than its baseline), so the answer is not a coin toss.
    bool decided = false;
    // The comparison's equivalence threshold (percent, 0: off): differences under it are
    // stats::Verdict::Equivalent.
    double equivalencePercent = 0;
    // A UDP stream variant whose every configuration carried what it offered (goodput at
    // least kOfferedRateReached of -b x streams x directions): the rate cannot rank them,
    // so there is no winner and the sentences say so. The offered rate, else 0.
    double offeredRateReachedBps = 0;
    // One sentence per compared entry: "VMXNET3 is faster than E1000: +69.0% ± 4.1%;
    // CPU per Gbit/s -76.4% ± 10.6% (lower, better)".
    QStringList sentences;
};

// A UDP stream "reached its offered rate" when its goodput is at least this share of it.
inline constexpr double kOfferedRateReached = 0.98;

// `seriesNames` names each configuration in the sentences (an overlay's series labels);
// empty uses the configurations' adapter names.
QList<VariantAnswer> answerComparison(const Comparison &comparison, const ComparisonStatistics &statistics,
                                      const QStringList &seriesNames = {});

// Every answer's sentences, prefixed with the variant ("P=4: ...") when there are several,
// then whose CPU the costs are (cpuSideLine), once when every variant agrees.
QStringList answerLines(const QList<VariantAnswer> &answers);

// "\u00b12%": the equivalence threshold as sentences and the window show it.
QString equivalenceText(double percent);
// "Welch's t-test at alpha 0.05; a difference under \u00b12% is equivalent": how verdicts are
// reached, for captions, headers and reports (0%: the test alone).
QString verdictRule(double equivalencePercent);
// "client CPU per Gbit/s", "server CPU per 1000 trans/s" (or "bidir throughput"): the cost
// metric's short name in sentences.
QString costName(Metric cost);
// "throughput", "transactions/s", "bidir p99 latency increase", "UDP goodput": the primary
// metric in sentences.
QString primaryName(Metric primary);
// How a decided winner is announced: "is faster", or "adds less latency under load".
QString winnerPhrase(Metric primary);
// "Throughput test", "Request/response test", "Latency under load test", "UDP test",
// "UDP request/response test".
QString testKindPhrase(Metric primary);

} // namespace nb
