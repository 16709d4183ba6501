// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Private to server.cpp (the listener and the accept loop) and serverrun.cpp (one test's
// phases): what the server keeps between tests, which a test's phases use.

#include "net/address.h"
#include "net/socket.h"
#include "protocol/agentwire.h"
#include "protocol/auth.h"
#include "protocol/controlchannel.h"
#include "session/server.h"

#include <QJsonObject>

#include <atomic>
#include <functional>
#include <optional>

namespace nb {

// A control connection whose cookie and test parameters are in (session/controlacceptor.h),
// or a controller that proved it holds the agent key and sent its request (params; agent
// then holds the session's frame keys, docs/protocol.md §6).
struct ControlAcceptorHandshake {
    proto::ControlChannel ctrl; // blocking
    net::Address peer;
    QByteArray cookie;
    QJsonObject params;
    std::optional<proto::agent::Session> agent;
};

// The hello every NicBench client gets (docs/protocol.md §2.2): what we can do and, since
// the info query, the machine we run on, unless --no-info. Read fresh each time: addresses
// change. A refusal by the server's policy is a hello with "refused" and nothing else to
// learn (§2.7).
QJsonObject helloJson(const ServerPolicy &policy, const QString &refused = {});

struct Server::Impl {
    ServerOptions options;
    TestListener *listener = nullptr;
    net::Socket listenFd;
    quint16 boundPort = 0;
    std::atomic<bool> stop{false};
    proto::auth::Authenticator auth; // enabled with --rsa-private-key-path (test/authoptions.h)
    QByteArray agentKey;             // --agent-key: agent mode on when not empty
    Admission admission;
    LogLimiter log;
    std::atomic<int> refused{0};

    // Every line goes out printable: messages carry text from peers (core/sanitize.h).
    void say(const QString &m);
    // Lines about connections, which anyone can make many of: rate-limited (LogLimiter).
    void logLine(const QString &m);
    void flushLog();
    void logRefusal(const net::Address &peer, const QString &reason);
    // The allow-list and (for a connection we would serve) the rate limit. A client not
    // allowed gets ACCESS_DENIED, one over its rate a plain close; nothing is read.
    bool admit(net::Socket &s, const net::Address &peer, bool countRate);
    // With options the kernel refuses, the plain listener comes back at once: bad
    // parameters never leave the port closed.
    bool reopenListener(const net::SocketOptions &o, QString *error);
    // Refuses a connection that arrives while a test runs, as iperf3 does: one
    // ACCESS_DENIED byte, nothing read, then close.
    void denyPending();
    // Waits until the control socket is readable, turning other clients away meanwhile.
    // 1 readable, 0 timeout, -1 error or stop.
    int waitControl(const proto::ControlChannel &ctrl, int timeoutMs);
    // One test (serverrun.cpp) whose cookie and parameters ControlAcceptor read. False when
    // the connection was an info query rather than a test.
    bool runTest(ControlAcceptorHandshake handshake);
    void describeMachine(const proto::ControlChannel &ctrl, const net::Address &peer);
    // A test a controller asked this agent for (agentrun.cpp); beforeTest runs once the
    // request is accepted. False when it was refused.
    bool runAgentTest(ControlAcceptorHandshake handshake, const std::function<void()> &beforeTest);
};

} // namespace nb
