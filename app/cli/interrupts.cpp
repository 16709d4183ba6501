// SPDX-License-Identifier: GPL-3.0-or-later
#include "interrupts.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace nb::cli {

namespace {

std::atomic<void (*)()> g_onFirst{nullptr};
std::atomic<int> g_interrupts{0};

void onSignal(int)
{
    if (g_interrupts.fetch_add(1) >= 1)
        std::_Exit(130);
    if (auto *f = g_onFirst.load())
        f();
}

} // namespace

void installInterruptHandler(void (*onFirst)())
{
    g_onFirst.store(onFirst);
    struct sigaction sa{};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
}

int fail(const QString &message)
{
    std::fprintf(stderr, "nicbench-cli: error: %s\n", message.toLocal8Bit().constData());
    return 1;
}

} // namespace nb::cli
