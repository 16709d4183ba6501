// SPDX-License-Identifier: GPL-3.0-or-later
// net/connect.h, the part every system shares; the socket calls are connect_linux.cpp and
// connect_windows.cpp, a connected socket's addresses address.cpp.
#include "net/connect.h"
#include "net/io.h"

namespace nb::net {

Socket acceptTcp(const Socket &listener, int timeoutMs, Address *peer)
{
    if (waitReadable(listener, timeoutMs) <= 0)
        return {};
    return acceptPending(listener, peer);
}

} // namespace nb::net
