// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pixel-free math for the Task Manager-style utilization view: percent of the link, the
// chart's axis end, and the "above link speed" note. Virtual adapters often move more
// than their nominal speed, so nothing here is clamped to 100%.

#include <QString>

namespace nb::ui {

// The rate that counts for a full-duplex link: the busier direction, in bit/s.
double busierDirection(double sendBitsPerSecond, double receiveBitsPerSecond);

// Percent of the link speed, not clamped (a "1 Gbit/s" E1000 moving 2.65 Gbit/s is 265%).
// -1 when the link speed is unknown (<= 0) or the rate is not a number.
double utilizationPercent(double bitsPerSecond, double linkBitsPerSecond);

// Upper end of the utilization chart, in bit/s. With a known link speed the axis is the
// link speed while the peak fits under it; above it, a nice number above the peak so the
// curve visibly goes past 100%. With an unknown speed the axis follows the observed peak
// (at least 1 Mbit/s, so an idle adapter shows a flat line rather than noise).
double utilizationAxisMax(double peakBitsPerSecond, double linkBitsPerSecond);

// What the top of the utilization chart means. RecentPeak, as Windows 10 Task Manager
// does, scales to the busiest moment in view so a 1% load still fills the graph;
// LinkSpeed keeps the top at the nominal link speed (the Windows 7 view).
enum class UtilizationScale { RecentPeak, LinkSpeed };

// Upper end of the utilization chart for the chosen scale. LinkSpeed is the function
// above. RecentPeak: a nice number a little above the peak, at least 100 Kbit/s so an
// idle adapter's noise stays small; past a known link speed both scales agree.
double utilizationAxisMax(double peakBitsPerSecond, double linkBitsPerSecond, UtilizationScale scale);

// The label at the chart's top right: "Max 1.2 Gbit/s", or "Link speed 10 Gbit/s" while a
// link-scaled axis ends at the link speed.
QString utilizationScaleText(double axisMaxBitsPerSecond, double linkBitsPerSecond, UtilizationScale scale);

// "peak" / "link", as stored in QSettings, and back (anything else: RecentPeak).
QString utilizationScaleKey(UtilizationScale scale);
UtilizationScale utilizationScaleFromKey(const QString &key);

// "above link speed: 265%" when the rate exceeds the link speed, else empty.
QString aboveLinkText(double bitsPerSecond, double linkBitsPerSecond);

// "10 Gbit/s link" or "link speed unknown".
QString linkSpeedText(double linkBitsPerSecond);

} // namespace nb::ui
