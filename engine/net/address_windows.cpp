// SPDX-License-Identifier: GPL-3.0-or-later
// What name resolution needs of Windows (the rest of net::Address is address.cpp).
#include "net/resolve_p.h"
#include "net/winsock_windows.h"

namespace nb::net::detail {

void prepareResolver()
{
    startWinsock();
}

// getaddrinfo returns a Winsock error code (WSAHOST_NOT_FOUND, ...), not an EAI_ value.
QString resolveErrorText(int rc)
{
    return systemErrorText(rc);
}

} // namespace nb::net::detail
