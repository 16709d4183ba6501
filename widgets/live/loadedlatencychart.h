// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A latency-under-load test as it runs: throughput per direction (upload solid, download
// dashed) on top and the probe's latency (p50 solid, p99 dotted) below, on one time axis,
// with each load phase shaded and labelled across both panes. The latency axis turns
// logarithmic when the test's largest p99 is more than 10 times its smallest p50 (idle and
// loaded latency often differ by orders of magnitude; RrChart looks at one interval).
// Hovering shows the phase and every value at the mouse's time.

#include "common/boundedgraph.h"

#include <model/results.h>
#include <model/testparams.h>

#include "live/livechart.h"
#include <QList>
#include <QRect>

class QCustomPlot;
class QCPAxisRect;
class QCPItemRect;
class QCPItemText;

namespace nb::ui {

class LoadedLatencyChart : public LiveChart {
    Q_OBJECT
public:
    explicit LoadedLatencyChart(QWidget *parent = nullptr);

    // Clears the chart and lays out the bands of the test's phases.
    void startTest(const nb::TestParams &params);
    void addInterval(const nb::IntervalReport &report);
    void addIntervals(const QList<nb::IntervalReport> &reports);
    void setPlaceholderText(const QString &text);

    int sampleCount() const { return m_samples; }
    QCustomPlot *plot() const { return m_plot; }
    QCPGraph *uploadGraph() const { return m_upload.graph; }
    QCPGraph *downloadGraph() const { return m_download.graph; }
    QCPGraph *p50Graph() const { return m_p50.graph; }
    QCPGraph *p99Graph() const { return m_p99.graph; }
    bool latencyAxisIsLog() const;
    QString latencyAxisLabel() const;

    // One shaded band per phase in each pane, one label per phase on top.
    int bandCount() const { return int(m_labels.size()); }
    QStringList bandLabels() const;
    // Where each shown label is drawn, in widget pixels (after a replot); hidden labels
    // (a phase too narrow for its name) are left out.
    QList<QRect> labelRects() const;
    // The hover text for a time in seconds: phase, throughput per direction, p50 and p99.
    QString textAt(double seconds) const;

protected:
private:
    void applyPalette() override;
    void updateAxes();
    void clearBands();
    void fitLabels();

    QCustomPlot *m_plot;
    QCPAxisRect *m_rateRect;
    QCPAxisRect *m_latencyRect;
    QCPItemText *m_placeholder;
    BoundedGraph m_upload;
    BoundedGraph m_download;
    BoundedGraph m_p50;
    BoundedGraph m_p99;
    nb::LoadSchedule m_schedule;
    QList<QCPItemRect *> m_bands; // two per phase: rate pane, latency pane
    QList<QCPItemText *> m_labels;
    double m_planned = 10;
    double m_lastX = 0;
    double m_peakRate = 0;
    double m_peakLatency = 0;
    double m_minLatency = 0;
    int m_samples = 0;
};

} // namespace nb::ui
