// SPDX-License-Identifier: GPL-3.0-or-later
// net/udp.h on Windows (Winsock 2): the calls that differ (the rest is udp.cpp). Differences
// from Linux the callers must not see:
// - an ICMP port unreachable shows up as WSAECONNRESET on the next receive (not
//   ECONNREFUSED); SIO_UDP_CONNRESET turns that report off;
// - IPV6_V6ONLY is on by default: the dual-stack stream sockets clear it.
#include "net/io_p.h"
#include "net/udp.h"
#include "net/winsock_windows.h"

// winsock2.h first; mingw-w64 defines SIO_UDP_CONNRESET in mswsock.h (it came in through
// io_windows.cpp while both sat in one unity unit).
#include <winsock2.h>

#include <mstcpip.h>
#include <mswsock.h>
#include <ws2tcpip.h>

namespace nb::net {

namespace detail {

NativeSocket newUdpSocket(int family)
{
    startWinsock();
    SOCKET s =
        WSASocketW(family, SOCK_DGRAM, IPPROTO_UDP, nullptr, 0, WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
    if (s == INVALID_SOCKET && WSAGetLastError() == WSAEINVAL)
        s = WSASocketW(family, SOCK_DGRAM, IPPROTO_UDP, nullptr, 0, WSA_FLAG_OVERLAPPED);
    if (s != INVALID_SOCKET) {
        BOOL off = FALSE;
        DWORD bytes = 0;
        WSAIoctl(s, SIO_UDP_CONNRESET, &off, sizeof off, nullptr, 0, &bytes, nullptr, nullptr);
    }
    return s;
}

} // namespace detail

Transfer receiveFrom(const Socket &s, void *buffer, std::size_t size, Address *from)
{
    // The socket is blocking: take a datagram only when select says one is waiting.
    fd_set set;
    FD_ZERO(&set);
    FD_SET(s.handle(), &set);
    timeval tv{0, 0};
    if (select(0, &set, nullptr, nullptr, &tv) <= 0)
        return {0, IoStatus::Timeout, 0};
    int len = int(Address::Capacity);
    const int n =
        recvfrom(s.handle(), static_cast<char *>(buffer), int(size), 0, static_cast<sockaddr *>(from->raw()), &len);
    if (n >= 0) {
        from->setLength(unsigned(len));
        return {n, IoStatus::Ok, 0};
    }
    const int e = WSAGetLastError();
    if (e == WSAEMSGSIZE) { // truncated to the buffer: still one datagram
        from->setLength(unsigned(len));
        return {std::int64_t(size), IoStatus::Ok, 0};
    }
    return {0, e == WSAEWOULDBLOCK || e == WSAEINTR ? IoStatus::Timeout : IoStatus::Error, e};
}

bool isDatagramTooLarge(int systemError)
{
    return systemError == WSAEMSGSIZE;
}

bool isPortUnreachable(int systemError)
{
    return systemError == WSAECONNRESET || systemError == WSAECONNREFUSED;
}

bool isNoBufferSpace(int systemError)
{
    return systemError == WSAENOBUFS;
}

bool setDontFragment(const Socket &s, QString *error)
{
    sockaddr_storage local{};
    int len = sizeof local;
    if (getsockname(s.handle(), reinterpret_cast<sockaddr *>(&local), &len) != 0) {
        *error = QStringLiteral("cannot set don't-fragment: %1").arg(systemErrorText(WSAGetLastError()));
        return false;
    }
    const DWORD on = 1;
    const char *value = reinterpret_cast<const char *>(&on);
    if (local.ss_family == AF_INET6) {
        if (setsockopt(s.handle(), IPPROTO_IPV6, IPV6_DONTFRAG, value, sizeof on) != 0) {
            *error = QStringLiteral("cannot set don't-fragment: %1").arg(systemErrorText(WSAGetLastError()));
            return false;
        }
        // A dual-stack socket talking to an IPv4 peer sends IPv4: it takes the IPv4 option too.
        setsockopt(s.handle(), IPPROTO_IP, IP_DONTFRAGMENT, value, sizeof on);
        return true;
    }
    if (setsockopt(s.handle(), IPPROTO_IP, IP_DONTFRAGMENT, value, sizeof on) != 0) {
        *error = QStringLiteral("cannot set don't-fragment: %1").arg(systemErrorText(WSAGetLastError()));
        return false;
    }
    return true;
}

int tcpMss(const Socket &s)
{
    int mss = 0;
    int len = sizeof mss;
    if (getsockopt(s.handle(), IPPROTO_TCP, TCP_MAXSEG, reinterpret_cast<char *>(&mss), &len) != 0)
        return 0;
    return mss;
}

} // namespace nb::net
