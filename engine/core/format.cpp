// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/format.h"

#include <algorithm>
#include <cmath>

namespace nb {

namespace {

bool isMagnitude(double value)
{
    return std::isfinite(value) && value >= 0;
}

int significantDecimals(double value, int digits)
{
    const int magnitude = int(std::floor(std::log10(std::fabs(value)))) + 1;
    return std::max(0, digits - magnitude);
}

// The value as formatSignificant() will print it, so a unit is chosen after rounding
// ("999.96" rounds to "1000": that is the next unit).
double roundedSignificant(double value, int digits)
{
    if (value == 0 || !std::isfinite(value))
        return value;
    const double scale = std::pow(10.0, significantDecimals(value, digits));
    return std::round(value * scale) / scale;
}

QString dropTrailingZeros(QString text)
{
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text;
}

QString groupThousands(QString digits)
{
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return digits;
}

// value in units[0], divided by base until it prints below base in the unit it gets.
QString formatScaled(double value, double base, const char *const *units, int maxUnit)
{
    if (!isMagnitude(value))
        return unknownText();
    int i = 0;
    double v = value;
    while (roundedSignificant(v, 3) >= base && i < maxUnit) {
        v /= base;
        ++i;
    }
    return QStringLiteral("%1 %2").arg(formatSignificant(v), QString::fromUtf8(units[i]));
}

} // namespace

QString unknownText()
{
    return QStringLiteral("-");
}

QString formatSignificant(double value, int digits)
{
    if (!std::isfinite(value))
        return unknownText();
    if (value == 0)
        return QStringLiteral("0");
    // Decide the decimals after rounding: 0.9999 is "1.00", not "1.000".
    const double rounded = roundedSignificant(value, digits);
    return QString::number(rounded, 'f', significantDecimals(rounded, digits));
}

QString formatCompact(double value, int digits)
{
    return dropTrailingZeros(formatSignificant(value, digits));
}

QString formatGrouped(double value, int digits)
{
    double rounded = roundedSignificant(value, digits);
    if (!std::isfinite(rounded) || std::fabs(rounded) < 1000)
        return formatSignificant(value, digits);
    // roundedSignificant keeps every integer digit; drop the insignificant ones here.
    const double step = std::pow(10.0, std::floor(std::log10(std::fabs(rounded))) - (digits - 1));
    rounded = std::round(rounded / step) * step;
    const QString grouped = groupThousands(QString::number(std::fabs(rounded), 'f', 0));
    return rounded < 0 ? QLatin1Char('-') + grouped : grouped;
}

QString formatCount(std::uint64_t count)
{
    return groupThousands(QString::number(count));
}

QString formatFixed(double value, int decimals)
{
    if (!std::isfinite(value))
        return unknownText();
    return QString::number(value, 'f', decimals);
}

QString formatBitrate(double bitsPerSecond)
{
    static const char *const units[] = {"bit/s", "Kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
    return formatScaled(bitsPerSecond, 1000.0, units, 4);
}

QString formatBytes(double bytes)
{
    static const char *const units[] = {"Bytes", "KBytes", "MBytes", "GBytes", "TBytes"};
    return formatScaled(bytes, 1024.0, units, 4);
}

QString formatMicroseconds(double us, UnitSpelling spelling)
{
    static const char *const unicode[] = {"\u00b5s", "ms", "s"};
    static const char *const ascii[] = {"us", "ms", "s"};
    return formatScaled(us, 1000.0, spelling == UnitSpelling::Ascii ? ascii : unicode, 2);
}

QString formatSeconds(double seconds)
{
    if (!isMagnitude(seconds))
        return unknownText();
    return formatCompact(seconds, 4);
}

QString formatClock(double hz)
{
    if (!isMagnitude(hz))
        return unknownText();
    return QStringLiteral("%1 GHz").arg(formatFixed(hz / 1e9, 2));
}

QString formatTransactionsPerSecond(double perSecond)
{
    if (!isMagnitude(perSecond))
        return unknownText();
    // Decide the prefix on the rounded value: 999.96 k is "1.00 M/s".
    if (roundedSignificant(perSecond / 1e6, 3) >= 1)
        return QStringLiteral("%1 M/s").arg(formatSignificant(perSecond / 1e6));
    return QStringLiteral("%1/s").arg(formatGrouped(perSecond));
}

QString formatServiceDemand(double us, const QString &unit)
{
    if (!isMagnitude(us))
        return unknownText();
    return QStringLiteral("%1 \u00b5s/%2").arg(formatSignificant(us), unit);
}

QString formatJitterMs(double ms)
{
    if (!isMagnitude(ms))
        return unknownText();
    return QStringLiteral("%1 ms").arg(ms < 1 ? formatFixed(ms, 3) : formatSignificant(ms));
}

QString formatPercent(double percent)
{
    if (!isMagnitude(percent))
        return unknownText();
    if (percent >= 100)
        return QStringLiteral("%1%").arg(QString::number(std::round(percent), 'f', 0));
    if (percent < 0.05)
        return QStringLiteral("0%");
    return formatCompact(percent, percent < 10 ? 2 : 3) + QLatin1Char('%');
}

QString formatLossPercent(double percent, int digits)
{
    if (!isMagnitude(percent))
        return unknownText();
    return formatCompact(percent, digits) + QLatin1Char('%');
}

QString formatLatencyChange(double us, UnitSpelling spelling)
{
    if (!std::isfinite(us))
        return unknownText();
    const QString minus = spelling == UnitSpelling::Ascii ? QStringLiteral("-") : QStringLiteral("\u2212");
    return (us < 0 ? minus : QStringLiteral("+")) + formatMicroseconds(std::fabs(us), spelling);
}

} // namespace nb
