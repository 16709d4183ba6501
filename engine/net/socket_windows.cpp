// SPDX-License-Identifier: GPL-3.0-or-later
// net/socket.h on Windows: Winsock 2 SOCKET handles, options, SIO_TCP_INFO.
//
// Differences from Linux that callers never see:
// - SO_RCVTIMEO / SO_SNDTIMEO take a DWORD of milliseconds, and a call that times out
//   fails with WSAETIMEDOUT (io_windows.cpp reads that as "not now").
// - Congestion control is a system-wide setting on Windows (netsh), never per socket:
//   asking for one is an error, and congestion() is empty.
// - TCP_INFO is SIO_TCP_INFO (Windows 10 1703 and later); older systems and wine lack it.
#include "net/socket.h"
#include "net/winsock_windows.h"

// winsock2.h first, in a block of its own: the other Windows headers need its types.
#include <winsock2.h>

#include <mstcpip.h>
#include <windows.h>
#include <ws2tcpip.h>

#ifndef TCP_MAXSEG
#define TCP_MAXSEG 4 // ws2ipdef.h in the Windows SDK; some mingw-w64 releases lack it
#endif
#ifndef TCP_KEEPCNT
#define TCP_KEEPCNT 16 // ws2ipdef.h (Windows 10 1709 and later); mingw-w64 lacks it
#endif
#ifndef WSA_FLAG_NO_HANDLE_INHERIT
#define WSA_FLAG_NO_HANDLE_INHERIT 0x80
#endif

