// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/ratescale.h"

#include <QLocale>

#include <array>
#include <cmath>

namespace nb::ui {

namespace {

struct UnitDef {
    double divisor;
    const char *name;
};

constexpr std::array<UnitDef, 5> kUnits{{
    {1.0, "bit/s"},
    {1e3, "Kbit/s"},
    {1e6, "Mbit/s"},
    {1e9, "Gbit/s"},
    {1e12, "Tbit/s"},
}};

// Rounds to the given significant digits, so that unit choice sees the rounded value.
double roundSignificant(double value, int digits)
{
    if (value == 0 || !std::isfinite(value))
        return value;
    const double magnitude = std::floor(std::log10(std::fabs(value)));
    const double scale = std::pow(10.0, digits - 1 - magnitude);
    return std::round(value * scale) / scale;
}

} // namespace

RateUnit rateUnitFor(double bitsPerSecond)
{
    const UnitDef *chosen = &kUnits.front();
    for (const UnitDef &u : kUnits) {
        if (bitsPerSecond >= u.divisor)
            chosen = &u;
    }
    return RateUnit{chosen->divisor, QString::fromLatin1(chosen->name)};
}

QString formatSignificantDigits(double value, int digits)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    if (value == 0)
        return QStringLiteral("0");
    const double rounded = roundSignificant(value, digits);
    const int magnitude = int(std::floor(std::log10(std::fabs(rounded)))) + 1;
    const int decimals = std::max(0, digits - magnitude);
    return QString::number(rounded, 'f', decimals);
}

QString formatGroupedSignificant(double value, int digits)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    const double rounded = roundSignificant(value, digits);
    if (std::fabs(rounded) < 1000)
        return formatSignificantDigits(value, digits);
    // Whole numbers from here on; English grouping, so "24,100" reads the same next to
    // the "5.14 Gbit/s" written with a decimal point.
    QLocale english(QLocale::English, QLocale::UnitedStates);
    english.setNumberOptions(QLocale::DefaultNumberOptions);
    return english.toString(qint64(std::llround(rounded)));
}

QString formatRate(double bitsPerSecond)
{
    if (!std::isfinite(bitsPerSecond) || bitsPerSecond <= 0)
        return QStringLiteral("0 bit/s");
    // Pick the unit from the value as it will be printed: 999.7 Mbit/s is "1.00 Gbit/s".
    const double rounded = roundSignificant(bitsPerSecond, 3);
    const RateUnit unit = rateUnitFor(rounded);
    return QStringLiteral("%1 %2").arg(formatSignificantDigits(bitsPerSecond / unit.divisor, 3), unit.name);
}

double niceCeiling(double value)
{
    if (!(value > 0) || !std::isfinite(value))
        return 1.0;
    const double exponent = std::floor(std::log10(value));
    const double base = std::pow(10.0, exponent);
    for (double step : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0}) {
        const double candidate = step * base;
        // Relative tolerance: 2e9 must stay 2e9, not become 2.5e9 through rounding noise.
        if (candidate >= value * (1 - 1e-12))
            return candidate;
    }
    return 10.0 * base;
}

double throughputAxisMax(double maxValue)
{
    return niceCeiling(maxValue * 1.05);
}

QString axisTickLabel(double value, const RateUnit &unit)
{
    const double scaled = value / unit.divisor;
    if (std::fabs(scaled) < 1e-9)
        return QStringLiteral("0");
    return QString::number(roundSignificant(scaled, 3), 'g', 6);
}

} // namespace nb::ui
