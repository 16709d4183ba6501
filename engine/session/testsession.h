// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The measuring half of one test, the same on the client and the server: the data streams,
// CPU and adapter accounting, the interval ticks with the warm-up (omit), the final
// partial interval, and filling the result. The client and the server only add their
// side of the control protocol around it.

#include "datapath/datastream.h"
#include "datapath/loadphasetracker.h"
#include "datapath/streamset.h"
#include "model/results.h"
#include "model/testaccounting.h"
#include "model/testlistener.h"
#include "net/socket.h"
#include "platform/processcpu.h"

#include <optional>

namespace nb {

// Seconds on the steady clock: the one time base of a session.
double nowSecs();

// The data sockets' options as the parameters ask (-w, -M, -N, -C).
net::SocketOptions socketOptions(const TestParams &params);
// How each stream runs (block size, RR sizes, copy avoidance); the caller adds the byte
// budget and the CRR target where it has them.
DataStream::Config streamConfig(const TestParams &params);

class TestSession {
public:
    TestSession(const TestParams &params, TestResult *result, TestListener *listener);

    StreamSet &streams() { return m_streams; }
    const StreamSet &streams() const { return m_streams; }
    // Latency under load: the probe's connection (its own set and worker, so the load never
    // delays its turn) and the phases. The caller adds the probe stream before start().
    StreamSet &probe() { return m_probe; }
    void enableLoadPhases(bool clientSide);
    const LoadPhaseTracker *loadPhases() const { return m_phases ? &*m_phases : nullptr; }
    // Bytes and transactions of the load and the probe: what the --rcv-timeout watchdogs watch.
    std::uint64_t progress() const { return m_streams.progress() + m_probe.progress(); }
    const TestAccounting &accounting() const { return m_accounting; }
    bool started() const { return m_started; }

    // Time zero: CPU meters and adapter counters start (the adapter found from the first
    // data socket, else from fallback), the streams start, the listener hears of it.
    // Starts the streams on `threads` workers (0: one per core). Empty on success, else
    // why the data path could not start (the session is not started then).
    QString start(const DataStream::Config &config, const net::Socket &fallback, int threads);
    // The client ends a timed test: -t seconds after the warm-up. Without it the session
    // never ends by itself (the server waits for the client; -n ends with the senders).
    void endAfterWarmup(double seconds);
    bool timeUp(double now) const { return m_endAt > 0 && now >= m_endAt; }
    double endAt() const { return m_endAt; }

    double nextTick() const { return m_nextTick; }
    bool omitting() const { return m_omitting; }
    // An interval report at each tick (with CPU), the end of the warm-up at the tick that
    // reaches it (bytes, CPU and counters restart there), and the next tick.
    void tick(double now);
    // Stops the senders and closes the last partial interval; it is kept when it covers
    // a meaningful share of an interval. closeConnections closes the data connections
    // right after the counts are frozen (the server, before it sends its results).
    // Returns the end time.
    double endDataPhase(bool closeConnections);
    // This process's CPU since the start (or the end of the warm-up), also stored in the
    // result as the host figures.
    ProcessCpuMeter::Percent readProcessCpu();
    // Streams, request/response totals and accounting into the result; closes the
    // streams. Safe to call whether or not the session started.
    void finish();

private:
    void report(IntervalReport r);
    // The next tick: an interval later, never past the end, the warm-up's end or a phase boundary.
    void scheduleTick(double now);
    // The interval of the load and, with a probe, its transactions and latency (rr).
    IntervalReport takeInterval(double now);

    const TestParams &m_params;
    TestResult *m_result;
    TestListener *m_listener;
    StreamSet m_streams;
    StreamSet m_probe;
    std::optional<LoadPhaseTracker> m_phases;
    TestAccounting m_accounting;
    ProcessCpuMeter m_cpu;
    double m_omitEnd = 0;
    double m_nextTick = 0;
    double m_endAt = 0;
    double m_duration = 0;
    bool m_omitting = false;
    bool m_started = false;
};

} // namespace nb
