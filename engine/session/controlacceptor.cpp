// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/controlacceptor.h"

#include "net/connect.h"
#include "net/io.h"
#include "net/pendinglist.h"
#include "session/testsession.h"

#include <algorithm>
#include <chrono>

namespace nb {

ControlAcceptor::ControlAcceptor(Server::Impl &server) : m_server(server)
{
    m_poller.add(m_server.listenFd, &m_listenerTag, net::Readable);
}

double ControlAcceptor::messageSecs() const
{
    return std::min(m_server.options.idleTimeoutSecs, HandshakeSecs);
}

std::optional<ControlAcceptor::Handshake> ControlAcceptor::wait(int timeoutMs)
{
    std::optional<Handshake> ready;
    const net::Deadline now = net::Clock::now();
    for (const Pending &p : m_pending) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(p.deadline - now).count();
        timeoutMs = int(std::clamp<long long>(left + 1, 0, timeoutMs));
    }
    net::PollEvent events[32];
    const int n = m_poller.wait(events, 32, timeoutMs);
    for (int i = 0; i < n && !ready; ++i) {
        if (events[i].token == &m_listenerTag) {
            acceptNew();
            continue;
        }
        const auto it = net::findByToken(m_pending, events[i].token);
        if (it != m_pending.end() && advance(*it, &ready))
            m_pending.erase(it);
    }
    net::dropExpired(m_pending, [this](const Pending &p) {
        // Not held back by the log's budget, which a flood of connections spends: at most
        // one line per client per penalty, and few clients can wait at once (MaxPending).
        if (m_server.admission.held(QHostAddress(p.peer.host()), nowSecs()))
            m_server.say(QStringLiteral("Refusing %1 for %2 s: %3 of its connections in %4 s started no test in time")
                             .arg(p.client)
                             .arg(Admission::HoldPenaltySecs)
                             .arg(Admission::HoldStrikes)
                             .arg(Admission::HoldWindowSecs));
        m_server.logLine(QStringLiteral("Dropped the connection from %1: no %2 within %3 s")
                             .arg(p.peer.toString(), p.agent        ? QStringLiteral("next agent handshake message")
                                                     : p.cookieDone ? QStringLiteral("test parameters")
                                                                    : QStringLiteral("cookie"))
                             .arg(messageSecs()));
    });
    return ready;
}

void ControlAcceptor::acceptNew()
{
    // One per wake-up: the listener stays reported while more connections wait.
    Pending p;
    p.socket = net::acceptPending(m_server.listenFd, &p.peer, true);
    if (!p.socket.valid() || !m_server.admit(p.socket, p.peer, true))
        return;
    p.client = clientKey(QHostAddress(p.peer.host()));
    const auto sameClient =
        std::count_if(m_pending.cbegin(), m_pending.cend(), [&](const Pending &q) { return q.client == p.client; });
    if (sameClient >= MaxPendingPerClient || int(m_pending.size()) >= MaxPending) {
        const char denied = char(proto::AccessDenied);
        net::sendNow(p.socket, &denied, 1);
        m_server.logRefusal(
            p.peer,
            sameClient >= MaxPendingPerClient
                ? QStringLiteral("%1 of its connections are already waiting to start a test").arg(MaxPendingPerClient)
                : QStringLiteral("%1 connections are already waiting to start a test").arg(MaxPending));
        return;
    }
    m_server.logLine(QStringLiteral("Accepted connection from %1").arg(p.peer.toString()));
    // The control connection's settings from the start: a peer that vanishes while it
    // waits is noticed too.
    net::setNoDelay(p.socket);
    net::setKeepAlive(p.socket, proto::KeepAliveIdleSecs, proto::KeepAliveIntervalSecs, proto::KeepAliveProbes);
    p.deadline = net::deadlineIn(messageSecs());
    m_pending.push_back(std::move(p));
    Pending &added = m_pending.back();
    if (!m_poller.add(added.socket, &added, net::Readable))
        m_pending.pop_back();
}

bool ControlAcceptor::readCookie(Pending &p, std::optional<Handshake> *ready)
{
    char buffer[proto::CookieSize];
    const net::Transfer t = net::receiveSome(p.socket, buffer, std::size_t(proto::CookieSize - p.cookie.size()));
    if (t.status == net::IoStatus::Timeout)
        return false;
    if (t.status != net::IoStatus::Ok || t.bytes <= 0)
        return drop(p, QStringLiteral("it closed before its cookie"));
    // A cookie never starts with an agent greeting's first byte (protocol/agentwire.h).
    if (p.cookie.isEmpty() && !m_server.agentKey.isEmpty() && proto::agent::isGreetingStart(buffer[0])) {
        p.agent = std::make_unique<proto::agent::AgentHandshake>(m_server.agentKey);
        return advanceAgent(p, buffer, std::size_t(t.bytes), ready);
    }
    p.cookie.append(buffer, qsizetype(t.bytes));
    if (p.cookie.size() < proto::CookieSize)
        return false;
    if (!proto::isValidCookie(p.cookie)) {
        proto::ControlChannel(std::move(p.socket)).sendError(proto::IeRecvCookie);
        return drop(p, QStringLiteral("malformed cookie"));
    }
    p.cookieDone = true;
    const char exchange = char(proto::ParamExchange);
    net::sendNow(p.socket, &exchange, 1);
    p.deadline = net::deadlineIn(messageSecs()); // each control message has its own deadline
    return false;
}

