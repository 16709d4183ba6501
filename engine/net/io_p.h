// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The single calls the portable files of engine/net need from each system (io.cpp and
// udp.cpp over io_*.cpp and udp_*.cpp); engine/net only.

#include "net/io.h"

namespace nb::net::detail {

// errno, or WSAGetLastError() on Windows: the error of the last failed socket call.
int lastSocketError();
// Waits until the socket can take more bytes or the timeout passes: >0 writable, 0
// timeout, <0 error.
int waitWritable(const Socket &s, int timeoutMs);
// One send that never blocks past what the socket can take now (Timeout: not now).
Transfer sendWithoutWaiting(const Socket &s, const void *data, std::size_t size);
// Whether a failed call's error means the peer went away (reset, or closed for a send)
// rather than a fault of this side.
bool peerWentAway(int systemError, bool sending);
// A UDP socket of the family (AF_INET / AF_INET6), not inherited by child processes
// (udp_linux.cpp, udp_windows.cpp: Windows also turns off its port-unreachable reports).
NativeSocket newUdpSocket(int family);

} // namespace nb::net::detail
