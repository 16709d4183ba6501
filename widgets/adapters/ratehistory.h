// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One adapter's send and receive rates for the whole session, bounded (review M11: Task
// Manager keeps 60 s; we keep the session): every sample of the last minute (10 a second),
// one average a second up to an hour back, one per 10 s up to a day back, and nothing older.
// At most about 12,500 points (700 KB) per adapter, whatever the session's length.

#include <cstdint>
#include <deque>
#include <vector>

namespace nb::ui {

struct RatePoint {
    double time = 0;       // seconds since the monitor started (the middle of an average)
    double sendBps = 0;    // bit/s this adapter transmitted
    double receiveBps = 0; // bit/s it received
    double sendPps = 0;    // packets/s
    double receivePps = 0;
    double dropped = 0; // packets dropped (both ways) in this sample or average's span
    double errors = 0;  // packets with errors (both ways) likewise
};

class RateHistory {
public:
    static constexpr double kEverySampleSeconds = 60;
    static constexpr double kPerSecondSeconds = 3600;
    static constexpr double kPerTenSecondsSeconds = 86400;

    void add(const RatePoint &point);
    // The last minute, every sample, oldest first.
    const std::deque<RatePoint> &recent() const { return m_fine; }
    // Everything kept, oldest first: the averages, then the last minute's samples.
    std::vector<RatePoint> all() const;
    std::size_t size() const;
    // Dropped and error packets since the first sample (the averages count them all).
    double droppedTotal() const { return m_droppedTotal; }
    double errorsTotal() const { return m_errorsTotal; }
    // Time of the first sample still kept; -1 when empty.
    double oldestTime() const;

private:
    // Samples being averaged into one point of `width` seconds.
    struct Bucket {
        double start = -1;
        RatePoint sum;
        int count = 0;
        RatePoint average() const;
    };
    static void fold(std::deque<RatePoint> &into, Bucket &bucket, const RatePoint &point, double width);

    std::deque<RatePoint> m_fine;
    std::deque<RatePoint> m_seconds;
    std::deque<RatePoint> m_tens;
    Bucket m_secondBucket;
    Bucket m_tenBucket;
    double m_droppedTotal = 0;
    double m_errorsTotal = 0;
};

} // namespace nb::ui
