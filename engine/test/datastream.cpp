// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/datastream.h"

#include "net/connect.h"
#include "net/io.h"

#include <QRandomGenerator>

#include <algorithm>
#include <cstring>

namespace nb {

namespace {

// Calls one handler makes before it returns to the event loop, so one busy stream cannot
// hold the worker from its others (the poller reports a still-ready socket again).
constexpr int Burst = 8;
// Largest read or write of request/response bytes per call.
constexpr std::uint64_t RrChunk = 256 * 1024;
// A CRR transaction (connect, request, response) that takes longer has failed; so has an
// accepted CRR connection that sends no request in this time.
constexpr std::int64_t CrrTimeoutNs = 10'000'000'000;
// An accepted CRR connection that has not shown the test's token in this time is a stranger.
constexpr std::int64_t CrrTokenTimeoutNs = 2'000'000'000;
// Connects refused in a row before a CRR flow gives up with an error.
constexpr int CrrMaxFailures = 100;
// Requests up to this size go out in one segment: no need for TCP_NODELAY.
constexpr std::uint32_t CrrSingleSegment = 1024;
// RR bytes in flight up to which one RR stream may be driven by blocking calls.
constexpr std::uint64_t BlockingRrMaxInFlightBytes = 64 * 1024;
// A stream driven by blocking calls gets its socket timeouts set to this.
constexpr int BlockingSliceMs = 10;

QString streamText(const DataStream &s)
{
    return s.isRequestResponse() ? QStringLiteral("connection %1").arg(s.id())
                                 : QStringLiteral("stream %1").arg(s.id());
}

} // namespace

// One connection accepted by a CRR server: read the request, send the response, close.
class DataStream::Exchange : public Pollable {
public:
    Exchange(DataStream &owner, net::Socket socket, std::int64_t start)
        : owner(owner)
        , socket(std::move(socket))
        , start(start)
    {
    }
    void onReady(Worker &w, unsigned ready) override;
    bool expired(std::int64_t now) const
    {
        const bool tokenShown = rxHave >= std::uint64_t(owner.m_config.crrToken.size());
        return now - start > (tokenShown ? CrrTimeoutNs : CrrTokenTimeoutNs);
    }
    // Dropped before it showed the token: counted, never answered.
    void dropStranger()
    {
        if (rxHave < std::uint64_t(owner.m_config.crrToken.size()))
            owner.m_strangers.fetch_add(1, std::memory_order_relaxed);
        done();
    }
    void done() { owner.m_exchanges.erase(self); } // deletes this
    // Registers with the poller (first wait) or changes what it waits for; may call done().
    void wait(Worker &w, unsigned wanted);

    DataStream &owner;
    net::Socket socket;
    std::int64_t start;
    std::list<std::unique_ptr<Exchange>>::iterator self;
    std::uint64_t rxHave = 0;
    std::uint64_t txPending = 0;
    unsigned interest = 0;
};

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
    // sender needs a thread of its own to sleep in (StreamSet gives each UDP stream one).
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
    if (!step.error.isEmpty())
        fail(w, QStringLiteral("%1: %2").arg(streamText(*this), step.error));
    else if (step.done)
        finish(w);
}

