// SPDX-License-Identifier: GPL-3.0-or-later
// The portable part of net::Address; the OS part is in address_linux.cpp.
#include "net/address.h"

namespace nb::net {

QString Address::toString() const
{
    const QString h = host();
    return h.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(h).arg(port())
                                        : QStringLiteral("%1:%2").arg(h).arg(port());
}

} // namespace nb::net
