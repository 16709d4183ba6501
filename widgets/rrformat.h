// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pixel-free text for request/response figures, 3 significant digits like the rates.

#include <QString>

namespace nb::ui {

// 28134 -> "28.1 k/s", 950 -> "950/s", 1.2e6 -> "1.20 M/s".
QString formatTransactionsPerSecond(double perSecond);
// 31.24 -> "31.2 us", 1250 -> "1.25 ms", 2.5e6 -> "2.50 s"; "-" for negative values.
QString formatLatencyUs(double microseconds);
// Microseconds of CPU per unit: "0.583 us/KB", "12.3 us/transaction".
QString formatServiceDemand(double microseconds, const QString &unit);

} // namespace nb::ui
