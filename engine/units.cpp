// SPDX-License-Identifier: GPL-3.0-or-later
#include "units.h"

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
    return static_cast<std::uint64_t>(std::llround(*v));
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

QString formatSignificant(double value, int digits)
{
    if (value == 0 || !std::isfinite(value))
        return QString::number(value);
    const int magnitude = int(std::floor(std::log10(std::fabs(value)))) + 1;
    const int decimals = std::max(0, digits - magnitude);
    return QString::number(value, 'f', decimals);
}

QString formatBitrate(double bps)
{
    static const char *units[] = {"bit/s", "Kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
    int i = 0;
    double v = bps;
    while (std::fabs(v) >= 1000.0 && i < 4) {
        v /= 1000.0;
        ++i;
    }
    return QStringLiteral("%1 %2").arg(formatSignificant(v), QLatin1String(units[i]));
}

QString formatBytes(double bytes)
{
    static const char *units[] = {"Bytes", "KBytes", "MBytes", "GBytes", "TBytes"};
    int i = 0;
    double v = bytes;
    while (std::fabs(v) >= 1024.0 && i < 4) {
        v /= 1024.0;
        ++i;
    }
    return QStringLiteral("%1 %2").arg(formatSignificant(v), QLatin1String(units[i]));
}

} // namespace nb
