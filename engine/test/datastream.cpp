// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/datastream.h"

#include <QRandomGenerator>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

namespace nb {

DataStream::DataStream(int id, bool sender, net::Fd fd)
    : DataStream(id, sender ? Role::Sender : Role::Receiver, std::move(fd))
{
}

DataStream::DataStream(int id, Role role, net::Fd fd)
    : m_id(id), m_role(role), m_sender(role == Role::Sender || role == Role::RrClient || role == Role::CrrClient),
      m_fd(std::move(fd))
{
}

DataStream::~DataStream()
{
    abort();
}

void DataStream::start(const Config &config)
{
    switch (m_role) {
    case Role::Sender: m_thread = std::thread(&DataStream::sendLoop, this, config); break;
    case Role::Receiver: m_thread = std::thread(&DataStream::receiveLoop, this, config); break;
    case Role::RrClient: m_thread = std::thread(&DataStream::rrClientLoop, this, config); break;
    case Role::RrServer: m_thread = std::thread(&DataStream::rrServerLoop, this, config); break;
    case Role::CrrClient: m_thread = std::thread(&DataStream::crrClientLoop, this, config); break;
    case Role::CrrServer: m_thread = std::thread(&DataStream::crrServerLoop, this, config); break;
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
    if (m_fd.valid())
        ::shutdown(m_fd.get(), SHUT_RDWR);
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
    int memFd = -1;
    if (config.zeroCopy) {
        memFd = ::memfd_create("nicbench-payload", MFD_CLOEXEC);
        if (memFd >= 0 && ::write(memFd, buffer.data(), buffer.size()) != ssize_t(buffer.size())) {
            ::close(memFd);
            memFd = -1;
        }
    }
    const int fd = m_fd.get();
    // A send blocked on a peer that stopped reading returns after this timeout, so a stop
    // request is honoured even then (stock iperf3 clients stop reading in bidir tests).
    timeval tv{0, 100 * 1000};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
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
        ssize_t n;
        if (memFd >= 0) {
            off_t off = 0;
            n = ::sendfile(fd, memFd, &off, len);
        } else {
            n = ::send(fd, buffer.data(), len, MSG_NOSIGNAL);
        }
        if (budgeted && (n < 0 || std::size_t(n) < len))
            config.budget->remaining.fetch_add(std::int64_t(len) - std::max<std::int64_t>(n, 0));
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            if (!m_stop.load())
                setError(QStringLiteral("stream %1: %2").arg(m_id).arg(QString::fromLocal8Bit(std::strerror(errno))));
            break;
        }
        m_bytes.fetch_add(std::uint64_t(n), std::memory_order_relaxed);
    }
    if (memFd >= 0)
        ::close(memFd);
    m_finished.store(true);
}

void DataStream::receiveLoop(Config config)
{
    // MSG_TRUNC on a TCP socket discards the data in the kernel (Linux): the receiver
    // then costs no copy to user space, which is what a NIC benchmark should measure.
    // Discarding, one call can take everything queued: 1 MiB per call means fewer system
    // calls per byte. The buffer is never written then, so its pages are never touched.
    const int flags = config.skipRxCopy ? MSG_TRUNC : 0;
    const std::size_t len = config.skipRxCopy ? std::max<std::size_t>(config.blockSize, 1u << 20) : config.blockSize;
    std::unique_ptr<char[]> buffer(new char[len]);
    const int fd = m_fd.get();
    for (;;) {
        const ssize_t n = ::recv(fd, buffer.get(), len, flags);
        if (n > 0) {
            m_bytes.fetch_add(std::uint64_t(n), std::memory_order_relaxed);
            continue;
        }
        if (n == 0)
            break;
        if (errno == EINTR || errno == EAGAIN)
            continue;
        if (!m_stop.load())
            setError(QStringLiteral("stream %1: %2").arg(m_id).arg(QString::fromLocal8Bit(std::strerror(errno))));
        break;
    }
    m_finished.store(true);
}

} // namespace nb

