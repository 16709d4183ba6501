// SPDX-License-Identifier: GPL-3.0-or-later
// platform/terminal.h on Linux: the terminal's echo (the line reading is terminal.cpp's).
#include "platform/terminal.h"
#include "platform/terminal_p.h"

#include <termios.h>
#include <unistd.h>

namespace nb::platform {

bool stdinIsTerminal()
{
    return isatty(STDIN_FILENO) == 1;
}

std::function<void()> detail::hideInputEcho()
{
    termios saved{};
    if (tcgetattr(STDIN_FILENO, &saved) != 0)
        return {};
    termios quiet = saved;
    quiet.c_lflag &= ~tcflag_t(ECHO);
    quiet.c_lflag |= ECHONL;
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet); // NOW, not FLUSH: keep what was typed ahead
    return [saved] { tcsetattr(STDIN_FILENO, TCSANOW, &saved); };
}

} // namespace nb::platform
