// SPDX-License-Identifier: GPL-3.0-or-later
// DataStream: its life (begin, the worker's calls, stop, errors), bulk data (sender and
// receiver) and the hand-over to UdpFlow for the UDP roles. Request/response and CRR are in
// datastream_rr.cpp.
#include "datapath/datastream.h"

#include "datapath/datastream_p.h"
#include "net/connect.h"
#include "net/io.h"

#include <QRandomGenerator>

#include <algorithm>
#include <cstring>

namespace nb {

namespace {

// RR bytes in flight up to which one RR stream may be driven by blocking calls.
constexpr std::uint64_t BlockingRrMaxInFlightBytes = 64 * 1024;
// A stream driven by blocking calls gets its socket timeouts set to this.
constexpr int BlockingSliceMs = 10;

} // namespace

QString streamText(const DataStream &s)
{
    return s.isRequestResponse() ? QStringLiteral("connection %1").arg(s.id())
                                 : QStringLiteral("stream %1").arg(s.id());
}

DataStream::DataStream(int id, Role role, net::Socket socket) : m_id(id), m_role(role), m_socket(std::move(socket)) {}

DataStream::~DataStream() = default;

QString DataStream::error() const
{
    std::lock_guard lock(m_errorMutex);
    return m_error;
}

void DataStream::setError(const QString &e)
{
    std::lock_guard lock(m_errorMutex);
    if (m_error.isEmpty())
        m_error = e;
}

void DataStream::countTransactions(std::uint64_t n)
{
    add(m_transactions, n);
    add(m_bytes, n * (std::uint64_t(m_config.requestSize) + m_config.responseSize));
}

void DataStream::setInterest(Worker &w, const net::Socket &s, unsigned interest)
{
    if (m_blocking || interest == m_interest)
        return;
    if (interest == 0)
        w.poller().remove(s);
    else if (m_interest == 0)
        w.poller().add(s, this, interest);
    else
        w.poller().modify(s, this, interest);
    m_interest = interest;
}

bool DataStream::canRunBlocking() const
{
    // A datagram moves whole or not at all, so UDP has no partial-transfer concern; a paced
    // sender alone on its worker sleeps in it until its next burst.
    if (isUdp())
        return true;
    if (!net::TimedOutCallsAreExact)
        return false;
    switch (m_role) {
    case Role::Sender:
        return !m_config.gated;
    case Role::Receiver:
        return true;
    case Role::RrClient:
    case Role::RrServer:
        return std::uint64_t(std::max(1, m_config.inFlight)) * std::max(m_config.requestSize, m_config.responseSize) <=
               BlockingRrMaxInFlightBytes;
    case Role::CrrClient:
    case Role::CrrServer:
    case Role::UdpSender:
    case Role::UdpReceiver:
    case Role::UdpRrClient:
    case Role::UdpRrServer:
        break;
    }
    return false;
}

void DataStream::prepareSocket()
{
    // Blocking calls come back this often to let the worker run its commands.
    if (m_blocking)
        net::setTimeouts(m_socket, BlockingSliceMs, BlockingSliceMs);
    else
        net::setNonBlocking(m_socket);
}

void DataStream::begin(Worker &w, bool blocking)
{
    m_blocking = blocking && canRunBlocking();
    const std::uint32_t req = std::max<std::uint32_t>(1, m_config.requestSize);
    const std::uint32_t resp = std::max<std::uint32_t>(1, m_config.responseSize);
    m_config.requestSize = req;
    m_config.responseSize = resp;
    const auto inFlight = std::uint64_t(std::max(1, m_config.inFlight));
    switch (m_role) {
    case Role::Sender:
        beginSender();
        prepareSocket();
        m_paused = m_config.gated;
        setInterest(w, m_socket, m_paused ? 0u : unsigned(net::Writable));
        break;
    case Role::Receiver:
        m_rxSize = m_config.skipRxCopy ? std::max<std::size_t>(m_config.blockSize, 1u << 20) : m_config.blockSize;
        prepareSocket();
        setInterest(w, m_socket, net::Readable);
        break;
    case Role::RrClient:
        m_txBuffer.assign(std::size_t(std::min<std::uint64_t>(req * inFlight, RrChunk)), 'q');
        m_sentAt.assign(std::size_t(inFlight), 0);
        net::setNoDelay(m_socket);
        prepareSocket();
        for (std::uint64_t i = 0; i < inFlight; ++i)
            queueRequest(Worker::nowNs());
        flush(w, m_socket);
        break;
    case Role::RrServer:
        m_txBuffer.assign(std::size_t(std::min<std::uint64_t>(resp * inFlight, RrChunk)), 'r');
        net::setNoDelay(m_socket);
        prepareSocket();
        setInterest(w, m_socket, net::Readable);
        break;
    case Role::CrrClient:
        // The token and the request leave in one send (one segment when they fit).
        m_txBuffer.assign(std::size_t(std::min<std::uint64_t>(req, RrChunk)), 'q');
        m_txBuffer.insert(m_txBuffer.begin(), m_config.crrToken.begin(), m_config.crrToken.end());
        if (!m_config.crrBindAddress.isEmpty())
            m_crrLocal = net::localAddressFor(m_config.crrBindAddress, m_config.crrTarget.family());
        startTransaction(w);
        break;
    case Role::CrrServer:
        if (!m_socket.valid())
            break; // a placeholder: another stream on this worker listens
        m_txBuffer.assign(std::size_t(std::min<std::uint64_t>(resp, RrChunk)), 'r');
        net::setNonBlocking(m_socket);
        net::setNoDelay(m_socket); // inherited by every accepted connection
        setInterest(w, m_socket, net::Readable);
        break;
    case Role::UdpSender:
    case Role::UdpReceiver:
    case Role::UdpRrClient:
    case Role::UdpRrServer: {
        UdpFlow::Settings u;
        u.sender = m_role == Role::UdpSender || m_role == Role::UdpRrClient;
        u.rr = m_role == Role::UdpRrClient || m_role == Role::UdpRrServer;
        u.requestSize = req;
        u.responseSize = resp;
        u.inFlight = int(inFlight);
        u.rrTimeoutNs = m_config.udpRrTimeoutNs;
        u.datagramBytes = m_config.blockSize;
        u.bitsPerSecond = m_config.udpBitsPerSecond;
        u.pacingTimerNs = m_config.udpPacingTimerNs;
        u.wideCounters = m_config.udpWideCounters;
        u.dontFragment = m_config.udpDontFragment;
        u.budget = m_config.budget;
        m_udp = std::make_unique<UdpFlow>(u);
        m_udp->begin(Worker::nowNs());
        m_udpReady.store(true);
        prepareSocket();
        setInterest(w, m_socket, u.sender && !u.rr ? net::Writable : net::Readable);
        // A request/response client sharing its worker waits to read, so its first requests
        // go now (driven by blocking calls, its loop sends them).
        if (!m_blocking && u.sender && u.rr)
            onUdpReady(w);
        break;
    }
    }
}

void DataStream::onReady(Worker &w, unsigned ready)
{
    if (m_finished.load(std::memory_order_relaxed))
        return;
    switch (m_role) {
    case Role::Sender:
        onSendable(w);
        break;
    case Role::Receiver:
        onReceivable(w);
        break;
    case Role::RrClient:
    case Role::RrServer:
        if ((ready & net::Writable) && !flush(w, m_socket))
            return;
        if (ready & (net::Readable | net::Hangup | net::Failed))
            onRrReadable(w);
        break;
    case Role::CrrClient:
        onCrrClientReady(w, ready);
        break;
    case Role::CrrServer:
        onAccept(w);
        break;
    case Role::UdpSender:
    case Role::UdpReceiver:
    case Role::UdpRrClient:
    case Role::UdpRrServer:
        onUdpReady(w);
        break;
    }
}

void DataStream::onUdpReady(Worker &w)
{
    const UdpFlow::Step step = m_udp->run(m_socket, m_blocking, w);
    if (step.transactions > 0)
        add(m_transactions, step.transactions);
    add(m_bytes, step.bytes);
    if (!step.error.isEmpty()) {
        fail(w, QStringLiteral("%1: %2").arg(streamText(*this), step.error));
        return;
    }
    if (step.done) {
        finish(w);
        return;
    }
    if (m_blocking || step.wakeNs == 0)
        return;
    // Sharing the worker: a paced sender ahead of its schedule waits for its timer, not for
    // a socket that is always writable (that would spin).
    if (step.idle)
        setInterest(w, m_socket, 0);
    if (m_wakeAt == 0 || step.wakeNs < m_wakeAt) {
        m_wakeAt = step.wakeNs;
        w.wakeAt(this, step.wakeNs);
    }
}

void DataStream::onTimer(Worker &w)
{
    if (m_finished.load(std::memory_order_relaxed) || m_wakeAt == 0 || Worker::nowNs() < m_wakeAt)
        return; // finished, or a wake-up that a later one replaced
    m_wakeAt = 0;
    if (m_role == Role::UdpSender)
        setInterest(w, m_socket, net::Writable);
    onUdpReady(w);
}

void DataStream::finish(Worker &w)
{
    if (m_finished.load(std::memory_order_relaxed))
        return;
    if (m_interest != 0)
        w.poller().remove(m_role == Role::CrrClient ? m_crr : m_socket);
    m_interest = 0;
    m_crr.reset();
    m_exchanges.clear();
    m_finished.store(true);
}

void DataStream::stop(Worker &w)
{
    m_stopping = true;
    finish(w);
}

void DataStream::setPaused(Worker &w, bool paused)
{
    if (m_role != Role::Sender || !m_config.gated || m_finished.load(std::memory_order_relaxed))
        return;
    m_paused = paused;
    setInterest(w, m_socket, paused ? 0u : unsigned(net::Writable));
}

void DataStream::fail(Worker &w, const QString &error)
{
    if (!m_stopping)
        setError(error);
    finish(w);
}

void DataStream::abandon()
{
    m_stopping = true;
    net::shutdownBoth(m_socket);
    m_crr.reset();
    m_exchanges.clear();
    m_interest = 0;
    m_finished.store(true);
}

// --- Bulk data ---

void DataStream::beginSender()
{
    // Random payload so compressing links measure honestly, as iperf3 does.
    m_txBuffer.resize(m_config.blockSize);
    QRandomGenerator rng(quint32(m_id) * 2654435761u);
    for (std::size_t i = 0; i + 4 <= m_txBuffer.size(); i += 4) {
        const quint32 v = rng.generate();
        std::memcpy(m_txBuffer.data() + i, &v, 4);
    }
    if (m_config.zeroCopy) {
        m_zeroCopy = std::make_unique<net::ZeroCopySource>(m_txBuffer.data(), m_txBuffer.size());
        if (!m_zeroCopy->valid())
            m_zeroCopy.reset();
    }
}

void DataStream::onSendable(Worker &w)
{
    if (m_paused)
        return;
    ByteBudget *budget = m_config.budget && m_config.budget->enabled ? m_config.budget : nullptr;
    for (int i = 0; i < Burst; ++i) {
        std::size_t len = m_config.blockSize;
        if (budget) {
            // Take exactly what this send will use; what it does not send goes back below.
            std::int64_t cur = budget->remaining.load();
            std::int64_t take = 0;
            do {
                if (cur <= 0)
                    break;
                take = std::min<std::int64_t>(cur, std::int64_t(len));
            } while (!budget->remaining.compare_exchange_weak(cur, cur - take));
            if (cur <= 0) {
                finish(w);
                return;
            }
            len = std::size_t(take);
        }
        const net::Transfer t =
            m_zeroCopy ? m_zeroCopy->sendTo(m_socket, len) : net::sendSome(m_socket, m_txBuffer.data(), len);
        if (budget && std::size_t(t.bytes) < len)
            budget->remaining.fetch_add(std::int64_t(len) - t.bytes);
        if (t.status == net::IoStatus::Timeout)
            return; // the socket is full: the poller says when it has room
        if (t.status != net::IoStatus::Ok) {
            fail(w, QStringLiteral("%1: %2").arg(streamText(*this), net::systemErrorText(t.systemError)));
            return;
        }
        add(m_bytes, std::uint64_t(t.bytes));
        if (std::size_t(t.bytes) < len)
            return;
    }
}

void DataStream::onReceivable(Worker &w)
{
    // Discarding in the kernel (net::receiveSome with discard) costs no copy to user
    // space, which is what a NIC benchmark should measure. Discarding, one call can take
    // everything queued: 1 MiB per call means fewer system calls per byte; the buffer (one
    // per worker) is never written then.
    char *buffer = w.scratch(m_rxSize);
    for (int i = 0; i < Burst; ++i) {
        const net::Transfer t = net::receiveSome(m_socket, buffer, m_rxSize, m_config.skipRxCopy);
        if (t.status == net::IoStatus::Timeout)
            return;
        if (t.status == net::IoStatus::Closed) {
            finish(w);
            return;
        }
        if (t.status != net::IoStatus::Ok) {
            fail(w, QStringLiteral("%1: %2").arg(streamText(*this), net::systemErrorText(t.systemError)));
            return;
        }
        add(m_bytes, std::uint64_t(t.bytes));
        if (std::size_t(t.bytes) < m_rxSize)
            return; // drained: the poller says when more comes
    }
}

} // namespace nb