bool ControlAcceptor::advanceAgent(Pending &p, const char *data, std::size_t size, std::optional<Handshake> *ready)
{
    using Handshake = proto::agent::AgentHandshake;
    char buffer[4096];
    if (size == 0) {
        const net::Transfer t = net::receiveSome(p.socket, buffer, std::min(p.agent->bytesWanted(), sizeof buffer));
        if (t.status == net::IoStatus::Timeout)
            return false;
        if (t.status != net::IoStatus::Ok || t.bytes <= 0)
            return drop(p, QStringLiteral("it closed during the agent handshake"));
        data = buffer;
        size = std::size_t(t.bytes);
    }
    std::size_t used = 0;
    const Handshake::Status s = p.agent->feed(data, size, &used);
    if (s == Handshake::Status::Failed)
        return refuseAgent(p);
    // Answers of a few dozen bytes on a connection that sent us its part: they fit the
    // socket's buffer at once.
    if (const QByteArray out = p.agent->takeOutput(); !out.isEmpty())
        net::sendNow(p.socket, out.constData(), std::size_t(out.size()));
    if (p.agent->stepChanged())
        p.deadline = net::deadlineIn(messageSecs()); // each message has its own deadline
    if (s != Handshake::Status::Done)
        return false;
    m_poller.remove(p.socket);
    net::setNonBlocking(p.socket, false);
    *ready = ControlAcceptorHandshake{proto::ControlChannel(std::move(p.socket)), p.peer, QByteArray(),
                                      p.agent->request(), p.agent->takeSession()};
    return true;
}

// A failed agent handshake (a wrong key, a replayed proof, a request without a proof):
// counted and logged as refusals are, and a strike against the client, as a holder's is.
bool ControlAcceptor::refuseAgent(Pending &p)
{
    m_server.logRefusal(p.peer, QStringLiteral("failed the agent handshake: %1").arg(p.agent->error()));
    if (m_server.admission.held(QHostAddress(p.peer.host()), nowSecs()))
        m_server.say(QStringLiteral("Refusing %1 for %2 s: %3 of its connections in %4 s failed the agent handshake or "
                                    "started no test in time")
                         .arg(p.client)
                         .arg(Admission::HoldPenaltySecs)
                         .arg(Admission::HoldStrikes)
                         .arg(Admission::HoldWindowSecs));
    p.socket.reset();
    return true;
}

bool ControlAcceptor::advance(Pending &p, std::optional<Handshake> *ready)
{
    if (p.agent)
        return advanceAgent(p, nullptr, 0, ready);
    if (!p.cookieDone)
        return readCookie(p, ready);
    char buffer[4096];
    const std::size_t want = std::min(p.params.bytesWanted(), sizeof buffer);
    const net::Transfer t = net::receiveSome(p.socket, buffer, want);
    if (t.status == net::IoStatus::Timeout)
        return false;
    if (t.status != net::IoStatus::Ok || t.bytes <= 0)
        return drop(p, QStringLiteral("it closed before its test parameters"));
    std::size_t used = 0;
    switch (p.params.feed(buffer, std::size_t(t.bytes), &used)) {
    case proto::JsonFrameDecoder::Status::NeedMore:
        return false;
    case proto::JsonFrameDecoder::Status::Error: {
        const QString why = QStringLiteral("cannot read test parameters: %1").arg(p.params.error());
        proto::ControlChannel(std::move(p.socket)).sendError(proto::IeRecvParams);
        return drop(p, why);
    }
    case proto::JsonFrameDecoder::Status::Complete:
        break;
    }
    m_poller.remove(p.socket);
    net::setNonBlocking(p.socket, false);
    *ready = Handshake{proto::ControlChannel(std::move(p.socket)), p.peer, p.cookie, p.params.object(), std::nullopt};
    return true;
}

bool ControlAcceptor::drop(Pending &p, const QString &why)
{
    m_server.logLine(QStringLiteral("Dropped the connection from %1: %2").arg(p.peer.toString(), why));
    p.socket.reset();
    return true;
}

void ControlAcceptor::turnAwayRest()
{
    const char denied = char(proto::AccessDenied);
    for (Pending &p : m_pending) {
        net::sendNow(p.socket, &denied, 1);
        m_server.logRefusal(p.peer, QStringLiteral("a test is running"));
    }
    m_pending.clear();
}

} // namespace nb
