// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>

namespace nb {

// iperf3-compatible process CPU use: user and system time of this process as a percentage
// of one core over wall time since start(). (System-wide figures: see CpuMonitor.)
class ProcessCpuMeter {
public:
    struct Percent {
        double total = 0, user = 0, system = 0;
    };
    void start();
    Percent read() const;

private:
    std::chrono::steady_clock::time_point m_wall{};
    double m_user = 0, m_system = 0;
};

} // namespace nb
