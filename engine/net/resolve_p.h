// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the Linux files of engine/net only (not a public header).

#include "net/address.h"

struct addrinfo;

namespace nb::net {

int familyHint(AddressFamily f); // AF_INET / AF_INET6 / AF_UNSPEC
bool resolve(const QString &host, quint16 port, int family, bool passive, addrinfo **out, QString *error);

} // namespace nb::net
