// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/testsession.h"

#include "model/peerresults.h"

#include <algorithm>
#include <chrono>

namespace nb {

double nowSecs()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

net::SocketOptions socketOptions(const TestParams &params)
{
    net::SocketOptions o;
    o.window = params.window;
    o.mss = params.mss;
    o.noDelay = params.noDelay;
    o.congestion = params.congestion;
    if (params.pacesTcp())
        o.pacingBytesPerSecond = params.bandwidth / 8;
    return o;
}

DataStream::Config streamConfig(const TestParams &params)
{
    DataStream::Config c;
    c.blockSize = params.blockSize;
    c.skipRxCopy = params.skipRxCopy;
    c.zeroCopy = params.zeroCopy;
    c.requestSize = params.requestSize;
    c.responseSize = params.responseSize;
    c.inFlight = params.inFlight;
    c.udpBitsPerSecond = double(params.bandwidth);
    c.udpPacingTimerNs = std::int64_t(params.pacingTimerUs) * 1000;
    c.udpWideCounters = params.udpCounters64;
    c.udpDontFragment = params.dontFragment;
    c.udpRrTimeoutNs = std::int64_t(params.udpRrTimeoutMs) * 1'000'000;
    return c;
}

TestSession::TestSession(const TestParams &params, TestResult *result, TestListener *listener)
    : m_params(params)
    , m_result(result)
    , m_listener(listener)
{
}

QString TestSession::start(const DataStream::Config &config, const net::Socket &fallback, int threads)
{
    const double t0 = nowSecs();
    m_cpu.start();
    m_accounting.begin(m_streams.empty() || !m_streams.at(0).socket().valid() ? fallback : m_streams.at(0).socket());
    m_streams.markStart(t0);
    DataStream::Config load = config;
    load.gated = m_phases.has_value();
    QString error = m_streams.startAll(load, threads);
    if (error.isEmpty() && !m_probe.empty()) {
        // One request in flight on its own worker: the probe measures the path, not a queue of its own.
        DataStream::Config probe = config;
        probe.inFlight = 1;
        probe.budget = nullptr;
        m_probe.markStart(t0);
        error = m_probe.startAll(probe, 1);
    }
    if (!error.isEmpty())
        return error;
    if (m_phases) {
        m_phases->start(t0);
        if (m_phases->sendersActive())
            m_streams.setSendersPaused(false);
    }
    m_started = true;
    m_omitting = m_params.omit > 0;
    m_omitEnd = t0 + m_params.omit;
    // Intervals restart at the end of the warm-up, as in iperf3.
    m_nextTick = t0 + (m_omitting ? std::min(m_params.interval, m_params.omit) : m_params.interval);
    if (m_phases)
        m_nextTick = std::min(m_nextTick, m_phases->nextBoundary());
    if (m_listener)
        m_listener->testStarted(*m_result);
    return {};
}

void TestSession::enableLoadPhases(bool clientSide)
{
    m_phases.emplace(m_params.loadSchedule(), clientSide);
}

IntervalReport TestSession::takeInterval(double now)
{
    IntervalReport r = m_streams.takeInterval(now, m_omitting);
    LatencyHistogram probeLatency;
    if (!m_probe.empty()) {
        const IntervalReport p = m_probe.takeInterval(now, m_omitting, &probeLatency);
        r.hasRr = p.hasRr;
        r.rr = p.rr;
    }
    if (m_phases)
        m_phases->addInterval(r, probeLatency);
    return r;
}

void TestSession::scheduleTick(double now)
{
    m_nextTick = m_omitting ? std::min(now + m_params.interval, m_omitEnd) : now + m_params.interval;
    if (m_endAt > 0)
        m_nextTick = std::min(m_nextTick, m_endAt);
    // After the last boundary there is none ahead: the test's end (client) or the client's TEST_END.
    if (m_phases && m_phases->nextBoundary() > now + 1e-6)
        m_nextTick = std::min(m_nextTick, m_phases->nextBoundary());
}

void TestSession::endAfterWarmup(double seconds)
{
    m_duration = seconds;
    m_endAt = m_omitEnd + seconds;
    m_nextTick = std::min(m_nextTick, m_endAt);
}

void TestSession::report(IntervalReport r)
{
    m_result->intervals.append(r);
    if (m_listener)
        m_listener->intervalReady(r);
}

void TestSession::tick(double now)
{
    IntervalReport r = takeInterval(now);
    r.hasCpu = true;
    r.cpu = m_accounting.sampleInterval();
    report(r);
    if (m_omitting && now >= m_omitEnd - 1e-6) {
        m_omitting = false;
        m_streams.markOmitEnd(now);
        m_cpu.start();
        m_accounting.restart();
        // Counting starts at this tick, which may come late on a busy machine: measure
        // the full -t from here.
        if (m_endAt > 0)
            m_endAt = now + m_duration;
    }
    // The phase changes at the tick that reaches its boundary: this side's senders follow.
    if (m_phases && m_phases->advance(now))
        m_streams.setSendersPaused(!m_phases->sendersActive());
    scheduleTick(now);
}

double TestSession::endDataPhase(bool closeConnections)
{
    const double end = nowSecs();
    m_streams.stopUdpCounting();
    m_streams.stopSenders();
    m_streams.freeze(end);
    if (!m_probe.empty()) {
        m_probe.stopSenders();
        m_probe.freeze(end);
    }
    IntervalReport last = takeInterval(end);
    if (closeConnections) {
        m_streams.abortAll();
        m_probe.abortAll();
    }
    const bool keepLast = !last.streams.isEmpty() && last.streams.first().seconds() > 0.05 * m_params.interval;
    if (keepLast) {
        last.hasCpu = true;
        last.cpu = m_accounting.sampleInterval();
    }
    m_accounting.end();
    if (keepLast)
        report(last);
    return end;
}

ProcessCpuMeter::Percent TestSession::readProcessCpu()
{
    const ProcessCpuMeter::Percent c = m_cpu.read();
    m_result->cpu.hostTotal = c.total;
    m_result->cpu.hostUser = c.user;
    m_result->cpu.hostSystem = c.system;
    return c;
}

void TestSession::finish()
{
    if (m_started) {
        m_streams.freeze(nowSecs());
        m_result->streams = m_streams.summaries();
        if (m_params.isRequestResponse()) {
            m_result->hasRr = true;
            m_result->rr = m_streams.rrSummary();
            m_result->rr.kind = m_params.kind;
        }
        m_result->computeStreamFairness();
        if (const std::uint64_t rejected = m_streams.udpRejected(); rejected > 0)
            m_result->warnings.append(QStringLiteral("dropped %1 UDP datagram(s) numbered beyond what the sender can "
                                                     "have sent: not the test's, counted in no figure")
                                          .arg(rejected));
        // A test that ran to its end with nothing moved is an error, not a figure of 0.
        if (const QString why = implausibleResult(*m_result); !why.isEmpty()) {
            m_result->error = why;
            m_result->errorCode = ErrorCode::NoData;
        }
        applyAccounting(m_accounting, m_result);
    }
    m_streams.abortAll();
    m_probe.abortAll();
}

} // namespace nb
