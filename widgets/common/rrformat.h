// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pixel-free axis arithmetic for latency charts: which unit an axis shows and how its ticks
// read. The figures themselves (latencies, transactions per second) are written by
// core/format.h.

#include <QString>

namespace nb::ui {

// How a latency axis is labelled: microseconds up to 1000 µs, milliseconds above.
struct LatencyUnit {
    double divisor = 1.0; // microseconds in one unit
    QString name;         // "µs" or "ms"
};
LatencyUnit latencyUnitFor(double microseconds);
// A tick label on such an axis: at most 3 significant digits, no trailing zeros
// ("2.5", "250", "0.05").
QString latencyTickLabel(double microseconds, const LatencyUnit &unit);

} // namespace nb::ui
