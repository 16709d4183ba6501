// SPDX-License-Identifier: GPL-3.0-or-later
// net/udp.h on Linux.
#include "net/resolve_linux.h"
#include "net/udp.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>

namespace nb::net {

namespace {

bool setWindow(int fd, std::uint32_t window, QString *error)
{
    if (window == 0)
        return true;
    const int w = int(window);
    if (::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof w) < 0 ||
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof w) < 0) {
        *error = QStringLiteral("cannot set socket buffer size: %1").arg(systemErrorText(errno));
        return false;
    }
    return true;
}

} // namespace

Socket connectUdp(const QString &host, quint16 port, AddressFamily family, const QString &bindAddress,
                  std::uint32_t window, QString *error)
{
    addrinfo *res = nullptr;
    if (!resolve(host, port, familyHint(family), false, &res, error))
        return {};
    Socket s;
    int err = 0;
    for (addrinfo *ai = res; ai && !s.valid(); ai = ai->ai_next) {
        Socket c(::socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0));
        if (!c.valid()) {
            err = errno;
            continue;
        }
        if (!bindAddress.isEmpty()) {
            const Address local =
                localAddressFor(bindAddress, ai->ai_family == AF_INET6 ? AddressFamily::IPv6 : AddressFamily::IPv4);
            if (!local.valid() || ::bind(c.handle(), static_cast<const sockaddr *>(local.raw()), local.length()) != 0) {
                *error = QStringLiteral("cannot bind to %1").arg(bindAddress);
                freeaddrinfo(res);
                return {};
            }
        }
        if (!setWindow(c.handle(), window, error)) {
            freeaddrinfo(res);
            return {};
        }
        if (::connect(c.handle(), ai->ai_addr, ai->ai_addrlen) == 0)
            s = std::move(c);
        else
            err = errno;
    }
    freeaddrinfo(res);
    if (!s.valid())
        *error =
            QStringLiteral("cannot open a UDP socket to %1 port %2: %3").arg(host).arg(port).arg(systemErrorText(err));
    return s;
}

Socket bindUdp(const Address &local, std::uint32_t window, QString *error)
{
    const int family = static_cast<const sockaddr *>(local.raw())->sa_family;
    Socket s(::socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!s.valid()) {
        *error = QStringLiteral("cannot open a UDP socket: %1").arg(systemErrorText(errno));
        return {};
    }
    const int one = 1, zero = 0;
    ::setsockopt(s.handle(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (family == AF_INET6)
        ::setsockopt(s.handle(), IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    if (!setWindow(s.handle(), window, error))
        return {};
    if (::bind(s.handle(), static_cast<const sockaddr *>(local.raw()), local.length()) != 0) {
        *error = QStringLiteral("cannot bind a UDP socket to %1: %2").arg(local.toString(), systemErrorText(errno));
        return {};
    }
    return s;
}

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
