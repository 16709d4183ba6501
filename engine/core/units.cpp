// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/units.h"

#include <cmath>

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

} // namespace nb
