// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The server's stream setup: accepts the data connections of one test and checks each
// one's cookie without blocking on it. Connections waiting for their cookie are polled
// together, each with its own short deadline, so a silent socket (a stranger, a port
// scanner) costs the real test nothing; connections that show another cookie, close,
// or say nothing in time are turned away and counted.

#include "net/address.h"
#include "net/poller.h"
#include "net/socket.h"

#include <QByteArray>

#include <list>
#include <vector>

namespace nb {

class StreamAcceptor {
public:
    // Connections waiting for their cookie at once; more are turned away at once.
    static constexpr int MaxPending = 64;

    StreamAcceptor(const net::Socket &listener, const net::Socket &control, QByteArray cookie, double cookieSecs);
    StreamAcceptor(const StreamAcceptor &) = delete;
    StreamAcceptor &operator=(const StreamAcceptor &) = delete;
    // False when the OS refused the poller; *error says why.
    bool valid(QString *error) const { return m_poller.valid(error); }

    struct Accepted {
        net::Socket socket; // blocking, the cookie read
        net::Address peer;
    };
    struct Step {
        std::vector<Accepted> accepted; // in the order their cookies completed
        bool controlReadable = false;   // the client sent something (or closed) meanwhile
        bool failed = false;            // the poller failed
    };
    // Waits up to timeoutMs for anything to happen and handles it.
    Step wait(int timeoutMs);
    // Turns away the connections still waiting for their cookie (all streams are in).
    void turnAwayRest();
    // Connections turned away so far (wrong cookie, closed, silent past the deadline).
    int strangers() const { return m_strangers; }

private:
    struct Pending {
        net::Socket socket;
        net::Address peer;
        net::Deadline deadline;
        QByteArray received;
    };
    void acceptNew();
    // True when the entry is settled (accepted or dropped) and may be erased.
    bool readCookie(Pending &p, Step *step);
    void turnAway(Pending &p);

    const net::Socket &m_listener;
    const net::Socket &m_control;
    const QByteArray m_cookie;
    const double m_cookieSecs;
    net::Poller m_poller;
    std::list<Pending> m_pending;
    int m_strangers = 0;
    char m_listenerTag = 0, m_controlTag = 0; // tokens for the poller
};

} // namespace nb
