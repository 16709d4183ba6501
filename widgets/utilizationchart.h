// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Task Manager's link graph: the last 60 seconds of Send (solid) and Receive (dashed),
// scaled to the link speed, or to the observed peak when the speed is unknown. When the
// rate passes the nominal speed (virtual adapters do) the axis grows past 100%, a line
// marks the link speed and a note says by how much.

#include "adaptermonitor.h"

#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace nb::ui {

class UtilizationChart : public QWidget {
    Q_OBJECT
public:
    explicit UtilizationChart(QWidget *parent = nullptr);

    // bit/s; <= 0 when unknown.
    void setLinkSpeed(double linkBitsPerSecond);
    double linkSpeed() const { return m_link; }
    // Replaces the shown data: points oldest first, the newest is "now".
    void setHistory(const std::deque<RatePoint> &points);

    double axisMax() const { return m_axisMax; }
    // The "above link speed: 265%" note, empty while the rate fits the link.
    QString noteText() const;
    QCustomPlot *plot() const { return m_plot; }
    QString toCsv() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyPalette();
    void updateAxes(double peak, double current);

    QCustomPlot *m_plot;
    QCPGraph *m_send;
    QCPGraph *m_receive;
    QCPItemStraightLine *m_linkLine;
    QCPItemText *m_linkLabel;
    QCPItemText *m_note;
    double m_link = -1;
    double m_axisMax = 1e6;
};

} // namespace nb::ui
