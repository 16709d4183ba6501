// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The latency axis of the live request/response charts (RrChart, LoadedLatencyChart): tick
// positions in µs, labels in the unit the axis shows (µs, ms), linear or logarithmic.

#include "common/rrformat.h"

#include <qcustomplot.h>

namespace nb::ui {

class LatencyAxisTicker : public QCPAxisTicker {
public:
    LatencyUnit unit;

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override { return latencyTickLabel(tick, unit); }
};

class LatencyAxisLogTicker : public QCPAxisTickerLog {
public:
    LatencyUnit unit;

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override { return latencyTickLabel(tick, unit); }
};

// Makes `axis` linear or logarithmic (its ticker follows) with a range up to a little above
// peakUs (a log axis starts at the power of ten below minUs) and the label "STEM (unit)" or
// "STEM (unit, log)".
void setLatencyAxis(QCPAxis *axis, bool log, double minUs, double peakUs, const QString &stem);

} // namespace nb::ui
