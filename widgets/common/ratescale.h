// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pixel-free math for throughput charts and labels: which unit to show, how to round,
// where an axis should end. Kept apart from the widgets so it can be tested data-driven.

#include <QString>

namespace nb::ui {

struct RateUnit {
    double divisor = 1.0; // bits per second in one unit
    QString name;         // "Mbit/s"
};

// The largest decimal unit (bit/s .. Tbit/s) in which the value is at least 1.
// Zero and negative values get bit/s.
RateUnit rateUnitFor(double bitsPerSecond);

// "941 Mbit/s", "12.3 Gbit/s", "1.00 Gbit/s" (999.7 Mbit/s rounds up into the next
// unit), "0 bit/s": 3 significant digits, decimal multiples.
QString formatRate(double bitsPerSecond);

// A number with the given count of significant digits, trailing zeros kept ("1.00").
QString formatSignificantDigits(double value, int digits = 3);

// A count or rate written out for reading: the given significant digits, digits grouped
// in thousands with commas, decimal point ("24,100", "78,800", "950", "31.2", "0.512").
// The app writes numbers the same way everywhere (as iperf3 does), whatever the locale.
QString formatGroupedSignificant(double value, int digits = 3);

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
