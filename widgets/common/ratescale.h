// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pixel-free math for throughput chart axes: which unit to show, where an axis should end,
// how a tick is labelled. Kept apart from the widgets so it can be tested data-driven; the
// figures themselves are written by core/format.h.

#include <QString>

namespace nb::ui {

struct RateUnit {
    double divisor = 1.0; // bits per second in one unit
    QString name;         // "Mbit/s"
};

// The largest decimal unit (bit/s .. Tbit/s) in which the value is at least 1.
// Zero and negative values get bit/s.
RateUnit rateUnitFor(double bitsPerSecond);

// The smallest "nice" axis end (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten)
// that is >= value: fine enough that a 941 Mbit/s curve gets a 1 Gbit/s axis.
// Returns 1 for values <= 0 so an empty chart still has an axis.
double niceCeiling(double value);

// Upper end of a throughput axis for data whose maximum is maxValue: a little headroom
// so the curve never touches the frame, then rounded up to a nice number.
double throughputAxisMax(double maxValue);

// A tick label for an axis whose unit is given: value/divisor with at most 3
// significant digits and no trailing zeros ("2.5", "10", "0.25").
QString axisTickLabel(double value, const RateUnit &unit);

} // namespace nb::ui
