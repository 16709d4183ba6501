// SPDX-License-Identifier: GPL-3.0-or-later
#include "net/socketio.h"

#include "protocol/protocol.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nb::net {

Fd &Fd::operator=(Fd &&o) noexcept
{
    if (this != &o)
        reset(o.release());
    return *this;
}

void Fd::reset(int fd)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

QString Address::host() const
{
    char buf[INET6_ADDRSTRLEN] = {};
    if (family() == AF_INET) {
        auto *a = reinterpret_cast<const sockaddr_in *>(&storage);
        inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf);
    } else if (family() == AF_INET6) {
        auto *a = reinterpret_cast<const sockaddr_in6 *>(&storage);
        if (IN6_IS_ADDR_V4MAPPED(&a->sin6_addr))
            inet_ntop(AF_INET, &a->sin6_addr.s6_addr[12], buf, sizeof buf);
        else
            inet_ntop(AF_INET6, &a->sin6_addr, buf, sizeof buf);
    }
    return QString::fromLatin1(buf);
}

quint16 Address::port() const
{
    if (family() == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in *>(&storage)->sin_port);
    if (family() == AF_INET6)
        return ntohs(reinterpret_cast<const sockaddr_in6 *>(&storage)->sin6_port);
    return 0;
}

QString Address::toString() const
{
    const QString h = host();
    return h.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(h).arg(port())
                                        : QStringLiteral("%1:%2").arg(h).arg(port());
}

static QString errnoText(int e)
{
    return QString::fromLocal8Bit(std::strerror(e));
}

bool applyOptions(int fd, const SocketOptions &o, QString *error)
{
    if (o.window > 0) {
        const int w = int(o.window);
        if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof w) < 0 ||
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof w) < 0) {
            *error = QStringLiteral("cannot set socket buffer size: %1").arg(errnoText(errno));
            return false;
        }
    }
    if (o.mss > 0 && setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &o.mss, sizeof o.mss) < 0) {
        *error = QStringLiteral("cannot set MSS to %1: %2").arg(o.mss).arg(errnoText(errno));
        return false;
    }
    if (o.noDelay) {
        const int one = 1;
        if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) {
            *error = QStringLiteral("cannot set TCP_NODELAY: %1").arg(errnoText(errno));
            return false;
        }
    }
#ifdef TCP_CONGESTION
    if (!o.congestion.isEmpty()) {
        const QByteArray name = o.congestion.toLatin1();
        if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name.constData(), socklen_t(name.size())) < 0) {
            *error = QStringLiteral("cannot use congestion control '%1': %2 (see "
                                    "/proc/sys/net/ipv4/tcp_allowed_congestion_control)")
                         .arg(o.congestion, errnoText(errno));
            return false;
        }
    }
#endif
    return true;
}

static int familyHint(AddressFamily f)
{
    return f == AddressFamily::IPv4 ? AF_INET : f == AddressFamily::IPv6 ? AF_INET6 : AF_UNSPEC;
}

static bool resolve(const QString &host, quint16 port, int family, bool passive, addrinfo **out, QString *error)
{
    addrinfo hints{};
    hints.ai_family = family;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = passive ? AI_PASSIVE : 0;
    const QByteArray h = host.toUtf8();
    const QByteArray p = QByteArray::number(port);
    const int rc = getaddrinfo(h.isEmpty() ? nullptr : h.constData(), p.constData(), &hints, out);
    if (rc != 0) {
        *error = QStringLiteral("cannot resolve '%1': %2").arg(host, QString::fromLocal8Bit(gai_strerror(rc)));
        return false;
    }
    return true;
}

static bool bindTo(int fd, const QString &bindAddress, int family, QString *error)
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
        rc = ::bind(fd, ai->ai_addr, ai->ai_addrlen);
        err = errno;
        if (rc == 0)
            break;
    }
    freeaddrinfo(res);
    if (rc != 0) {
        *error = QStringLiteral("cannot bind to %1: %2")
                     .arg(bindAddress, err ? errnoText(err) : QStringLiteral("address family mismatch"));
        return false;
    }
    return true;
}

