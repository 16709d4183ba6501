// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Per-configuration statistics of a comparison, and each configuration against the
// baseline, metric by metric. Derived data: always recomputed from the runs.

#include "compare/comparison.h"
#include "core/statistics.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace nb {

// In the order charts and tables show them: what a user asks first (throughput and its
// CPU cost, transactions/s and theirs) comes first.
enum class Metric {
    Throughput,            // bit/s delivered to the receiver(s) (stream tests)
    LocalCpuPerGbps,       // local busy % per Gbit/s (stream)
    RemoteCpuPerGbps,      // the server's busy % per Gbit/s (NicBench server only)
    TransactionsPerSecond, // request/response tests
    LocalCpuPerKtps,       // local busy % per 1000 transactions/s (RR)
    RemoteCpuPerKtps,      // the server's busy % per 1000 transactions/s (RR)
    LatencyP50,            // microseconds, RR
    LatencyP99,            // microseconds, RR
    // UDP (-u; udpmetrics.h): a UDP stream's receiver bit/s, loss % (lost/expected
    // datagrams), jitter (µs) and local CPU per Gbit/s; UDP request/response's
    // transactions/s, latency p50 and p99 (µs), requests lost (%) and local CPU per 1000/s;
    // the server's CPU per Gbit/s and per 1000/s beside the local ones.
    // TCP runs have none of them, UDP runs none of the TCP ones above.
    UdpGoodput,
    UdpLossPercent,
    UdpJitter,
    UdpLocalCpuPerGbps,
    UdpRemoteCpuPerGbps,
    UdpRrTransactionsPerSecond,
    UdpRrLatencyP50,
    UdpRrLatencyP99,
    UdpRrLostPercent,
    UdpRrLocalCpuPerKtps,
    UdpRrRemoteCpuPerKtps,
    // Latency under load (TestKind::LoadedLatency; loadedlatencymetrics.h): the probe's idle
    // baseline, then per loaded phase kind the p50 and p99 increase over idle (µs), the
    // loaded p99 (µs) and the load's throughput in that phase (bit/s).
    LoadedIdleP50,
    LoadedIdleP99,
    LoadedDownloadP50Increase,
    LoadedDownloadP99Increase,
    LoadedDownloadP99,
    LoadedDownloadThroughput,
    LoadedUploadP50Increase,
    LoadedUploadP99Increase,
    LoadedUploadP99,
    LoadedUploadThroughput,
    LoadedBidirP50Increase,
    LoadedBidirP99Increase,
    LoadedBidirP99,
    LoadedBidirThroughput,
    LocalCpu,                          // system busy %, all cores, local side
    RemoteCpu,                         // system busy %, all cores, remote side (NicBench server only)
    LocalServiceDemand,                // us of CPU per KB, local (stream)
    RemoteServiceDemand,               // same, remote
    LocalServiceDemandPerTransaction,  // us of CPU per transaction, local (RR)
    RemoteServiceDemandPerTransaction, // same, remote
};

QList<Metric> allMetrics();
QString metricKey(Metric m);  // "throughput_bps", "transactions_per_second", ... (JSON, CSV)
QString metricName(Metric m); // "Throughput", "Local CPU", ...
// One unit per metric, as people write it: "bit/s", "/s", "µs", "%", "µs/KB",
// "µs/transaction", "% per Gbit/s", "% per 1000/s".
QString metricUnit(Metric m);
// True for the metrics of request/response tests (their charts group RR variants only).
bool isRequestResponseMetric(Metric m);
// True for the latency-under-load metrics (LoadedIdleP50 .. LoadedBidirThroughput).
bool isLoadedLatencyMetric(Metric m);
// True for the metrics in microseconds (latency and UDP jitter: shown in µs, ms or s).
bool isLatencyMetric(Metric m);
// True for the metrics in bit/s.
bool isBitrateMetric(Metric m);
stats::Better metricBetter(Metric m);
// Figures that sit near zero and are compared in absolute terms (review M8): loss and lost
// requests in percentage points, UDP jitter in µs. The threshold under which a difference
// is "equivalent" (while the comparison's equivalence threshold is on): 0.1 points of loss,
// 10 µs of jitter; 0 for the metrics compared relatively.
double absoluteEquivalence(Metric m);
// One side's system busy % (all cores) over a run: this computer's (local) or the
// server's; nullopt when that side was not measured (a stock iperf3 server, a failed run).
std::optional<double> busyPercent(const TestResult &r, bool local);
// The metric's value for one run; nullopt when the run does not measure it (an RR run has
// no throughput, a stock iperf3 peer gives no remote CPU, a failed run gives nothing).
std::optional<double> metricValue(const TestResult &result, Metric m);

struct MetricStatistics {
    Metric metric = Metric::Throughput;
    int configIndex = 0;
    QList<double> values; // one per successful run that measured it, in run order
    stats::Summary summary;
    bool hasBaseline = false; // compared with its baseline configuration (the baseline
                              // adapter's of the same variant), which measured the metric too
    stats::BaselineComparison vsBaseline;
};

struct ConfigurationStatistics {
    int configIndex = 0;
    int baselineConfig = -1; // Comparison::baselineFor: the configuration this one is compared with
    bool isBaseline = false; // others are compared with this one
    int runs = 0;            // runs recorded
    int failedRuns = 0;
    QList<MetricStatistics> metrics; // only metrics with at least one value
    const MetricStatistics *metric(Metric m) const;
};

struct ComparisonStatistics {
    int baselineIndex = 0; // Comparison::baselineIndex: a configuration of the baseline adapter
    double alpha = 0.05;
    double equivalencePercent = 0;                 // Comparison::equivalencePercent: the verdicts' threshold
    QList<ConfigurationStatistics> configurations; // one per configuration, same order
    const MetricStatistics *find(int configIndex, Metric m) const;
    // Metrics that at least one configuration has, in allMetrics() order.
    QList<Metric> presentMetrics() const;
    QJsonObject toJson() const;
};

ComparisonStatistics computeStatistics(const Comparison &comparison, double alpha = 0.05);

} // namespace nb
