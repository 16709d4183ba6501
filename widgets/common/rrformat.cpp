// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/rrformat.h"

#include "core/format.h"

#include <cmath>

namespace nb::ui {

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
    return nb::formatCompact(v);
}

} // namespace nb::ui
