// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The server between tests: control connections are accepted and their cookie and test
// parameters read together, without blocking on any one of them (docs/protocol.md §2.9).
// The test slot goes to the first connection whose parameters are in; a connection that
// says nothing holds no one up. Each waits at most min(--idle-timeout, HandshakeSecs) per
// message; at most MaxPendingPerClient wait per client (clientKey: an address, an IPv6
// /64) and MaxPending in all. One that runs out of time is a holder, counted against its
// client by Admission::held. With agent mode on, a connection whose first byte starts an
// agent greeting goes through the agent handshake here instead (protocol/agentwire.h), under
// the same deadlines and caps; a failed one counts against its client as a holder does.

#include "net/address.h"
#include "net/poller.h"
#include "net/socket.h"
#include "protocol/agentwire.h"
#include "protocol/controlchannel.h"
#include "protocol/protocol.h"
#include "session/server_p.h"

#include <QByteArray>
#include <QJsonObject>

#include <list>
#include <memory>
#include <optional>

namespace nb {

class ControlAcceptor {
public:
    static constexpr int MaxPending = 64;
    static constexpr int MaxPendingPerClient = 4;
    static constexpr double HandshakeSecs = 10;

    using Handshake = ControlAcceptorHandshake; // server_p.h

    explicit ControlAcceptor(Server::Impl &server);
    ControlAcceptor(const ControlAcceptor &) = delete;
    ControlAcceptor &operator=(const ControlAcceptor &) = delete;
    bool valid(QString *error) const { return m_poller.valid(error); }
    // Waits up to timeoutMs and handles what happened: the first handshake completed, if any.
    std::optional<Handshake> wait(int timeoutMs);
    // A test starts: the others waiting get ACCESS_DENIED ("busy"), as iperf3 answers.
    void turnAwayRest();
    int waiting() const { return int(m_pending.size()); }

private:
    struct Pending {
        net::Socket socket;
        net::Address peer;
        QString client; // clientKey
        net::Deadline deadline;
        QByteArray cookie;
        bool cookieDone = false;
        proto::JsonFrameDecoder params{proto::MaxParamsJsonSize};
        // A controller's handshake instead of a cookie (agent mode, docs/protocol.md §6).
        std::unique_ptr<proto::agent::AgentHandshake> agent;
    };
    void acceptNew();
    // True when the entry is settled (ready, dropped) and may be erased.
    bool advance(Pending &p, std::optional<Handshake> *ready);
    bool readCookie(Pending &p, std::optional<Handshake> *ready);
    bool advanceAgent(Pending &p, const char *data, std::size_t size, std::optional<Handshake> *ready);
    bool drop(Pending &p, const QString &why);
    bool refuseAgent(Pending &p);
    double messageSecs() const;

    Server::Impl &m_server;
    net::Poller m_poller;
    std::list<Pending> m_pending;
    char m_listenerTag = 0;
};

} // namespace nb
