// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Moving bytes: waiting, exact reads and writes bounded by a deadline and a stop flag,
// and the single calls of the data path (send, receive, discard, zero-copy send).

#include "core/errorcode.h"
#include "net/socket.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace nb::net {

// Waits until the socket is readable (or hung up) or the timeout passes: 1 readable,
// 0 timeout, -1 error.
int waitReadable(const Socket &s, int timeoutMs);
// Waits on two sockets at once. Returns a mask (1: first readable or hung up,
// 2: second), 0 on timeout or interruption, -1 on error.
int waitEither(const Socket &first, const Socket &second, int timeoutMs);

enum class IoStatus { Ok, Timeout, Closed, Error, Cancelled };
// The kind of failure a transfer status stands for (None for Ok).
inline ErrorCode errorCodeOf(IoStatus s)
{
    switch (s) {
    case IoStatus::Ok:
        return ErrorCode::None;
    case IoStatus::Timeout:
        return ErrorCode::Timeout;
    case IoStatus::Closed:
        return ErrorCode::PeerClosed;
    case IoStatus::Cancelled:
        return ErrorCode::Stopped;
    case IoStatus::Error:
        break;
    }
    return ErrorCode::Io;
}

// Control-channel reads and writes: poll first, so the deadline holds on any socket.
// Reads exactly size bytes before the deadline.
IoStatus readExact(const Socket &s, void *buffer, std::size_t size, Deadline deadline, QString *error,
                   const std::atomic<bool> *cancel = nullptr);
IoStatus writeAll(const Socket &s, const void *data, std::size_t size, Deadline deadline, QString *error);
// One byte or a few, now or never (ACCESS_DENIED to a client we turn away).
void sendNow(const Socket &s, const void *data, std::size_t size);

// Data-path transfers on blocking sockets with setTimeouts(): no poll per call, a timed
// out call retries until stop is set or the deadline passes (the one loop behind both).
// Closed is an orderly end by the peer; Error carries the system's text.
IoStatus receiveAll(const Socket &s, void *buffer, std::size_t size, const std::atomic<bool> &stop, QString *error,
                    Deadline deadline = Deadline::max());
IoStatus sendAll(const Socket &s, const void *data, std::size_t size, const std::atomic<bool> &stop, QString *error,
                 Deadline deadline = Deadline::max());

// Result of one data-path call: bytes moved, or a status. Timeout means "nothing this
// time, try again" (a socket timeout or an interrupted call).
struct Transfer {
    std::int64_t bytes = 0;
    IoStatus status = IoStatus::Ok;
    int systemError = 0; // for systemErrorText()
};
Transfer sendSome(const Socket &s, const void *data, std::size_t size);
// With discard the kernel drops the bytes without copying them to buffer (Linux
// MSG_TRUNC on TCP); where that is not available they are copied into buffer.
Transfer receiveSome(const Socket &s, void *buffer, std::size_t size, bool discard = false);

// A payload the kernel can send without copying it from user space each time (Linux:
// a memfd and sendfile; Windows: a temporary file and TransmitFile). valid() is false
// where the platform has none.
class ZeroCopySource {
public:
    explicit ZeroCopySource(const void *payload, std::size_t size);
    ~ZeroCopySource();
    ZeroCopySource(const ZeroCopySource &) = delete;
    ZeroCopySource &operator=(const ZeroCopySource &) = delete;
    bool valid() const { return m_handle >= 0; }
    // Sends the first size bytes of the payload.
    Transfer sendTo(const Socket &s, std::size_t size) const;

private:
    std::intptr_t m_handle = -1; // a descriptor on Linux, a file HANDLE on Windows
};

} // namespace nb::net
