// SPDX-License-Identifier: GPL-3.0-or-later
#include "rrformat.h"

#include "ratescale.h"

#include <cmath>

namespace nb::ui {

QString formatTransactionsPerSecond(double perSecond)
{
    if (!std::isfinite(perSecond) || perSecond <= 0)
        return QStringLiteral("0/s");
    // Decide the prefix on the rounded value: 999.96 k is "1.00 M/s".
    const double magnitude = std::floor(std::log10(perSecond));
    const double rounded = std::round(perSecond / std::pow(10.0, magnitude - 2)) * std::pow(10.0, magnitude - 2);
    if (rounded >= 1e6)
        return QStringLiteral("%1 M/s").arg(formatSignificantDigits(perSecond / 1e6, 3));
    if (rounded >= 1e3)
        return QStringLiteral("%1 k/s").arg(formatSignificantDigits(perSecond / 1e3, 3));
    return QStringLiteral("%1/s").arg(formatSignificantDigits(perSecond, 3));
}

QString formatLatencyUs(double microseconds)
{
    if (!std::isfinite(microseconds) || microseconds < 0)
        return QStringLiteral("-");
    if (microseconds == 0)
        return QStringLiteral("0 us");
    const double magnitude = std::floor(std::log10(microseconds));
    const double rounded = std::round(microseconds / std::pow(10.0, magnitude - 2)) * std::pow(10.0, magnitude - 2);
    if (rounded >= 1e6)
        return QStringLiteral("%1 s").arg(formatSignificantDigits(microseconds / 1e6, 3));
    if (rounded >= 1e3)
        return QStringLiteral("%1 ms").arg(formatSignificantDigits(microseconds / 1e3, 3));
    return QStringLiteral("%1 us").arg(formatSignificantDigits(microseconds, 3));
}

QString formatServiceDemand(double microseconds, const QString &unit)
{
    return QStringLiteral("%1 us/%2").arg(formatSignificantDigits(microseconds, 3), unit);
}

} // namespace nb::ui
