// SPDX-License-Identifier: GPL-3.0-or-later
// The server between tests: the listener, the loop that accepts control connections, who is
// admitted, turning clients away while a test runs, and the info query. One test's phases
// are in serverrun.cpp.
#include "session/server.h"

#include "core/sanitize.h"
#include "net/connect.h"
#include "platform/hostenvironment.h"
#include "protocol/protocol.h"
#include "session/agentkey.h"
#include "session/controlacceptor.h"
#include "session/server_p.h"
#include "session/serverinfo.h"
#include "session/testsession.h"

#include <QJsonArray>

#include <chrono>

namespace nb {

using namespace std::chrono;

QJsonObject helloJson(const ServerPolicy &policy, const QString &refused)
{
    QJsonObject hello;
    hello.insert(QStringLiteral("version"), QStringLiteral(NICBENCH_VERSION));
    QJsonArray capabilities{QStringLiteral("stream"), QStringLiteral("rr"), QStringLiteral("crr"),
                            QStringLiteral("loaded_latency"), QStringLiteral("system_cpu")};
    if (!policy.noInfo)
        capabilities.append(QStringLiteral("info"));
    hello.insert(QStringLiteral("capabilities"), capabilities);
    if (!refused.isEmpty())
        hello.insert(QStringLiteral("refused"), refused);
    else if (!policy.noInfo)
        hello.insert(QStringLiteral("host"), helloHostJson(HostEnvironment::local()));
    return hello;
}

void Server::Impl::say(const QString &m)
{
    if (listener)
        listener->message(printable(m, 500));
}

void Server::Impl::logLine(const QString &m)
{
    if (const std::optional<QString> line = log.line(m, nowSecs()))
        say(*line);
}

void Server::Impl::flushLog()
{
    for (const QString &line : log.due(nowSecs()))
        say(line);
}

void Server::Impl::logRefusal(const net::Address &peer, const QString &reason)
{
    refused.fetch_add(1);
    if (const std::optional<QString> line = log.refused(peer.host(), reason, nowSecs()))
        say(*line);
}

bool Server::Impl::admit(net::Socket &s, const net::Address &peer, bool countRate)
{
    switch (admission.admit(QHostAddress(peer.host()), nowSecs(), countRate)) {
    case Admission::Verdict::Admit:
        return true;
    case Admission::Verdict::NotAllowed: {
        const char denied = char(proto::AccessDenied);
        net::sendNow(s, &denied, 1);
        logRefusal(peer, QStringLiteral("not in the allowed networks (--allow)"));
        break;
    }
    case Admission::Verdict::RateLimited:
        logRefusal(peer, QStringLiteral("more than %1 (--rate-limit); a client that runs many tests back to back "
                                        "needs a higher limit, or 0")
                             .arg(rateLimitText(options.policy.rateLimit)));
        break;
    case Admission::Verdict::Held:
        logRefusal(peer, QStringLiteral("it holds connections that start no test (refused for %1 s)")
                             .arg(Admission::HoldPenaltySecs));
        break;
    }
    s.reset();
    return false;
}

bool Server::Impl::reopenListener(const net::SocketOptions &o, QString *error)
{
    listenFd.reset();
    listenFd = net::listenTcp(options.bindAddress, boundPort, options.family, o, error);
    if (!listenFd.valid() && (o.window != 0 || o.mss != 0 || o.noDelay)) {
        QString ignored;
        listenFd = net::listenTcp(options.bindAddress, boundPort, options.family, {}, &ignored);
        return false;
    }
    return listenFd.valid();
}

void Server::Impl::denyPending()
{
    for (;;) {
        net::Address peer;
        net::Socket extra = net::acceptTcp(listenFd, 0, &peer);
        if (!extra.valid())
            return;
        // Busy refusals cost the client nothing of its rate: a caller that retries a
        // busy server must still get in once the test is over.
        if (!admit(extra, peer, false))
            continue;
        const char denied = char(proto::AccessDenied);
        net::sendNow(extra, &denied, 1);
        logRefusal(peer, QStringLiteral("a test is running"));
    }
}

int Server::Impl::waitControl(const proto::ControlChannel &ctrl, int timeoutMs)
{
    const auto deadline = steady_clock::now() + milliseconds(timeoutMs);
    for (;;) {
        if (stop.load())
            return -1;
        const auto left = duration_cast<milliseconds>(deadline - steady_clock::now()).count();
        if (left <= 0)
            return 0;
        const int ready = net::waitEither(ctrl.socket(), listenFd, int(std::min<long long>(left, 100)));
        if (ready < 0)
            return -1;
        // The control socket first: a client that ends its test (IPERF_DONE) or query
        // and at once connects again must find us listening, not be turned away.
        if (ready & 1)
            return 1;
        if (ready & 2)
            denyPending();
        flushLog();
    }
}

// The info query (docs/protocol.md §2.6): the hello and nothing else. It is not a test: no
// result, no listener callbacks, and a one-off server goes on waiting for its test.
void Server::Impl::describeMachine(const proto::ControlChannel &ctrl, const net::Address &peer)
{
    const double idle = std::min(options.idleTimeoutSecs, 5.0);
    QString err;
    // --no-info: the answer is a refusal (§2.7), in the same exchange.
    const QJsonObject hello = helloJson(
        options.policy,
        options.policy.noInfo ? QStringLiteral("this server does not describe its machine (--no-info)") : QString());
    if (ctrl.writeState(proto::NicbenchHello, net::deadlineIn(idle), &err) != net::IoStatus::Ok ||
        ctrl.writeJson(hello, net::deadlineIn(idle), &err) != net::IoStatus::Ok) {
        say(QStringLiteral("Cannot describe this machine to %1: %2").arg(peer.toString(), err));
        return;
    }
    // The client reads the hello, then sends CLIENT_TERMINATE and closes at once. Taking
    // that byte lets the connection close cleanly. Only the control socket is watched:
    // whoever connects meanwhile (often the same client, now for a test) waits in the
    // backlog for a moment instead of getting ACCESS_DENIED from an idle server.
    std::int8_t state = 0;
    if (net::waitReadable(ctrl.socket(), 1000) > 0)
        ctrl.readState(&state, net::deadlineIn(0.5), &err);
    logLine(options.policy.noInfo ? QStringLiteral("Refused an info query from %1 (--no-info)").arg(peer.toString())
                                  : QStringLiteral("Described this machine to %1").arg(peer.toString()));
}

Server::Server(ServerOptions options, TestListener *listener) : d(std::make_unique<Impl>())
{
    d->options = std::move(options);
    d->listener = listener;
    d->admission = Admission(d->options.policy);
}

Server::~Server() = default;

bool Server::listen(QString *error)
{
    if (!d->options.rsaPrivateKeyPath.isEmpty()) {
        QString warning;
        if (!d->auth.load(d->options.rsaPrivateKeyPath, d->options.authorizedUsersPath, d->options.timeSkewSeconds,
                          error, &warning))
            return false;
        for (const QString &line : warning.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            d->say(line);
    }
    if (!d->options.agentKeyPath.isEmpty() && !loadAgentKey(d->options.agentKeyPath, &d->agentKey, error))
        return false;
    d->listenFd = net::listenTcp(d->options.bindAddress, d->options.port, d->options.family, {}, error);
    if (!d->listenFd.valid())
        return false;
    d->boundPort = net::localPort(d->listenFd);
    return true;
}

quint16 Server::port() const
{
    return d->boundPort;
}

int Server::serve()
{
    if (!d->listenFd.valid())
        return 1;
    // Recreated after each test: the test may have reopened the listener.
    auto acceptor = std::make_unique<ControlAcceptor>(*d);
    while (!d->stop.load()) {
        if (QString err; !acceptor->valid(&err)) {
            d->say(QStringLiteral("Cannot wait for clients: %1").arg(err));
            return 2;
        }
        std::optional<ControlAcceptor::Handshake> next = acceptor->wait(100);
        d->flushLog();
        if (!next)
            continue;
        if (next->agent) {
            // A test this agent runs toward another host holds the server as a test does; a
            // refused request leaves the others waiting.
            if (!d->runAgentTest(std::move(*next), [&] { acceptor->turnAwayRest(); }))
                continue;
            acceptor = std::make_unique<ControlAcceptor>(*d);
            m_testsServed.fetch_add(1);
            if (d->options.oneOff)
                break;
            continue;
        }
        // An info query is not a test: the others go on waiting (it takes a moment).
        const bool infoQuery = isInfoQuery(next->params);
        if (!infoQuery)
            acceptor->turnAwayRest();
        if (!d->runTest(std::move(*next)) || infoQuery)
            continue;
        m_testsServed.fetch_add(1);
        if (d->options.oneOff)
            break;
        if (!d->listenFd.valid()) {
            QString err;
            if (!d->reopenListener({}, &err)) {
                d->say(err);
                return 2;
            }
        }
        acceptor = std::make_unique<ControlAcceptor>(*d);
    }
    return 0;
}

void Server::stop()
{
    d->stop.store(true);
}

int Server::connectionsRefused() const
{
    return d->refused.load();
}

} // namespace nb
