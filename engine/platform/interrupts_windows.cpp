// SPDX-License-Identifier: GPL-3.0-or-later
// Process signals on Windows (platform.h): Ctrl+C, Ctrl+Break and console close to a
// callback. Windows has no SIGPIPE: a send on a reset connection returns WSAECONNRESET.
#include "platform/platform.h"

#include <windows.h>

#include <atomic>

namespace nb::platform {

namespace {
std::atomic<void (*)()> g_onInterrupt{nullptr};

BOOL WINAPI onConsoleEvent(DWORD event)
{
    switch (event) {
    case CTRL_C_EVENT:
    case CTRL_BREAK_EVENT:
    case CTRL_CLOSE_EVENT:
    case CTRL_SHUTDOWN_EVENT:
        if (auto *f = g_onInterrupt.load()) {
            f();
            return TRUE;
        }
        return FALSE;
    default:
        return FALSE;
    }
}
} // namespace

void installInterruptHandler(void (*onInterrupt)())
{
    g_onInterrupt.store(onInterrupt);
    ::SetConsoleCtrlHandler(onConsoleEvent, TRUE);
}

void ignoreSigpipe() {}

} // namespace nb::platform
