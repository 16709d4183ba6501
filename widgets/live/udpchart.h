// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A UDP stream test (iperf3 -u) as it runs, on one time axis: on top the rate each way,
// offered (what the sender sent, thin) and received (goodput, thick); below, the
// receiver's loss % (left axis) and jitter in ms (right axis). Each side sees live only
// what it measures itself: the client's own sending, and for -R / --bidir what it
// receives. What the server measured (the upload's received rate, loss and jitter; the
// download's sent rate) arrives with the results, and is drawn as a flat dash-dot (or dash-dot-dot) line
// over the whole test, named "(server)", once the test ends. One-way delay is not shown: it needs synchronized clocks.

#include "common/boundedgraph.h"

#include <model/results.h>

#include "live/livechart.h"

class QCustomPlot;
class QCPLegend;
class QCPAxisRect;
class QCPGraph;
class QCPItemText;

namespace nb::ui {

class UdpChart : public LiveChart {
    Q_OBJECT
public:
    explicit UdpChart(QWidget *parent = nullptr);

    void startTest(double plannedSeconds);
    void addInterval(const nb::IntervalReport &report);
    void addIntervals(const QList<nb::IntervalReport> &reports);
    // The test's result: the peer's whole-test figures for what this side could not see live.
    void finishTest(const nb::TestResult &result);
    void setPlaceholderText(const QString &text);

    int sampleCount() const { return m_samples; }
    QCustomPlot *plot() const { return m_plot; }
    // The graphs by what they show (for tests): direction (true: upload), and the figure.
    enum class Figure { Sent, Received, LossPercent, JitterMs };
    QCPGraph *graph(bool upload, Figure figure) const;

protected:
private:
    struct Direction {
        BoundedGraph sent, received, loss, jitter;
    };
    Direction &direction(bool upload) { return upload ? m_upload : m_download; }
    void addWholeTest(BoundedGraph &g, double value, double seconds);
    void applyPalette() override;
    void updateAxes();
    QString formatValue(const QCPGraph *graph, double value) const;

    QCustomPlot *m_plot;
    QCPAxisRect *m_rateRect;
    QCPAxisRect *m_lossRect;
    QCPLegend *m_lossLegend; // inside the lower pane: names its loss and jitter lines
    QCPItemText *m_placeholder;
    Direction m_upload, m_download;
    double m_planned = 10;
    double m_lastX = 0;
    double m_peakRate = 0;
    double m_peakLoss = 0;
    double m_peakJitter = 0;
    int m_samples = 0;
};

} // namespace nb::ui
