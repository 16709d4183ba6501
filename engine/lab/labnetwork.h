// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lab's host networking as root (docs/lab.md, "Networking"): an optional network
// namespace, the bridge with the host's address in 198.18.0.0/15, one tap per guest on it,
// and their removal. All through iproute2's `ip`, in the namespace when one is named.

#include "lab/labmodel.h"

#include <QString>
#include <QStringList>

namespace nb::lab {

// The bridge every lab uses ("nblab-br").
QString bridgeName();

// `ip [-n NETNS] ARGS...`; ip's own message in *error when it fails.
bool ip(const QString &netns, const QStringList &args, QString *error = nullptr);
bool linkExists(const QString &netns, const QString &name);
bool netnsExists(const QString &name);

// A new namespace with its loopback up.
bool createNetns(const QString &netns, QString *error);
// The bridge at `mtu` with the host's address (hostAddress()/kPrefixLength), up.
bool createBridge(const QString &netns, int mtu, QString *error);
// A tap at `mtu` on the bridge, up.
bool createTap(const QString &netns, const QString &tap, int mtu, QString *error);

// Deletes the guests' taps, the bridge and the namespace where the lab made them; *removed
// lists what went. False (with *error) when something could not be removed.
bool removeNetwork(const LabState &state, QStringList *removed, QString *error);

} // namespace nb::lab
