// SPDX-License-Identifier: GPL-3.0-or-later
// What name resolution needs of Linux (the rest of net::Address is address.cpp).
#include "net/resolve_p.h"

#include <netdb.h>

namespace nb::net::detail {

void prepareResolver() {}

QString resolveErrorText(int rc)
{
    return QString::fromLocal8Bit(gai_strerror(rc));
}

} // namespace nb::net::detail
