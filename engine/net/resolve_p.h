// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Name resolution, shared by the files of engine/net only (not a public header): the
// portable address.cpp and the OS files.

#include "net/address.h"

struct addrinfo;

namespace nb::net {

int familyHint(AddressFamily f); // AF_INET / AF_INET6 / AF_UNSPEC
bool resolve(const QString &host, quint16 port, int family, bool passive, addrinfo **out, QString *error);

namespace detail {
// Per OS (address_linux.cpp, address_windows.cpp): what comes before getaddrinfo (Winsock's
// start), and the text of its error code.
void prepareResolver();
QString resolveErrorText(int rc);
} // namespace detail

} // namespace nb::net
