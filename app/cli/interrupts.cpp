// SPDX-License-Identifier: GPL-3.0-or-later
#include "interrupts.h"
#include "terminaltext.h"

#include "platform/platform.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace nb::cli {

namespace {

std::atomic<void (*)()> g_onFirst{nullptr};
std::atomic<int> g_interrupts{0};

void onInterrupt()
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
    platform::installInterruptHandler(&onInterrupt);
    platform::ignoreSigpipe();
}

int fail(const QString &message)
{
    std::fprintf(stderr, "nicbench-cli: error: %s\n", terminalSafe(message).toLocal8Bit().constData());
    return 1;
}

} // namespace nb::cli
