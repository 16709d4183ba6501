// SPDX-License-Identifier: GPL-3.0-or-later
// net/poller.h on Windows: WSAPoll over a table of the watched sockets.
//
// wake(): a UDP socket bound to 127.0.0.1 and connected to itself; wake() sends it one
// byte, which makes it readable in the WSAPoll in progress. Chosen over a connected TCP
// pair because it is one socket, needs no listener and no accept, and cannot be taken by
// another program between listen and connect. Several wakes before a wait only queue a
// few datagrams; when its buffer is full a send fails, and the socket is readable anyway.
//
// Closing a socket takes it out of the poller, as epoll does on Linux (the data streams
// rely on it): Socket::reset calls forgetPolled() before closesocket(), which finds the
// poller in a process-wide registry. One mutex guards the registry and the tables; wait()
// polls a copy of its table taken under the lock, and maps what WSAPoll reported back
// through the table afterwards, so an entry removed (or a handle closed and reused)
// meanwhile is never reported with a stale token.
//
// WSAPoll's documented defect on Windows before 10 version 2004: a non-blocking connect
// that fails is not reported (no POLLERR or POLLHUP; the socket never turns writable), so
// a refused CRR connection would wait for ever. While any socket waits to be writable,
// wait() polls in slices of at most ConnectCheckMs, and every ConnectCheckMs it asks
// select() (zero timeout) for the except set of the sockets waiting to be writable and not
// reported: a failed connect is there, with its reason kept in SO_ERROR. Such a socket is
// reported Failed and Writable; the next send fails with the connect's own error
// (io_windows.cpp) and the stream handles it as on Linux.
#include "net/poller.h"
#include "net/winsock_windows.h"

#include <winsock2.h>
#include <ws2tcpip.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace nb::net {

namespace {

constexpr int ConnectCheckMs = 50;

std::mutex &registryLock()
{
    static std::mutex m;
    return m;
}

std::unordered_map<SOCKET, PollTable *> &registry()
{
    static std::unordered_map<SOCKET, PollTable *> r;
    return r;
}

short pollBits(unsigned interest)
{
    short e = 0;
    if (interest & Readable)
        e |= POLLRDNORM;
    if (interest & Writable)
        e |= POLLWRNORM;
    return e;
}

unsigned readiness(short revents)
{
    unsigned ready = 0;
    if (revents & (POLLRDNORM | POLLRDBAND))
        ready |= Readable;
    if (revents & POLLWRNORM)
        ready |= Writable;
    if (revents & POLLHUP)
        ready |= Hangup;
    if (revents & POLLERR)
        ready |= Failed;
    return ready;
}

} // namespace

struct PollTable {
    // Guarded by registryLock().
    std::vector<WSAPOLLFD> fds;
    std::vector<void *> tokens;
    std::unordered_map<SOCKET, std::size_t> index;

    // wait()'s own: the copy polled, used by the waiting thread only.
    std::vector<WSAPOLLFD> polled;
    std::vector<void *> polledTokens;
    Clock::time_point nextConnectCheck{};
    std::size_t rotate = 0; // where reporting starts, so a full batch cannot starve the tail

    void put(SOCKET s, void *token, unsigned interest)
    {
        const auto it = index.find(s);
        if (it != index.end()) {
            fds[it->second].events = pollBits(interest);
            tokens[it->second] = token;
            return;
        }
        index.emplace(s, fds.size());
        fds.push_back(WSAPOLLFD{s, pollBits(interest), 0});
        tokens.push_back(token);
    }

    void erase(SOCKET s)
    {
        const auto it = index.find(s);
        if (it == index.end())
            return;
        const std::size_t i = it->second;
        index.erase(it);
        if (i + 1 != fds.size()) {
            fds[i] = fds.back();
            tokens[i] = tokens.back();
            index[fds[i].fd] = i;
        }
        fds.pop_back();
        tokens.pop_back();
    }
};

void forgetPolled(NativeSocket s)
{
    std::lock_guard lock(registryLock());
    auto &r = registry();
    const auto it = r.find(s);
    if (it == r.end())
        return;
    it->second->erase(s);
    r.erase(it);
}

Poller::Poller() : m_table(std::make_unique<PollTable>())
{
    startWinsock();
    SOCKET w = WSASocketW(AF_INET, SOCK_DGRAM, IPPROTO_UDP, nullptr, 0, 0);
    if (w == INVALID_SOCKET) {
        m_error = WSAGetLastError();
        return;
    }
    m_wake = std::intptr_t(w);
    sockaddr_in self{};
    self.sin_family = AF_INET;
    self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int len = sizeof self;
    u_long nonBlocking = 1;
    if (::bind(w, reinterpret_cast<sockaddr *>(&self), sizeof self) != 0 ||
        ::getsockname(w, reinterpret_cast<sockaddr *>(&self), &len) != 0 ||
        ::connect(w, reinterpret_cast<sockaddr *>(&self), sizeof self) != 0 ||
        ::ioctlsocket(w, FIONBIO, &nonBlocking) != 0)
        m_error = WSAGetLastError();
    m_poll = 0; // no OS object: the table is the poller
}

