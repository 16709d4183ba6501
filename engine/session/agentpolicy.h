// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where an agent sends traffic (docs/protocol.md §6.4): only to the networks of
// --agent-targets or, without it, to the subnets its own addresses are on (the hosts it
// reaches without a router). Pure functions: the adapters are an argument.

#include "platform/adapterinfo.h"
#include "session/serverpolicy.h"

#include <QHostAddress>
#include <QList>
#include <QString>

namespace nb {

// The subnet of every address of every adapter (lo's 127.0.0.0/8 and ::1/128 included).
QList<Subnet> connectedSubnets(const QList<AdapterInfo> &adapters);
// "198.18.0.0/24, fd00:198::/64"
QString networksText(const QList<Subnet> &networks);
// Empty when the agent may test toward the address; else why not, in one line. Multicast,
// broadcast (a subnet's own, too) and unspecified addresses are never targets.
QString checkAgentTarget(const QHostAddress &target, const QList<Subnet> &networks, bool ownSubnets);

} // namespace nb
