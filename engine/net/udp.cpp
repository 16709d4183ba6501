// SPDX-License-Identifier: GPL-3.0-or-later
// net/udp.h, the part every system shares: opening, binding and connecting UDP sockets
// over getaddrinfo. The calls that differ (creating the socket, receiving, the error codes,
// don't-fragment) are udp_linux.cpp and udp_windows.cpp.
#include "net/udp.h"
#include "net/io_p.h"
#include "net/resolve_p.h"

#ifdef _WIN32
#include <winsock2.h>
#include <ws2tcpip.h>
#else
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#endif

namespace nb::net {

namespace {

// Option values go through a char pointer: Winsock wants one, and Linux takes any pointer.
bool setIntOption(const Socket &s, int level, int name, int value)
{
    return ::setsockopt(s.handle(), level, name, reinterpret_cast<const char *>(&value), sizeof value) == 0;
}

bool setUdpWindow(const Socket &s, std::uint32_t window, QString *error)
{
    if (window == 0)
        return true;
    if (!setIntOption(s, SOL_SOCKET, SO_SNDBUF, int(window)) || !setIntOption(s, SOL_SOCKET, SO_RCVBUF, int(window))) {
        *error = QStringLiteral("cannot set socket buffer size: %1").arg(systemErrorText(detail::lastSocketError()));
        return false;
    }
    return true;
}

bool bindTo(const Socket &s, const Address &local)
{
    return ::bind(s.handle(), static_cast<const sockaddr *>(local.raw()), socklen_t(local.length())) == 0;
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
        Socket c(detail::newUdpSocket(ai->ai_family));
        if (!c.valid()) {
            err = detail::lastSocketError();
            continue;
        }
        if (!bindAddress.isEmpty()) {
            const Address local =
                localAddressFor(bindAddress, ai->ai_family == AF_INET6 ? AddressFamily::IPv6 : AddressFamily::IPv4);
            if (!local.valid() || !bindTo(c, local)) {
                *error = QStringLiteral("cannot bind to %1").arg(bindAddress);
                freeaddrinfo(res);
                return {};
            }
        }
        if (!setUdpWindow(c, window, error)) {
            freeaddrinfo(res);
            return {};
        }
        if (::connect(c.handle(), ai->ai_addr, socklen_t(ai->ai_addrlen)) == 0)
            s = std::move(c);
        else
            err = detail::lastSocketError();
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
    Socket s(detail::newUdpSocket(family));
    if (!s.valid()) {
        *error = QStringLiteral("cannot open a UDP socket: %1").arg(systemErrorText(detail::lastSocketError()));
        return {};
    }
    setIntOption(s, SOL_SOCKET, SO_REUSEADDR, 1);
    if (family == AF_INET6)
        setIntOption(s, IPPROTO_IPV6, IPV6_V6ONLY, 0);
    if (!setUdpWindow(s, window, error))
        return {};
    if (!bindTo(s, local)) {
        *error = QStringLiteral("cannot bind a UDP socket to %1: %2")
                     .arg(local.toString(), systemErrorText(detail::lastSocketError()));
        return {};
    }
    return s;
}

} // namespace nb::net
