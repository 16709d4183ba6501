// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pixel-free sentences about UDP figures (iperf3 -u and UDP request/response), for the results
// summary: loss as iperf3 writes it (lost/total and %), jitter in ms, out-of-order counts.
// The numbers in them are written by core/format.h.
// One-way delay is never claimed: it needs synchronized clocks.

#include <model/results.h>

#include <QString>

namespace nb::ui {

// One direction of a UDP stream test: "lost 14/761 (1.8%), jitter 0.013 ms, 0 out of order".
QString udpDirectionText(const nb::DirectionSum &sum);
// UDP request/response: "3 of 91,011 requests (0.0033%) had no response within 1000 ms".
QString udpLostRequestsText(const nb::RrSummary &rr, int timeoutMs);

} // namespace nb::ui
