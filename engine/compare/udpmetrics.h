// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The comparison metrics of UDP runs (-u, issue 17): a UDP stream's goodput, loss, jitter
// and CPU per Gbit/s, and UDP request/response's transactions/s, latency, lost requests and
// CPU per 1000 transactions/s. Their own metrics, not the TCP ones: a comparison holding TCP
// and UDP variants charts each on its own axis, and a UDP run at a fixed rate is judged by
// its loss first. Pure functions: tst_comparisonanswer.

#include "compare/comparisonstatistics.h"

#include <optional>

namespace nb {

// A UDP stream run (-u) and a UDP request/response run (-u --rr). A run recorded before
// its parameters kept the UDP flag counts by its UDP figures (Snapshot's migration sets
// the flag for those).
bool isUdpStreamRun(const TestResult &result);
bool isUdpRrRun(const TestResult &result);

// True for the Metric::Udp* metrics.
bool isUdpMetric(Metric m);
bool isUdpRrMetric(Metric m); // UdpRrTransactionsPerSecond .. UdpRrLocalCpuPerKtps

// The metric's value in one successful UDP run; nullopt for the other metrics, for runs
// of the other kind and when the run does not measure it (no datagram counted: no loss;
// no local CPU sample: no CPU cost).
//  - goodput: bit/s the receiver(s) got, both directions together with --bidir;
//  - loss: datagrams lost over datagrams expected (iperf3's lost/total), all directions
//    together, in percent;
//  - jitter: the receivers' jitter (RFC 1889 smoothing, iperf3's), the mean over the
//    directions, in microseconds;
//  - lost requests: requests unanswered within --udp-rr-timeout over requests sent
//    (answered + lost), in percent.
std::optional<double> udpMetricValue(const TestResult &result, Metric m);

} // namespace nb
