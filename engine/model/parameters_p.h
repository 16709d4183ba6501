// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Private to parameters*.cpp: the units the table's ranges are written in.

namespace nb::param {

inline constexpr double KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
inline constexpr double MaxU64 = 18446744073709551615.0;

} // namespace nb::param
