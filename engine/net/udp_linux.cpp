// SPDX-License-Identifier: GPL-3.0-or-later
// net/udp.h on Linux: the calls that differ (the rest is udp.cpp).
#include "net/io_p.h"
#include "net/udp.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>

namespace nb::net {

namespace detail {

NativeSocket newUdpSocket(int family)
{
    return ::socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

} // namespace detail

Transfer receiveFrom(const Socket &s, void *buffer, std::size_t size, Address *from)
{
    socklen_t len = Address::Capacity;
    const ssize_t n = ::recvfrom(s.handle(), buffer, size, MSG_DONTWAIT, static_cast<sockaddr *>(from->raw()), &len);
    if (n >= 0) {
        from->setLength(unsigned(len));
        return {n, IoStatus::Ok, 0};
    }
    const int e = errno;
    return {0, e == EINTR || e == EAGAIN ? IoStatus::Timeout : IoStatus::Error, e};
}

bool isDatagramTooLarge(int systemError)
{
    return systemError == EMSGSIZE;
}

bool isPortUnreachable(int systemError)
{
    return systemError == ECONNREFUSED;
}

bool isNoBufferSpace(int systemError)
{
    return systemError == ENOBUFS;
}

bool setDontFragment(const Socket &s, QString *error)
{
    sockaddr_storage local{};
    socklen_t len = sizeof local;
    if (::getsockname(s.handle(), reinterpret_cast<sockaddr *>(&local), &len) != 0) {
        *error = QStringLiteral("cannot set don't-fragment: %1").arg(systemErrorText(errno));
        return false;
    }
    const int v4 = IP_PMTUDISC_DO;
    if (local.ss_family == AF_INET6) {
        const int v6 = IPV6_PMTUDISC_DO;
        if (::setsockopt(s.handle(), IPPROTO_IPV6, IPV6_MTU_DISCOVER, &v6, sizeof v6) != 0) {
            *error = QStringLiteral("cannot set don't-fragment: %1").arg(systemErrorText(errno));
            return false;
        }
        // A dual-stack socket talking to an IPv4 peer sends IPv4: it takes the IPv4 option too.
        ::setsockopt(s.handle(), IPPROTO_IP, IP_MTU_DISCOVER, &v4, sizeof v4);
        return true;
    }
    if (::setsockopt(s.handle(), IPPROTO_IP, IP_MTU_DISCOVER, &v4, sizeof v4) != 0) {
        *error = QStringLiteral("cannot set don't-fragment: %1").arg(systemErrorText(errno));
        return false;
    }
    return true;
}

int tcpMss(const Socket &s)
{
    int mss = 0;
    socklen_t len = sizeof mss;
    if (::getsockopt(s.handle(), IPPROTO_TCP, TCP_MAXSEG, &mss, &len) != 0)
        return 0;
    return mss;
}

} // namespace nb::net
