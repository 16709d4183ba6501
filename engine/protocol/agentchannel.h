// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A connection between a controller and an agent after (or, on the controller's side,
// during) the handshake of protocol/agentwire.h: sealed JSON frames read and written with
// a deadline each, as the iperf3 control connection's messages are (ControlChannel).

#include "net/io.h"
#include "protocol/agentwire.h"

#include <QJsonObject>
#include <QString>

namespace nb::proto::agent {

class AgentChannel {
public:
    AgentChannel() = default;
    AgentChannel(net::Socket socket, Session session) : m_socket(std::move(socket)), m_session(std::move(session)) {}

    bool valid() const { return m_socket.valid(); }
    const net::Socket &socket() const { return m_socket; }
    void close() { m_socket.reset(); }

    net::IoStatus write(const QJsonObject &message, net::Deadline deadline, QString *error);
    // One whole frame: its header, then the rest, within the one deadline. A frame over the
    // cap, with a wrong MAC or not JSON is an Error (the connection is then of no more use).
    net::IoStatus read(QJsonObject *message, net::Deadline deadline, QString *error);

private:
    net::Socket m_socket;
    Session m_session;
};

// How the controller's half of the handshake ended.
enum class HandshakeResult {
    Ok,
    Busy,        // ACCESS_DENIED: a test is running there (or --allow leaves us out)
    NotAgent,    // our server without --agent-key: SERVER_ERROR for a bad cookie
    StockIperf3, // PARAM_EXCHANGE: it took the greeting for a cookie
    Closed,      // closed before answering: its --rate-limit, or refusing us after failures
    Refused,     // closed after our proof: it holds another key
    BadProof,    // its proof is wrong: it holds another key, or it is not the agent
    Failed,      // timeout, reset, anything else (*error says what)
};

// The controller's half over a connected socket (docs/protocol.md §6). The whole exchange
// has one deadline. On Ok, *session holds both directions' keys.
HandshakeResult controllerHandshake(const net::Socket &socket, const QByteArray &key, net::Deadline deadline,
                                    Session *session, QString *error);

} // namespace nb::proto::agent
