// SPDX-License-Identifier: GPL-3.0-or-later
// net/io.h on Windows (Winsock 2): the single calls; the loops over them are io.cpp's.
//
// - Winsock has no MSG_TRUNC: a discarding receive copies into the caller's buffer.
// - A send or receive that ran into its SO_SNDTIMEO / SO_RCVTIMEO fails with WSAETIMEDOUT,
//   which here means "nothing this time" (IoStatus::Timeout), as EAGAIN does on Linux.
// - A send on a socket whose non-blocking connect is still in progress fails with
//   WSAENOTCONN (Linux says EAGAIN): "not now" while SO_ERROR is clear, the connect's own
//   error (WSAECONNREFUSED, ...) once it failed.
// - The zero-copy source is a temporary file that deletes itself (FILE_FLAG_DELETE_ON_CLOSE)
//   sent with TransmitFile.
#include "net/io.h"
#include "net/io_p.h"
#include "net/winsock_windows.h"

// winsock2.h first, in a block of its own: the other Windows headers need its types.
#include <winsock2.h>

#include <mswsock.h>
#include <windows.h>

#include <algorithm>
#include <climits>

namespace nb::net {

namespace {

int chunk(std::size_t size)
{
    return int(std::min<std::size_t>(size, INT_MAX));
}

bool notNow(int e)
{
    return e == WSAEWOULDBLOCK || e == WSAEINTR || e == WSAETIMEDOUT || e == WSAEINPROGRESS;
}

Transfer failed(int e)
{
    return {0, notNow(e) ? IoStatus::Timeout : IoStatus::Error, e};
}

} // namespace

int waitReadable(const Socket &s, int timeoutMs)
{
    WSAPOLLFD p{s.handle(), POLLRDNORM, 0};
    const int rc = WSAPoll(&p, 1, timeoutMs);
    if (rc == SOCKET_ERROR)
        return -1;
    return rc > 0 ? 1 : 0;
}

int waitEither(const Socket &first, const Socket &second, int timeoutMs)
{
    WSAPOLLFD p[2] = {{first.handle(), POLLRDNORM, 0}, {second.handle(), POLLRDNORM, 0}};
    const int rc = WSAPoll(p, 2, timeoutMs);
    if (rc == SOCKET_ERROR)
        return -1;
    int mask = 0;
    if (p[0].revents & (POLLRDNORM | POLLHUP | POLLERR))
        mask |= 1;
    if (p[1].revents & (POLLRDNORM | POLLHUP | POLLERR))
        mask |= 2;
    return mask;
}

void sendNow(const Socket &s, const void *data, std::size_t size)
{
    ::send(s.handle(), static_cast<const char *>(data), chunk(size), 0);
}

Transfer sendSome(const Socket &s, const void *data, std::size_t size)
{
    const int n = ::send(s.handle(), static_cast<const char *>(data), chunk(size), 0);
    if (n >= 0)
        return {n, IoStatus::Ok, 0};
    const int e = WSAGetLastError();
    if (e == WSAENOTCONN) {
        const int pending = pendingError(s.handle());
        return pending == 0 ? Transfer{0, IoStatus::Timeout, e} : Transfer{0, IoStatus::Error, pending};
    }
    return failed(e);
}

Transfer receiveSome(const Socket &s, void *buffer, std::size_t size, bool)
{
    // No discard in the kernel on Windows: the bytes are always copied into buffer.
    const int n = ::recv(s.handle(), static_cast<char *>(buffer), chunk(size), 0);
    if (n > 0)
        return {n, IoStatus::Ok, 0};
    if (n == 0)
        return {0, IoStatus::Closed, 0};
    return failed(WSAGetLastError());
}

namespace detail {

int lastSocketError()
{
    return WSAGetLastError();
}

int waitWritable(const Socket &s, int timeoutMs)
{
    WSAPOLLFD pf{s.handle(), POLLWRNORM, 0};
    return WSAPoll(&pf, 1, timeoutMs);
}

// No MSG_NOSIGNAL needed (Windows has no SIGPIPE) and no MSG_DONTWAIT: control messages
// are small, and the caller's poll said there is room.
Transfer sendWithoutWaiting(const Socket &s, const void *data, std::size_t size)
{
    const int n = ::send(s.handle(), static_cast<const char *>(data), chunk(size), 0);
    return n >= 0 ? Transfer{n, IoStatus::Ok, 0} : failed(WSAGetLastError());
}

bool peerWentAway(int systemError, bool sending)
{
    return systemError == WSAECONNRESET || systemError == WSAECONNABORTED || (sending && systemError == WSAESHUTDOWN);
}

} // namespace detail

ZeroCopySource::ZeroCopySource(const void *payload, std::size_t size)
{
    wchar_t folder[MAX_PATH + 1] = {};
    wchar_t path[MAX_PATH + 1] = {};
    if (size > 0xffffffffu || GetTempPathW(MAX_PATH, folder) == 0 || GetTempFileNameW(folder, L"nbz", 0, path) == 0)
        return;
    // Deleted by the system when the handle closes, even if we crash; temporary keeps it
    // in the cache rather than on disk.
    HANDLE h = CreateFileW(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr,
                           CREATE_ALWAYS, FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        DeleteFileW(path);
        return;
    }
    DWORD written = 0;
    if (!WriteFile(h, payload, DWORD(size), &written, nullptr) || written != size) {
        CloseHandle(h);
        return;
    }
    m_handle = reinterpret_cast<std::intptr_t>(h);
}

ZeroCopySource::~ZeroCopySource()
{
    if (m_handle >= 0)
        CloseHandle(reinterpret_cast<HANDLE>(m_handle));
}

Transfer ZeroCopySource::sendTo(const Socket &s, std::size_t size) const
{
    // TransmitFile starts at the file pointer: rewind it (one stream per source, one thread).
    const HANDLE h = reinterpret_cast<HANDLE>(m_handle);
    LARGE_INTEGER zero{};
    if (!SetFilePointerEx(h, zero, nullptr, FILE_BEGIN))
        return {0, IoStatus::Error, int(GetLastError())};
    // Without an OVERLAPPED, TransmitFile returns when all of it was sent (or failed).
    if (TransmitFile(s.handle(), h, DWORD(size), 0, nullptr, nullptr, 0))
        return {std::int64_t(size), IoStatus::Ok, 0};
    return failed(WSAGetLastError());
}

} // namespace nb::net
