// SPDX-License-Identifier: GPL-3.0-or-later
#include "datastream.h"

#include <QRandomGenerator>

#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace nb {

DataStream::DataStream(int id, bool sender, net::Fd fd) : m_id(id), m_sender(sender), m_fd(std::move(fd)) {}

DataStream::~DataStream()
{
    abort();
}

void DataStream::start(const Config &config)
{
    if (m_sender)
        m_thread = std::thread(&DataStream::sendLoop, this, config);
    else
        m_thread = std::thread(&DataStream::receiveLoop, this, config);
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
        if (config.budget && config.budget->enabled) {
            const std::int64_t left = config.budget->remaining.fetch_sub(std::int64_t(len));
            if (left <= 0)
                break;
            if (std::uint64_t(left) < len)
                len = std::size_t(left);
        }
        ssize_t n;
        if (memFd >= 0) {
            off_t off = 0;
            n = ::sendfile(fd, memFd, &off, len);
        } else {
            n = ::send(fd, buffer.data(), len, MSG_NOSIGNAL);
        }
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
    const int flags = config.skipRxCopy ? MSG_TRUNC : 0;
    std::vector<char> buffer(config.blockSize);
    const std::size_t len = config.blockSize;
    const int fd = m_fd.get();
    for (;;) {
        const ssize_t n = ::recv(fd, buffer.data(), len, flags);
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