namespace nb::net {

namespace {

// SIO_TCP_INFO and TCP_INFO_v0 as documented by Microsoft (mstcpip.h, Windows 10 1703):
// the headers declare them only when building for Windows 10, and we build for Windows 7
// and ask at run time.
constexpr DWORD SioTcpInfo = _WSAIORW(IOC_VENDOR, 39);
struct TcpInfoV0 {
    int State; // TCPSTATE
    ULONG Mss;
    ULONG64 ConnectionTimeMs;
    BOOLEAN TimestampsEnabled;
    ULONG RttUs;
    ULONG MinRttUs;
    ULONG BytesInFlight;
    ULONG Cwnd;
    ULONG SndWnd;
    ULONG RcvWnd;
    ULONG RcvBuf;
    ULONG64 BytesOut;
    ULONG64 BytesIn;
    ULONG BytesReordered;
    ULONG BytesRetrans;
    ULONG FastRetrans;
    ULONG DupAcksIn;
    ULONG TimeoutEpisodes;
    UCHAR SynRetrans;
};

} // namespace

static_assert(Socket::Invalid == INVALID_SOCKET, "Socket::Invalid must be INVALID_SOCKET");
static_assert(sizeof(NativeSocket) == sizeof(SOCKET));

void startWinsock()
{
    // Never WSACleanup: sockets may be closed by static destructors after main() returns.
    static const int started = [] {
        WSADATA data;
        return WSAStartup(MAKEWORD(2, 2), &data);
    }();
    (void)started;
}

NativeSocket newTcpSocket(int family)
{
    startWinsock();
    SOCKET s =
        WSASocketW(family, SOCK_STREAM, IPPROTO_TCP, nullptr, 0, WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
    // WSA_FLAG_NO_HANDLE_INHERIT needs Windows 7 SP1; before it the flag is refused.
    if (s == INVALID_SOCKET && WSAGetLastError() == WSAEINVAL)
        s = WSASocketW(family, SOCK_STREAM, IPPROTO_TCP, nullptr, 0, WSA_FLAG_OVERLAPPED);
    return s;
}

int pendingError(NativeSocket s)
{
    int err = 0;
    int len = sizeof err;
    if (::getsockopt(s, SOL_SOCKET, SO_ERROR, reinterpret_cast<char *>(&err), &len) != 0)
        return WSAGetLastError();
    return err;
}

Socket &Socket::operator=(Socket &&o) noexcept
{
    if (this != &o)
        reset(o.release());
    return *this;
}

void Socket::reset(Handle h)
{
    if (m_handle != Invalid) {
        forgetPolled(m_handle);
        ::closesocket(m_handle);
    }
    m_handle = h;
}

Socket Socket::duplicate() const
{
    if (!valid())
        return {};
    WSAPROTOCOL_INFOW info;
    if (WSADuplicateSocketW(m_handle, GetCurrentProcessId(), &info) != 0)
        return {};
    return Socket(
        WSASocketW(FROM_PROTOCOL_INFO, FROM_PROTOCOL_INFO, FROM_PROTOCOL_INFO, &info, 0, WSA_FLAG_OVERLAPPED));
}

namespace {

const char *errorName(int code)
{
#define NB_WSA_NAME(e)                                                                                                 \
    case e:                                                                                                            \
        return #e;
    switch (code) {
        NB_WSA_NAME(WSAEINTR)
        NB_WSA_NAME(WSAEBADF)
        NB_WSA_NAME(WSAEACCES)
        NB_WSA_NAME(WSAEFAULT)
        NB_WSA_NAME(WSAEINVAL)
        NB_WSA_NAME(WSAEMFILE)
        NB_WSA_NAME(WSAEWOULDBLOCK)
        NB_WSA_NAME(WSAEINPROGRESS)
        NB_WSA_NAME(WSAEALREADY)
        NB_WSA_NAME(WSAENOTSOCK)
        NB_WSA_NAME(WSAEMSGSIZE)
        NB_WSA_NAME(WSAENOPROTOOPT)
        NB_WSA_NAME(WSAEPROTONOSUPPORT)
        NB_WSA_NAME(WSAEOPNOTSUPP)
        NB_WSA_NAME(WSAEAFNOSUPPORT)
        NB_WSA_NAME(WSAEADDRINUSE)
        NB_WSA_NAME(WSAEADDRNOTAVAIL)
        NB_WSA_NAME(WSAENETDOWN)
        NB_WSA_NAME(WSAENETUNREACH)
        NB_WSA_NAME(WSAENETRESET)
        NB_WSA_NAME(WSAECONNABORTED)
        NB_WSA_NAME(WSAECONNRESET)
        NB_WSA_NAME(WSAENOBUFS)
        NB_WSA_NAME(WSAEISCONN)
        NB_WSA_NAME(WSAENOTCONN)
        NB_WSA_NAME(WSAESHUTDOWN)
        NB_WSA_NAME(WSAETIMEDOUT)
        NB_WSA_NAME(WSAECONNREFUSED)
        NB_WSA_NAME(WSAEHOSTDOWN)
        NB_WSA_NAME(WSAEHOSTUNREACH)
        NB_WSA_NAME(WSASYSNOTREADY)
        NB_WSA_NAME(WSANOTINITIALISED)
        NB_WSA_NAME(WSAHOST_NOT_FOUND)
        NB_WSA_NAME(WSATRY_AGAIN)
        NB_WSA_NAME(WSANO_RECOVERY)
        NB_WSA_NAME(WSANO_DATA)
        NB_WSA_NAME(WSA_OPERATION_ABORTED)
    default:
        return nullptr;
    }
#undef NB_WSA_NAME
}

} // namespace

QString systemErrorText(int code)
{
    // "No connection could be made because the target machine actively refused it
    // (WSAECONNREFUSED 10061)": the system's sentence, then the name and number to search for.
    wchar_t *buffer = nullptr;
    const DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                       FORMAT_MESSAGE_IGNORE_INSERTS | FORMAT_MESSAGE_MAX_WIDTH_MASK,
                                   nullptr, DWORD(code), 0, reinterpret_cast<wchar_t *>(&buffer), 0, nullptr);
    QString text = n > 0 ? QString::fromWCharArray(buffer, int(n)).trimmed() : QString();
    if (buffer)
        LocalFree(buffer);
    while (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    const char *name = errorName(code);
    const QString tag =
        name ? QStringLiteral("%1 %2").arg(QLatin1String(name)).arg(code) : QStringLiteral("error %1").arg(code);
    return text.isEmpty() ? tag : QStringLiteral("%1 (%2)").arg(text, tag);
}

bool applyOptions(const Socket &s, const SocketOptions &o, QString *error)
{
    const SOCKET fd = s.handle();
    if (o.window > 0) {
        const int w = int(o.window);
        const char *p = reinterpret_cast<const char *>(&w);
        if (::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, p, sizeof w) != 0 ||
            ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, p, sizeof w) != 0) {
            *error = QStringLiteral("cannot set socket buffer size: %1").arg(systemErrorText(WSAGetLastError()));
            return false;
        }
    }
    if (o.mss > 0) {
        const DWORD mss = DWORD(o.mss);
        if (::setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, reinterpret_cast<const char *>(&mss), sizeof mss) != 0) {
            *error = QStringLiteral("cannot set MSS to %1: %2 (this Windows chooses the MSS itself)")
                         .arg(o.mss)
                         .arg(systemErrorText(WSAGetLastError()));
            return false;
        }
    }
    if (o.noDelay) {
        const BOOL one = TRUE;
        if (::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char *>(&one), sizeof one) != 0) {
            *error = QStringLiteral("cannot set TCP_NODELAY: %1").arg(systemErrorText(WSAGetLastError()));
            return false;
        }
    }
    if (!o.congestion.isEmpty()) {
        *error = QStringLiteral("cannot use congestion control '%1': Windows sets it for the whole system "
                                "(netsh interface tcp), not per connection")
                     .arg(o.congestion);
        return false;
    }
    if (o.pacingBytesPerSecond > 0) {
        *error =
            QStringLiteral("cannot pace a TCP socket: Windows has no per-connection rate (-b paces UDP only here)");
        return false;
    }
    return true;
}

