// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/datastream.h"

#include "net/connect.h"
#include "net/io.h"

#include <QRandomGenerator>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace nb {

DataStream::DataStream(int id, Role role, net::Socket socket) : m_id(id), m_role(role), m_socket(std::move(socket)) {}

DataStream::~DataStream()
{
    abort();
}

void DataStream::start(const Config &config)
{
    switch (m_role) {
    case Role::Sender:
        m_thread = std::thread(&DataStream::sendLoop, this, config);
        break;
    case Role::Receiver:
        m_thread = std::thread(&DataStream::receiveLoop, this, config);
        break;
    case Role::RrClient:
        m_thread = std::thread(&DataStream::rrClientLoop, this, config);
        break;
    case Role::RrServer:
        m_thread = std::thread(&DataStream::rrServerLoop, this, config);
        break;
    case Role::CrrClient:
        m_thread = std::thread(&DataStream::crrClientLoop, this, config);
        break;
    case Role::CrrServer:
        m_thread = std::thread(&DataStream::crrServerLoop, this, config);
        break;
    }
}

LatencyHistogram DataStream::takeIntervalLatency()
{
    std::lock_guard lock(m_latencyMutex);
    LatencyHistogram h = m_intervalLatency;
    m_intervalLatency.reset();
    return h;
}

LatencyHistogram DataStream::totalLatency() const
{
    std::lock_guard lock(m_latencyMutex);
    return m_totalLatency;
}

void DataStream::resetTotalLatency()
{
    std::lock_guard lock(m_latencyMutex);
    m_totalLatency.reset();
}

void DataStream::recordLatency(std::int64_t ns)
{
    std::lock_guard lock(m_latencyMutex);
    m_intervalLatency.record(ns);
    m_totalLatency.record(ns);
}

void DataStream::abort()
{
    requestStop();
    net::shutdownBoth(m_socket);
    join();
}

void DataStream::join()
{
    if (m_thread.joinable())
        m_thread.join();
}

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

void DataStream::sendLoop(Config config)
{
    // Random payload so compressing links measure honestly, as iperf3 does.
    std::vector<char> buffer(config.blockSize);
    QRandomGenerator rng(quint32(m_id) * 2654435761u);
    for (std::size_t i = 0; i + 4 <= buffer.size(); i += 4) {
        const quint32 v = rng.generate();
        std::memcpy(buffer.data() + i, &v, 4);
    }
    std::optional<net::ZeroCopySource> zeroCopy;
    if (config.zeroCopy) {
        zeroCopy.emplace(buffer.data(), buffer.size());
        if (!zeroCopy->valid())
            zeroCopy.reset();
    }
    // A send blocked on a peer that stopped reading returns after this timeout, so a stop
    // request is honoured even then (stock iperf3 clients stop reading in bidir tests).
    net::setTimeouts(m_socket, -1, 100);
    while (!m_stop.load(std::memory_order_relaxed)) {
        std::size_t len = config.blockSize;
        const bool budgeted = config.budget && config.budget->enabled;
        if (budgeted) {
            // Take exactly what this send will use; what it does not send goes back below.
            std::int64_t cur = config.budget->remaining.load();
            std::int64_t take = 0;
            do {
                if (cur <= 0)
                    break;
                take = std::min<std::int64_t>(cur, std::int64_t(len));
            } while (!config.budget->remaining.compare_exchange_weak(cur, cur - take));
            if (cur <= 0)
                break;
            len = std::size_t(take);
        }
        const net::Transfer t =
            zeroCopy ? zeroCopy->sendTo(m_socket, len) : net::sendSome(m_socket, buffer.data(), len);
        if (budgeted && std::size_t(t.bytes) < len)
            config.budget->remaining.fetch_add(std::int64_t(len) - t.bytes);
        if (t.status == net::IoStatus::Timeout)
            continue;
        if (t.status != net::IoStatus::Ok) {
            if (!m_stop.load())
                setError(QStringLiteral("stream %1: %2").arg(m_id).arg(net::systemErrorText(t.systemError)));
            break;
        }
        m_bytes.fetch_add(std::uint64_t(t.bytes), std::memory_order_relaxed);
    }
    m_finished.store(true);
}

void DataStream::receiveLoop(Config config)
{
    // Discarding in the kernel (net::receiveSome with discard) costs no copy to user
    // space, which is what a NIC benchmark should measure. Discarding, one call can take
    // everything queued: 1 MiB per call means fewer system calls per byte. The buffer is
    // never written then, so its pages are never touched.
    const bool discard = config.skipRxCopy;
    const std::size_t len = discard ? std::max<std::size_t>(config.blockSize, 1u << 20) : config.blockSize;
    std::unique_ptr<char[]> buffer(new char[len]);
    for (;;) {
        const net::Transfer t = net::receiveSome(m_socket, buffer.get(), len, discard);
        if (t.status == net::IoStatus::Ok) {
            m_bytes.fetch_add(std::uint64_t(t.bytes), std::memory_order_relaxed);
            continue;
        }
        if (t.status == net::IoStatus::Closed)
            break;
        if (t.status == net::IoStatus::Timeout)
            continue;
        if (!m_stop.load())
            setError(QStringLiteral("stream %1: %2").arg(m_id).arg(net::systemErrorText(t.systemError)));
        break;
    }
    m_finished.store(true);
}

namespace {

std::int64_t monotonicNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void setRrSocketOptions(const net::Socket &s)
{
    net::setNoDelay(s);
    // Blocking calls wake up now and then to notice a stop request.
    net::setTimeouts(s, 100, 100);
}

// A failed transfer is an error worth reporting unless the test is stopping anyway.
bool failed(net::IoStatus s)
{
    return s == net::IoStatus::Error || s == net::IoStatus::Timeout;
}

} // namespace

