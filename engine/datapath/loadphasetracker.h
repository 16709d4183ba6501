// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One side's view of a latency-under-load test while it runs (TestSession owns it): which
// phase the clock is in, whether this side's senders send in it, and the sums of the
// intervals per phase. The client turns them into the LoadedLatencyResult; the server sends
// what its receivers got per phase (the upload figures) in its results.

#include "core/latencyhistogram.h"
#include "model/loadedlatency.h"
#include "model/loadschedule.h"
#include "model/results.h"

#include <QJsonObject>

#include <vector>

namespace nb {

class LoadPhaseTracker {
public:
    LoadPhaseTracker(LoadSchedule schedule, bool clientSide);

    const LoadSchedule &schedule() const { return m_schedule; }
    // Time zero, seconds on the session's clock.
    void start(double t0);
    // Absolute time of the next phase boundary (the end of the test after the last one).
    double nextBoundary() const { return m_t0 + m_schedule.nextBoundary(m_schedule.phaseStart(m_current)); }
    // Moves to the phase running at `now`; true when it changed (the caller gates the senders).
    bool advance(double now);
    int current() const { return m_current; }
    // Whether this side's senders send in the current phase.
    bool sendersActive() const;
    // An interval of this side: its bytes (and the probe's latency, on the client) go to the
    // phase its middle lies in. Intervals are cut at phase boundaries, so each lies in one.
    void addInterval(const IntervalReport &r, const LatencyHistogram &probe);

    // The server's results extension: bytes its receivers got and its seconds, per phase.
    QJsonObject serverJson() const;
    // The client's figures after the test. `server` is the server's extension (may be empty:
    // then upload is what the client sent); *warning says why it was not used when it was
    // malformed. *error (when given) says why it cannot be right: a phase in which the server
    // received more than the client sent in it and the phases either side (1% and
    // peer::ReceiveMargin on top), or counted bytes over less than half the phase's seconds.
    LoadedLatencyResult result(const TestParams &params, const QJsonObject &server, QString *warning,
                               QString *error = nullptr) const;

private:
    QString beyondWhatWasSent(const std::vector<double> &upBytes, const std::vector<double> &upSeconds) const;
    struct Sums {
        double seconds = 0;
        double firstStart = -1, lastEnd = 0;
        std::uint64_t sent = 0, received = 0;
        std::uint64_t transactions = 0;
        bool probe = false;
        LatencyHistogram latency; // ns
    };
    LoadSchedule m_schedule;
    bool m_client;
    double m_t0 = 0;
    int m_current = 0;
    std::vector<Sums> m_sums;
};

} // namespace nb
