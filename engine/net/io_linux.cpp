// SPDX-License-Identifier: GPL-3.0-or-later
// net/io.h on Linux: the single calls; the loops over them are io.cpp's.
#include "net/io.h"
#include "net/io_p.h"

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

namespace detail {

int lastSocketError()
{
    return errno;
}

int waitWritable(const Socket &s, int timeoutMs)
{
    pollfd pf{s.handle(), POLLOUT, 0};
    return ::poll(&pf, 1, timeoutMs);
}

Transfer sendWithoutWaiting(const Socket &s, const void *data, std::size_t size)
{
    const ssize_t n = ::send(s.handle(), data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0)
        return {n, IoStatus::Ok, 0};
    const int e = errno;
    return {0, e == EINTR || e == EAGAIN ? IoStatus::Timeout : IoStatus::Error, e};
}

bool peerWentAway(int systemError, bool sending)
{
    return systemError == ECONNRESET || (sending && systemError == EPIPE);
}

} // namespace detail

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
