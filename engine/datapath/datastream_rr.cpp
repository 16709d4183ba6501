// SPDX-License-Identifier: GPL-3.0-or-later
// DataStream's request/response roles: transactions on one connection (RR) and a connection
// per transaction (CRR: the client's connects, the server's accepted exchanges). The
// stream's life and bulk data are in datastream.cpp.
#include "datapath/datastream.h"

#include "datapath/datastream_p.h"
#include "net/connect.h"
#include "net/io.h"

#include <algorithm>
#include <cstring>

namespace nb {

namespace {

// A CRR transaction (connect, request, response) that takes longer has failed; so has an
// accepted CRR connection that sends no request in this time.
constexpr std::int64_t CrrTimeoutNs = 10'000'000'000;
// An accepted CRR connection that has not shown the test's token in this time is a stranger.
constexpr std::int64_t CrrTokenTimeoutNs = 2'000'000'000;
// Connects refused in a row before a CRR flow gives up with an error.
constexpr int CrrMaxFailures = 100;
// Requests up to this size go out in one segment: no need for TCP_NODELAY.
constexpr std::uint32_t CrrSingleSegment = 1024;

} // namespace

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

bool DataStream::Exchange::expired(std::int64_t now) const
{
    const bool tokenShown = rxHave >= std::uint64_t(owner.m_config.crrToken.size());
    return now - start > (tokenShown ? CrrTimeoutNs : CrrTokenTimeoutNs);
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
