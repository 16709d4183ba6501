// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/ratescale.h"

#include "core/format.h"

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
    return nb::formatCompact(scaled);
}

} // namespace nb::ui
