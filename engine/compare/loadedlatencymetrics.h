// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The comparison metrics of a latency-under-load run (TestKind::LoadedLatency): which phase
// kind and which figure each Metric::Loaded* stands for, and its value from the run's
// LoadedLatencyResult. Pure functions: tst_loadedlatencymetrics.

#include "compare/comparisonstatistics.h"
#include "model/loadedlatency.h"

#include <optional>

namespace nb {

enum class LoadedFigure {
    P50,         // the probe's p50 in the phase (idle baseline only)
    P99,         // the probe's p99 in the phase
    P50Increase, // p50 in the phase minus the idle baseline's p50
    P99Increase, // same for p99
    Throughput,  // the load's bits per second in the phase, both directions together
};

struct LoadedMetricSpec {
    LoadPhase phase = LoadPhase::Idle;
    LoadedFigure figure = LoadedFigure::P50;
};

// What a Metric::Loaded* metric measures; nullopt for the other metrics.
std::optional<LoadedMetricSpec> loadedLatencyMetricSpec(Metric m);

// The metric's value in one run. A phase kind that ran more than once (idle,download,idle,
// download) gives the mean over its phases; the idle figures are the baseline phase's
// (LoadedLatencyResult::baselineIndex: the first idle phase with probe figures). Increases
// below zero (under load faster than idle: the histogram's resolution and noise, not a
// real gain) count as zero, so a bar never hangs below the axis. nullopt when the run has
// no such phase or no probe figures in it (a stock iperf3 server refuses the probe).
std::optional<double> loadedLatencyMetricValue(const LoadedLatencyResult &result, Metric m);

} // namespace nb