Poller::~Poller()
{
    {
        std::lock_guard lock(registryLock());
        for (const WSAPOLLFD &p : m_table->fds)
            registry().erase(p.fd);
    }
    if (m_wake >= 0)
        ::closesocket(SOCKET(m_wake));
}

bool Poller::valid(QString *error) const
{
    const bool ok = m_wake >= 0 && m_error == 0;
    if (!ok && error)
        *error = QStringLiteral("cannot create an event poller: %1").arg(systemErrorText(m_error));
    return ok;
}

bool Poller::add(const Socket &s, void *token, unsigned interest)
{
    if (!s.valid())
        return false;
    std::lock_guard lock(registryLock());
    auto &r = registry();
    const auto it = r.find(s.handle());
    if (it != r.end() && it->second != m_table.get())
        it->second->erase(s.handle()); // only after a close we did not see: not ours any more
    m_table->put(s.handle(), token, interest);
    r[s.handle()] = m_table.get();
    return true;
}

bool Poller::modify(const Socket &s, void *token, unsigned interest)
{
    std::lock_guard lock(registryLock());
    if (m_table->index.find(s.handle()) == m_table->index.end())
        return false;
    m_table->put(s.handle(), token, interest);
    return true;
}

void Poller::remove(const Socket &s)
{
    if (!s.valid())
        return;
    std::lock_guard lock(registryLock());
    if (m_table->index.find(s.handle()) == m_table->index.end())
        return;
    m_table->erase(s.handle());
    registry().erase(s.handle());
}

int Poller::wait(PollEvent *events, int max, int timeoutMs)
{
    PollTable &t = *m_table;
    {
        std::lock_guard lock(registryLock());
        t.polled.assign(t.fds.begin(), t.fds.end());
        t.polledTokens.assign(t.tokens.begin(), t.tokens.end());
    }
    const std::size_t n = t.polled.size();
    const bool watchingWrites =
        std::any_of(t.polled.begin(), t.polled.end(), [](const WSAPOLLFD &p) { return p.events & POLLWRNORM; });
    int timeout = timeoutMs;
    if (watchingWrites)
        timeout = timeout < 0 ? ConnectCheckMs : std::min(timeout, ConnectCheckMs);
    t.polled.push_back(WSAPOLLFD{SOCKET(m_wake), POLLRDNORM, 0});
    const int rc = WSAPoll(t.polled.data(), ULONG(t.polled.size()), timeout);
    if (rc == SOCKET_ERROR)
        return WSAGetLastError() == WSAEINTR ? 0 : -1;
    if (t.polled[n].revents & POLLRDNORM) {
        char drain[64];
        while (::recv(SOCKET(m_wake), drain, sizeof drain, 0) > 0) {
        }
    }
    t.polled.pop_back();

    const auto now = Clock::now();
    if (watchingWrites && now >= t.nextConnectCheck) {
        t.nextConnectCheck = now + std::chrono::milliseconds(ConnectCheckMs);
        // select()'s sets hold FD_SETSIZE sockets: ask in batches of that many.
        fd_set failed;
        FD_ZERO(&failed);
        timeval zero{0, 0};
        auto ask = [&] {
            if (failed.fd_count == 0)
                return;
            fd_set copy = failed;
            if (::select(0, nullptr, nullptr, &copy, &zero) > 0) {
                for (WSAPOLLFD &p : t.polled)
                    if (p.revents == 0 && (p.events & POLLWRNORM) && FD_ISSET(p.fd, &copy))
                        p.revents = POLLERR | POLLWRNORM;
            }
            FD_ZERO(&failed);
        };
        for (const WSAPOLLFD &p : t.polled) {
            if (p.revents != 0 || !(p.events & POLLWRNORM))
                continue;
            FD_SET(p.fd, &failed);
            if (failed.fd_count == FD_SETSIZE)
                ask();
        }
        ask();
    }

    int out = 0;
    std::lock_guard lock(registryLock());
    for (std::size_t k = 0; k < n && out < max; ++k) {
        const std::size_t i = (t.rotate + k) % n;
        const WSAPOLLFD &p = t.polled[i];
        if (p.revents == 0)
            continue;
        // Removed, or closed and its handle reused, since the copy was taken: not this token's.
        const auto it = t.index.find(p.fd);
        if (it == t.index.end() || t.tokens[it->second] != t.polledTokens[i])
            continue;
        if (p.revents & POLLNVAL) {
            t.erase(p.fd); // closed behind our back: drop it, as epoll would
            registry().erase(p.fd);
            continue;
        }
        events[out].token = t.polledTokens[i];
        events[out].ready = readiness(p.revents);
        ++out;
    }
    if (n > 0)
        t.rotate = (t.rotate + 1) % n;
    return out;
}

void Poller::wake()
{
    const char one = 1;
    ::send(SOCKET(m_wake), &one, 1, 0);
}

} // namespace nb::net
