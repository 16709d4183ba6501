// SPDX-License-Identifier: GPL-3.0-or-later
#include "datapath/streamset.h"

#include "protocol/protocol.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <thread>

namespace nb {

void StreamSet::add(std::unique_ptr<DataStream> stream)
{
    Entry e;
    e.stream = std::move(stream);
    m_streams.push_back(std::move(e));
}

StreamSet::~StreamSet()
{
    m_pool.stop();
}

QString StreamSet::startAll(const DataStream::Config &config, int threads)
{
    std::vector<DataStream *> streams;
    streams.reserve(m_streams.size());
    for (Entry &e : m_streams) {
        e.stream->prepare(config);
        streams.push_back(e.stream.get());
    }
    QString error;
    if (!m_pool.start(streams, threads, &error))
        return error;
    return {};
}

void StreamSet::markStart(double now)
{
    m_start = m_countStart = m_lastTick = now;
}

void StreamSet::markOmitEnd(double now)
{
    m_countStart = now;
    m_pool.resetTotalLatency();
    for (Entry &e : m_streams) {
        e.omitBaseline = e.stream->bytes();
        e.transactionBaseline = e.stream->transactions();
        e.udpBaseline = udpCounts(e);
        net::TcpInfo ti;
        if (e.stream->isSender() && e.stream->tcpInfo(&ti))
            e.retransBaseline = ti.totalRetransmits;
    }
}

IntervalReport StreamSet::takeInterval(double now, bool omitted, LatencyHistogram *latency)
{
    IntervalReport r;
    if (isRequestResponse()) {
        r.hasRr = true;
        r.rr.start = m_lastTick - m_start;
        r.rr.end = now - m_start;
        for (Entry &e : m_streams) {
            const std::uint64_t t = e.frozen ? e.finalTransactions : e.stream->transactions();
            r.rr.transactions += t - e.lastTransactions;
            e.lastTransactions = t;
        }
        LatencyHistogram h = m_pool.takeIntervalLatency();
        r.rr.latencyUs = h.summary();
        if (latency)
            *latency = std::move(h);
    }
    for (Entry &e : m_streams) {
        StreamInterval s;
        s.id = e.stream->id();
        s.sender = e.stream->isSender();
        s.start = m_lastTick - m_start;
        s.end = now - m_start;
        const std::uint64_t b = e.frozen ? e.finalBytes : e.stream->bytes();
        s.bytes = b - e.lastBytes;
        e.lastBytes = b;
        s.omitted = omitted;
        fillUdpInterval(e, &s);
        net::TcpInfo ti;
        if (e.stream->tcpInfo(&ti)) {
            if (s.sender && ti.totalRetransmits >= 0) {
                s.retransmits = ti.totalRetransmits - e.lastRetrans;
                e.lastRetrans = ti.totalRetransmits;
            }
            s.cwndBytes = ti.cwndBytes;
            s.rttUs = ti.rttUs;
            s.rttVarUs = ti.rttVarUs;
            if (!omitted) {
                e.maxCwnd = std::max(e.maxCwnd, ti.cwndBytes);
                if (ti.rttUs > 0) {
                    e.maxRtt = std::max(e.maxRtt, ti.rttUs);
                    e.minRtt = e.minRtt < 0 ? ti.rttUs : std::min(e.minRtt, ti.rttUs);
                    e.rttSum += double(ti.rttUs);
                    ++e.rttCount;
                }
            }
        }
        r.streams.append(s);
    }
    m_lastTick = now;
    return r;
}

void StreamSet::freeze(double now)
{
    // The first call ends the test; later ones (on the way out, after the results exchange)
    // must not stretch its duration.
    if (m_frozen)
        return;
    m_frozen = true;
    m_end = now;
    if (isRequestResponse())
        m_finalLatency = m_pool.totalLatency();
    for (Entry &e : m_streams) {
        if (e.frozen)
            continue;
        e.finalBytes = e.stream->bytes();
        e.finalTransactions = e.stream->transactions();
        e.udpFinal = udpCounts(e);
        e.frozen = true;
        net::TcpInfo ti;
        if (e.stream->isSender() && e.stream->tcpInfo(&ti))
            e.finalRetrans = ti.totalRetransmits - e.retransBaseline;
    }
}

std::int64_t StreamSet::settleReceivers(int maxMs) const
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(maxMs);
    for (;;) {
        std::int64_t unread = 0;
        for (const Entry &e : m_streams) {
            if (e.stream->role() == DataStream::Role::Receiver && !e.stream->finished())
                unread += std::max<std::int64_t>(0, e.stream->unreadBytes());
        }
        if (unread == 0 || std::chrono::steady_clock::now() >= until)
            return unread;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

void StreamSet::stopSenders()
{
    m_pool.stopSenders();
}

void StreamSet::abortAll()
{
    m_pool.stop();
    for (Entry &e : m_streams)
        e.stream->abandon();
}

bool StreamSet::anySender() const
{
    return std::any_of(m_streams.begin(), m_streams.end(), [](const Entry &e) { return e.stream->isSender(); });
}

std::uint64_t StreamSet::receivedBytes() const
{
    std::uint64_t total = 0;
    for (const Entry &e : m_streams) {
        if (e.stream->role() == DataStream::Role::Receiver || e.stream->role() == DataStream::Role::UdpReceiver)
            total += e.stream->bytes();
    }
    return total;
}

std::uint64_t StreamSet::progress() const
{
    std::uint64_t total = 0;
    for (const Entry &e : m_streams)
        total += e.stream->bytes() + e.stream->transactions();
    return total;
}

std::uint64_t StreamSet::crrStrangers() const
{
    std::uint64_t total = 0;
    for (const Entry &e : m_streams)
        total += e.stream->strangers();
    return total;
}

bool StreamSet::allSendersFinished() const
{
    return std::all_of(m_streams.begin(), m_streams.end(),
                       [](const Entry &e) { return !e.stream->isSender() || e.stream->finished(); });
}

bool StreamSet::allFinished() const
{
    return std::all_of(m_streams.begin(), m_streams.end(), [](const Entry &e) { return e.stream->finished(); });
}

QString StreamSet::firstError() const
{
    for (const Entry &e : m_streams) {
        const QString err = e.stream->error();
        if (!err.isEmpty())
            return err;
    }
    return {};
}

QJsonObject StreamSet::resultsJson(double cpuTotal, double cpuUser, double cpuSystem, bool receiverOnly,
                                   const QString &congestion) const
{
    QJsonObject o;
    o.insert(QStringLiteral("cpu_util_total"), cpuTotal);
    o.insert(QStringLiteral("cpu_util_user"), cpuUser);
    o.insert(QStringLiteral("cpu_util_system"), cpuSystem);
    // iperf3's meaning: -1 this side only received, 1 its retransmit counts are real, 0 it
    // sent but its system cannot count them (no TCP_INFO), and the counts below say -1.
    bool countsKnown = false;
    for (const Entry &e : m_streams)
        countsKnown = countsKnown || (e.stream->isSender() && e.finalRetrans >= 0);
    o.insert(QStringLiteral("sender_has_retransmits"), receiverOnly ? -1 : (countsKnown ? 1 : 0));
    if (!congestion.isEmpty())
        o.insert(QStringLiteral("congestion_used"), congestion);
    QJsonArray arr;
    const double seconds = m_end - m_countStart;
    for (const Entry &e : m_streams) {
        QJsonObject s;
        s.insert(QStringLiteral("id"), e.stream->id());
        s.insert(QStringLiteral("bytes"), double(e.finalBytes - e.omitBaseline));
        s.insert(QStringLiteral("retransmits"), e.stream->isSender() ? double(e.finalRetrans) : -1.0);
        s.insert(QStringLiteral("jitter"), 0);
        s.insert(QStringLiteral("errors"), 0);
        s.insert(QStringLiteral("packets"), 0);
        s.insert(QStringLiteral("start_time"), 0);
        s.insert(QStringLiteral("end_time"), seconds);
        addUdpResults(e, &s);
        arr.append(s);
    }
    o.insert(QStringLiteral("streams"), arr);
    return o;
}

bool StreamSet::applyPeerResults(const QJsonObject &json, QString *error, PeerFigures *figures)
{
    // Only bulk data has one direction: the ends of a request/response stream both count
    // requests and responses, and the server may have answered more than we have read.
    QList<LocalStreamView> local;
    for (const Entry &e : m_streams) {
        const DataStream::Role role = e.stream->role();
        const bool udp = role == DataStream::Role::UdpSender || role == DataStream::Role::UdpReceiver;
        local.append({e.stream->id(), role == DataStream::Role::Sender || role == DataStream::Role::UdpSender,
                      e.frozen ? e.finalBytes : e.stream->bytes(), udp,
                      udp ? (e.frozen ? e.udpFinal : udpCounts(e)).packets : 0});
    }
    PeerFigures peer;
    if (!checkPeerResults(json, local, m_end - m_countStart, &peer, error))
        return false;
    QHash<int, Entry *> byId;
    byId.reserve(qsizetype(m_streams.size()));
    for (Entry &e : m_streams)
        byId.insert(e.stream->id(), &e);
    for (const PeerStreamFigures &f : peer.streams) {
        Entry *it = byId.value(f.id); // checkPeerResults found every id among ours
        it->peerBytes = f.bytes;
        it->peerRetrans = f.retransmits;
        it->peerSeconds = f.seconds;
        it->peerKnown = true;
        it->peerUdp = f;
    }
    if (figures)
        *figures = peer;
    return true;
}

QList<StreamSummary> StreamSet::summaries() const
{
    QList<StreamSummary> out;
    const double localSeconds = m_end - m_countStart;
    for (const Entry &e : m_streams) {
        StreamSummary s;
        s.id = e.stream->id();
        s.sender = e.stream->isSender();
        const std::uint64_t local = e.finalBytes - e.omitBaseline;
        const double peerSeconds = e.peerKnown && e.peerSeconds > 0 ? e.peerSeconds : localSeconds;
        if (s.sender) {
            s.bytesSent = local;
            s.seconds = localSeconds;
            s.bytesReceived = e.peerKnown ? e.peerBytes : 0;
            s.receiverSeconds = peerSeconds;
            s.retransmits = e.finalRetrans;
            s.maxCwndBytes = e.maxCwnd;
            s.maxRttUs = e.maxRtt;
            s.minRttUs = e.minRtt;
            s.meanRttUs = e.rttCount ? std::int64_t(e.rttSum / e.rttCount) : -1;
        } else {
            s.bytesReceived = local;
            s.receiverSeconds = localSeconds;
            s.bytesSent = e.peerKnown ? e.peerBytes : local;
            s.seconds = peerSeconds;
            s.retransmits = e.peerKnown ? e.peerRetrans : -1;
        }
        fillUdpSummary(e, &s);
        out.append(s);
    }
    return out;
}

} // namespace nb

namespace nb {

bool StreamSet::isRequestResponse() const
{
    return !m_streams.empty() && m_streams.front().stream->isRequestResponse();
}

RrSummary StreamSet::rrSummary() const
{
    RrSummary r;
    r.seconds = m_end - m_countStart;
    r.connections = 0;
    QList<double> perConnection;
    for (const Entry &e : m_streams) {
        if (e.stream->role() == DataStream::Role::RrClient || e.stream->role() == DataStream::Role::CrrClient ||
            e.stream->role() == DataStream::Role::RrServer || e.stream->isUdp())
            ++r.connections;
        if (e.stream->role() == DataStream::Role::UdpRrClient)
            r.udpLost = r.udpLost.value_or(0) + (e.udpFinal.lost - e.udpBaseline.lost);
        r.transactions += e.finalTransactions - e.transactionBaseline;
        // CRR server streams are listeners (or placeholders), not connections.
        if (e.stream->role() != DataStream::Role::CrrServer)
            perConnection.append(double(e.finalTransactions - e.transactionBaseline));
    }
    r.histogram = m_finalLatency;
    r.latencyUs = r.histogram.summary();
    if (!perConnection.isEmpty())
        r.fairness = FlowSpread::fromSamples(perConnection);
    return r;
}

} // namespace nb