void setNoDelay(const Socket &s)
{
    const BOOL one = TRUE;
    ::setsockopt(s.handle(), IPPROTO_TCP, TCP_NODELAY, reinterpret_cast<const char *>(&one), sizeof one);
}

bool setDscp(const Socket &s, int dscp, QString *error)
{
    // Accepted, but Windows sends the packets unmarked unless a QoS policy lets programs set
    // the TOS byte (the README says how); there is nothing more a program can do here.
    const DWORD tos = DWORD((dscp & 0x3f) << 2);
    if (::setsockopt(s.handle(), IPPROTO_IP, IP_TOS, reinterpret_cast<const char *>(&tos), sizeof tos) != 0) {
        *error =
            QStringLiteral("cannot mark the socket with DSCP %1 (Winsock error %2)").arg(dscp).arg(::WSAGetLastError());
        return false;
    }
    return true;
}

bool setKeepAlive(const Socket &s, int idleSecs, int intervalSecs, int count)
{
    // SIO_KEEPALIVE_VALS works on every Windows (milliseconds, no probe count); the
    // TCP_KEEPCNT option (Windows 10 1709 and later) sets the count where it exists.
    tcp_keepalive values{};
    values.onoff = 1;
    values.keepalivetime = ULONG(idleSecs) * 1000;
    values.keepaliveinterval = ULONG(intervalSecs) * 1000;
    DWORD returned = 0;
    if (::WSAIoctl(s.handle(), SIO_KEEPALIVE_VALS, &values, sizeof values, nullptr, 0, &returned, nullptr, nullptr) !=
        0)
        return false;
    // Older systems refuse the option and keep their fixed count: not an error.
    const DWORD probes = DWORD(count);
    ::setsockopt(s.handle(), IPPROTO_TCP, TCP_KEEPCNT, reinterpret_cast<const char *>(&probes), sizeof probes);
    return true;
}

bool setNonBlocking(const Socket &s, bool on)
{
    u_long mode = on ? 1 : 0;
    return ::ioctlsocket(s.handle(), FIONBIO, &mode) == 0;
}

void setTimeouts(const Socket &s, int receiveMs, int sendMs)
{
    // DWORD milliseconds on Windows (a timeval on POSIX); 0 means none on both.
    if (receiveMs >= 0) {
        const DWORD ms = DWORD(receiveMs);
        ::setsockopt(s.handle(), SOL_SOCKET, SO_RCVTIMEO, reinterpret_cast<const char *>(&ms), sizeof ms);
    }
    if (sendMs >= 0) {
        const DWORD ms = DWORD(sendMs);
        ::setsockopt(s.handle(), SOL_SOCKET, SO_SNDTIMEO, reinterpret_cast<const char *>(&ms), sizeof ms);
    }
}

void shutdownBoth(const Socket &s)
{
    if (!s.valid())
        return;
    ::shutdown(s.handle(), SD_BOTH);
    // shutdown() alone need not end a receive another thread is blocked in (Winsock
    // completes it only when the peer answers); cancelling the handle's I/O does, at once.
    CancelIoEx(reinterpret_cast<HANDLE>(s.handle()), nullptr);
}

QString congestion(const Socket &)
{
    return {};
}

std::int64_t unreadBytes(const Socket &s)
{
    u_long n = 0;
    return ioctlsocket(s.handle(), FIONREAD, &n) == 0 ? std::int64_t(n) : -1;
}

bool readTcpInfo(const Socket &s, TcpInfo *out)
{
    // SIO_TCP_INFO exists from Windows 10 1703; elsewhere (and under wine) the ioctl fails.
    DWORD version = 0;
    TcpInfoV0 info{};
    DWORD got = 0;
    if (WSAIoctl(s.handle(), SioTcpInfo, &version, sizeof version, &info, sizeof info, &got, nullptr, nullptr) != 0 ||
        got < sizeof info)
        return false;
    // Windows counts retransmitted bytes, not segments: in MSS-sized segments, rounded up.
    const std::int64_t mss = info.Mss > 0 ? std::int64_t(info.Mss) : 1;
    out->totalRetransmits = (std::int64_t(info.BytesRetrans) + mss - 1) / mss;
    out->cwndBytes = std::int64_t(info.Cwnd); // bytes already on Windows
    out->rttUs = std::int64_t(info.RttUs);
    out->rttVarUs = -1;
    out->pmtu = -1;
    out->sndMss = std::int64_t(info.Mss);
    return true;
}

} // namespace nb::net
