// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/sparkline.h"

#include "common/chartstyle.h"
#include "common/utilizationscale.h"

#include <QPainter>
#include <QPainterPath>

namespace nb::ui {

Sparkline::Sparkline(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
}

QSize Sparkline::sizeHint() const
{
    return QSize(fontMetrics().averageCharWidth() * 16, fontMetrics().height() * 2);
}

QSize Sparkline::minimumSizeHint() const
{
    return QSize(fontMetrics().averageCharWidth() * 8, fontMetrics().height() * 2);
}

void Sparkline::setData(const std::deque<RatePoint> &points, double linkBitsPerSecond, double seconds)
{
    m_seconds = seconds > 0 ? seconds : 60;
    m_send.clear();
    m_receive.clear();
    double peak = 0;
    if (!points.empty()) {
        const double newest = points.back().time;
        for (const RatePoint &p : points) {
            const double age = newest - p.time;
            if (age > m_seconds)
                continue;
            m_send.append(QPointF(age, p.sendBps));
            m_receive.append(QPointF(age, p.receiveBps));
            peak = std::max({peak, p.sendBps, p.receiveBps});
        }
    }
    // Task Manager's tiles scale to the recent peak, so light traffic shows as a curve.
    m_scale = utilizationAxisMax(peak, linkBitsPerSecond, UtilizationScale::RecentPeak);
    update();
}

void Sparkline::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    QColor frame = palette().color(QPalette::Text);
    frame.setAlpha(60);
    painter.setPen(QPen(frame, 1));
    painter.setBrush(palette().brush(QPalette::Base));
    painter.drawRect(r);

    auto path = [&](const QList<QPointF> &pts) {
        QPainterPath p;
        for (qsizetype i = 0; i < pts.size(); ++i) {
            const double x = r.right() - pts.at(i).x() / m_seconds * r.width();
            const double y = r.bottom() - std::min(pts.at(i).y() / m_scale, 1.0) * (r.height() - 2);
            if (i == 0)
                p.moveTo(x, y);
            else
                p.lineTo(x, y);
        }
        return p;
    };
    painter.setClipRect(r);
    painter.setBrush(Qt::NoBrush);
    QPen receive = receivePen(palette(), 1.3);
    painter.setPen(receive);
    painter.drawPath(path(m_receive));
    painter.setPen(sendPen(palette(), 1.5));
    painter.drawPath(path(m_send));
}

} // namespace nb::ui
