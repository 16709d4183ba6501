// SPDX-License-Identifier: GPL-3.0-or-later
// Process signals on Linux (platform.h): SIGINT/SIGTERM to a callback, SIGPIPE ignored.
#include "platform/platform.h"

#include <atomic>
#include <csignal>

namespace nb::platform {

namespace {
std::atomic<void (*)()> g_onInterrupt{nullptr};

void onSignal(int)
{
    if (auto *f = g_onInterrupt.load())
        f();
}
} // namespace

void installInterruptHandler(void (*onInterrupt)())
{
    g_onInterrupt.store(onInterrupt);
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
}

void ignoreSigpipe()
{
    std::signal(SIGPIPE, SIG_IGN);
}

} // namespace nb::platform
