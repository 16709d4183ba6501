// SPDX-License-Identifier: GPL-3.0-or-later
// net/connect.h on Windows (Winsock 2).
//
// Windows differs from Linux here in ways the callers must not see:
// - a non-blocking connect() fails with WSAEWOULDBLOCK (not EINPROGRESS), and its failure
//   is reported by select() in the except set (WSAPoll on Windows before 10 2004 may not
//   report it at all), with the reason in SO_ERROR;
// - a blocking connect() ignores SO_SNDTIMEO, so connectTo() bounds it itself;
// - SO_REUSEADDR lets another program bind the same port (port hijacking): listeners use
//   SO_EXCLUSIVEADDRUSE instead;
// - IPV6_V6ONLY is on by default (off on Linux): dual-stack listeners clear it;
// - an accepted socket inherits the listener's non-blocking mode: it is set explicitly.
#include "net/connect.h"
#include "net/io.h"
#include "net/winsock_windows.h"

#include <winsock2.h>
#include <ws2tcpip.h>

#include <algorithm>

namespace nb::net {

namespace {

// Our own code for a connect abandoned because the caller asked to stop.
constexpr int Cancelled = -2;

const sockaddr *sa(const Address &a)
{
    return static_cast<const sockaddr *>(a.raw());
}

bool bindTo(const Socket &s, const QString &bindAddress, int family, QString *error)
{
    if (bindAddress.isEmpty())
        return true;
    addrinfo *res = nullptr;
    if (!resolve(bindAddress, 0, family, true, &res, error))
        return false;
    int rc = -1;
    int err = 0;
    for (addrinfo *ai = res; ai; ai = ai->ai_next) {
        if (ai->ai_family != family)
            continue;
        rc = ::bind(s.handle(), ai->ai_addr, int(ai->ai_addrlen));
        err = rc == 0 ? 0 : WSAGetLastError();
        if (rc == 0)
            break;
    }
    freeaddrinfo(res);
    if (rc != 0) {
        *error = QStringLiteral("cannot bind to %1: %2")
                     .arg(bindAddress, err ? systemErrorText(err) : QStringLiteral("address family mismatch"));
        return false;
    }
    return true;
}

// Non-blocking connect waited for with select() in slices, so a cancel request is
// honoured quickly; leaves the socket blocking. Returns 0 or the Winsock error.
int connectBounded(const Socket &s, const sockaddr *addr, int length, Deadline deadline,
                   const std::atomic<bool> *cancel)
{
    if (!setNonBlocking(s, true))
        return WSAGetLastError();
    int err = 0;
    if (::connect(s.handle(), addr, length) != 0) {
        err = WSAGetLastError();
        while (err == WSAEWOULDBLOCK) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (cancel && cancel->load())
                return Cancelled;
            if (left <= 0)
                return WSAETIMEDOUT;
            const long slice = long(std::min<long long>(left, 100));
            timeval tv{slice / 1000, (slice % 1000) * 1000};
            fd_set writable, failed;
            FD_ZERO(&writable);
            FD_ZERO(&failed);
            FD_SET(s.handle(), &writable);
            FD_SET(s.handle(), &failed);
            const int rc = ::select(0, nullptr, &writable, &failed, &tv);
            if (rc == SOCKET_ERROR)
                return WSAGetLastError();
            if (rc > 0) {
                err = FD_ISSET(s.handle(), &failed) ? pendingError(s.handle()) : 0;
                if (FD_ISSET(s.handle(), &failed) && err == 0)
                    err = WSAECONNREFUSED; // failed without a reason: the usual one
            }
        }
    }
    if (err == 0 && !setNonBlocking(s, false))
        err = WSAGetLastError();
    return err;
}

ErrorCode errorCodeOfConnect(int e)
{
    switch (e) {
    case WSAECONNREFUSED:
        return ErrorCode::Refused;
    case WSAETIMEDOUT:
        return ErrorCode::Timeout;
    case Cancelled:
        return ErrorCode::Stopped;
    case WSAEHOSTUNREACH:
    case WSAENETUNREACH:
    case WSAENETDOWN:
    case WSAEHOSTDOWN:
        return ErrorCode::Unreachable;
    default:
        return ErrorCode::Io;
    }
}

QString connectErrorText(int e)
{
    if (e == WSAETIMEDOUT)
        return QStringLiteral("connection timed out");
    if (e == Cancelled)
        return QStringLiteral("cancelled");
    return systemErrorText(e);
}

} // namespace

