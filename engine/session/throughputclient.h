// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/results.h"
#include "model/testlistener.h"

#include <atomic>

namespace nb {

// Runs one throughput test against an iperf3-protocol server (ours or stock iperf3) or a
// stock iperf2 server. run() blocks the calling thread (never call it on a GUI thread);
// requestStop() may be called from any thread and ends the test early, keeping what was
// measured.
class ThroughputClient {
public:
    explicit ThroughputClient(TestParams params, TestListener *listener = nullptr);
    TestResult run();
    void requestStop() { m_stop.store(true); }

private:
    TestParams m_params;
    TestListener *m_listener;
    std::atomic<bool> m_stop{false};
};

} // namespace nb
