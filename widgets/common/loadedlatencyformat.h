// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pixel-free text for a latency-under-load result (nb::LoadedLatencyResult): the headline
// (the worst loaded phase's p99 increase over idle) and one line per phase with its
// latency increase, percentiles, throughput per direction and probe rate.

#include <model/loadedlatency.h>

#include <QString>
#include <QStringList>

namespace nb::ui {

// "Idle", "Download", "Upload", "Both ways".
QString loadPhaseTitle(nb::LoadPhase phase);
// "Under load p99 +4.20 ms (both ways)"; "Under load: no probe figures" without a baseline
// or loaded phase with probe figures.
QString loadedLatencyHeadline(const nb::LoadedLatencyResult &r);
// One line per phase, in order, short enough for the summary beside the stream table:
// "2 Download: p50 +1.10 ms, p99 +4.00 ms · up 1.20 Mbit/s, down 941 Mbit/s · 880/s".
// The baseline shows its own p50 and p99 with "(baseline)"; directions without load are
// left out; a phase without probe figures says so.
QStringList loadedLatencyPhaseLines(const nb::LoadedLatencyResult &r);

} // namespace nb::ui
