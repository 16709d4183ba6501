// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RFC 4180 fields for the CSV files NicBench writes (comparison tables, chart data):
// quoted only when needed, numbers with enough digits to round-trip in a spreadsheet.

#include <QString>

#include <cmath>

namespace nb::csv {

inline QString field(const QString &s)
{
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n'))) {
        QString q = s;
        q.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + q + QLatin1Char('"');
    }
    return s;
}

// Empty for NaN (no value), "inf"/"-inf" for infinities.
inline QString number(double v)
{
    if (std::isfinite(v))
        return QString::number(v, 'g', 10);
    if (std::isnan(v))
        return QString();
    return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
}

} // namespace nb::csv
