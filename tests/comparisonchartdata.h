// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Comparisons of known results for the comparison chart tests: adapters x variants, three
// runs each with a fixed spread, throughput runs with intervals and CPU, request/response
// runs with a latency histogram drawn from a fixed pseudo-random sequence.

#include "comparisonruns.h"
#include "loadedlatencydata.h"
#include "udpdata.h"

#include <compare/comparison.h>
#include <compare/comparisonoverlay.h>
#include <core/units.h>

#include <QList>
#include <QString>
#include <QStringList>

#include <cmath>

namespace chartdata {

using namespace nb;

// Deterministic spread between runs: -2%, +0.5%, +2.5% of the configuration's level.
inline constexpr double kRunFactor[] = {0.98, 1.005, 1.025};

inline TestResult streamResult(double gbps, double cpuPct, int seed, double firstSecond = 0)
{
    TestResult r;
    r.params.duration = 6;
    r.params.streams = 1;
    const double seconds = 6;
    StreamSummary s;
    s.id = 5;
    s.seconds = seconds;
    s.receiverSeconds = seconds;
    s.bytesSent = s.bytesReceived = std::uint64_t(gbps * 1e9 / 8 * seconds);
    r.streams.append(s);
    for (int i = 0; i < int(seconds); ++i) {
        IntervalReport ir;
        StreamInterval si;
        si.id = 5;
        si.start = firstSecond + i;
        si.end = firstSecond + i + 1;
        const double level = (i == 0 ? 0.8 : 1.0) * (1 + 0.03 * std::sin(i * 1.7 + seed));
        si.bytes = std::uint64_t(gbps * level * 1e9 / 8);
        ir.streams.append(si);
        r.intervals.append(ir);
    }
    r.localCpuKnown = true;
    r.localCpu.end = seconds;
    r.localCpu.cpuCount = 4;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = cpuPct * (1 + 0.04 * std::sin(seed * 2.3));
    return r;
}

// Latencies around `typicalUs` with a long tail.
inline TestResult rrResult(double typicalUs, int seed)
{
    TestResult r;
    r.params.kind = TestKind::Rr;
    r.params.duration = 4;
    r.hasRr = true;
    r.rr.seconds = 4;
    quint32 state = 2463534242u + quint32(seed) * 7919u;
    const auto next = [&state] {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return (state & 0xffffff) / double(0x1000000);
    };
    for (int i = 0; i < 4000; ++i) {
        const double u = next();
        const double us = u < 0.98 ? typicalUs * (0.8 + 0.5 * next()) : typicalUs * (1.5 + 4.5 * next());
        r.rr.histogram.record(std::int64_t(us * 1000));
    }
    r.rr.transactions = std::uint64_t(r.rr.seconds * 1e6 / (typicalUs * 1.02));
    r.rr.latencyUs = r.rr.histogram.summary();
    for (int i = 0; i < 4; ++i) {
        IntervalReport ir;
        ir.hasRr = true;
        ir.rr.start = i;
        ir.rr.end = i + 1;
        ir.rr.transactions = std::uint64_t(r.rr.transactions / 4 * (1 + 0.02 * ((i + seed) % 3)));
        r.intervals.append(ir);
    }
    r.localCpuKnown = true;
    r.localCpu.end = 4;
    r.localCpu.cpuCount = 4;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = (10 + typicalUs / 10) * (1 + 0.05 * std::sin(seed));
    return r;
}

struct Cell {
    QString adapter;
    QString variant; // "TCP_RR" (or any name starting with "RR"/containing "_RR") is request/response
    double level;    // Gbit/s for throughput, typical µs for RR
};

inline bool isRr(const QString &variant)
{
    return variant.contains(QStringLiteral("RR"));
}

// "Latency under load": level scales what the load adds to the idle latency.
inline bool isLoaded(const QString &variant)
{
    return variant.contains(QStringLiteral("under load"));
}

// "UDP 100M" (level: the loss in %; "UDP 100M -R": the server sends) and "UDP_RR" (level:
// the typical latency in µs).
inline bool isUdp(const QString &variant)
{
    return variant.startsWith(QStringLiteral("UDP"));
}

inline TestResult udpResult(const QString &variant, double level, int seed)
{
    if (isRr(variant))
        return udpdata::rrResult(std::uint64_t(4e6 / level), std::uint64_t(level / 4), level, seed);
    udpdata::StreamLevels l;
    l.offeredBps = parseRate(variant.section(QLatin1Char(' '), 1, 1)).value_or(100e6);
    l.lossPct = level;
    l.jitterMs = 0.01 + level / 50;
    l.cpuPct = 5 + l.offeredBps / 1e8;
    l.reverse = variant.endsWith(QStringLiteral("-R"));
    return udpdata::streamResult(l, seed);
}

inline TestResult loadedResult(double level, int seed)
{
    loadeddata::Levels l;
    l.idleUs = 40 + 5 * level;
    l.downloadAddUs = 400 * level;
    l.uploadAddUs = 250 * level;
    l.bidirAddUs = 900 * level;
    l.gbps = 2 + 2 / level;
    return loadeddata::loadedLatencyResult(l, seed);
}

// One configuration per cell, three runs each, baseline: the first adapter. spreadScale
// widens the spread between runs (a p99 CI below zero).
inline Comparison makeComparison(const QList<Cell> &cells, double scale = 1.0, double spreadScale = 1.0,
                                 double firstSecond = 0)
{
    Comparison c;
    c.title = QStringLiteral("Adapters");
    c.repeats = 3;
    c.baselineIndex = 0;
    for (int i = 0; i < cells.size(); ++i) {
        Configuration conf = nbtest::namedConfiguration(cells[i].adapter, cells[i].variant);
        conf.params.host = QStringLiteral("198.18.1.%1").arg(10 + i);
        conf.params.udp = isUdp(conf.variant);
        conf.params.kind = isRr(conf.variant)       ? TestKind::Rr
                           : isLoaded(conf.variant) ? TestKind::LoadedLatency
                                                    : TestKind::Stream;
        c.configurations.append(conf);
    }
    nbtest::addScheduledRuns(c, [&](const Run &run) {
        const Cell &cell = cells[run.configIndex];
        const double factor = 1 + (kRunFactor[run.repeatIndex] - 1) * spreadScale;
        const double level = cell.level * scale * factor;
        const int i = run.orderIndex;
        return isUdp(cell.variant)      ? udpResult(cell.variant, level, i)
               : isRr(cell.variant)     ? rrResult(level, i)
               : isLoaded(cell.variant) ? loadedResult(level, i)
                                        : streamResult(level, 45.0 / (cell.level * scale) * 3, i, firstSecond);
    });
    return c;
}

// E1000 / E1000E / VMXNET3, one throughput variant (no variant name).
inline Comparison adapters(double scale = 1.0)
{
    return makeComparison({{QStringLiteral("E1000"), QString(), 2.9},
                           {QStringLiteral("E1000E"), QString(), 3.4},
                           {QStringLiteral("VMXNET3"), QString(), 4.7}},
                          scale);
}

// The issue's comparison: E1000 and VMXNET3 x (P=4, TCP_RR).
inline Comparison mixed(double scale = 1.0)
{
    return makeComparison({{QStringLiteral("E1000"), QStringLiteral("P=4"), 2.9},
                           {QStringLiteral("VMXNET3"), QStringLiteral("P=4"), 4.7},
                           {QStringLiteral("E1000"), QStringLiteral("TCP_RR"), 62},
                           {QStringLiteral("VMXNET3"), QStringLiteral("TCP_RR"), 31}},
                          scale);
}

// Long names, 2 adapters x 3 variants (P=1, P=16 throughput and TCP_RR).
inline Comparison longNames(double scale = 1.0)
{
    const QString a = QStringLiteral("veth e1000-like -> e1000-like"), b = QStringLiteral("VMXNET3 ens224");
    return makeComparison({{a, QStringLiteral("P=1"), 0.94},
                           {b, QStringLiteral("P=1"), 4.1},
                           {a, QStringLiteral("P=16 -w 64k -l 128k"), 0.99},
                           {b, QStringLiteral("P=16 -w 64k -l 128k"), 9.4},
                           {a, QStringLiteral("TCP_RR"), 62},
                           {b, QStringLiteral("TCP_RR"), 31}},
                          scale);
}

// Issue 16: E1000 and VMXNET3 x (P=1, TCP_RR, Latency under load); VMXNET3 adds less
// latency under load.
inline Comparison withLoadedLatency(double scale = 1.0)
{
    return makeComparison({{QStringLiteral("E1000"), QStringLiteral("P=1"), 2.9},
                           {QStringLiteral("VMXNET3"), QStringLiteral("P=1"), 4.7},
                           {QStringLiteral("E1000"), QStringLiteral("TCP_RR"), 62},
                           {QStringLiteral("VMXNET3"), QStringLiteral("TCP_RR"), 31},
                           {QStringLiteral("E1000"), QStringLiteral("Latency under load"), 1.0},
                           {QStringLiteral("VMXNET3"), QStringLiteral("Latency under load"), 0.4}},
                          scale);
}

// Issue 17: E1000 and VMXNET3 x (P=1, TCP_RR, UDP 100M, UDP 500M, UDP_RR); VMXNET3 loses
// less, its UDP_RR is faster.
inline Comparison withUdp(double scale = 1.0)
{
    return makeComparison({{QStringLiteral("E1000"), QStringLiteral("P=1"), 2.9},
                           {QStringLiteral("VMXNET3"), QStringLiteral("P=1"), 4.7},
                           {QStringLiteral("E1000"), QStringLiteral("TCP_RR"), 62},
                           {QStringLiteral("VMXNET3"), QStringLiteral("TCP_RR"), 31},
                           {QStringLiteral("E1000"), QStringLiteral("UDP 100M"), 0.8},
                           {QStringLiteral("VMXNET3"), QStringLiteral("UDP 100M"), 0.1},
                           {QStringLiteral("E1000"), QStringLiteral("UDP 500M"), 4.0},
                           {QStringLiteral("VMXNET3"), QStringLiteral("UDP 500M"), 0.6},
                           {QStringLiteral("E1000"), QStringLiteral("UDP_RR"), 62},
                           {QStringLiteral("VMXNET3"), QStringLiteral("UDP_RR"), 31}},
                          scale);
}

inline ComparisonOverlay single(const Comparison &c)
{
    return overlayComparisons({{QStringLiteral("adapters.nicbench"), c}});
}

inline ComparisonOverlay beforeAfter(const Comparison &before, const Comparison &after)
{
    return overlayComparisons({{QStringLiteral("before"), before}, {QStringLiteral("after"), after}});
}

} // namespace chartdata
