// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/loadedlatencymetrics.h"

#include <algorithm>

namespace nb {

std::optional<LoadedMetricSpec> loadedLatencyMetricSpec(Metric m)
{
    using F = LoadedFigure;
    using P = LoadPhase;
    switch (m) {
    case Metric::LoadedIdleP50:
        return LoadedMetricSpec{P::Idle, F::P50};
    case Metric::LoadedIdleP99:
        return LoadedMetricSpec{P::Idle, F::P99};
    case Metric::LoadedDownloadP50Increase:
        return LoadedMetricSpec{P::Download, F::P50Increase};
    case Metric::LoadedDownloadP99Increase:
        return LoadedMetricSpec{P::Download, F::P99Increase};
    case Metric::LoadedDownloadP99:
        return LoadedMetricSpec{P::Download, F::P99};
    case Metric::LoadedDownloadThroughput:
        return LoadedMetricSpec{P::Download, F::Throughput};
    case Metric::LoadedUploadP50Increase:
        return LoadedMetricSpec{P::Upload, F::P50Increase};
    case Metric::LoadedUploadP99Increase:
        return LoadedMetricSpec{P::Upload, F::P99Increase};
    case Metric::LoadedUploadP99:
        return LoadedMetricSpec{P::Upload, F::P99};
    case Metric::LoadedUploadThroughput:
        return LoadedMetricSpec{P::Upload, F::Throughput};
    case Metric::LoadedBidirP50Increase:
        return LoadedMetricSpec{P::Bidir, F::P50Increase};
    case Metric::LoadedBidirP99Increase:
        return LoadedMetricSpec{P::Bidir, F::P99Increase};
    case Metric::LoadedBidirP99:
        return LoadedMetricSpec{P::Bidir, F::P99};
    case Metric::LoadedBidirThroughput:
        return LoadedMetricSpec{P::Bidir, F::Throughput};
    default:
        return std::nullopt;
    }
}

namespace {

bool hasProbeFigures(const LoadPhaseResult &p)
{
    return p.hasProbe && p.latencyUs.count > 0;
}

std::optional<double> phaseFigure(const LoadedLatencyResult &r, int i, LoadedFigure figure)
{
    const LoadPhaseResult &p = r.phases[i];
    switch (figure) {
    case LoadedFigure::Throughput:
        return p.seconds() > 0 ? std::optional<double>(p.bitsPerSecond()) : std::nullopt;
    case LoadedFigure::P50:
        return hasProbeFigures(p) ? std::optional<double>(p.latencyUs.p50) : std::nullopt;
    case LoadedFigure::P99:
        return hasProbeFigures(p) ? std::optional<double>(p.latencyUs.p99) : std::nullopt;
    case LoadedFigure::P50Increase:
        if (const auto d = r.increaseUs(i, &LatencySummary::p50))
            return std::max(0.0, *d);
        return std::nullopt;
    case LoadedFigure::P99Increase:
        if (const auto d = r.increaseUs(i, &LatencySummary::p99))
            return std::max(0.0, *d);
        return std::nullopt;
    }
    return std::nullopt;
}

} // namespace

std::optional<double> loadedLatencyMetricValue(const LoadedLatencyResult &r, Metric m)
{
    const auto spec = loadedLatencyMetricSpec(m);
    if (!spec)
        return std::nullopt;
    if (spec->phase == LoadPhase::Idle) {
        const int base = r.baselineIndex();
        return base >= 0 ? phaseFigure(r, base, spec->figure) : std::nullopt;
    }
    double sum = 0;
    int n = 0;
    for (int i = 0; i < r.phases.size(); ++i) {
        if (r.phases[i].phase != spec->phase)
            continue;
        if (const auto v = phaseFigure(r, i, spec->figure)) {
            sum += *v;
            ++n;
        }
    }
    return n > 0 ? std::optional<double>(sum / n) : std::nullopt;
}

} // namespace nb
