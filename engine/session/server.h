// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/results.h"
#include "model/testlistener.h"
#include "session/serverpolicy.h"

#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace nb {

struct ServerOptions {
    quint16 port = 5201;
    QString bindAddress; // empty: all addresses, dual-stack
    AddressFamily family = AddressFamily::Any;
    bool oneOff = false;         // -1: serve one test, then return
    double idleTimeoutSecs = 30; // --idle-timeout: each control message must arrive within this
    int rcvTimeoutMs = 120000;   // --rcv-timeout: a test in which no data moves this long ends
    int threads = 0;             // --threads: data worker threads, 0 = one per core
    // Authentication (protocol/auth.h): both paths set, or neither.
    QString rsaPrivateKeyPath;   // --rsa-private-key-path
    QString authorizedUsersPath; // --authorized-users-path
    int timeSkewSeconds = 10;    // --time-skew-threshold
    ServerPolicy policy;         // who may connect and which tests are taken (test/serverpolicy.h)
    // Agent mode (docs/protocol.md §6): on with a key file. The networks a controller may
    // have us test toward; nullopt: the subnets of this machine's addresses.
    QString agentKeyPath;                      // --agent-key
    std::optional<QList<Subnet>> agentTargets; // --agent-targets
};

// iperf3-protocol server. listen() binds; serve() runs tests one at a time on the calling
// thread until stop() (callable from any thread) or, with oneOff, after one test.
// Connections that arrive while a test runs get ACCESS_DENIED. An info query
// (docs/protocol.md §2.6) is answered between tests and is not a test: it is not counted
// and does not end a one-off server.
class Server {
public:
    explicit Server(ServerOptions options, TestListener *listener = nullptr);
    ~Server();
    bool listen(QString *error);
    quint16 port() const; // actual port (useful with port 0)
    // Returns 0 after stop() or a one-off test, non-zero on a fatal listener error.
    int serve();
    void stop();
    int testsServed() const { return m_testsServed.load(); }
    // Connections turned away at once: busy, not allowed (--allow), over the rate (--rate-limit).
    int connectionsRefused() const;

    struct Impl; // server_p.h: what the listener (server.cpp) and one test (serverrun.cpp) share

private:
    std::unique_ptr<Impl> d;
    std::atomic<int> m_testsServed{0};
};

} // namespace nb
