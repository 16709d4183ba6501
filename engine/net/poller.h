// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Readiness of many sockets on one thread: the event loop under each data worker.
// Linux: epoll, with an eventfd for wake(). Windows (poller_windows.cpp): WSAPoll over a
// table of the watched sockets, with a UDP socket sending to itself for wake(); the
// workers above do not change. Level-triggered: a socket stays reported while it is
// ready, so a handler may do part of the work and come back on the next wait.

#include "net/socket.h"

#include <cstdint>
#include <memory>

namespace nb::net {

#ifdef _WIN32
struct PollTable; // the sockets WSAPoll watches (poller_windows.cpp)
#endif

// What a socket is waited for, and what wait() reports (plus Hangup and Failed).
enum Readiness : unsigned { Readable = 1, Writable = 2, Hangup = 4, Failed = 8 };

struct PollEvent {
    void *token = nullptr; // what add() was given for the socket
    unsigned ready = 0;    // Readiness bits
};

class Poller {
public:
    Poller();
    ~Poller();
    Poller(const Poller &) = delete;
    Poller &operator=(const Poller &) = delete;

    // False when the OS refused the poller (out of descriptors); *error says why.
    bool valid(QString *error = nullptr) const;
    // Starts watching s for the Readiness bits in interest; token comes back in events.
    bool add(const Socket &s, void *token, unsigned interest);
    bool modify(const Socket &s, void *token, unsigned interest);
    // Stops watching (closing the socket does it too).
    void remove(const Socket &s);
    // Waits up to timeoutMs (-1: no limit) and fills up to max events. Returns how many;
    // 0 on timeout, interruption or wake(); -1 on error.
    int wait(PollEvent *events, int max, int timeoutMs);
    // Makes a wait() in progress (or the next one) return at once. Any thread may call it.
    void wake();

private:
    std::intptr_t m_poll = -1;
    std::intptr_t m_wake = -1;
    int m_error = 0;
#ifdef _WIN32
    std::unique_ptr<PollTable> m_table;
#endif
};

} // namespace nb::net
