// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Opening connections: connect, listen, accept, and the addresses of a connected socket.

#include "core/errorcode.h"
#include "net/address.h"
#include "net/socket.h"

#include <atomic>

namespace nb::net {

// Resolves and connects (non-blocking connect bounded by timeoutMs, trying each address),
// then returns a blocking socket. Sets *error to a one-line message on failure and *code
// (when given) to its kind: Resolve, Refused, Unreachable, Timeout, Stopped or Io.
Socket connectTcp(const QString &host, quint16 port, AddressFamily family, const QString &bindAddress,
                  const SocketOptions &options, int timeoutMs, QString *error,
                  const std::atomic<bool> *cancel = nullptr, ErrorCode *code = nullptr);

// A blocking TCP socket of the target's family, not yet connected, so options (timeouts)
// can be set first; bindLocal then connectTo. Used per transaction by CRR.
// With nonBlocking the socket is for an event loop (startConnect()).
Socket openTcp(AddressFamily family, bool nonBlocking = false);
bool bindLocal(const Socket &s, const Address &local);
// Blocking connect; its timeout is the socket's send timeout. Error text in *error.
bool connectTo(const Socket &s, const Address &target, QString *error);
// Connect on a non-blocking socket: 1 connected at once, 0 in progress (the socket turns
// writable when done; a send before then says "not now", one after a failure says why),
// -1 failed (*error says why).
int startConnect(const Socket &s, const Address &target, QString *error);

// Listening socket; with no bind address and Any family it is dual-stack IPv6.
Socket listenTcp(const QString &bindAddress, quint16 port, AddressFamily family, const SocketOptions &options,
                 QString *error);
// Accepts one connection if one is pending within timeoutMs; invalid Socket on timeout.
Socket acceptTcp(const Socket &listener, int timeoutMs, Address *peer = nullptr);
// Accepts a connection that is already pending without blocking (another thread on the
// same listener may have taken it: invalid then). The result is a blocking socket, or a
// non-blocking one for an event loop.
Socket acceptPending(const Socket &listener, Address *peer = nullptr, bool nonBlocking = false);

Address localAddress(const Socket &s);
Address peerAddress(const Socket &s);
quint16 localPort(const Socket &s);

} // namespace nb::net
