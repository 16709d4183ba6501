// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The comparison-level options (how many runs, in which order, the pause between them) in
// one small table, as the test parameters have theirs (model/parameters.h): the CLI's
// `compare` options and their --help lines, the spec file's keys and Comparison::validate
// read names, ranges and defaults from these rows, so a range is written once.

#include <QString>

#include <span>

namespace nb::compareopt {

// The equivalence threshold's default (percent): the Id::Equivalence row's defaultText says
// the same (tst_statistics checks they agree).
inline constexpr double kDefaultEquivalencePercent = 2;

enum class Id { Repeats, Order, Seed, Pause, CpuSide, Equivalence };

struct Option {
    Id id;
    const char *flag;        // "repeats": --repeats on the command line
    const char *valueName;   // "N", "SECONDS"
    const char *specKey;     // key in a spec file (docs/compare-spec.md)
    double min, max;         // numeric rows: the accepted range; 0, 0 for the others
    const char *defaultText; // as --help shows it; "" for none
    const char *help;        // one line
};

std::span<const Option> options();
const Option &option(Id id);

// Whether a numeric row takes the value (NaN is out of range).
bool inRange(const Option &o, double value);
// "--repeats needs a number from 1 to 1000": the CLI's message for a bad value.
QString badValueMessage(const Option &o);
// The rows' lines of `compare --help`, aligned as the rest of it.
QString usageLines();

} // namespace nb::compareopt
