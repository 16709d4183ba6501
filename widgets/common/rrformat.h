// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pixel-free text for request/response figures, 3 significant digits like the rates.
// One rule for counts: written out with grouped digits up to a million ("24,100/s"),
// "1.20 M/s" above; latencies in µs up to 1000 µs, then ms, then s.

#include <QString>

namespace nb::ui {

// 28134 -> "28,100/s", 950 -> "950/s", 1.2e6 -> "1.20 M/s".
QString formatTransactionsPerSecond(double perSecond);
// 31.24 -> "31.2 µs", 1250 -> "1.25 ms", 2.5e6 -> "2.50 s"; "-" for negative values.
QString formatLatencyUs(double microseconds);
// Microseconds of CPU per unit: "0.583 µs/KB", "12.3 µs/transaction".
QString formatServiceDemand(double microseconds, const QString &unit);

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
