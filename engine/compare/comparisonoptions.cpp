// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonoptions.h"

#include <array>

namespace nb::compareopt {

namespace {

// 2^53 - 1: the largest seed a JSON number carries exactly.
constexpr double MaxSeed = 9007199254740991.0;

const std::array<Option, 6> kOptions{{
    {Id::Repeats, "repeats", "N", "repeats", 1, 1000, "3", "runs per configuration"},
    {Id::Order, "order", "interleaved|shuffled", "order", 0, 0, "interleaved", ""},
    {Id::Seed, "seed", "N", "seed", 0, MaxSeed, "", "seed for --order shuffled"},
    {Id::Pause, "pause", "SECONDS", "pause", 0, 3600, "1", "idle time between runs"},
    {Id::CpuSide, "cpu-side", "auto|client|server", "cpu_side", 0, 0, "auto",
     "whose CPU the answer quotes per Gbit/s; auto: the server's when only the server's adapter differs"},
    {Id::Equivalence, "equivalence", "PERCENT", "equivalence_percent", 0, 50, "2",
     "a difference smaller than this reads 'equivalent', not faster or slower; 0: off"},
}};

} // namespace

std::span<const Option> options()
{
    return kOptions;
}

const Option &option(Id id)
{
    for (const Option &o : kOptions)
        if (o.id == id)
            return o;
    return kOptions.front(); // unreachable: every Id has a row
}

bool inRange(const Option &o, double value)
{
    return value >= o.min && value <= o.max; // false for NaN
}

QString badValueMessage(const Option &o)
{
    switch (o.id) {
    case Id::Repeats:
        return QStringLiteral("--%1 needs a number from %2 to %3").arg(QLatin1String(o.flag)).arg(o.min).arg(o.max);
    case Id::Order:
        return QStringLiteral("--%1 is interleaved or shuffled").arg(QLatin1String(o.flag));
    case Id::Seed:
        return QStringLiteral("--%1 needs a non-negative integer").arg(QLatin1String(o.flag));
    case Id::Pause:
        return QStringLiteral("--%1 needs %2..%3 seconds").arg(QLatin1String(o.flag)).arg(o.min).arg(o.max);
    case Id::CpuSide:
        return QStringLiteral("--%1 is auto, client or server").arg(QLatin1String(o.flag));
    case Id::Equivalence:
        return QStringLiteral("--%1 needs a percentage from %2 to %3").arg(QLatin1String(o.flag)).arg(o.min).arg(o.max);
    }
    return {};
}

QString usageLines()
{
    QString out;
    for (const Option &o : kOptions) {
        QString line = QStringLiteral("  --%1 %2").arg(QLatin1String(o.flag), QLatin1String(o.valueName));
        // Help from column 26; after a value name that reaches past it, three spaces.
        line += QString(line.size() < 26 ? 26 - line.size() : 3, QLatin1Char(' '));
        QString help = QLatin1String(o.help);
        if (*o.defaultText)
            help += help.isEmpty() ? QStringLiteral("(default %1)").arg(QLatin1String(o.defaultText))
                                   : QStringLiteral(" (default %1)").arg(QLatin1String(o.defaultText));
        out += line + help + QLatin1Char('\n');
    }
    return out;
}

} // namespace nb::compareopt