namespace nb {

namespace {

std::int64_t monotonicNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Reads exactly size bytes, retrying on the receive timeout until stop is set.
// Returns false on EOF, error, or stop.
bool readFull(int fd, char *buf, std::size_t size, const std::atomic<bool> &stop, int *err)
{
    std::size_t got = 0;
    while (got < size) {
        const ssize_t n = ::recv(fd, buf + got, size - got, 0);
        if (n > 0) {
            got += std::size_t(n);
            continue;
        }
        if (n == 0) {
            *err = 0;
            return false;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if (stop.load(std::memory_order_relaxed)) {
                *err = 0;
                return false;
            }
            continue;
        }
        *err = errno;
        return false;
    }
    return true;
}

bool writeFull(int fd, const char *buf, std::size_t size, const std::atomic<bool> &stop, int *err)
{
    std::size_t sent = 0;
    while (sent < size) {
        const ssize_t n = ::send(fd, buf + sent, size - sent, MSG_NOSIGNAL);
        if (n >= 0) {
            sent += std::size_t(n);
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if (stop.load(std::memory_order_relaxed)) {
                *err = 0;
                return false;
            }
            continue;
        }
        *err = errno;
        return false;
    }
    return true;
}

void setRrSocketOptions(int fd)
{
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    // Blocking calls wake up now and then to notice a stop request.
    timeval tv{0, 100 * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

} // namespace

void DataStream::rrClientLoop(Config config)
{
    const int fd = m_fd.get();
    setRrSocketOptions(fd);
    std::vector<char> request(config.requestSize, 'q');
    std::vector<char> response(config.responseSize);
    // Responses come back in order on one TCP connection, so a FIFO of send times is
    // enough to pair each response with its request.
    std::vector<std::int64_t> sentAt(std::size_t(config.inFlight));
    std::size_t head = 0, count = 0;
    int err = 0;
    auto sendOne = [&]() {
        sentAt[(head + count) % sentAt.size()] = monotonicNs();
        ++count;
        return writeFull(fd, request.data(), request.size(), m_stop, &err);
    };
    bool ok = true;
    for (int i = 0; i < config.inFlight && ok; ++i)
        ok = sendOne();
    while (ok) {
        if (!readFull(fd, response.data(), response.size(), m_stop, &err))
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
    if (err != 0 && !m_stop.load())
        setError(QStringLiteral("connection %1: %2").arg(m_id).arg(QString::fromLocal8Bit(std::strerror(err))));
    else if (err == 0 && !m_stop.load())
        setError(QStringLiteral("connection %1: closed by the server").arg(m_id));
    m_finished.store(true);
}

void DataStream::rrServerLoop(Config config)
{
    const int fd = m_fd.get();
    setRrSocketOptions(fd);
    std::vector<char> request(config.requestSize);
    std::vector<char> response(config.responseSize, 'r');
    int err = 0;
    for (;;) {
        if (!readFull(fd, request.data(), request.size(), m_stop, &err))
            break;
        if (!writeFull(fd, response.data(), response.size(), m_stop, &err))
            break;
        m_transactions.fetch_add(1, std::memory_order_relaxed);
        m_bytes.fetch_add(request.size() + response.size(), std::memory_order_relaxed);
    }
    if (err != 0 && !m_stop.load())
        setError(QStringLiteral("connection %1: %2").arg(m_id).arg(QString::fromLocal8Bit(std::strerror(err))));
    m_finished.store(true);
}

void DataStream::crrClientLoop(Config config)
{
    std::vector<char> request(config.requestSize, 'q');
    std::vector<char> response(config.responseSize);
    const net::Address &target = config.crrTarget;
    int failures = 0;
    while (!m_stop.load(std::memory_order_relaxed)) {
        const std::int64_t start = monotonicNs();
        net::Fd fd(::socket(target.family(), SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (!fd.valid()) {
            setError(QStringLiteral("connection %1: %2").arg(m_id).arg(QString::fromLocal8Bit(std::strerror(errno))));
            break;
        }
        setRrSocketOptions(fd.get());
        if (!config.crrBindAddress.isEmpty()) {
            net::Address local = net::localAddressFor(config.crrBindAddress, target.family());
            if (local.length > 0)
                ::bind(fd.get(), local.sa(), local.length);
        }
        int err = 0;
        if (::connect(fd.get(), target.sa(), target.length) != 0) {
            err = errno;
            // A burst of refused or timed-out connects ends the test with a clear error.
            if (++failures > 100 || m_stop.load()) {
                if (!m_stop.load())
                    setError(QStringLiteral("connection %1: cannot connect: %2").arg(m_id).arg(QString::fromLocal8Bit(std::strerror(err))));
                break;
            }
            continue;
        }
        failures = 0;
        if (!writeFull(fd.get(), request.data(), request.size(), m_stop, &err) ||
            !readFull(fd.get(), response.data(), response.size(), m_stop, &err)) {
            if (err != 0 && !m_stop.load()) {
                setError(QStringLiteral("connection %1: %2").arg(m_id).arg(QString::fromLocal8Bit(std::strerror(err))));
                break;
            }
            continue;
        }
        fd.reset();
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
    const int listenFd = m_fd.get();
    while (!m_stop.load(std::memory_order_relaxed)) {
        const int w = net::waitReadable(listenFd, 100);
        if (w < 0)
            break;
        if (w == 0)
            continue;
        net::Fd fd(::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
        if (!fd.valid())
            continue; // another acceptor took it
        const int flags = fcntl(fd.get(), F_GETFL);
        fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
        setRrSocketOptions(fd.get());
        int err = 0;
        if (readFull(fd.get(), request.data(), request.size(), m_stop, &err) &&
            writeFull(fd.get(), response.data(), response.size(), m_stop, &err)) {
            m_transactions.fetch_add(1, std::memory_order_relaxed);
            m_bytes.fetch_add(request.size() + response.size(), std::memory_order_relaxed);
        }
    }
    m_finished.store(true);
}

} // namespace nb
