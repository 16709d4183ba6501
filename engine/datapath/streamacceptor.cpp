// SPDX-License-Identifier: GPL-3.0-or-later
#include "datapath/streamacceptor.h"

#include "net/connect.h"
#include "net/io.h"
#include "net/pendinglist.h"
#include "protocol/protocol.h"

#include <algorithm>
#include <chrono>

namespace nb {

StreamAcceptor::StreamAcceptor(const net::Socket &listener, const net::Socket &control, QByteArray cookie,
                               double cookieSecs)
    : m_listener(listener)
    , m_control(control)
    , m_cookie(std::move(cookie))
    , m_cookieSecs(cookieSecs)
{
    m_poller.add(m_listener, &m_listenerTag, net::Readable);
    m_poller.add(m_control, &m_controlTag, net::Readable);
}

StreamAcceptor::Step StreamAcceptor::wait(int timeoutMs)
{
    Step step;
    // The nearest cookie deadline bounds the wait, so a silent connection is dropped on time.
    const net::Deadline now = net::Clock::now();
    for (const Pending &p : m_pending) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(p.deadline - now).count();
        timeoutMs = int(std::clamp<long long>(left + 1, 0, timeoutMs));
    }
    net::PollEvent events[16];
    const int n = m_poller.wait(events, 16, timeoutMs);
    if (n < 0) {
        step.failed = true;
        return step;
    }
    for (int i = 0; i < n; ++i) {
        if (events[i].token == &m_controlTag) {
            step.controlReadable = true;
        } else if (events[i].token == &m_listenerTag) {
            acceptNew();
        } else {
            // A pending connection: its entry is the token.
            const auto it = net::findByToken(m_pending, events[i].token);
            if (it != m_pending.end() && readCookie(*it, &step))
                m_pending.erase(it);
        }
    }
    net::dropExpired(m_pending, [this](Pending &p) { turnAway(p); });
    return step;
}

void StreamAcceptor::acceptNew()
{
    // One per wake-up: the listener is a blocking socket, and it stays reported while more
    // connections wait (level-triggered).
    Pending p;
    p.socket = net::acceptPending(m_listener, &p.peer, true);
    if (!p.socket.valid())
        return;
    if (int(m_pending.size()) >= MaxPending) {
        turnAway(p);
        return;
    }
    p.deadline = net::deadlineIn(m_cookieSecs);
    m_pending.push_back(std::move(p));
    Pending &added = m_pending.back();
    if (!m_poller.add(added.socket, &added, net::Readable)) {
        turnAway(added);
        m_pending.pop_back();
    }
}

bool StreamAcceptor::readCookie(Pending &p, Step *step)
{
    char buffer[proto::CookieSize];
    const std::size_t want = std::size_t(m_cookie.size() - p.received.size());
    const net::Transfer t = net::receiveSome(p.socket, buffer, want);
    if (t.status == net::IoStatus::Timeout)
        return false; // nothing yet
    if (t.status != net::IoStatus::Ok || t.bytes <= 0) {
        turnAway(p);
        return true;
    }
    p.received.append(buffer, qsizetype(t.bytes));
    if (p.received.size() < m_cookie.size())
        return false;
    if (p.received != m_cookie) {
        turnAway(p);
        return true;
    }
    m_poller.remove(p.socket);
    net::setNonBlocking(p.socket, false);
    step->accepted.push_back({std::move(p.socket), p.peer});
    return true;
}

void StreamAcceptor::turnAwayRest()
{
    for (Pending &p : m_pending)
        turnAway(p);
    m_pending.clear();
}

// One ACCESS_DENIED byte, as iperf3 answers a connection it does not want, then close.
void StreamAcceptor::turnAway(Pending &p)
{
    const char denied = char(proto::AccessDenied);
    net::sendNow(p.socket, &denied, 1);
    p.socket.reset(); // closing also takes it out of the poller
    ++m_strangers;
}

} // namespace nb
