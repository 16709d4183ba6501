// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CPU during a test: this computer's system-wide busy % and the NicBench process live,
// and the server's busy % once the test ends and the server has reported it. All three
// are % of all cores of their machine, so the axis never passes 100% (iperf3 counts a
// process in % of one core: 200% on a busy 2-core machine; the tooltip still says that
// figure). Memory is bounded per series.

#include "common/boundedgraph.h"

#include <platform/cpumonitor.h>

#include "live/livechart.h"

class QCustomPlot;
class QCPItemText;

namespace nb::ui {

class CpuChart : public LiveChart {
    Q_OBJECT
public:
    explicit CpuChart(QWidget *parent = nullptr);

    // Clears the chart; plannedSeconds sets the time axis (0: unknown).
    void startTest(double plannedSeconds);
    // A local interval; offset shifts a follow-up test ("both") after the first one.
    void addSample(const nb::CpuSample &sample, double offsetSeconds = 0);
    // The server's intervals (or its whole-test figure when it sent no intervals).
    void setRemote(const QList<nb::CpuSample> &intervals, const nb::CpuSample &total, double offsetSeconds = 0);
    void setPlaceholderText(const QString &text);
    // The local lines are an agent's (a test run --from an agent): "Agent busy", not "Local
    // busy". startTest() sets it back to this computer.
    void setLocalIsAgent(bool agent);

    int sampleCount() const { return m_samples; }
    double axisMax() const;
    QString axisLabel() const;
    bool hasRemote() const;
    QCustomPlot *plot() const { return m_plot; }

protected:
private:
    void applyPalette() override;
    void updateAxes();
    void fitPlaceholder();

    QCustomPlot *m_plot;
    QCPItemText *m_placeholder;
    QString m_placeholderText; // as set; m_placeholder holds it wrapped to the axis rect
    BoundedGraph m_system;
    BoundedGraph m_process;
    BoundedGraph m_remote;
    double m_planned = 10;
    double m_lastX = 0;
    int m_cpuCount = 0; // of this computer, from the samples
    int m_samples = 0;
};

} // namespace nb::ui
