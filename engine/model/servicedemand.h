// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CPU cost per unit of work, in the units netperf uses so users can compare figures with
// published netperf results. Formulas and a worked example: docs/cpu-cost.md.
// Every function returns nullopt when its result would be meaningless (no work done,
// zero duration or CPUs, unknown clock) rather than a 0 or an infinity.

#include <optional>

namespace nb {

// CPU-seconds spent: utilisation (percent of ALL cores) x cores x seconds.
std::optional<double> busyCpuSeconds(double cpuUtilPct, int cpuCount, double elapsedSeconds);

// Microseconds of CPU per KB moved (KB = 1024 bytes), netperf's stream service demand:
//   SD = (cpuUtilPct / 100) * cpuCount * elapsedSeconds * 1e6 / (bytes / 1024)
std::optional<double> serviceDemandUsPerKB(double cpuUtilPct, int cpuCount, double elapsedSeconds, double bytes);

// Microseconds of CPU per transaction, netperf's RR service demand:
//   SD = (cpuUtilPct / 100) * cpuCount * elapsedSeconds * 1e6 / transactions
std::optional<double> serviceDemandUsPerTransaction(double cpuUtilPct, int cpuCount, double elapsedSeconds,
                                                    double transactions);

// CPU percent per Gbit/s of throughput (bits/s decimal, 1 Gbit/s = 1e9): cpuPct / (bps / 1e9).
// The percent keeps whatever scale it came in (all cores or one core); say which.
std::optional<double> cpuPctPerGbps(double cpuPct, double bitsPerSecond);

// Cycles per byte: busy CPU-seconds x clock (Hz) / bytes.
std::optional<double> cyclesPerByte(double busyCpuSeconds, double clockHz, double bytes);

} // namespace nb
