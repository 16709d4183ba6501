// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nb {

namespace {

// Splits "1.5M" into 1.5 and the multiplier for M; base is 1024 or 1000.
std::optional<double> parseScaled(QStringView text, double base, QString *error, const char *what)
{
    auto fail = [&](const QString &why) -> std::optional<double> {
        if (error)
            *error = QStringLiteral("invalid %1 '%2': %3").arg(QLatin1String(what), text.toString(), why);
        return std::nullopt;
    };
    QStringView t = text.trimmed();
    if (t.isEmpty())
        return fail(QStringLiteral("empty"));
    double mult = 1;
    const QChar last = t.back().toUpper();
    const QString suffixes = QStringLiteral("KMGT");
    const qsizetype idx = suffixes.indexOf(last);
    if (idx >= 0) {
        mult = std::pow(base, double(idx + 1));
        t.chop(1);
    }
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !std::isfinite(v))
        return fail(QStringLiteral("not a number (use e.g. 128K, 1M, 2G)"));
    if (v < 0)
        return fail(QStringLiteral("must not be negative"));
    if (!std::isfinite(v * mult)) // "1e308T"
        return fail(QStringLiteral("too large"));
    return v * mult;
}

} // namespace

std::optional<std::uint64_t> parseSize(QStringView text, QString *error)
{
    const auto v = parseScaled(text, 1024.0, error, "size");
    if (!v)
        return std::nullopt;
    if (*v >= 18446744073709551616.0) { // 2^64
        if (error)
            *error = QStringLiteral("invalid size '%1': too large").arg(text.toString());
        return std::nullopt;
    }
    // Not llround: it returns long long, which overflows for sizes between 2^63 and 2^64.
    const double rounded = std::round(*v);
    if (rounded >= 18446744073709551616.0) {
        if (error)
            *error = QStringLiteral("invalid size '%1': too large").arg(text.toString());
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(rounded);
}

std::optional<double> parseRate(QStringView text, QString *error)
{
    return parseScaled(text, 1000.0, error, "rate");
}

std::optional<double> parseSeconds(QStringView text, QString *error)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < 0) {
        if (error)
            *error = QStringLiteral("invalid time '%1': expected seconds, e.g. 10 or 0.5").arg(text.toString());
        return std::nullopt;
    }
    return v;
}

namespace {

int significantDecimals(double value, int digits)
{
    const int magnitude = int(std::floor(std::log10(std::fabs(value)))) + 1;
    return std::max(0, digits - magnitude);
}

// The value as formatSignificant() will print it, so a unit is chosen after rounding
// ("999.9" rounds to "1000": that is the next unit).
double roundedSignificant(double value, int digits)
{
    if (value == 0 || !std::isfinite(value))
        return value;
    const double scale = std::pow(10.0, significantDecimals(value, digits));
    return std::round(value * scale) / scale;
}

QString formatScaled(double value, double base, const char *const *units, int maxUnit)
{
    int i = 0;
    double v = value;
    while (std::fabs(roundedSignificant(v, 3)) >= base && i < maxUnit) {
        v /= base;
        ++i;
    }
    return QStringLiteral("%1 %2").arg(formatSignificant(v), QLatin1String(units[i]));
}

} // namespace

QString formatSignificant(double value, int digits)
{
    if (value == 0 || !std::isfinite(value))
        return QString::number(value);
    // Decide the decimals after rounding: 0.9999 is "1.00", not "1.000".
    const double rounded = roundedSignificant(value, digits);
    return QString::number(rounded, 'f', significantDecimals(rounded, digits));
}

QString formatGrouped(double value, const QLocale &locale, int digits)
{
    if (value == 0 || !std::isfinite(value))
        return locale.toString(value);
    const int magnitude = int(std::floor(std::log10(std::abs(value))));
    if (magnitude >= digits - 1) {
        // Whole numbers: the digits past the significant ones become zeros.
        const double scale = std::pow(10.0, magnitude - digits + 1);
        return locale.toString(std::round(value / scale) * scale, 'f', 0);
    }
    const double rounded = roundedSignificant(value, digits);
    const int decimals = significantDecimals(rounded, digits);
    return locale.toString(rounded, 'f', decimals);
}

QString formatBitrate(double bps)
{
    static const char *const units[] = {"bit/s", "Kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
    return formatScaled(bps, 1000.0, units, 4);
}

QString formatBytes(double bytes)
{
    static const char *const units[] = {"Bytes", "KBytes", "MBytes", "GBytes", "TBytes"};
    return formatScaled(bytes, 1024.0, units, 4);
}

} // namespace nb
