// SPDX-License-Identifier: GPL-3.0-or-later
// net/socket.h on Linux (POSIX sockets plus TCP_INFO and TCP_CONGESTION).
#include "net/socket.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace nb::net {

Socket &Socket::operator=(Socket &&o) noexcept
{
    if (this != &o)
        reset(o.release());
    return *this;
}

void Socket::reset(Handle h)
{
    if (m_handle != Invalid)
        ::close(m_handle);
    m_handle = h;
}

Socket Socket::duplicate() const
{
    return Socket(valid() ? ::fcntl(m_handle, F_DUPFD_CLOEXEC, 0) : Invalid);
}

QString systemErrorText(int code)
{
    return QString::fromLocal8Bit(std::strerror(code));
}

bool applyOptions(const Socket &s, const SocketOptions &o, QString *error)
{
    const int fd = s.handle();
    if (o.window > 0) {
        const int w = int(o.window);
        if (::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof w) < 0 ||
            ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof w) < 0) {
            *error = QStringLiteral("cannot set socket buffer size: %1").arg(systemErrorText(errno));
            return false;
        }
    }
    if (o.mss > 0 && ::setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &o.mss, sizeof o.mss) < 0) {
        *error = QStringLiteral("cannot set MSS to %1: %2").arg(o.mss).arg(systemErrorText(errno));
        return false;
    }
    if (o.noDelay) {
        const int one = 1;
        if (::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) {
            *error = QStringLiteral("cannot set TCP_NODELAY: %1").arg(systemErrorText(errno));
            return false;
        }
    }
#ifdef TCP_CONGESTION
    if (!o.congestion.isEmpty()) {
        const QByteArray name = o.congestion.toLatin1();
        if (::setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name.constData(), socklen_t(name.size())) < 0) {
            *error = QStringLiteral("cannot use congestion control '%1': %2 (see "
                                    "/proc/sys/net/ipv4/tcp_allowed_congestion_control)")
                         .arg(o.congestion, systemErrorText(errno));
            return false;
        }
    }
#endif
    if (o.pacingBytesPerSecond > 0) {
        // A 64-bit rate since Linux 4.20 (older kernels take 32 bits: 34 Gbit/s at most).
        const std::uint64_t rate = o.pacingBytesPerSecond;
        if (::setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &rate, sizeof rate) < 0) {
            *error = QStringLiteral("cannot pace the socket at %1 bytes/s: %2").arg(rate).arg(systemErrorText(errno));
            return false;
        }
    }
    return true;
}

void setNoDelay(const Socket &s)
{
    const int one = 1;
    ::setsockopt(s.handle(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

bool setDscp(const Socket &s, int dscp, QString *error)
{
    const int tos = (dscp & 0x3f) << 2; // DSCP is the top six bits; ECN keeps the low two
    sockaddr_storage local{};
    socklen_t len = sizeof local;
    if (::getsockname(s.handle(), reinterpret_cast<sockaddr *>(&local), &len) != 0) {
        *error = QStringLiteral("cannot mark the socket with DSCP %1: %2")
                     .arg(dscp)
                     .arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    // An IPv6 socket may carry IPv4 (mapped addresses): the TOS is set too where it applies.
    const bool v6 = local.ss_family == AF_INET6;
    const int rc = v6 ? ::setsockopt(s.handle(), IPPROTO_IPV6, IPV6_TCLASS, &tos, sizeof tos)
                      : ::setsockopt(s.handle(), IPPROTO_IP, IP_TOS, &tos, sizeof tos);
    if (rc != 0) {
        *error = QStringLiteral("cannot mark the socket with DSCP %1: %2")
                     .arg(dscp)
                     .arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    if (v6)
        ::setsockopt(s.handle(), IPPROTO_IP, IP_TOS, &tos, sizeof tos);
    return true;
}

bool setKeepAlive(const Socket &s, int idleSecs, int intervalSecs, int count)
{
    const int fd = s.handle();
    const int one = 1;
    return ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one) == 0 &&
           ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idleSecs, sizeof idleSecs) == 0 &&
           ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intervalSecs, sizeof intervalSecs) == 0 &&
           ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count) == 0;
}

bool setNonBlocking(const Socket &s, bool on)
{
    const int flags = ::fcntl(s.handle(), F_GETFL);
    return flags >= 0 && ::fcntl(s.handle(), F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) == 0;
}

void setTimeouts(const Socket &s, int receiveMs, int sendMs)
{
    if (receiveMs >= 0) {
        const timeval tv{receiveMs / 1000, (receiveMs % 1000) * 1000};
        ::setsockopt(s.handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    if (sendMs >= 0) {
        const timeval tv{sendMs / 1000, (sendMs % 1000) * 1000};
        ::setsockopt(s.handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    }
}

void shutdownBoth(const Socket &s)
{
    if (s.valid())
        ::shutdown(s.handle(), SHUT_RDWR);
}

QString congestion(const Socket &s)
{
#ifdef TCP_CONGESTION
    char name[32] = {};
    socklen_t len = sizeof name;
    if (::getsockopt(s.handle(), IPPROTO_TCP, TCP_CONGESTION, name, &len) == 0)
        return QString::fromLatin1(name);
#endif
    return {};
}

std::int64_t unreadBytes(const Socket &s)
{
    int n = 0;
    return ::ioctl(s.handle(), FIONREAD, &n) == 0 ? std::int64_t(n) : -1;
}

bool readTcpInfo(const Socket &s, TcpInfo *out)
{
    tcp_info info{};
    socklen_t len = sizeof info;
    if (::getsockopt(s.handle(), IPPROTO_TCP, TCP_INFO, &info, &len) < 0)
        return false;
    out->totalRetransmits = info.tcpi_total_retrans;
    out->cwndBytes = std::int64_t(info.tcpi_snd_cwnd) * info.tcpi_snd_mss;
    out->rttUs = info.tcpi_rtt;
    out->rttVarUs = info.tcpi_rttvar;
    out->pmtu = info.tcpi_pmtu;
    out->sndMss = info.tcpi_snd_mss;
    return true;
}

} // namespace nb::net
