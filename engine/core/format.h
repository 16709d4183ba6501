// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where numbers become words: every figure the CLI, the window, the PDF report and the
// exports show a person is written here (QLocale::formattedDataSize is the model: one
// function per kind of figure, one rule for precision and units).
//
// The rules, the same for every function below:
// - Precision: 3 significant digits ("941", "12.3", "0.512", "1.00"), never fewer than the
//   integer digits ("12345"). The unit is chosen after rounding: 999.96 Mbit/s is
//   "1.00 Gbit/s", never "1000 Mbit/s".
// - Unknown: NaN, infinity, and a negative magnitude (a rate, size, time, count per second
//   or percentage below zero means "not measured") print as unknownText(), "-", with no
//   unit. Signed values (plain numbers, latency changes) keep their sign.
// - Units: decimal multiples for rates (bit/s, Kbit/s .. Tbit/s), binary for sizes as
//   iperf prints them (Bytes, KBytes .. TBytes), times in µs, ms, s. The CLI spells the
//   micro sign "us" (UnitSpelling::Ascii); everything else is the same.
// - Digits are grouped with commas and written with a decimal point whatever the locale,
//   as iperf3 does, so "24,100" reads the same next to "5.14 Gbit/s".

#include <QString>

#include <cstdint>

namespace nb {

// "µs" for the window and the report, "us" for terminals and scripts.
enum class UnitSpelling { Unicode, Ascii };

// "-": what every formatter prints for a value it cannot show.
QString unknownText();

// Plain numbers (signed).
// 3 significant digits, trailing zeros kept: "12.3", "0.512", "1.00", "-12.3", "12345".
QString formatSignificant(double value, int digits = 3);
// The same with trailing zeros dropped, for axis ticks and nominal figures: "2.5", "10", "0.25".
QString formatCompact(double value, int digits = 3);
// Significant digits with thousands grouped: "78,800", "24,100", "941", "0.512".
QString formatGrouped(double value, int digits = 3);
// A count in full, grouped: "91,008".
QString formatCount(std::uint64_t count);
// A fixed number of decimals, for iperf3's columns ("0.033", "10.00").
QString formatFixed(double value, int decimals);

// Magnitudes with their unit (negative: unknown).
// "941 Mbit/s", "12.3 Gbit/s", "1.00 Gbit/s".
QString formatBitrate(double bitsPerSecond);
// "1.25 GBytes", "512 KBytes", "100 Bytes".
QString formatBytes(double bytes);
// A time in microseconds in the unit that keeps it short: "41.5 µs", "1.23 ms", "2.50 s".
QString formatMicroseconds(double us, UnitSpelling spelling = UnitSpelling::Unicode);
// A duration as a person writes it: "8 s" is "8", "2.5", "0.25" (up to 4 significant
// digits, trailing zeros dropped); the caller adds the unit to its sentence.
QString formatSeconds(double seconds);
// A processor clock: "3.40 GHz".
QString formatClock(double hz);
// Request/response rate: "28,100/s", "950/s", "1.20 M/s" (grouped up to a million).
QString formatTransactionsPerSecond(double perSecond);
// CPU time per unit of work: "0.583 µs/KB", "12.3 µs/transaction".
QString formatServiceDemand(double us, const QString &unit);
// UDP jitter: "0.013 ms" (iperf3's three decimals below 1 ms), "1.50 ms" above.
QString formatJitterMs(double ms);
// Share of a link: "44%", "2.5%", "265%", "0%" (2 significant digits below 10%, whole
// percent from 100%, "0%" below 0.05%).
QString formatPercent(double percent);
// Share lost: "1.8%", "0%", "0.0123%" (digits significant digits, trailing zeros dropped;
// the CLI passes 2 as iperf3 does).
QString formatLossPercent(double percent, int digits = 3);

// Differences (signed).
// A latency change with its sign: "+1.23 ms", "+45.0 µs", "−2.00 µs" (a minus sign in
// Unicode, '-' in ASCII).
QString formatLatencyChange(double us, UnitSpelling spelling = UnitSpelling::Unicode);

} // namespace nb