Socket connectTcp(const QString &host, quint16 port, AddressFamily family, const QString &bindAddress,
                  const SocketOptions &options, int timeoutMs, QString *error, const std::atomic<bool> *cancel,
                  ErrorCode *code)
{
    ErrorCode ignored;
    ErrorCode &kind = code ? *code : ignored;
    kind = ErrorCode::None;
    addrinfo *res = nullptr;
    if (!resolve(host, port, familyHint(family), false, &res, error)) {
        kind = ErrorCode::Resolve;
        return {};
    }
    QString lastError = QStringLiteral("no usable address");
    kind = ErrorCode::Io;
    const Deadline deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    for (addrinfo *ai = res; ai; ai = ai->ai_next) {
        Socket s(newTcpSocket(ai->ai_family));
        if (!s.valid()) {
            lastError = systemErrorText(WSAGetLastError());
            continue;
        }
        if (!applyOptions(s, options, &lastError) || !bindTo(s, bindAddress, ai->ai_family, &lastError))
            continue;
        const int e = connectBounded(s, ai->ai_addr, int(ai->ai_addrlen), deadline, cancel);
        if (e == 0) {
            freeaddrinfo(res);
            return s;
        }
        lastError = connectErrorText(e);
        kind = errorCodeOfConnect(e);
    }
    freeaddrinfo(res);
    *error = QStringLiteral("cannot connect to %1 port %2: %3").arg(host).arg(port).arg(lastError);
    return {};
}

Socket openTcp(AddressFamily family, bool nonBlocking)
{
    Socket s(newTcpSocket(familyHint(family)));
    if (s.valid() && nonBlocking && !setNonBlocking(s))
        return {};
    return s;
}

bool bindLocal(const Socket &s, const Address &local)
{
    return local.valid() && ::bind(s.handle(), sa(local), int(local.length())) == 0;
}

bool connectTo(const Socket &s, const Address &target, QString *error)
{
    // Linux bounds a blocking connect by the send timeout; Windows does not, so do it here.
    DWORD timeoutMs = 0;
    int len = sizeof timeoutMs;
    ::getsockopt(s.handle(), SOL_SOCKET, SO_SNDTIMEO, reinterpret_cast<char *>(&timeoutMs), &len);
    int e = 0;
    if (timeoutMs > 0)
        e = connectBounded(s, sa(target), int(target.length()), Clock::now() + std::chrono::milliseconds(timeoutMs),
                           nullptr);
    else if (::connect(s.handle(), sa(target), int(target.length())) != 0)
        e = WSAGetLastError();
    if (e == 0)
        return true;
    *error = connectErrorText(e);
    return false;
}

int startConnect(const Socket &s, const Address &target, QString *error)
{
    if (::connect(s.handle(), sa(target), int(target.length())) == 0)
        return 1;
    const int e = WSAGetLastError();
    if (e == WSAEWOULDBLOCK || e == WSAEINPROGRESS || e == WSAEINTR)
        return 0;
    *error = systemErrorText(e);
    return -1;
}

Socket listenTcp(const QString &bindAddress, quint16 port, AddressFamily family, const SocketOptions &options,
                 QString *error)
{
    addrinfo *res = nullptr;
    // With no address and no family, prefer an IPv6 wildcard that also accepts IPv4.
    const int hint = bindAddress.isEmpty() && family == AddressFamily::Any ? AF_INET6 : familyHint(family);
    if (!resolve(bindAddress, port, hint, true, &res, error))
        return {};
    QString lastError = QStringLiteral("no usable address");
    for (addrinfo *ai = res; ai; ai = ai->ai_next) {
        Socket s(newTcpSocket(ai->ai_family));
        if (!s.valid()) {
            lastError = systemErrorText(WSAGetLastError());
            continue;
        }
        const DWORD one = 1, zero = 0;
        // Nobody else may bind this port while we listen (SO_REUSEADDR would allow it).
        ::setsockopt(s.handle(), SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char *>(&one), sizeof one);
        // Windows defaults IPV6_V6ONLY to on: set it either way, as Linux gets it.
        if (ai->ai_family == AF_INET6)
            ::setsockopt(s.handle(), IPPROTO_IPV6, IPV6_V6ONLY,
                         reinterpret_cast<const char *>(family == AddressFamily::IPv6 ? &one : &zero), sizeof one);
        if (!applyOptions(s, options, &lastError))
            continue;
        if (::bind(s.handle(), ai->ai_addr, int(ai->ai_addrlen)) != 0 || ::listen(s.handle(), 256) != 0) {
            lastError = systemErrorText(WSAGetLastError());
            continue;
        }
        freeaddrinfo(res);
        return s;
    }
    freeaddrinfo(res);
    if (hint == AF_INET6 && bindAddress.isEmpty()) // no IPv6 on this host: fall back to IPv4
        return listenTcp(QStringLiteral("0.0.0.0"), port, AddressFamily::IPv4, options, error);
    *error = QStringLiteral("cannot listen on %1 port %2: %3")
                 .arg(bindAddress.isEmpty() ? QStringLiteral("*") : bindAddress)
                 .arg(port)
                 .arg(lastError);
    return {};
}

Socket acceptPending(const Socket &listener, Address *peer, bool nonBlocking)
{
    Address a;
    int len = int(Address::Capacity);
    Socket s(::accept(listener.handle(), static_cast<sockaddr *>(a.raw()), &len));
    if (!s.valid())
        return {};
    // The new socket has the listener's mode (unlike Linux's accept4): say which we want.
    if (!setNonBlocking(s, nonBlocking))
        return {};
    a.setLength(unsigned(len));
    if (peer)
        *peer = a;
    return s;
}

} // namespace nb::net
