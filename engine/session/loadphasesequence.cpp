// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/loadphasesequence.h"

#include "datapath/loadphasetracker.h"
#include "session/throughputclient.h"

#include <QDateTime>

#include <chrono>
#include <thread>

namespace nb {

namespace {

// Passes one phase's intervals and messages on, on the whole test's time line.
class PhaseForwarder : public TestListener {
public:
    PhaseForwarder(TestListener *target, double offset) : m_target(target), m_offset(offset) {}
    void intervalReady(const IntervalReport &report) override
    {
        IntervalReport r = report;
        for (StreamInterval &s : r.streams) {
            s.start += m_offset;
            s.end += m_offset;
        }
        intervals.append(r);
        if (m_target)
            m_target->intervalReady(r);
    }
    void message(const QString &text) override
    {
        if (m_target)
            m_target->message(text);
    }
    QList<IntervalReport> intervals;

private:
    TestListener *m_target;
    double m_offset;
};

// Waits out an idle phase; false when stopped.
bool waitIdle(double seconds, std::atomic<bool> *stop)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        if (stop->load())
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return true;
}

} // namespace

TestResult runLoadPhasesWithoutProbe(const TestParams &params, const QString &probeError, TestListener *listener,
                                     std::atomic<bool> *stop)
{
    TestResult result;
    result.params = params;
    result.params.password.clear();
    result.version = QStringLiteral(NICBENCH_VERSION);
    result.timestampSecs = QDateTime::currentSecsSinceEpoch();
    result.warnings.append(
        QStringLiteral("latency probe: %1; the load phases ran one by one without it").arg(probeError));
    if (listener) {
        listener->message(result.warnings.last());
        listener->testStarted(result);
    }
    const LoadSchedule schedule = params.loadSchedule();
    LoadedLatencyResult loaded;
    loaded.phaseSeconds = schedule.phaseSeconds();
    loaded.probeRequestSize = params.requestSize;
    loaded.probeResponseSize = params.responseSize;
    loaded.probeDscp = params.probeDscp;
    loaded.probeError = probeError;
    loaded.uploadMeasuredByReceiver = true;
    bool reached = false; // a load phase has connected to the server
    for (int i = 0; i < schedule.size() && result.error.isEmpty(); ++i) {
        const LoadPhase phase = schedule.phases()[i];
        LoadPhaseResult p;
        p.phase = phase;
        p.start = schedule.phaseStart(i);
        p.end = schedule.phaseEnd(i);
        if (phase == LoadPhase::Idle) {
            if (!waitIdle(schedule.phaseSeconds(), stop)) {
                result.error = QStringLiteral("stopped");
                result.errorCode = ErrorCode::Stopped;
            }
            loaded.phases.append(p);
            continue;
        }
        TestParams sub = params;
        sub.kind = TestKind::Stream;
        sub.duration = schedule.phaseSeconds();
        sub.direction = phase == LoadPhase::Download ? Direction::Download
                        : phase == LoadPhase::Upload ? Direction::Upload
                                                     : Direction::Bidirectional;
        PhaseForwarder forward(listener, p.start);
        TestResult r;
        // A stock server takes a moment after a test before it accepts the next one (longer
        // on a loaded machine): it answers busy, or, while iperf3 3.12 opens its listening
        // socket again, refuses the connection. Once a phase has reached this server, ask
        // again for up to 10 s.
        const auto busyDeadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        for (;;) {
            ThroughputClient client(sub, &forward);
            r = client.run();
            const bool between = r.errorCode == ErrorCode::Busy || (reached && r.errorCode == ErrorCode::Refused);
            if (!between || stop->load() || std::chrono::steady_clock::now() >= busyDeadline)
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        }
        result.intervals.append(forward.intervals);
        reached = reached || r.errorCode != ErrorCode::Refused;
        if (!r.ok()) {
            result.error = QStringLiteral("%1 phase: %2").arg(loadPhaseName(phase), r.error);
            result.errorCode = r.errorCode;
        }
        // The receivers' end figures, as iperf3 reports them.
        if (r.hasDirection(true))
            p.uploadBitsPerSecond = r.sum(true).receivedBitsPerSecond();
        if (r.hasDirection(false))
            p.downloadBitsPerSecond = r.sum(false).receivedBitsPerSecond();
        if (result.remoteVersion.isEmpty())
            result.remoteVersion = r.remoteVersion;
        result.connections.append(r.connections);
        loaded.phases.append(p);
    }
    result.loadedLatency = loaded;
    return result;
}

} // namespace nb
