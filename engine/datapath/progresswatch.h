// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// --rcv-timeout on either side: a test in which no data moves (no byte in either
// direction, no transaction) for the limit has stalled: a silent or vanished peer, a
// stalled server, a network partition. Fed a counter that only grows (StreamSet::progress).

#include <cstdint>

namespace nb {

class ProgressWatch {
public:
    explicit ProgressWatch(double limitSecs) : m_limit(limitSecs) {}
    // True once the counter has not changed for longer than the limit. The first call
    // starts the clock.
    bool stalled(std::uint64_t counter, double now)
    {
        if (m_since < 0 || counter != m_last) {
            m_last = counter;
            m_since = now;
            return false;
        }
        return now - m_since > m_limit;
    }
    double limitSecs() const { return m_limit; }

private:
    double m_limit;
    double m_since = -1;
    std::uint64_t m_last = 0;
};

} // namespace nb
