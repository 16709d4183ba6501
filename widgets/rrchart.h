// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A request/response test as it runs: transactions per second on top, latency
// percentiles (p50 solid, p90 dashed, p99 dotted) below, on one time axis.

#include "boundedgraph.h"

#include <test/results.h>

#include <QWidget>

class QCustomPlot;
class QCPAxisRect;
class QCPItemText;

namespace nb::ui {

class RrChart : public QWidget {
    Q_OBJECT
public:
    explicit RrChart(QWidget *parent = nullptr);

    void startTest(double plannedSeconds);
    void addInterval(const nb::IntervalReport &report);
    void addIntervals(const QList<nb::IntervalReport> &reports);
    void setPlaceholderText(const QString &text);

    int sampleCount() const { return m_samples; }
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();
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
    int m_samples = 0;
};

} // namespace nb::ui
