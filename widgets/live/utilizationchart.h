// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Task Manager's link graph: the last 60 seconds of Send (solid) and Receive (dashed),
// scaled to the recent peak (Windows 10 Task Manager, the default) or to the link speed;
// the top right says which ("Max 1.2 Gbit/s"). With an unknown link speed it is always
// the peak. When the rate passes the nominal speed (virtual adapters do) the axis grows
// past 100%, a line marks the link speed and a note says by how much. The right-click menu
// switches the scale; a double-click asks for a larger graph (expandRequested).

#include "adapters/adaptermonitor.h"
#include "common/utilizationscale.h"

#include "live/livechart.h"

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;

namespace nb::ui {

class UtilizationChart : public LiveChart {
    Q_OBJECT
public:
    explicit UtilizationChart(QWidget *parent = nullptr);

    // bit/s; <= 0 when unknown.
    void setLinkSpeed(double linkBitsPerSecond);
    double linkSpeed() const { return m_link; }
    // Replaces the shown data: points oldest first, the newest is "now".
    void setHistory(const std::deque<RatePoint> &points);

    UtilizationScale scale() const { return m_scale; }
    void setScale(UtilizationScale scale);
    // "Max 120 Mbit/s" / "Link speed 10 Gbit/s": the label at the top right.
    QString scaleText() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    double axisMax() const { return m_axisMax; }
    // The "above link speed: 265%" note, empty while the rate fits the link.
    QString noteText() const;
    QCustomPlot *plot() const { return m_plot; }
    QString toCsv() const;

Q_SIGNALS:
    // The user picked a scale in the menu (not emitted by setScale()).
    void scaleChosen(nb::ui::UtilizationScale scale);
    // Double-click on the graph: the panel shows the graph larger, or back to normal.
    void expandRequested();

protected:
private:
    void applyPalette() override;
    void addOverlays();
    void addChartActions();
    void updateAxes(double peak, double current);

    QCustomPlot *m_plot;
    QCPGraph *m_send;
    QCPGraph *m_receive;
    QCPItemStraightLine *m_linkLine;
    QCPItemText *m_linkLabel;
    QCPItemText *m_note;
    QCPTextElement *m_scaleLabel;
    UtilizationScale m_scale = UtilizationScale::RecentPeak;
    double m_peak = 0;
    double m_current = 0;
    double m_link = -1;
    double m_axisMax = 1e6;
};

} // namespace nb::ui