void DataStream::rrClientLoop(Config config)
{
    setRrSocketOptions(m_socket);
    std::vector<char> request(config.requestSize, 'q');
    std::vector<char> response(config.responseSize);
    // Responses come back in order on one TCP connection, so a FIFO of send times is
    // enough to pair each response with its request.
    std::vector<std::int64_t> sentAt(std::size_t(config.inFlight));
    std::size_t head = 0, count = 0;
    QString err;
    net::IoStatus status = net::IoStatus::Ok;
    auto sendOne = [&]() {
        sentAt[(head + count) % sentAt.size()] = monotonicNs();
        ++count;
        status = net::sendAll(m_socket, request.data(), request.size(), m_stop, &err);
        return status == net::IoStatus::Ok;
    };
    bool ok = true;
    for (int i = 0; i < config.inFlight && ok; ++i)
        ok = sendOne();
    while (ok) {
        status = net::receiveAll(m_socket, response.data(), response.size(), m_stop, &err);
        if (status != net::IoStatus::Ok)
            break;
        const std::int64_t now = monotonicNs();
        recordLatency(now - sentAt[head]);
        head = (head + 1) % sentAt.size();
        --count;
        m_transactions.fetch_add(1, std::memory_order_relaxed);
        m_bytes.fetch_add(request.size() + response.size(), std::memory_order_relaxed);
        if (m_stop.load(std::memory_order_relaxed))
            break;
        ok = sendOne();
    }
    if (!m_stop.load()) {
        if (failed(status))
            setError(QStringLiteral("connection %1: %2").arg(m_id).arg(err));
        else if (status == net::IoStatus::Closed)
            setError(QStringLiteral("connection %1: closed by the server").arg(m_id));
    }
    m_finished.store(true);
}

void DataStream::rrServerLoop(Config config)
{
    setRrSocketOptions(m_socket);
    std::vector<char> request(config.requestSize);
    std::vector<char> response(config.responseSize, 'r');
    QString err;
    net::IoStatus status = net::IoStatus::Ok;
    for (;;) {
        status = net::receiveAll(m_socket, request.data(), request.size(), m_stop, &err);
        if (status != net::IoStatus::Ok)
            break;
        status = net::sendAll(m_socket, response.data(), response.size(), m_stop, &err);
        if (status != net::IoStatus::Ok)
            break;
        m_transactions.fetch_add(1, std::memory_order_relaxed);
        m_bytes.fetch_add(request.size() + response.size(), std::memory_order_relaxed);
    }
    if (failed(status) && !m_stop.load())
        setError(QStringLiteral("connection %1: %2").arg(m_id).arg(err));
    m_finished.store(true);
}

void DataStream::crrClientLoop(Config config)
{
    std::vector<char> request(config.requestSize, 'q');
    std::vector<char> response(config.responseSize);
    const net::Address &target = config.crrTarget;
    const net::Address local =
        config.crrBindAddress.isEmpty() ? net::Address() : net::localAddressFor(config.crrBindAddress, target.family());
    int failures = 0;
    while (!m_stop.load(std::memory_order_relaxed)) {
        const std::int64_t start = monotonicNs();
        net::Socket s = net::openTcp(target.family());
        if (!s.valid()) {
            setError(QStringLiteral("connection %1: cannot create a socket").arg(m_id));
            break;
        }
        setRrSocketOptions(s);
        if (local.valid())
            net::bindLocal(s, local);
        QString err;
        if (!net::connectTo(s, target, &err)) {
            // A burst of refused or timed-out connects ends the test with a clear error.
            if (++failures > 100 || m_stop.load()) {
                if (!m_stop.load())
                    setError(QStringLiteral("connection %1: cannot connect: %2").arg(m_id).arg(err));
                break;
            }
            continue;
        }
        failures = 0;
        net::IoStatus status = net::sendAll(s, request.data(), request.size(), m_stop, &err);
        if (status == net::IoStatus::Ok)
            status = net::receiveAll(s, response.data(), response.size(), m_stop, &err);
        if (status != net::IoStatus::Ok) {
            if (failed(status) && !m_stop.load()) {
                setError(QStringLiteral("connection %1: %2").arg(m_id).arg(err));
                break;
            }
            continue;
        }
        s.reset();
        recordLatency(monotonicNs() - start);
        m_transactions.fetch_add(1, std::memory_order_relaxed);
        m_bytes.fetch_add(request.size() + response.size(), std::memory_order_relaxed);
    }
    m_finished.store(true);
}

void DataStream::crrServerLoop(Config config)
{
    std::vector<char> request(config.requestSize);
    std::vector<char> response(config.responseSize, 'r');
    while (!m_stop.load(std::memory_order_relaxed)) {
        const int w = net::waitReadable(m_socket, 100);
        if (w < 0)
            break;
        if (w == 0)
            continue;
        net::Socket s = net::acceptPending(m_socket);
        if (!s.valid())
            continue; // another acceptor took it
        setRrSocketOptions(s);
        QString err;
        if (net::receiveAll(s, request.data(), request.size(), m_stop, &err) == net::IoStatus::Ok &&
            net::sendAll(s, response.data(), response.size(), m_stop, &err) == net::IoStatus::Ok) {
            m_transactions.fetch_add(1, std::memory_order_relaxed);
            m_bytes.fetch_add(request.size() + response.size(), std::memory_order_relaxed);
        }
    }
    m_finished.store(true);
}

} // namespace nb
