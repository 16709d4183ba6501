// SPDX-License-Identifier: GPL-3.0-or-later
// platform/terminal.h on Windows: the console's echo (the line reading is terminal.cpp's).
#include "platform/terminal.h"
#include "platform/terminal_p.h"

#include <windows.h>

#include <cstdio>
#include <io.h>

namespace nb::platform {

bool stdinIsTerminal()
{
    return _isatty(_fileno(stdin)) != 0;
}

std::function<void()> detail::hideInputEcho()
{
    const HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    DWORD saved = 0;
    if (GetConsoleMode(in, &saved) == 0)
        return {};
    SetConsoleMode(in, saved & ~DWORD(ENABLE_ECHO_INPUT));
    return [in, saved] {
        SetConsoleMode(in, saved);
        std::fputs("\n", stderr); // the Enter the user typed was not echoed
    };
}

} // namespace nb::platform
