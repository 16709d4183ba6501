// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/rrformat.h"

#include "common/ratescale.h"

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
    return QStringLiteral("%1/s").arg(formatGroupedSignificant(perSecond, 3));
}

QString formatLatencyUs(double microseconds)
{
    if (!std::isfinite(microseconds) || microseconds < 0)
        return QStringLiteral("-");
    if (microseconds == 0)
        return QStringLiteral("0 \u00b5s");
    const double magnitude = std::floor(std::log10(microseconds));
    const double rounded = std::round(microseconds / std::pow(10.0, magnitude - 2)) * std::pow(10.0, magnitude - 2);
    if (rounded >= 1e6)
        return QStringLiteral("%1 s").arg(formatSignificantDigits(microseconds / 1e6, 3));
    if (rounded >= 1e3)
        return QStringLiteral("%1 ms").arg(formatSignificantDigits(microseconds / 1e3, 3));
    return QStringLiteral("%1 \u00b5s").arg(formatSignificantDigits(microseconds, 3));
}

QString formatServiceDemand(double microseconds, const QString &unit)
{
    return QStringLiteral("%1 \u00b5s/%2").arg(formatSignificantDigits(microseconds, 3), unit);
}

LatencyUnit latencyUnitFor(double microseconds)
{
    if (std::isfinite(microseconds) && microseconds > 1000)
        return {1000.0, QStringLiteral("ms")};
    return {1.0, QStringLiteral("\u00b5s")};
}

QString latencyTickLabel(double microseconds, const LatencyUnit &unit)
{
    const double v = microseconds / unit.divisor;
    if (!std::isfinite(v))
        return QString();
    QString text = formatSignificantDigits(v, 3);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text;
}

} // namespace nb::ui