Fd connectTcp(const QString &host, quint16 port, AddressFamily family, const QString &bindAddress,
              const SocketOptions &options, int timeoutMs, QString *error, const std::atomic<bool> *cancel)
{
    addrinfo *res = nullptr;
    if (!resolve(host, port, familyHint(family), false, &res, error))
        return {};
    QString lastError = QStringLiteral("no usable address");
    const Deadline deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    for (addrinfo *ai = res; ai; ai = ai->ai_next) {
        Fd fd(::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (!fd.valid()) {
            lastError = errnoText(errno);
            continue;
        }
        if (!applyOptions(fd.get(), options, &lastError) || !bindTo(fd.get(), bindAddress, ai->ai_family, &lastError))
            continue;
        const int flags = fcntl(fd.get(), F_GETFL);
        fcntl(fd.get(), F_SETFL, flags | O_NONBLOCK);
        int rc = ::connect(fd.get(), ai->ai_addr, ai->ai_addrlen);
        if (rc < 0 && errno == EINPROGRESS) {
            // Poll in slices so a cancel request is honoured quickly.
            for (;;) {
                const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
                if (left <= 0 || (cancel && cancel->load())) {
                    errno = cancel && cancel->load() ? ECANCELED : ETIMEDOUT;
                    rc = -1;
                    break;
                }
                pollfd p{fd.get(), POLLOUT, 0};
                const int pr = ::poll(&p, 1, int(std::min<long long>(left, 100)));
                if (pr < 0 && errno != EINTR) {
                    rc = -1;
                    break;
                }
                if (pr > 0) {
                    int soerr = 0;
                    socklen_t len = sizeof soerr;
                    getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &soerr, &len);
                    errno = soerr;
                    rc = soerr == 0 ? 0 : -1;
                    break;
                }
            }
        }
        if (rc == 0) {
            fcntl(fd.get(), F_SETFL, flags);
            freeaddrinfo(res);
            return fd;
        }
        lastError = errno == ETIMEDOUT ? QStringLiteral("connection timed out") : errnoText(errno);
    }
    freeaddrinfo(res);
    *error = QStringLiteral("cannot connect to %1 port %2: %3").arg(host).arg(port).arg(lastError);
    return {};
}

Fd listenTcp(const QString &bindAddress, quint16 port, AddressFamily family, const SocketOptions &options,
             QString *error)
{
    addrinfo *res = nullptr;
    // With no address and no family, prefer an IPv6 wildcard that also accepts IPv4.
    const int hint = bindAddress.isEmpty() && family == AddressFamily::Any ? AF_INET6 : familyHint(family);
    if (!resolve(bindAddress, port, hint, true, &res, error))
        return {};
    QString lastError = QStringLiteral("no usable address");
    for (addrinfo *ai = res; ai; ai = ai->ai_next) {
        Fd fd(::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
        if (!fd.valid()) {
            lastError = errnoText(errno);
            continue;
        }
        const int one = 1, zero = 0;
        setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (ai->ai_family == AF_INET6)
            setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, family == AddressFamily::IPv6 ? &one : &zero, sizeof one);
        if (!applyOptions(fd.get(), options, &lastError))
            continue;
        if (::bind(fd.get(), ai->ai_addr, ai->ai_addrlen) < 0 || ::listen(fd.get(), 256) < 0) {
            lastError = errnoText(errno);
            continue;
        }
        freeaddrinfo(res);
        return fd;
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

Fd acceptTcp(int listenFd, int timeoutMs, Address *peer)
{
    if (waitReadable(listenFd, timeoutMs) <= 0)
        return {};
    Address a;
    a.length = sizeof a.storage;
    const int fd = ::accept4(listenFd, reinterpret_cast<sockaddr *>(&a.storage), &a.length, SOCK_CLOEXEC);
    if (fd < 0)
        return {};
    if (peer)
        *peer = a;
    return Fd(fd);
}

Address localAddressFor(const QString &host, int family)
{
    Address a;
    addrinfo *res = nullptr;
    QString err;
    if (!resolve(host, 0, family, true, &res, &err))
        return a;
    for (addrinfo *ai = res; ai; ai = ai->ai_next) {
        if (ai->ai_family == family && ai->ai_addrlen <= sizeof a.storage) {
            std::memcpy(&a.storage, ai->ai_addr, ai->ai_addrlen);
            a.length = ai->ai_addrlen;
            break;
        }
    }
    freeaddrinfo(res);
    return a;
}

Address resolveAddress(const QString &host, quint16 port, int family, QString *error)
{
    Address a;
    addrinfo *res = nullptr;
    if (!resolve(host, port, family, false, &res, error))
        return a;
    if (res && res->ai_addrlen <= sizeof a.storage) {
        std::memcpy(&a.storage, res->ai_addr, res->ai_addrlen);
        a.length = res->ai_addrlen;
    }
    freeaddrinfo(res);
    return a;
}

Address localAddress(int fd)
{
    Address a;
    a.length = sizeof a.storage;
    getsockname(fd, reinterpret_cast<sockaddr *>(&a.storage), &a.length);
    return a;
}

Address peerAddress(int fd)
{
    Address a;
    a.length = sizeof a.storage;
    getpeername(fd, reinterpret_cast<sockaddr *>(&a.storage), &a.length);
    return a;
}

quint16 localPort(int fd)
{
    return localAddress(fd).port();
}

int waitReadable(int fd, int timeoutMs)
{
    pollfd p{fd, POLLIN, 0};
    for (;;) {
        const int rc = ::poll(&p, 1, timeoutMs);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0)
            return -1;
        return rc > 0 ? 1 : 0;
    }
}

static int msLeft(Deadline d)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(d - Clock::now()).count();
    return left <= 0 ? 0 : int(std::min<long long>(left, 1 << 30));
}

