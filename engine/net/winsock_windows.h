// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the Windows files of engine/net only (not a public header). No OS header here:
// the declarations use plain types, and each *_windows.cpp includes winsock2.h itself.

#include "net/resolve_p.h"
#include "net/socket.h"

namespace nb::net {

// WSAStartup, once per process; every entry point that creates a socket or resolves a
// name calls it first (a function-local static: thread-safe, and cheap after the first call).
void startWinsock();
// A TCP socket of the family (AF_INET / AF_INET6), not inherited by child processes.
NativeSocket newTcpSocket(int family);
// Socket::reset calls this before closesocket(): the poller watching the socket forgets it,
// as epoll does on Linux when the descriptor closes (poller_windows.cpp).
void forgetPolled(NativeSocket s);
// The pending error of a socket (SO_ERROR), 0 when none.
int pendingError(NativeSocket s);

} // namespace nb::net
