// SPDX-License-Identifier: GPL-3.0-or-later
#include "datapath/loadphasetracker.h"

#include "model/peerresults.h"

#include "core/jsonfields.h"

#include <QJsonArray>

#include <cmath>

namespace nb {

LoadPhaseTracker::LoadPhaseTracker(LoadSchedule schedule, bool clientSide)
    : m_schedule(std::move(schedule))
    , m_client(clientSide)
    , m_sums(std::size_t(std::max(1, m_schedule.size())))
{
}

void LoadPhaseTracker::start(double t0)
{
    m_t0 = t0;
    m_current = 0;
}

bool LoadPhaseTracker::advance(double now)
{
    // A boundary reached a hair early by the tick still counts as reached.
    const int phase = m_schedule.phaseAt(now - m_t0 + 1e-6);
    if (phase == m_current)
        return false;
    m_current = phase;
    return true;
}

bool LoadPhaseTracker::sendersActive() const
{
    if (m_schedule.size() == 0)
        return false;
    const LoadPhase p = m_schedule.phases()[m_current];
    return m_client ? clientSendsIn(p) : serverSendsIn(p);
}

void LoadPhaseTracker::addInterval(const IntervalReport &r, const LatencyHistogram &probe)
{
    if (r.streams.isEmpty() && !r.hasRr)
        return;
    const double start = r.streams.isEmpty() ? r.rr.start : r.streams.first().start;
    const double end = r.streams.isEmpty() ? r.rr.end : r.streams.first().end;
    if (end <= start)
        return;
    Sums &s = m_sums[std::size_t(m_schedule.phaseAt((start + end) / 2))];
    s.seconds += end - start;
    if (s.firstStart < 0)
        s.firstStart = start;
    s.lastEnd = end;
    for (const StreamInterval &i : r.streams)
        (i.sender ? s.sent : s.received) += i.bytes;
    if (r.hasRr) {
        s.probe = true;
        s.transactions += r.rr.transactions;
        s.latency.merge(probe);
    }
}

QJsonObject LoadPhaseTracker::serverJson() const
{
    QJsonArray received, seconds;
    for (const Sums &s : m_sums) {
        received.append(double(s.received));
        seconds.append(s.seconds);
    }
    QJsonObject o;
    o.insert(QStringLiteral("received_bytes"), received);
    o.insert(QStringLiteral("seconds"), seconds);
    return o;
}

namespace {

// The server's per-phase upload figures, when they are there and sound: one pair per phase,
// finite, non-negative, no phase longer than the test and no rate above 1 TB/s.
bool serverPhaseBytes(const QJsonObject &server, int phases, double maxSeconds, std::vector<double> *bytes,
                      std::vector<double> *seconds, QString *why)
{
    const QJsonArray b = server.value(QStringLiteral("received_bytes")).toArray();
    const QJsonArray s = server.value(QStringLiteral("seconds")).toArray();
    if (b.size() != phases || s.size() != phases) {
        *why = QStringLiteral("the server's per-phase figures do not match the %1 phases").arg(phases);
        return false;
    }
    for (int i = 0; i < phases; ++i) {
        const double by = b[i].toDouble(-1), sec = s[i].toDouble(-1);
        if (!std::isfinite(by) || !std::isfinite(sec) || by < 0 || sec < 0 || sec > maxSeconds ||
            (sec > 0 && by * 8 / sec > 8e12)) {
            *why = QStringLiteral("the server's figures for phase %1 cannot be right").arg(i + 1);
            return false;
        }
        bytes->push_back(by);
        seconds->push_back(sec);
    }
    return true;
}

} // namespace

// A phase's receipts are bounded by what was sent in it and the phases either side: bytes in
// flight at a boundary arrive in the next phase, and the two ends keep the schedule on their
// own clocks, the server's a little behind the client's or ahead of it (a server that cut its
// interval a few ms late on a busy machine counted 17 MB of a loopback upload in the download
// phase before it).
QString LoadPhaseTracker::beyondWhatWasSent(const std::vector<double> &upBytes,
                                            const std::vector<double> &upSeconds) const
{
    for (std::size_t i = 0; i < m_sums.size() && i < upBytes.size(); ++i) {
        const double sent = double(m_sums[i].sent) + (i > 0 ? double(m_sums[i - 1].sent) : 0) +
                            (i + 1 < m_sums.size() ? double(m_sums[i + 1].sent) : 0);
        const double most = sent * 1.01 + double(peer::ReceiveMargin);
        const double phaseSeconds = m_sums[i].seconds;
        if (upBytes[i] > most)
            return QStringLiteral("the peer's results cannot be right: in phase %1 the server received %2 bytes, "
                                  "the client sent %3")
                .arg(i + 1)
                .arg(upBytes[i], 0, 'f', 0)
                .arg(sent, 0, 'f', 0);
        if (upBytes[i] > double(peer::ReceiveMargin) && phaseSeconds > 1 && upSeconds[i] < phaseSeconds / 2)
            return QStringLiteral("the peer's results cannot be right: in phase %1 the server counted its bytes over "
                                  "%2 s of a %3 s phase")
                .arg(i + 1)
                .arg(upSeconds[i])
                .arg(phaseSeconds);
    }
    return {};
}

LoadedLatencyResult LoadPhaseTracker::result(const TestParams &params, const QJsonObject &server, QString *warning,
                                             QString *error) const
{
    LoadedLatencyResult r;
    r.phaseSeconds = m_schedule.phaseSeconds();
    r.probeRequestSize = params.requestSize;
    r.probeResponseSize = params.responseSize;
    r.probeDscp = params.probeDscp;
    std::vector<double> upBytes, upSeconds;
    if (!server.isEmpty()) {
        QString why;
        r.uploadMeasuredByReceiver =
            serverPhaseBytes(server, m_schedule.size(), m_schedule.total() + 60, &upBytes, &upSeconds, &why);
        if (!r.uploadMeasuredByReceiver && warning)
            *warning = why + QStringLiteral("; upload figures are the bytes this side sent");
        if (r.uploadMeasuredByReceiver && error)
            *error = beyondWhatWasSent(upBytes, upSeconds);
    }
    for (int i = 0; i < m_schedule.size(); ++i) {
        const Sums &s = m_sums[std::size_t(i)];
        LoadPhaseResult p;
        p.phase = m_schedule.phases()[i];
        p.start = s.firstStart >= 0 ? s.firstStart : m_schedule.phaseStart(i);
        p.end = s.firstStart >= 0 ? s.lastEnd : p.start;
        p.downloadBitsPerSecond = s.seconds > 0 ? double(s.received) * 8 / s.seconds : 0;
        if (r.uploadMeasuredByReceiver)
            p.uploadBitsPerSecond =
                upSeconds[std::size_t(i)] > 0 ? upBytes[std::size_t(i)] * 8 / upSeconds[std::size_t(i)] : 0;
        else
            p.uploadBitsPerSecond = s.seconds > 0 ? double(s.sent) * 8 / s.seconds : 0;
        p.hasProbe = s.probe;
        p.transactions = s.transactions;
        if (s.probe)
            p.latencyUs = s.latency.summary(); // the histogram counts ns; its summary says µs
        r.phases.append(p);
    }
    return r;
}

} // namespace nb
