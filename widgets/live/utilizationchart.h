// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Task Manager's link graph: the last 60 seconds (or 10 min, 1 h, the whole session kept:
// setSpan; Ctrl+wheel and drag zoom and pan over it) of Send (solid) and Receive (dashed),
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
    // Replaces the data: points oldest first, the newest is "now" (AdapterMonitor's
    // sessionHistory: up to a day, coarser further back).
    void setHistory(std::vector<RatePoint> points);
    void setHistory(const std::deque<RatePoint> &points);
    // How far back the chart's own view reaches: 60 s (Task Manager's), 10 min, 1 h, or 0 for
    // everything kept. Ctrl+wheel and dragging go anywhere in between (ChartZoom).
    static constexpr double kSpans[] = {60, 600, 3600, 0};
    void setSpan(double seconds);
    double span() const { return m_span; }
    // "45 s", "5 min", "1 h 30 min": how long ago, on the axis and in the tooltip.
    static QString ageText(double seconds);
    static QString spanText(double seconds);

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
    // The user picked a span in the menu (not emitted by setSpan()).
    void spanChosen(double seconds);
    // Double-click on the graph: the panel shows the graph larger, or back to normal.
    void expandRequested();

protected:
private:
    void applyPalette() override;
    void addOverlays();
    void addChartActions();
    void updateAxes(double peak, double current);
    double peakBetween(double lower, double upper) const;

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
    double m_span = 60;
    double m_newest = 0;
    std::vector<RatePoint> m_points;
};

} // namespace nb::ui
