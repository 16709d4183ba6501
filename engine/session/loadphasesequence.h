// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Latency under load against a stock iperf3 server, which has no request/response and
// cannot gate its senders by phase: the load phases run one after the other as ordinary
// tests (download as -R, both as --bidir; idle phases wait), without the probe.

#include "model/results.h"
#include "model/testlistener.h"

#include <atomic>

namespace nb {

// params: normalized latency-under-load parameters; probeError: why the probe did not run.
// The listener hears of one test (started, intervals on one time line, finished by the caller).
TestResult runLoadPhasesWithoutProbe(const TestParams &params, const QString &probeError, TestListener *listener,
                                     std::atomic<bool> *stop);

} // namespace nb
