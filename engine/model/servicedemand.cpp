// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/servicedemand.h"

#include <cmath>

namespace nb {

namespace {

bool usable(double v)
{
    return std::isfinite(v) && v >= 0;
}

} // namespace

std::optional<double> busyCpuSeconds(double cpuUtilPct, int cpuCount, double elapsedSeconds)
{
    if (!usable(cpuUtilPct) || cpuCount <= 0 || !usable(elapsedSeconds) || elapsedSeconds == 0)
        return std::nullopt;
    return cpuUtilPct / 100.0 * cpuCount * elapsedSeconds;
}

std::optional<double> serviceDemandUsPerKB(double cpuUtilPct, int cpuCount, double elapsedSeconds, double bytes)
{
    const auto cpu = busyCpuSeconds(cpuUtilPct, cpuCount, elapsedSeconds);
    if (!cpu || !usable(bytes) || bytes == 0)
        return std::nullopt;
    return *cpu * 1e6 / (bytes / 1024.0);
}

std::optional<double> serviceDemandUsPerTransaction(double cpuUtilPct, int cpuCount, double elapsedSeconds,
                                                    double transactions)
{
    const auto cpu = busyCpuSeconds(cpuUtilPct, cpuCount, elapsedSeconds);
    if (!cpu || !usable(transactions) || transactions == 0)
        return std::nullopt;
    return *cpu * 1e6 / transactions;
}

std::optional<double> cpuPctPerGbps(double cpuPct, double bitsPerSecond)
{
    if (!usable(cpuPct) || !usable(bitsPerSecond) || bitsPerSecond == 0)
        return std::nullopt;
    return cpuPct / (bitsPerSecond / 1e9);
}

std::optional<double> cyclesPerByte(double busyCpuSeconds, double clockHz, double bytes)
{
    if (!usable(busyCpuSeconds) || !usable(clockHz) || clockHz == 0 || !usable(bytes) || bytes == 0)
        return std::nullopt;
    return busyCpuSeconds * clockHz / bytes;
}

} // namespace nb
