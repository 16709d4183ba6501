// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Latency-under-load results with known figures for the comparison tests: the default
// phases (idle, download, upload, bidir, idle), each with its throughput, its probe
// latency drawn from a fixed pseudo-random sequence, and one interval per second carrying
// the load's bytes and the probe's percentile summary, as the engine writes them.

#include <core/latencyhistogram.h>
#include <model/loadedlatency.h>
#include <model/results.h>

#include <QList>

#include <cmath>
#include <cstdint>

namespace loadeddata {

using namespace nb;

// What a run measures: the idle probe latency and what each loaded phase adds to it
// (typical values; the samples spread around them), and the load's rate.
struct Levels {
    double idleUs = 50;
    double downloadAddUs = 400, uploadAddUs = 300, bidirAddUs = 900;
    double gbps = 4;
};

inline LatencySummary probeSamples(double typicalUs, int seed, int count = 2000)
{
    quint32 state = 2463534242u + quint32(seed) * 7919u;
    const auto next = [&state] {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return (state & 0xffffff) / double(0x1000000);
    };
    LatencyHistogram h;
    for (int i = 0; i < count; ++i) {
        const double u = next();
        const double us = u < 0.97 ? typicalUs * (0.9 + 0.2 * next()) : typicalUs * (1.5 + 1.5 * next());
        h.record(std::int64_t(us * 1000));
    }
    return h.summary();
}

inline TestResult loadedLatencyResult(const Levels &l, int seed, double phaseSeconds = 2)
{
    TestResult r;
    r.params.kind = TestKind::LoadedLatency;
    r.params.phaseSeconds = phaseSeconds;
    r.params.streams = 2;
    r.params.duration = phaseSeconds * 5;
    LoadedLatencyResult lat;
    lat.phaseSeconds = phaseSeconds;
    lat.uploadMeasuredByReceiver = true;
    const QList<std::pair<LoadPhase, double>> phases{{LoadPhase::Idle, 0},
                                                     {LoadPhase::Download, l.downloadAddUs},
                                                     {LoadPhase::Upload, l.uploadAddUs},
                                                     {LoadPhase::Bidir, l.bidirAddUs},
                                                     {LoadPhase::Idle, 0}};
    for (int i = 0; i < phases.size(); ++i) {
        LoadPhaseResult p;
        p.phase = phases[i].first;
        p.start = i * phaseSeconds;
        p.end = (i + 1) * phaseSeconds;
        const double bps = l.gbps * 1e9 * (1 + 0.02 * std::sin(seed * 1.3 + i));
        if (clientSendsIn(p.phase))
            p.uploadBitsPerSecond = p.phase == LoadPhase::Bidir ? bps * 0.5 : bps;
        if (serverSendsIn(p.phase))
            p.downloadBitsPerSecond = p.phase == LoadPhase::Bidir ? bps * 0.5 : bps;
        p.hasProbe = true;
        const double typical = l.idleUs + phases[i].second;
        p.latencyUs = probeSamples(typical, seed * 31 + i);
        p.transactions = std::uint64_t(phaseSeconds * 1e6 / typical);
        lat.phases.append(p);
        // One interval per second: the load's bytes and the probe's summary.
        for (int s = 0; s < int(phaseSeconds); ++s) {
            IntervalReport ir;
            const double start = p.start + s;
            if (p.bitsPerSecond() > 0) {
                StreamInterval si;
                si.id = 5;
                si.sender = clientSendsIn(p.phase);
                si.start = start;
                si.end = start + 1;
                si.bytes = std::uint64_t(p.bitsPerSecond() / 8);
                ir.streams.append(si);
            }
            ir.hasRr = true;
            ir.rr.start = start;
            ir.rr.end = start + 1;
            ir.rr.transactions = p.transactions / std::uint64_t(phaseSeconds);
            ir.rr.latencyUs = probeSamples(typical, seed * 97 + i * 7 + s, 500);
            r.intervals.append(ir);
        }
    }
    r.loadedLatency = lat;
    r.localCpuKnown = true;
    r.localCpu.end = phaseSeconds * 5;
    r.localCpu.cpuCount = 4;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = 20 + seed % 3;
    return r;
}

} // namespace loadeddata
