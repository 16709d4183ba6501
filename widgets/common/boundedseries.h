// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A time series with a fixed memory budget. When it is full it halves its resolution
// (adjacent points averaged) instead of dropping history, so an hour-long test still
// shows from start to end at a bounded cost, like a multi-resolution ring buffer.

#include <QList>
#include <QPointF>

namespace nb::ui {

class BoundedSeries {
public:
    enum class Change { None, Appended, Rebuilt };

    explicit BoundedSeries(int capacity = 2048);

    // Adds one sample. Appended: points().last() is new. Rebuilt: the whole list changed
    // (compaction). None: the sample is held until enough arrive for one coarse point.
    Change append(double x, double y);
    void clear();

    const QList<QPointF> &points() const { return m_points; }
    int capacity() const { return m_capacity; }
    // Samples merged into one point; doubles on every compaction.
    int stride() const { return m_stride; }
    double maxY() const { return m_maxY; }

private:
    void compact();

    int m_capacity;
    int m_stride = 1;
    QList<QPointF> m_points;
    double m_pendingSum = 0;
    int m_pendingCount = 0;
    double m_maxY = 0;
};

} // namespace nb::ui
