// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The owning socket handle and per-socket options. This header is portable: the OS calls
// live in socket_linux.cpp, and a Windows port adds socket_windows.cpp defining the same
// functions over SOCKET (net::NativeSocket), so nothing above engine/net changes.

#include <QString>

#include <chrono>
#include <cstdint>

namespace nb::net {

#ifdef _WIN32
using NativeSocket = std::uintptr_t; // SOCKET, without pulling in winsock2.h
#else
using NativeSocket = int;
#endif

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
inline Deadline deadlineIn(double seconds)
{
    return Clock::now() + std::chrono::microseconds(std::int64_t(seconds * 1e6));
}

// Owns one socket; move-only, closed on destruction.
class Socket {
public:
    using Handle = NativeSocket;
    static constexpr Handle Invalid = Handle(-1);

    Socket() = default;
    explicit Socket(Handle h) : m_handle(h) {}
    Socket(Socket &&o) noexcept : m_handle(o.release()) {}
    Socket &operator=(Socket &&o) noexcept;
    Socket(const Socket &) = delete;
    Socket &operator=(const Socket &) = delete;
    ~Socket() { reset(); }

    Handle handle() const { return m_handle; }
    bool valid() const { return m_handle != Invalid; }
    Handle release()
    {
        const Handle h = m_handle;
        m_handle = Invalid;
        return h;
    }
    void reset(Handle h = Invalid);
    // A second handle on the same socket (several threads accepting on one listener).
    Socket duplicate() const;

private:
    Handle m_handle = Invalid;
};

struct SocketOptions {
    std::uint32_t window = 0;
    int mss = 0;
    bool noDelay = false;
    QString congestion;
    // TCP -b: the most bytes per second this socket sends (payload), 0 unlimited.
    std::uint64_t pacingBytesPerSecond = 0;
};

// Whether the system paces one TCP socket's sending to a rate (Linux: SO_MAX_PACING_RATE,
// the kernel's own TCP pacing; Windows has no per-socket rate).
#ifdef _WIN32
inline constexpr bool CanPaceTcp = false;
#else
inline constexpr bool CanPaceTcp = true;
#endif

// Applies window (SO_SNDBUF and SO_RCVBUF), MSS, TCP_NODELAY, congestion control and the
// pacing rate (where CanPaceTcp; elsewhere a rate is an error).
bool applyOptions(const Socket &s, const SocketOptions &o, QString *error);
void setNoDelay(const Socket &s);
// Marks the socket's packets with a DSCP (0 to 63): the IPv4 TOS byte and the IPv6 traffic
// class. False with *error when the system refuses it. Windows accepts the call but sends
// unmarked packets unless a QoS policy allows programs to set it (documented in the README).
bool setDscp(const Socket &s, int dscp, QString *error);
// TCP keepalive: after idleSecs without traffic the kernel probes every intervalSecs, and
// after count unanswered probes the connection fails (a waiting read sees the error).
// Control connections use it so a peer whose machine vanished is noticed. Windows before
// 10 1709 cannot set count (it is fixed at 10 there).
bool setKeepAlive(const Socket &s, int idleSecs, int intervalSecs, int count);
// Event-loop sockets: calls return at once (IoStatus::Timeout for "not now").
bool setNonBlocking(const Socket &s, bool on = true);
// Blocking send/receive calls return after this long so a thread can notice a stop
// request; a negative value leaves that direction as it is.
void setTimeouts(const Socket &s, int receiveMs, int sendMs);
// Whether a blocking send or receive that ran into its setTimeouts() limit leaves the
// connection usable with an exact count of what moved. Linux: yes. Windows: Microsoft
// documents the connection as indeterminate after a timed-out call, so there the data
// path never takes the blocking shortcut and every stream goes through the event loop.
#ifdef _WIN32
inline constexpr bool TimedOutCallsAreExact = false;
#else
inline constexpr bool TimedOutCallsAreExact = true;
#endif
// Wakes any thread blocked on the socket (both directions end).
void shutdownBoth(const Socket &s);
// The congestion control algorithm in use, empty where unknown.
QString congestion(const Socket &s);

// What the kernel knows about one TCP connection. Fields are -1 where unknown.
struct TcpInfo {
    std::int64_t totalRetransmits = -1;
    std::int64_t cwndBytes = -1;
    std::int64_t rttUs = -1;
    std::int64_t rttVarUs = -1;
    std::int64_t pmtu = -1;
    std::int64_t sndMss = -1;
};
// Reads TCP_INFO for a connected socket; false where the platform has none.
bool readTcpInfo(const Socket &s, TcpInfo *out);
// Bytes the kernel holds for a socket that were not read yet (FIONREAD), or -1 when unknown.
std::int64_t unreadBytes(const Socket &s);

// The OS's text for a system error code (errno / WSAGetLastError()).
QString systemErrorText(int code);

} // namespace nb::net
