// SPDX-License-Identifier: GPL-3.0-or-later
#include "adapters/ratehistory.h"

#include <cmath>

namespace nb::ui {

RatePoint RateHistory::Bucket::average() const
{
    RatePoint p;
    if (count == 0)
        return p;
    p.time = sum.time / count;
    p.sendBps = sum.sendBps / count;
    p.receiveBps = sum.receiveBps / count;
    p.sendPps = sum.sendPps / count;
    p.receivePps = sum.receivePps / count;
    p.dropped = sum.dropped; // counts add up
    p.errors = sum.errors;
    return p;
}

void RateHistory::fold(std::deque<RatePoint> &into, Bucket &bucket, const RatePoint &point, double width)
{
    const double start = std::floor(point.time / width) * width;
    if (bucket.count > 0 && start != bucket.start) {
        into.push_back(bucket.average());
        bucket = Bucket{};
    }
    bucket.start = start;
    bucket.sum.time += point.time;
    bucket.sum.sendBps += point.sendBps;
    bucket.sum.receiveBps += point.receiveBps;
    bucket.sum.sendPps += point.sendPps;
    bucket.sum.receivePps += point.receivePps;
    bucket.sum.dropped += point.dropped;
    bucket.sum.errors += point.errors;
    ++bucket.count;
}

void RateHistory::add(const RatePoint &point)
{
    m_droppedTotal += point.dropped;
    m_errorsTotal += point.errors;
    m_fine.push_back(point);
    const double now = point.time;
    while (!m_fine.empty() && m_fine.front().time < now - kEverySampleSeconds) {
        fold(m_seconds, m_secondBucket, m_fine.front(), 1.0);
        m_fine.pop_front();
    }
    while (!m_seconds.empty() && m_seconds.front().time < now - kPerSecondSeconds) {
        fold(m_tens, m_tenBucket, m_seconds.front(), 10.0);
        m_seconds.pop_front();
    }
    while (!m_tens.empty() && m_tens.front().time < now - kPerTenSecondsSeconds)
        m_tens.pop_front();
}

std::vector<RatePoint> RateHistory::all() const
{
    std::vector<RatePoint> points;
    points.reserve(size());
    points.insert(points.end(), m_tens.begin(), m_tens.end());
    if (m_tenBucket.count > 0)
        points.push_back(m_tenBucket.average());
    points.insert(points.end(), m_seconds.begin(), m_seconds.end());
    if (m_secondBucket.count > 0)
        points.push_back(m_secondBucket.average());
    points.insert(points.end(), m_fine.begin(), m_fine.end());
    return points;
}

std::size_t RateHistory::size() const
{
    return m_tens.size() + m_seconds.size() + m_fine.size() + (m_tenBucket.count > 0 ? 1 : 0) +
           (m_secondBucket.count > 0 ? 1 : 0);
}

double RateHistory::oldestTime() const
{
    if (!m_tens.empty())
        return m_tens.front().time;
    if (m_tenBucket.count > 0)
        return m_tenBucket.average().time;
    if (!m_seconds.empty())
        return m_seconds.front().time;
    if (m_secondBucket.count > 0)
        return m_secondBucket.average().time;
    return m_fine.empty() ? -1 : m_fine.front().time;
}

} // namespace nb::ui
