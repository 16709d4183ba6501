// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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

// Numbers written for a person: core/format.h.

} // namespace nb