void DataStream::onTick(Worker &w, std::int64_t nowNs)
{
    if (m_finished.load(std::memory_order_relaxed))
        return;
    if (m_role == Role::CrrClient && m_crr.valid() && nowNs - m_crrStart > CrrTimeoutNs) {
        fail(w, QStringLiteral("%1: no response within %2 s").arg(streamText(*this)).arg(CrrTimeoutNs / 1'000'000'000));
    } else if (m_role == Role::CrrServer) {
        // Connections that never send their request do not pile up; strangers are counted.
        for (auto it = m_exchanges.begin(); it != m_exchanges.end();) {
            Exchange &e = **it;
            ++it;
            if (e.expired(nowNs))
                e.dropStranger(); // erases e
        }
    }
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

// --- Request/response on one connection ---

void DataStream::queueRequest(std::int64_t now)
{
    m_sentAt[(m_sentHead + m_sentCount) % m_sentAt.size()] = now;
    ++m_sentCount;
    m_txPending += m_config.requestSize;
}

bool DataStream::flush(Worker &w, const net::Socket &s)
{
    while (m_txPending > 0) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(m_txPending, m_txBuffer.size()));
        const net::Transfer t = net::sendSome(s, m_txBuffer.data(), n);
        if (t.status == net::IoStatus::Timeout)
            break;
        if (t.status != net::IoStatus::Ok) {
            fail(w, QStringLiteral("%1: %2").arg(streamText(*this), net::systemErrorText(t.systemError)));
            return false;
        }
        m_txPending -= std::uint64_t(t.bytes);
        if (std::size_t(t.bytes) < n)
            break;
    }
    setInterest(w, s, net::Readable | (m_txPending ? net::Writable : 0u));
    return true;
}

void DataStream::onRrReadable(Worker &w)
{
    const bool client = m_role == Role::RrClient;
    const std::uint64_t in = client ? m_config.responseSize : m_config.requestSize;
    for (int i = 0; i < Burst; ++i) {
        // A client reads only what it asked for: more is a peer error, not a response.
        const std::uint64_t expected = client ? m_sentCount * in - m_rxHave : RrChunk;
        const std::size_t want = std::size_t(std::clamp<std::uint64_t>(expected, 1, RrChunk));
        const net::Transfer t = net::receiveSome(m_socket, w.scratch(want), want);
        if (t.status == net::IoStatus::Timeout)
            break;
        if (t.status == net::IoStatus::Closed) {
            if (client)
                fail(w, QStringLiteral("%1: closed by the server").arg(streamText(*this)));
            else
                finish(w);
            return;
        }
        if (t.status != net::IoStatus::Ok) {
            fail(w, QStringLiteral("%1: %2").arg(streamText(*this), net::systemErrorText(t.systemError)));
            return;
        }
        if (expected == 0) {
            fail(w, QStringLiteral("%1: the server sent more than was asked").arg(streamText(*this)));
            return;
        }
        m_rxHave += std::uint64_t(t.bytes);
        const std::uint64_t complete = m_rxHave / in;
        m_rxHave %= in;
        if (client) {
            const std::int64_t now = Worker::nowNs();
            for (std::uint64_t k = 0; k < complete; ++k) {
                w.recordLatency(now - m_sentAt[m_sentHead]);
                m_sentHead = (m_sentHead + 1) % m_sentAt.size();
                --m_sentCount;
            }
            for (std::uint64_t k = 0; k < complete; ++k)
                queueRequest(now);
        } else {
            m_txPending += complete * m_config.responseSize;
        }
        countTransactions(complete);
        // New requests go out before anything else is read: waiting for a response to a
        // request still in our buffer would only cost time.
        if (std::size_t(t.bytes) < want || (client && complete > 0))
            break;
    }
    flush(w, m_socket);
}

// --- Connect, request, response, close (CRR) ---

void DataStream::startTransaction(Worker &w)
{
    while (!m_stopping) {
        m_crrStart = Worker::nowNs();
        m_crr = net::openTcp(m_config.crrTarget.family(), true);
        m_interest = 0;
        if (!m_crr.valid()) {
            fail(w, QStringLiteral("%1: cannot create a socket").arg(streamText(*this)));
            return;
        }
        // A request of one segment leaves nothing for Nagle to hold back.
        if (m_config.requestSize > CrrSingleSegment)
            net::setNoDelay(m_crr);
        if (m_crrLocal.valid())
            net::bindLocal(m_crr, m_crrLocal);
        QString err;
        if (net::startConnect(m_crr, m_config.crrTarget, &err) < 0) {
            m_crr.reset();
            // A burst of refused connects ends the test with a clear error.
            if (++m_crrFailures > CrrMaxFailures) {
                fail(w, QStringLiteral("%1: cannot connect: %2").arg(streamText(*this), err));
                return;
            }
            continue;
        }
        m_txPending = std::uint64_t(m_config.crrToken.size()) + m_config.requestSize;
        m_rxHave = 0;
        crrSend(w);
        return;
    }
}

void DataStream::crrSend(Worker &w)
{
    // While the connect is in progress a send says "not now" (EAGAIN), and the poller
    // reports the socket writable once it is connected; on loopback it usually already is.
    // The buffer holds the token and the first chunk of the request; a longer request
    // repeats the request part.
    const std::uint64_t token = std::uint64_t(m_config.crrToken.size());
    const std::uint64_t total = token + m_config.requestSize;
    while (m_txPending > 0) {
        const std::uint64_t sent = total - m_txPending;
        const std::uint64_t from = sent < m_txBuffer.size() ? sent : token;
        const std::size_t n = std::size_t(std::min<std::uint64_t>(m_txPending, m_txBuffer.size() - from));
        const net::Transfer t = net::sendSome(m_crr, m_txBuffer.data() + from, n);
        if (t.status == net::IoStatus::Timeout) {
            setInterest(w, m_crr, net::Writable);
            return;
        }
        if (t.status != net::IoStatus::Ok) {
            connectFailed(w, net::systemErrorText(t.systemError)); // refused or reset: try again
            return;
        }
        m_txPending -= std::uint64_t(t.bytes);
    }
    setInterest(w, m_crr, net::Readable);
}

void DataStream::connectFailed(Worker &w, const QString &error)
{
    m_crr.reset(); // closing it also takes it out of the poller
    m_interest = 0;
    if (++m_crrFailures > CrrMaxFailures) {
        fail(w, QStringLiteral("%1: cannot connect: %2").arg(streamText(*this), error));
        return;
    }
    startTransaction(w);
}

void DataStream::onCrrClientReady(Worker &w, unsigned)
{
    if (m_txPending > 0) {
        crrSend(w);
        return;
    }
    const std::size_t want = std::size_t(std::min<std::uint64_t>(m_config.responseSize - m_rxHave, RrChunk));
    const net::Transfer t = net::receiveSome(m_crr, w.scratch(want), want);
    if (t.status == net::IoStatus::Timeout)
        return;
    if (t.status == net::IoStatus::Closed) {
        connectFailed(w, QStringLiteral("closed by the server before its response"));
        return;
    }
    if (t.status != net::IoStatus::Ok) {
        fail(w, QStringLiteral("%1: %2").arg(streamText(*this), net::systemErrorText(t.systemError)));
        return;
    }
    m_rxHave += std::uint64_t(t.bytes);
    if (m_rxHave < m_config.responseSize)
        return;
    m_crr.reset();
    m_interest = 0;
    m_crrFailures = 0;
    w.recordLatency(Worker::nowNs() - m_crrStart);
    countTransactions(1);
    startTransaction(w);
}

void DataStream::onAccept(Worker &w)
{
    // Accepting until "none left" costs a failed call per wake-up; accepting a few at a
    // time lets the poller say when there are more. The batch grows while it is filled.
    for (int i = 0; i < m_acceptBurst; ++i) {
        // Connections inherit TCP_NODELAY from the listener (set in begin()).
        net::Socket s = net::acceptPending(m_socket, nullptr, true);
        if (!s.valid()) {
            m_acceptBurst = std::max(1, m_acceptBurst / 2);
            return; // none left, or another worker took it
        }
        m_exchanges.push_front(std::make_unique<Exchange>(*this, std::move(s), Worker::nowNs()));
        Exchange *e = m_exchanges.front().get();
        e->self = m_exchanges.begin();
        // The request often came with the connection: answer it before any wait.
        e->onReady(w, net::Readable);
    }
    m_acceptBurst = std::min(64, m_acceptBurst * 2);
}

void DataStream::Exchange::wait(Worker &w, unsigned wanted)
{
    if (wanted == interest)
        return;
    const bool ok = interest == 0 ? w.poller().add(socket, this, wanted) : w.poller().modify(socket, this, wanted);
    if (!ok) {
        done();
        return;
    }
    interest = wanted;
}

void DataStream::Exchange::onReady(Worker &w, unsigned)
{
    const DataStream::Config &c = owner.m_config;
    if (txPending == 0) {
        // The token first (when the test has one), then the request.
        const std::uint64_t token = std::uint64_t(c.crrToken.size());
        const std::size_t want = std::size_t(std::min<std::uint64_t>(token + c.requestSize - rxHave, RrChunk));
        char *buffer = w.scratch(want);
        const net::Transfer t = net::receiveSome(socket, buffer, want);
        if (t.status == net::IoStatus::Timeout) {
            wait(w, net::Readable);
            return;
        }
        if (t.status != net::IoStatus::Ok) {
            dropStranger(); // the client went away: no transaction
            return;
        }
        if (rxHave < token) {
            const std::size_t check = std::size_t(std::min<std::uint64_t>(token - rxHave, std::uint64_t(t.bytes)));
            if (std::memcmp(buffer, c.crrToken.constData() + rxHave, check) != 0) {
                rxHave = 0; // counted as a stranger
                dropStranger();
                return;
            }
        }
        rxHave += std::uint64_t(t.bytes);
        if (rxHave < token + c.requestSize) {
            wait(w, net::Readable);
            return;
        }
        txPending = c.responseSize;
    }
    const std::vector<char> &payload = owner.m_txBuffer;
    while (txPending > 0) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(txPending, payload.size()));
        const net::Transfer t = net::sendSome(socket, payload.data(), n);
        if (t.status == net::IoStatus::Timeout) {
            wait(w, net::Writable);
            return;
        }
        if (t.status != net::IoStatus::Ok) {
            done();
            return;
        }
        txPending -= std::uint64_t(t.bytes);
    }
    owner.countTransactions(1);
    done();
}

} // namespace nb