IoStatus readExact(int fd, void *buffer, std::size_t size, Deadline deadline, QString *error,
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
        const int w = waitReadable(fd, cancel ? std::min(left, 100) : left);
        if (w < 0) {
            *error = errnoText(errno);
            return IoStatus::Error;
        }
        if (w == 0)
            continue;
        const ssize_t n = ::recv(fd, p + got, size - got, 0);
        if (n == 0) {
            *error = QStringLiteral("the peer closed the connection");
            return IoStatus::Closed;
        }
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            *error = errno == ECONNRESET ? QStringLiteral("the peer reset the connection") : errnoText(errno);
            return errno == ECONNRESET ? IoStatus::Closed : IoStatus::Error;
        }
        got += std::size_t(n);
    }
    return IoStatus::Ok;
}

IoStatus writeAll(int fd, const void *data, std::size_t size, Deadline deadline, QString *error)
{
    auto *p = static_cast<const char *>(data);
    std::size_t sent = 0;
    while (sent < size) {
        const int left = msLeft(deadline);
        if (left == 0) {
            *error = QStringLiteral("timed out writing to the peer");
            return IoStatus::Timeout;
        }
        pollfd pf{fd, POLLOUT, 0};
        const int pr = ::poll(&pf, 1, left);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            continue;
        const ssize_t n = ::send(fd, p + sent, size - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            *error = (errno == EPIPE || errno == ECONNRESET) ? QStringLiteral("the peer closed the connection")
                                                             : errnoText(errno);
            return (errno == EPIPE || errno == ECONNRESET) ? IoStatus::Closed : IoStatus::Error;
        }
        sent += std::size_t(n);
    }
    return IoStatus::Ok;
}

IoStatus readState(int fd, std::int8_t *state, Deadline deadline, QString *error, const std::atomic<bool> *cancel)
{
    char c = 0;
    const IoStatus s = readExact(fd, &c, 1, deadline, error, cancel);
    if (s == IoStatus::Ok)
        *state = std::int8_t(c);
    return s;
}

IoStatus writeState(int fd, std::int8_t state, Deadline deadline, QString *error)
{
    const char c = char(state);
    return writeAll(fd, &c, 1, deadline, error);
}

IoStatus readJson(int fd, QJsonObject *object, Deadline deadline, QString *error)
{
    proto::JsonFrameDecoder decoder;
    char buf[65536];
    for (;;) {
        const std::size_t want = std::min(decoder.bytesWanted(), sizeof buf);
        const IoStatus s = readExact(fd, buf, want, deadline, error);
        if (s != IoStatus::Ok)
            return s;
        std::size_t used = 0;
        switch (decoder.feed(buf, want, &used)) {
        case proto::JsonFrameDecoder::Status::NeedMore:
            continue;
        case proto::JsonFrameDecoder::Status::Complete:
            *object = decoder.object();
            return IoStatus::Ok;
        case proto::JsonFrameDecoder::Status::Error:
            *error = decoder.error();
            return IoStatus::Error;
        }
    }
}

IoStatus writeJson(int fd, const QJsonObject &object, Deadline deadline, QString *error)
{
    const QByteArray frame = proto::frameJson(object);
    return writeAll(fd, frame.constData(), std::size_t(frame.size()), deadline, error);
}

QString ioStatusText(IoStatus s)
{
    switch (s) {
    case IoStatus::Ok: return QStringLiteral("ok");
    case IoStatus::Timeout: return QStringLiteral("timed out");
    case IoStatus::Closed: return QStringLiteral("connection closed");
    case IoStatus::Error: return QStringLiteral("error");
    case IoStatus::Cancelled: return QStringLiteral("cancelled");
    }
    return {};
}

} // namespace nb::net
