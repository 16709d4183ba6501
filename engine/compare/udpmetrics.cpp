// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/udpmetrics.h"

#include "model/servicedemand.h"

#include <cmath>

namespace nb {

namespace {

bool hasUdpFigures(const TestResult &r)
{
    for (const StreamSummary &s : r.streams)
        if (s.udp)
            return true;
    return false;
}

struct UdpTotals {
    double goodputBps = 0;
    std::uint64_t expected = 0, lost = 0;
    double jitterMsSum = 0;
    int directions = 0;
};

UdpTotals udpTotals(const TestResult &r)
{
    UdpTotals t;
    for (bool forward : {true, false}) {
        if (!r.hasDirection(forward))
            continue;
        const DirectionSum d = r.sum(forward);
        t.goodputBps += d.receivedBitsPerSecond();
        if (!d.udp)
            continue;
        t.expected += d.packetsReceived;
        t.lost += d.lostPackets;
        t.jitterMsSum += d.jitterMs;
        ++t.directions;
    }
    return t;
}

std::optional<double> finiteOrNothing(std::optional<double> v)
{
    return v && std::isfinite(*v) ? v : std::nullopt;
}

std::optional<double> streamValue(const TestResult &r, Metric m)
{
    const UdpTotals t = udpTotals(r);
    switch (m) {
    case Metric::UdpGoodput:
        return r.streams.isEmpty() ? std::nullopt : std::optional<double>(t.goodputBps);
    case Metric::UdpLossPercent:
        if (t.expected == 0)
            return std::nullopt;
        return 100.0 * double(t.lost) / double(t.expected);
    case Metric::UdpJitter:
        if (t.directions == 0 || t.expected == 0)
            return std::nullopt;
        return 1000.0 * t.jitterMsSum / t.directions;
    case Metric::UdpLocalCpuPerGbps:
    case Metric::UdpRemoteCpuPerGbps:
        if (const auto cpu = busyPercent(r, m == Metric::UdpLocalCpuPerGbps))
            return finiteOrNothing(cpuPctPerGbps(*cpu, t.goodputBps));
        return std::nullopt;
    default:
        return std::nullopt;
    }
}

std::optional<double> rrValue(const TestResult &r, Metric m)
{
    const RrSummary &rr = r.rr;
    switch (m) {
    case Metric::UdpRrTransactionsPerSecond:
        return rr.transactionsPerSecond();
    case Metric::UdpRrLatencyP50:
        return rr.latencyUs.count > 0 ? std::optional<double>(rr.latencyUs.p50) : std::nullopt;
    case Metric::UdpRrLatencyP99:
        return rr.latencyUs.count > 0 ? std::optional<double>(rr.latencyUs.p99) : std::nullopt;
    case Metric::UdpRrLostPercent: {
        const std::uint64_t lost = rr.udpLost.value_or(0);
        const double sent = double(rr.transactions) + double(lost);
        if (!rr.udpLost || !(sent > 0))
            return std::nullopt;
        return 100.0 * double(lost) / sent;
    }
    case Metric::UdpRrLocalCpuPerKtps:
    case Metric::UdpRrRemoteCpuPerKtps: {
        const auto cpu = busyPercent(r, m == Metric::UdpRrLocalCpuPerKtps);
        const double tps = rr.transactionsPerSecond();
        if (!cpu || !(tps > 0))
            return std::nullopt;
        return finiteOrNothing(*cpu / (tps / 1000.0));
    }
    default:
        return std::nullopt;
    }
}

} // namespace

bool isUdpStreamRun(const TestResult &r)
{
    return !r.hasRr && !r.params.isRequestResponse() && !r.params.isLoadedLatency() &&
           (r.params.udp || hasUdpFigures(r));
}

bool isUdpRrRun(const TestResult &r)
{
    return r.hasRr && (r.params.udp || r.rr.udpLost.has_value());
}

bool isUdpMetric(Metric m)
{
    switch (m) {
    case Metric::UdpGoodput:
    case Metric::UdpLossPercent:
    case Metric::UdpJitter:
    case Metric::UdpLocalCpuPerGbps:
    case Metric::UdpRemoteCpuPerGbps:
        return true;
    default:
        return isUdpRrMetric(m);
    }
}

bool isUdpRrMetric(Metric m)
{
    switch (m) {
    case Metric::UdpRrTransactionsPerSecond:
    case Metric::UdpRrLatencyP50:
    case Metric::UdpRrLatencyP99:
    case Metric::UdpRrLostPercent:
    case Metric::UdpRrLocalCpuPerKtps:
    case Metric::UdpRrRemoteCpuPerKtps:
        return true;
    default:
        return false;
    }
}

std::optional<double> udpMetricValue(const TestResult &r, Metric m)
{
    if (!r.ok() || !isUdpMetric(m))
        return std::nullopt;
    if (isUdpRrMetric(m))
        return isUdpRrRun(r) ? finiteOrNothing(rrValue(r, m)) : std::nullopt;
    return isUdpStreamRun(r) ? finiteOrNothing(streamValue(r, m)) : std::nullopt;
}

} // namespace nb
