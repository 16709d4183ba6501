// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Figures of a latency-under-load test (TestKind::LoadedLatency): per phase, the load's
// throughput in each direction and the probe's transactions and latency. Value types with
// their JSON (nicbench.loaded_latency, docs/json-output.md).

#include "core/latencyhistogram.h"
#include "model/loadschedule.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace nb {

struct LoadPhaseResult {
    LoadPhase phase = LoadPhase::Idle;
    double start = 0, end = 0; // seconds since the test started, on the client's clock
    // Load: what the server received from the client's senders (else what the client sent:
    // see LoadedLatencyResult::uploadMeasuredByReceiver) and what the client received.
    double uploadBitsPerSecond = 0;
    double downloadBitsPerSecond = 0;
    // The probe over the phase (hasProbe false when it did not run).
    bool hasProbe = false;
    std::uint64_t transactions = 0;
    LatencySummary latencyUs;

    QString name() const { return loadPhaseName(phase); }
    double seconds() const { return end - start; }
    double bitsPerSecond() const { return uploadBitsPerSecond + downloadBitsPerSecond; }
    double transactionsPerSecond() const { return seconds() > 0 ? double(transactions) / seconds() : 0.0; }
};

struct LoadedLatencyResult {
    double phaseSeconds = 0;
    std::uint32_t probeRequestSize = 1, probeResponseSize = 1;
    int probeDscp = 0;
    // Why there are no probe figures (a stock iperf3 server); empty when the probe ran.
    QString probeError;
    // True when each upload figure is the bytes the server received in the phase (NicBench
    // servers); false when it is the bytes the client's senders handed to the kernel.
    bool uploadMeasuredByReceiver = false;
    QList<LoadPhaseResult> phases;

    // The first idle phase with probe figures: what loaded latency is compared with; -1 when
    // there is none.
    int baselineIndex() const;
    // Latency under load minus the idle baseline, µs, for a percentile (&LatencySummary::p50,
    // ::p99); empty without a baseline or probe figures in the phase.
    std::optional<double> increaseUs(int phase, double LatencySummary::*percentile) const;
    // The loaded phase (download, upload or bidir) with the highest p99, -1 when none has probe
    // figures: the headline "worst" figure.
    int worstLoadedPhase() const;

    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, LoadedLatencyResult *out, QString *error);
};

} // namespace nb
