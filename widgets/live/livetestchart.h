// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Throughput over time while a test runs: total send (solid) and receive (dashed), and
// on demand one thin line per stream. Samples are buffered with a bounded memory budget
// and the plot is redrawn by a timer at most 30 times a second, never per sample. Each
// report of the totals is marked with a dot; the chart draws exactly the test's reports
// (no smoothing, no adapter counters, which count other traffic too): a finer live
// chart comes from a shorter report interval (-i 0.5).

#include "common/boundedseries.h"
#include "common/ratescale.h"

#include <model/results.h>

#include "live/livechart.h"
#include <QTimer>

#include <map>

class QCustomPlot;
class QCPGraph;
class QCPItemText;

namespace nb::ui {

class LiveTestChart : public LiveChart {
    Q_OBJECT
public:
    explicit LiveTestChart(QWidget *parent = nullptr);
    ~LiveTestChart() override;

    // Clears the chart for a new test; plannedSeconds sets the time axis (0: unknown).
    void startTest(double plannedSeconds);
    void addInterval(const nb::IntervalReport &report);
    void addIntervals(const QList<nb::IntervalReport> &reports);

    // Text in the middle of an empty chart.
    void setPlaceholderText(const QString &text);

    bool showsStreams() const { return m_showStreams; }
    void setShowStreams(bool show);

    // Samples received since startTest(), counting every stream and total.
    int sampleCount() const { return m_sampleCount; }
    // Largest total rate seen, in bit/s.
    double peakBitsPerSecond() const;
    RateUnit axisUnit() const { return m_unit; }
    QCustomPlot *plot() const { return m_plot; }

    // Per-series point budget; the default keeps an hour at 1 s intervals at full detail.
    void setSeriesCapacity(int points);

    // Data as CSV: time, then one column per visible series.
    QString toCsv() const;

protected:
private:
    struct Series {
        BoundedSeries data;
        QCPGraph *graph = nullptr;
        bool sender = true;
        int streamId = 0; // 0: total
    };

    Series &totalSeries(bool sender);
    Series &streamSeries(int id, bool sender);
    void push(Series &series, double x, double y);
    void ensureGraph(Series &series);
    void styleGraph(Series &series);
    void trimLegend();
    void updateAxes();
    void scheduleReplot();
    void replotNow();
    void applyPalette() override;

    QCustomPlot *m_plot;
    QCPItemText *m_placeholder = nullptr;
    QTimer m_replotTimer;
    bool m_dirty = false;
    int m_capacity = 3600;
    bool m_showStreams = false;
    double m_plannedSeconds = 10;
    double m_lastX = 0;
    int m_sampleCount = 0;
    RateUnit m_unit;
    // Totals keyed by direction (true: sent by this side), streams by (id, direction).
    // std::map keeps references stable and the order fixed for legend and CSV.
    std::map<bool, Series> m_totals;
    std::map<std::pair<int, bool>, Series> m_streams;
};

} // namespace nb::ui
