// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// UDP sockets for iperf3's UDP mode. Datagrams move with sendSome/receiveSome (net/io.h);
// this header opens the sockets and names the errors a datagram sender has to tell apart.
#include "net/address.h"
#include "net/io.h"
#include "net/socket.h"

namespace nb::net {

// A UDP socket connected to host:port (the first address of the family), bound to
// bindAddress when given, with window as SO_SNDBUF/SO_RCVBUF when non-zero. Blocking.
Socket connectUdp(const QString &host, quint16 port, AddressFamily family, const QString &bindAddress,
                  std::uint32_t window, QString *error);
// A UDP socket bound to local (address and port) that shares the port with the TCP
// listener and with the stream sockets bound before it (SO_REUSEADDR; a connected UDP
// socket takes its peer's datagrams before an unconnected one does). An IPv6 wildcard is
// dual-stack, like the listener. Blocking.
Socket bindUdp(const Address &local, std::uint32_t window, QString *error);
// One datagram and its sender, if one is waiting (Timeout: none now).
Transfer receiveFrom(const Socket &s, void *buffer, std::size_t size, Address *from);
// A datagram larger than the path (or the socket) takes: EMSGSIZE / WSAEMSGSIZE.
bool isDatagramTooLarge(int systemError);
// An ICMP "port unreachable" reported on a connected UDP socket (ECONNREFUSED /
// WSAECONNRESET): the peer's socket is gone, which the control channel also tells.
bool isPortUnreachable(int systemError);
// The send queue of the interface is full (ENOBUFS / WSAENOBUFS): try again later.
bool isNoBufferSpace(int systemError);
// --dont-fragment (iperf3 3.14's option): datagrams leave with the IPv4 DF bit and are never
// fragmented by this host (IPv6 likewise), so one larger than the path's MTU fails its send
// with EMSGSIZE instead of going out in pieces. Linux: IP_MTU_DISCOVER = IP_PMTUDISC_DO;
// Windows: IP_DONTFRAGMENT (IPV6_DONTFRAG for IPv6).
bool setDontFragment(const Socket &s, QString *error);
// The TCP MSS of a connected control socket (iperf3's default UDP datagram size), 0 unknown.
int tcpMss(const Socket &s);

} // namespace nb::net
