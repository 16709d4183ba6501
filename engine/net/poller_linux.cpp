// SPDX-License-Identifier: GPL-3.0-or-later
// net/poller.h on Linux: epoll, woken through an eventfd.
#include "net/poller.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace nb::net {

namespace {

// The wake eventfd's token: no socket's token can be this object's own address.
char wakeToken;

std::uint32_t epollBits(unsigned interest)
{
    std::uint32_t e = 0;
    if (interest & Readable)
        e |= EPOLLIN | EPOLLRDHUP;
    if (interest & Writable)
        e |= EPOLLOUT;
    return e;
}

} // namespace

Poller::Poller()
{
    m_poll = ::epoll_create1(EPOLL_CLOEXEC);
    m_wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_poll < 0 || m_wake < 0) {
        m_error = errno;
        return;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.ptr = &wakeToken;
    if (::epoll_ctl(int(m_poll), EPOLL_CTL_ADD, int(m_wake), &ev) != 0)
        m_error = errno;
}

Poller::~Poller()
{
    if (m_wake >= 0)
        ::close(int(m_wake));
    if (m_poll >= 0)
        ::close(int(m_poll));
}

bool Poller::valid(QString *error) const
{
    const bool ok = m_poll >= 0 && m_wake >= 0 && m_error == 0;
    if (!ok && error)
        *error = QStringLiteral("cannot create an event poller: %1").arg(systemErrorText(m_error));
    return ok;
}

bool Poller::add(const Socket &s, void *token, unsigned interest)
{
    epoll_event ev{};
    ev.events = epollBits(interest);
    ev.data.ptr = token;
    return ::epoll_ctl(int(m_poll), EPOLL_CTL_ADD, s.handle(), &ev) == 0;
}

bool Poller::modify(const Socket &s, void *token, unsigned interest)
{
    epoll_event ev{};
    ev.events = epollBits(interest);
    ev.data.ptr = token;
    return ::epoll_ctl(int(m_poll), EPOLL_CTL_MOD, s.handle(), &ev) == 0;
}

void Poller::remove(const Socket &s)
{
    if (s.valid())
        ::epoll_ctl(int(m_poll), EPOLL_CTL_DEL, s.handle(), nullptr);
}

int Poller::wait(PollEvent *events, int max, int timeoutMs)
{
    constexpr int Batch = 256;
    epoll_event raw[Batch];
    const int n = ::epoll_wait(int(m_poll), raw, max < Batch ? max : Batch, timeoutMs);
    if (n < 0)
        return errno == EINTR ? 0 : -1;
    int out = 0;
    for (int i = 0; i < n; ++i) {
        if (raw[i].data.ptr == &wakeToken) {
            std::uint64_t v;
            while (::read(int(m_wake), &v, sizeof v) > 0) {
            }
            continue;
        }
        unsigned ready = 0;
        if (raw[i].events & EPOLLIN)
            ready |= Readable;
        if (raw[i].events & EPOLLOUT)
            ready |= Writable;
        if (raw[i].events & (EPOLLHUP | EPOLLRDHUP))
            ready |= Hangup;
        if (raw[i].events & EPOLLERR)
            ready |= Failed;
        events[out].token = raw[i].data.ptr;
        events[out].ready = ready;
        ++out;
    }
    return out;
}

void Poller::wake()
{
    const std::uint64_t one = 1;
    // A full counter (never in practice) still leaves the eventfd readable: nothing lost.
    [[maybe_unused]] const auto rc = ::write(int(m_wake), &one, sizeof one);
}

} // namespace nb::net
