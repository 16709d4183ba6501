// SPDX-License-Identifier: GPL-3.0-or-later
// net/connect.h on Linux.
#include "net/connect.h"
#include "net/io.h"
#include "net/resolve_p.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

namespace nb::net {

namespace {

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
        rc = ::bind(s.handle(), ai->ai_addr, ai->ai_addrlen);
        err = errno;
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

// Non-blocking connect polled in slices, so a cancel request is honoured quickly.
int connectBounded(const Socket &s, const addrinfo *ai, Deadline deadline, const std::atomic<bool> *cancel)
{
    const int flags = ::fcntl(s.handle(), F_GETFL);
    ::fcntl(s.handle(), F_SETFL, flags | O_NONBLOCK);
    int rc = ::connect(s.handle(), ai->ai_addr, ai->ai_addrlen);
    if (rc < 0 && errno == EINPROGRESS) {
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0 || (cancel && cancel->load())) {
                errno = cancel && cancel->load() ? ECANCELED : ETIMEDOUT;
                rc = -1;
                break;
            }
            pollfd p{s.handle(), POLLOUT, 0};
            const int pr = ::poll(&p, 1, int(std::min<long long>(left, 100)));
            if (pr < 0 && errno != EINTR) {
                rc = -1;
                break;
            }
            if (pr > 0) {
                int soerr = 0;
                socklen_t len = sizeof soerr;
                ::getsockopt(s.handle(), SOL_SOCKET, SO_ERROR, &soerr, &len);
                errno = soerr;
                rc = soerr == 0 ? 0 : -1;
                break;
            }
        }
    }
    if (rc == 0)
        ::fcntl(s.handle(), F_SETFL, flags);
    return rc;
}

ErrorCode errorCodeOfConnect(int e)
{
    switch (e) {
    case ECONNREFUSED:
        return ErrorCode::Refused;
    case ETIMEDOUT:
        return ErrorCode::Timeout;
    case ECANCELED:
        return ErrorCode::Stopped;
    case EHOSTUNREACH:
    case ENETUNREACH:
    case ENETDOWN:
    case EHOSTDOWN:
        return ErrorCode::Unreachable;
    default:
        return ErrorCode::Io;
    }
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
        Socket s(::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (!s.valid()) {
            lastError = systemErrorText(errno);
            continue;
        }
        if (!applyOptions(s, options, &lastError) || !bindTo(s, bindAddress, ai->ai_family, &lastError))
            continue;
        if (connectBounded(s, ai, deadline, cancel) == 0) {
            freeaddrinfo(res);
            return s;
        }
        const int e = errno;
        lastError = e == ETIMEDOUT ? QStringLiteral("connection timed out") : systemErrorText(e);
        kind = errorCodeOfConnect(e);
    }
    freeaddrinfo(res);
    *error = QStringLiteral("cannot connect to %1 port %2: %3").arg(host).arg(port).arg(lastError);
    return {};
}

Socket openTcp(AddressFamily family, bool nonBlocking)
{
    return Socket(::socket(familyHint(family), SOCK_STREAM | SOCK_CLOEXEC | (nonBlocking ? SOCK_NONBLOCK : 0), 0));
}

bool bindLocal(const Socket &s, const Address &local)
{
    return local.valid() && ::bind(s.handle(), sa(local), local.length()) == 0;
}

bool connectTo(const Socket &s, const Address &target, QString *error)
{
    if (::connect(s.handle(), sa(target), target.length()) == 0)
        return true;
    *error = systemErrorText(errno);
    return false;
}

int startConnect(const Socket &s, const Address &target, QString *error)
{
    if (::connect(s.handle(), sa(target), target.length()) == 0)
        return 1;
    if (errno == EINPROGRESS || errno == EINTR)
        return 0;
    *error = systemErrorText(errno);
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
        Socket s(::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (!s.valid()) {
            lastError = systemErrorText(errno);
            continue;
        }
        const int one = 1, zero = 0;
        ::setsockopt(s.handle(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (ai->ai_family == AF_INET6)
            ::setsockopt(s.handle(), IPPROTO_IPV6, IPV6_V6ONLY, family == AddressFamily::IPv6 ? &one : &zero,
                         sizeof one);
        if (!applyOptions(s, options, &lastError))
            continue;
        if (::bind(s.handle(), ai->ai_addr, ai->ai_addrlen) < 0 || ::listen(s.handle(), 256) < 0) {
            lastError = systemErrorText(errno);
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
    socklen_t len = Address::Capacity;
    // On Linux the connection does not inherit the listener's O_NONBLOCK: accept4 says.
    Socket s(::accept4(listener.handle(), static_cast<sockaddr *>(a.raw()), &len,
                       SOCK_CLOEXEC | (nonBlocking ? SOCK_NONBLOCK : 0)));
    if (!s.valid())
        return {};
    a.setLength(unsigned(len));
    if (peer)
        *peer = a;
    return s;
}

} // namespace nb::net
