// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which local adapter reaches which adapter of the server: pairs of addresses on the same
// subnet (same IP family, same network under the shorter of the two prefixes), so a user
// can compare E1000 with VMXNET3 without typing addresses.

#include "platform/adapterinfo.h"

#include <QList>
#include <QString>

namespace nb {

struct AdapterPair {
    AdapterInfo local;
    AdapterInfo remote;
    QString localAddress;  // the -B address
    QString remoteAddress; // the -c target
    int prefixLength = 0;  // of the shared subnet
    QString label() const; // "<local family> <local name> -> <remote name>", " (IPv6)" appended for IPv6
};

// Pairs ordered by local adapter order, then remote adapter order (then by the order of
// the addresses on each adapter). Interfaces that are down, link-local IPv6 addresses
// (they need a scope), addresses without a known prefix and loopback addresses are
// skipped, and so is a pair whose two addresses are equal: the kernel would carry it
// through lo (or two NATed machines happen to share a private address).
// Loopback pairs are offered when both sides are this machine's loopback (remote address
// in 127.0.0.0/8 or ::1) and nothing else matched. "This machine" means the two lists
// describe the same network stack: every adapter with a hardware address appears on both
// sides with the same name and hardware address, or, when the remote list has no hardware
// addresses (servers leave them out of the hello), every adapter with an address appears on
// both sides with the same name and addresses (two lists holding only loopback count as the
// same). So a server on another machine never gets a 127.0.0.1 suggestion, which
// would reach the local machine instead.
QList<AdapterPair> suggestAdapterPairs(const QList<AdapterInfo> &local, const QList<AdapterInfo> &remote);

} // namespace nb
