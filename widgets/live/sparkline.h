// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A small send (solid) / receive (dashed) graph for an adapter tile. Painted directly:
// a tile repaints ten times a second and a full plot widget per tile would cost more.

#include "adapters/adaptermonitor.h"

#include <QWidget>

namespace nb::ui {

class Sparkline : public QWidget {
    Q_OBJECT
public:
    explicit Sparkline(QWidget *parent = nullptr);

    // Points oldest first; the graph spans `seconds` ending at the newest point, scaled
    // to the peak in view (utilizationAxisMax, RecentPeak), as Task Manager's tiles are.
    void setData(const std::deque<RatePoint> &points, double linkBitsPerSecond, double seconds = 60);
    double scaleMax() const { return m_scale; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<QPointF> m_send; // (seconds before newest, bit/s)
    QList<QPointF> m_receive;
    double m_seconds = 60;
    double m_scale = 1;
};

} // namespace nb::ui
