// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Accepted connections that owe their first message by a deadline, registered in a poller
// with their own entry as the token: what the data streams' acceptor and the control
// connections' acceptor both keep (std::list, so an entry's address stays valid).

#include "net/socket.h"

#include <algorithm>
#include <list>

namespace nb::net {

// The entry a poller event's token names, or end().
template <typename Entry> typename std::list<Entry>::iterator findByToken(std::list<Entry> &pending, const void *token)
{
    return std::find_if(pending.begin(), pending.end(), [&](const Entry &p) { return &p == token; });
}

// Calls onExpired for each entry whose deadline has passed, then drops it (closing its
// socket takes it out of the poller).
template <typename Entry, typename OnExpired> void dropExpired(std::list<Entry> &pending, OnExpired onExpired)
{
    const Deadline now = Clock::now();
    for (auto it = pending.begin(); it != pending.end();) {
        if (now < it->deadline) {
            ++it;
            continue;
        }
        onExpired(*it);
        it = pending.erase(it);
    }
}

} // namespace nb::net
