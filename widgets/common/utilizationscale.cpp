// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/utilizationscale.h"

#include "common/ratescale.h"
#include "core/format.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace nb::ui {

namespace {

constexpr double kMinUnknownAxis = 1e6;
constexpr double kMinPeakAxis = 1e5;

} // namespace

double busierDirection(double sendBitsPerSecond, double receiveBitsPerSecond)
{
    return std::max({sendBitsPerSecond, receiveBitsPerSecond, 0.0});
}

double utilizationPercent(double bitsPerSecond, double linkBitsPerSecond)
{
    if (!(linkBitsPerSecond > 0) || !std::isfinite(bitsPerSecond))
        return -1;
    return std::max(bitsPerSecond, 0.0) / linkBitsPerSecond * 100.0;
}

double utilizationAxisMax(double peakBitsPerSecond, double linkBitsPerSecond)
{
    const double peak = std::isfinite(peakBitsPerSecond) ? std::max(peakBitsPerSecond, 0.0) : 0.0;
    if (linkBitsPerSecond > 0) {
        if (peak <= linkBitsPerSecond)
            return linkBitsPerSecond;
        return throughputAxisMax(peak);
    }
    return throughputAxisMax(std::max(peak, kMinUnknownAxis));
}

double utilizationAxisMax(double peakBitsPerSecond, double linkBitsPerSecond, UtilizationScale scale)
{
    if (scale == UtilizationScale::LinkSpeed)
        return utilizationAxisMax(peakBitsPerSecond, linkBitsPerSecond);
    const double peak = std::isfinite(peakBitsPerSecond) ? std::max(peakBitsPerSecond, 0.0) : 0.0;
    return throughputAxisMax(std::max(peak, kMinPeakAxis));
}

QString utilizationScaleText(double axisMaxBitsPerSecond, double linkBitsPerSecond, UtilizationScale scale)
{
    const RateUnit unit = rateUnitFor(axisMaxBitsPerSecond);
    const QString rate = QStringLiteral("%1 %2").arg(axisTickLabel(axisMaxBitsPerSecond, unit), unit.name);
    if (scale == UtilizationScale::LinkSpeed && linkBitsPerSecond > 0 && axisMaxBitsPerSecond == linkBitsPerSecond)
        return QCoreApplication::translate("nb::ui", "Link speed %1").arg(rate);
    return QCoreApplication::translate("nb::ui", "Max %1").arg(rate);
}

QString utilizationScaleKey(UtilizationScale scale)
{
    return scale == UtilizationScale::LinkSpeed ? QStringLiteral("link") : QStringLiteral("peak");
}

UtilizationScale utilizationScaleFromKey(const QString &key)
{
    return key == QLatin1String("link") ? UtilizationScale::LinkSpeed : UtilizationScale::RecentPeak;
}

QString aboveLinkText(double bitsPerSecond, double linkBitsPerSecond)
{
    const double pct = utilizationPercent(bitsPerSecond, linkBitsPerSecond);
    if (pct <= 100)
        return QString();
    return QCoreApplication::translate("nb::ui", "above link speed: %1").arg(nb::formatPercent(pct));
}

QString linkSpeedText(double linkBitsPerSecond)
{
    if (!(linkBitsPerSecond > 0))
        return QCoreApplication::translate("nb::ui", "link speed unknown");
    // "1 Gbit/s", not "1.00 Gbit/s": a nominal speed is exact.
    const RateUnit unit = rateUnitFor(linkBitsPerSecond);
    return QCoreApplication::translate("nb::ui", "%1 %2 link").arg(axisTickLabel(linkBitsPerSecond, unit), unit.name);
}

} // namespace nb::ui
