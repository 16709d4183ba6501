// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A request/response test as it runs: transactions per second on top, latency
// percentiles (p50 solid, p90 dashed, p99 dotted) below, on one time axis. The latency
// axis is in µs, or ms once the peak passes 1000 µs, and logarithmic when asked or, by
// default, when one interval's p99 is more than 10 times its p50 (a linear axis would
// flatten p50 and p90 to the floor under one p99 spike).

#include "common/boundedgraph.h"

#include <model/results.h>

#include "live/livechart.h"

class QCustomPlot;
class QCPAxisRect;
class QCPItemText;

namespace nb::ui {

class RrChart : public LiveChart {
    Q_OBJECT
public:
    // How the latency axis is scaled; Automatic is logarithmic for skewed latencies.
    enum class LatencyScale { Automatic, Linear, Logarithmic };
    Q_ENUM(LatencyScale)
    // QSettings key of the user's choice.
    static constexpr const char *kScaleKey = "rrChart/latencyScale";

    explicit RrChart(QWidget *parent = nullptr);

    LatencyScale latencyScale() const { return m_scale; }
    // Also remembers the choice (kScaleKey).
    void setLatencyScale(LatencyScale scale);
    // Whether the axis is logarithmic now (the automatic choice resolved).
    bool latencyAxisIsLog() const;
    QString latencyAxisLabel() const;
    // Largest p99/p50 of one interval so far; what the automatic choice looks at.
    double latencySkew() const { return m_skew; }

    void startTest(double plannedSeconds);
    void addInterval(const nb::IntervalReport &report);
    void addIntervals(const QList<nb::IntervalReport> &reports);
    void setPlaceholderText(const QString &text);

    int sampleCount() const { return m_samples; }
    QCustomPlot *plot() const { return m_plot; }

protected:
private:
    void applyPalette() override;
    void updateAxes();

    QCustomPlot *m_plot;
    QCPAxisRect *m_rateRect;
    QCPAxisRect *m_latencyRect;
    QCPItemText *m_placeholder;
    BoundedGraph m_rate;
    BoundedGraph m_p50;
    BoundedGraph m_p90;
    BoundedGraph m_p99;
    double m_planned = 10;
    double m_lastX = 0;
    double m_peakRate = 0;
    double m_peakLatency = 0;
    double m_minLatency = 0; // smallest positive p50, for the log axis's lower end
    double m_skew = 0;
    int m_samples = 0;
    LatencyScale m_scale = LatencyScale::Automatic;
};

} // namespace nb::ui
