// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLocale>
#include <QString>
#include <QStringView>

#include <cstdint>
#include <optional>

namespace nb {

// Parses an iperf-style size: a number with an optional K/M/G/T suffix (binary multiples,
// 1K = 1024, as iperf does), e.g. "128K", "64k", "1.5M", "1000". Returns nullopt and sets
// *error on anything else (empty, negative, garbage, overflow).
std::optional<std::uint64_t> parseSize(QStringView text, QString *error = nullptr);

// Parses an iperf-style rate in bit/s with K/M/G/T decimal multiples (1K = 1000).
std::optional<double> parseRate(QStringView text, QString *error = nullptr);

// Parses a duration in seconds ("10", "0.5"); rejects negatives and garbage.
std::optional<double> parseSeconds(QStringView text, QString *error = nullptr);

// "941 Mbit/s", "12.3 Gbit/s": decimal multiples, 3 significant digits.
QString formatBitrate(double bitsPerSecond);
// "1.25 GBytes", "512 KBytes": binary multiples as iperf prints them.
QString formatBytes(double bytes);
// Keeps 3 significant digits ("12.3", "0.512", "941").
QString formatSignificant(double value, int digits = 3);
// 3 significant digits with the thousands grouped as the locale writes them: "78,800"
// (not "78776"), "1,230", "12.3", "0.512". For counts and rates people read at a glance.
QString formatGrouped(double value, const QLocale &locale = QLocale(), int digits = 3);

} // namespace nb
