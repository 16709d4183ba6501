// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/boundedseries.h"

#include <algorithm>

namespace nb::ui {

BoundedSeries::BoundedSeries(int capacity) : m_capacity(std::max(capacity, 4))
{
    m_points.reserve(m_capacity);
}

BoundedSeries::Change BoundedSeries::append(double x, double y)
{
    m_pendingSum += y;
    ++m_pendingCount;
    if (m_pendingCount < m_stride)
        return Change::None;
    // A coarse point sits at the end of the time it covers, like an interval report.
    const QPointF point(x, m_pendingSum / m_pendingCount);
    m_pendingSum = 0;
    m_pendingCount = 0;
    m_points.append(point);
    m_maxY = std::max(m_maxY, point.y());
    if (m_points.size() <= m_capacity)
        return Change::Appended;
    compact();
    return Change::Rebuilt;
}

void BoundedSeries::compact()
{
    QList<QPointF> merged;
    merged.reserve(m_capacity);
    qsizetype i = 0;
    // An odd leftover at the start stays as it is; pairs after it are averaged so the
    // newest point keeps its time.
    if (m_points.size() % 2 != 0)
        merged.append(m_points.at(i++));
    for (; i + 1 < m_points.size(); i += 2) {
        const QPointF &a = m_points.at(i);
        const QPointF &b = m_points.at(i + 1);
        merged.append(QPointF(b.x(), (a.y() + b.y()) / 2));
    }
    m_points = std::move(merged);
    m_stride *= 2;
    m_maxY = 0;
    for (const QPointF &p : std::as_const(m_points))
        m_maxY = std::max(m_maxY, p.y());
}

void BoundedSeries::clear()
{
    m_points.clear();
    m_stride = 1;
    m_pendingSum = 0;
    m_pendingCount = 0;
    m_maxY = 0;
}

} // namespace nb::ui
