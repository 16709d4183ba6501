// SPDX-License-Identifier: GPL-3.0-or-later
// net/io.h on Linux.
#include "net/io.h"

#include <poll.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace nb::net {

int waitReadable(const Socket &s, int timeoutMs)
{
    pollfd p{s.handle(), POLLIN, 0};
    for (;;) {
        const int rc = ::poll(&p, 1, timeoutMs);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0)
            return -1;
        return rc > 0 ? 1 : 0;
    }
}

int waitEither(const Socket &first, const Socket &second, int timeoutMs)
{
    pollfd p[2] = {{first.handle(), POLLIN, 0}, {second.handle(), POLLIN, 0}};
    const int rc = ::poll(p, 2, timeoutMs);
    if (rc < 0)
        return errno == EINTR ? 0 : -1;
    int mask = 0;
    if (p[0].revents & (POLLIN | POLLHUP | POLLERR))
        mask |= 1;
    if (p[1].revents & (POLLIN | POLLHUP | POLLERR))
        mask |= 2;
    return mask;
}

static int msLeft(Deadline d)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(d - Clock::now()).count();
    return left <= 0 ? 0 : int(std::min<long long>(left, 1 << 30));
}

IoStatus readExact(const Socket &s, void *buffer, std::size_t size, Deadline deadline, QString *error,
                   const std::atomic<bool> *cancel)
{
    auto *p = static_cast<char *>(buffer);
    std::size_t got = 0;
    while (got < size) {
        if (cancel && cancel->load())
            return IoStatus::Cancelled;
        const int left = msLeft(deadline);
        if (left == 0) {
            *error = QStringLiteral("timed out waiting for the peer");
            return IoStatus::Timeout;
        }
        const int w = waitReadable(s, cancel ? std::min(left, 100) : left);
        if (w < 0) {
            *error = systemErrorText(errno);
            return IoStatus::Error;
        }
        if (w == 0)
            continue;
        const ssize_t n = ::recv(s.handle(), p + got, size - got, 0);
        if (n == 0) {
            *error = QStringLiteral("the peer closed the connection");
            return IoStatus::Closed;
        }
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            *error = errno == ECONNRESET ? QStringLiteral("the peer reset the connection") : systemErrorText(errno);
            return errno == ECONNRESET ? IoStatus::Closed : IoStatus::Error;
        }
        got += std::size_t(n);
    }
    return IoStatus::Ok;
}

IoStatus writeAll(const Socket &s, const void *data, std::size_t size, Deadline deadline, QString *error)
{
    auto *p = static_cast<const char *>(data);
    std::size_t sent = 0;
    while (sent < size) {
        const int left = msLeft(deadline);
        if (left == 0) {
            *error = QStringLiteral("timed out writing to the peer");
            return IoStatus::Timeout;
        }
        pollfd pf{s.handle(), POLLOUT, 0};
        const int pr = ::poll(&pf, 1, left);
        if (pr <= 0)
            continue;
        const ssize_t n = ::send(s.handle(), p + sent, size - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            const bool closed = errno == EPIPE || errno == ECONNRESET;
            *error = closed ? QStringLiteral("the peer closed the connection") : systemErrorText(errno);
            return closed ? IoStatus::Closed : IoStatus::Error;
        }
        sent += std::size_t(n);
    }
    return IoStatus::Ok;
}

void sendNow(const Socket &s, const void *data, std::size_t size)
{
    ::send(s.handle(), data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
}

Transfer sendSome(const Socket &s, const void *data, std::size_t size)
{
    const ssize_t n = ::send(s.handle(), data, size, MSG_NOSIGNAL);
    if (n >= 0)
        return {n, IoStatus::Ok, 0};
    const int e = errno;
    return {0, e == EINTR || e == EAGAIN ? IoStatus::Timeout : IoStatus::Error, e};
}

Transfer receiveSome(const Socket &s, void *buffer, std::size_t size, bool discard)
{
    // MSG_TRUNC on a TCP socket discards the data in the kernel: no copy to user space.
    const ssize_t n = ::recv(s.handle(), buffer, size, discard ? MSG_TRUNC : 0);
    if (n > 0)
        return {n, IoStatus::Ok, 0};
    if (n == 0)
        return {0, IoStatus::Closed, 0};
    const int e = errno;
    return {0, e == EINTR || e == EAGAIN ? IoStatus::Timeout : IoStatus::Error, e};
}

// The one loop behind receiveAll and sendAll: a timed-out call retries until stop.
template <typename Call>
static IoStatus transferExact(std::size_t size, const std::atomic<bool> &stop, QString *error, Deadline deadline,
                              Call call)
{
    std::size_t done = 0;
    while (done < size) {
        const Transfer t = call(done);
        if (t.status == IoStatus::Ok) {
            done += std::size_t(t.bytes);
            continue;
        }
        if (t.status == IoStatus::Timeout) {
            if (stop.load(std::memory_order_relaxed))
                return IoStatus::Cancelled;
            if (Clock::now() >= deadline)
                return IoStatus::Timeout;
            continue;
        }
        if (t.status == IoStatus::Error)
            *error = systemErrorText(t.systemError);
        return t.status;
    }
    return IoStatus::Ok;
}

IoStatus receiveAll(const Socket &s, void *buffer, std::size_t size, const std::atomic<bool> &stop, QString *error,
                    Deadline deadline)
{
    auto *p = static_cast<char *>(buffer);
    return transferExact(size, stop, error, deadline,
                         [&](std::size_t done) { return receiveSome(s, p + done, size - done); });
}

IoStatus sendAll(const Socket &s, const void *data, std::size_t size, const std::atomic<bool> &stop, QString *error,
                 Deadline deadline)
{
    auto *p = static_cast<const char *>(data);
    return transferExact(size, stop, error, deadline,
                         [&](std::size_t done) { return sendSome(s, p + done, size - done); });
}

ZeroCopySource::ZeroCopySource(const void *payload, std::size_t size)
{
    m_handle = ::memfd_create("nicbench-payload", MFD_CLOEXEC);
    if (m_handle >= 0 && ::write(int(m_handle), payload, size) != ssize_t(size)) {
        ::close(int(m_handle));
        m_handle = -1;
    }
}

ZeroCopySource::~ZeroCopySource()
{
    if (m_handle >= 0)
        ::close(int(m_handle));
}

Transfer ZeroCopySource::sendTo(const Socket &s, std::size_t size) const
{
    off_t offset = 0;
    const ssize_t n = ::sendfile(s.handle(), int(m_handle), &offset, size);
    if (n >= 0)
        return {n, IoStatus::Ok, 0};
    const int e = errno;
    return {0, e == EINTR || e == EAGAIN ? IoStatus::Timeout : IoStatus::Error, e};
}

} // namespace nb::net
