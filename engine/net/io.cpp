// SPDX-License-Identifier: GPL-3.0-or-later
// net/io.h, the part every system shares: the loops that move exactly N bytes before a
// deadline or until a stop flag. They stand on the single calls of io_linux.cpp and
// io_windows.cpp (io.h and io_p.h), so a fix to a loop is made once.
#include "net/io.h"
#include "net/io_p.h"

#include <algorithm>

namespace nb::net {

namespace {

int msUntilDeadline(Deadline d)
{
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(d - Clock::now()).count();
    return left <= 0 ? 0 : int(std::min<long long>(left, 1 << 30));
}

// A failed call's status and text: the peer going away is Closed, anything else an Error.
IoStatus peerOrError(int systemError, bool sending, const QString &goneText, QString *error)
{
    const bool gone = detail::peerWentAway(systemError, sending);
    *error = gone ? goneText : systemErrorText(systemError);
    return gone ? IoStatus::Closed : IoStatus::Error;
}

// The one loop behind receiveAll and sendAll: a timed-out call retries until stop.
template <typename Call>
IoStatus transferExact(std::size_t size, const std::atomic<bool> &stop, QString *error, Deadline deadline, Call call)
{
    std::size_t done = 0;
    while (done < size) {
        const Transfer t = call(done);
        if (t.status == IoStatus::Ok) {
            done += std::size_t(t.bytes);
            continue;
        }
        if (t.status == IoStatus::Timeout) {
            if (stop.load(std::memory_order_relaxed))
                return IoStatus::Cancelled;
            if (Clock::now() >= deadline)
                return IoStatus::Timeout;
            continue;
        }
        if (t.status == IoStatus::Error)
            *error = systemErrorText(t.systemError);
        return t.status;
    }
    return IoStatus::Ok;
}

} // namespace

IoStatus readExact(const Socket &s, void *buffer, std::size_t size, Deadline deadline, QString *error,
                   const std::atomic<bool> *cancel)
{
    auto *p = static_cast<char *>(buffer);
    std::size_t got = 0;
    while (got < size) {
        if (cancel && cancel->load())
            return IoStatus::Cancelled;
        const int left = msUntilDeadline(deadline);
        if (left == 0) {
            *error = QStringLiteral("timed out waiting for the peer");
            return IoStatus::Timeout;
        }
        const int w = waitReadable(s, cancel ? std::min(left, 100) : left);
        if (w < 0) {
            *error = systemErrorText(detail::lastSocketError());
            return IoStatus::Error;
        }
        if (w == 0)
            continue;
        const Transfer t = receiveSome(s, p + got, size - got);
        if (t.status == IoStatus::Closed) {
            *error = QStringLiteral("the peer closed the connection");
            return IoStatus::Closed;
        }
        if (t.status == IoStatus::Error)
            return peerOrError(t.systemError, false, QStringLiteral("the peer reset the connection"), error);
        got += std::size_t(t.bytes); // 0 after "not now"
    }
    return IoStatus::Ok;
}

IoStatus writeAll(const Socket &s, const void *data, std::size_t size, Deadline deadline, QString *error)
{
    auto *p = static_cast<const char *>(data);
    std::size_t sent = 0;
    while (sent < size) {
        const int left = msUntilDeadline(deadline);
        if (left == 0) {
            *error = QStringLiteral("timed out writing to the peer");
            return IoStatus::Timeout;
        }
        if (detail::waitWritable(s, left) <= 0)
            continue;
        const Transfer t = detail::sendWithoutWaiting(s, p + sent, size - sent);
        if (t.status == IoStatus::Error || t.status == IoStatus::Closed)
            return peerOrError(t.systemError, true, QStringLiteral("the peer closed the connection"), error);
        sent += std::size_t(t.bytes); // 0 after "not now"
    }
    return IoStatus::Ok;
}

IoStatus receiveAll(const Socket &s, void *buffer, std::size_t size, const std::atomic<bool> &stop, QString *error,
                    Deadline deadline)
{
    auto *p = static_cast<char *>(buffer);
    return transferExact(size, stop, error, deadline,
                         [&](std::size_t done) { return receiveSome(s, p + done, size - done); });
}

IoStatus sendAll(const Socket &s, const void *data, std::size_t size, const std::atomic<bool> &stop, QString *error,
                 Deadline deadline)
{
    auto *p = static_cast<const char *>(data);
    return transferExact(size, stop, error, deadline,
                         [&](std::size_t done) { return sendSome(s, p + done, size - done); });
}

} // namespace nb::net
