// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Thin wrappers over POSIX sockets for the control channel and the data path. Every
// blocking call takes a deadline so nothing can hang past it.

#include "test/testparams.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

namespace nb::net {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
inline Deadline deadlineIn(double seconds)
{
    return Clock::now() + std::chrono::microseconds(std::int64_t(seconds * 1e6));
}

// Owns a file descriptor.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(Fd &&o) noexcept : m_fd(o.release()) {}
    Fd &operator=(Fd &&o) noexcept;
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd() { reset(); }
    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }
    int release()
    {
        const int f = m_fd;
        m_fd = -1;
        return f;
    }
    void reset(int fd = -1);

private:
    int m_fd = -1;
};

struct Address {
    sockaddr_storage storage{};
    socklen_t length = 0;
    const sockaddr *sa() const { return reinterpret_cast<const sockaddr *>(&storage); }
    int family() const { return storage.ss_family; }
    QString host() const;
    quint16 port() const;
    QString toString() const; // "127.0.0.1:5201" / "[::1]:5201"
};

struct SocketOptions {
    std::uint32_t window = 0;
    int mss = 0;
    bool noDelay = false;
    QString congestion;
};

// Applies window (SO_SNDBUF and SO_RCVBUF), MSS, TCP_NODELAY and congestion control.
bool applyOptions(int fd, const SocketOptions &o, QString *error);

// Resolves and connects (non-blocking connect bounded by timeoutMs, trying each address),
// then returns a blocking socket. Sets *error to a one-line message on failure.
Fd connectTcp(const QString &host, quint16 port, AddressFamily family, const QString &bindAddress,
              const SocketOptions &options, int timeoutMs, QString *error,
              const std::atomic<bool> *cancel = nullptr);

// Listening socket; with no bind address and Any family it is dual-stack IPv6.
Fd listenTcp(const QString &bindAddress, quint16 port, AddressFamily family, const SocketOptions &options,
             QString *error);
// Accepts one connection if one is pending within timeoutMs; invalid Fd on timeout.
Fd acceptTcp(int listenFd, int timeoutMs, Address *peer = nullptr);

Address localAddress(int fd);
// Resolves a numeric or named local address for binding (port 0); empty length on failure.
Address localAddressFor(const QString &host, int family);
// Resolves host:port to the first address of the wanted family.
Address resolveAddress(const QString &host, quint16 port, int family, QString *error);
Address peerAddress(int fd);
quint16 localPort(int fd);

// Waits until fd is readable or the timeout passes: 1 readable, 0 timeout, -1 error.
int waitReadable(int fd, int timeoutMs);

enum class IoStatus { Ok, Timeout, Closed, Error, Cancelled };
// Reads exactly size bytes before the deadline.
IoStatus readExact(int fd, void *buffer, std::size_t size, Deadline deadline, QString *error,
                   const std::atomic<bool> *cancel = nullptr);
IoStatus writeAll(int fd, const void *data, std::size_t size, Deadline deadline, QString *error);

// Control channel helpers on top of the iperf3 framing.
IoStatus readState(int fd, std::int8_t *state, Deadline deadline, QString *error,
                   const std::atomic<bool> *cancel = nullptr);
IoStatus writeState(int fd, std::int8_t state, Deadline deadline, QString *error);
IoStatus readJson(int fd, QJsonObject *object, Deadline deadline, QString *error);
IoStatus writeJson(int fd, const QJsonObject &object, Deadline deadline, QString *error);

QString ioStatusText(IoStatus s);

} // namespace nb::net
