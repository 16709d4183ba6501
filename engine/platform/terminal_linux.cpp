// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/terminal.h"

#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace nb::platform {

bool stdinIsTerminal()
{
    return isatty(STDIN_FILENO) == 1;
}

bool readSecretLine(const QString &prompt, int maxBytes, QString *out, QString *error)
{
    std::fputs(prompt.toLocal8Bit().constData(), stderr);
    std::fflush(stderr);
    termios saved{};
    const bool tty = tcgetattr(STDIN_FILENO, &saved) == 0;
    if (tty) {
        termios quiet = saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        quiet.c_lflag |= ECHONL;
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet); // NOW, not FLUSH: keep what was typed ahead
    }
    std::string line;
    bool ended = false, tooLong = false;
    for (;;) {
        const int c = std::fgetc(stdin);
        if (c == EOF) {
            ended = line.empty();
            break;
        }
        if (c == '\n')
            break;
        if (int(line.size()) >= maxBytes)
            tooLong = true; // keep reading to the end of the line, keep nothing more
        else
            line.push_back(char(c));
    }
    if (tty)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    if (!line.empty() && line.back() == '\r')
        line.pop_back();
    if (ended || tooLong) {
        *error = ended ? QStringLiteral("no password given")
                       : QStringLiteral("the password is longer than %1 bytes").arg(maxBytes);
        return false;
    }
    *out = QString::fromLocal8Bit(line.data(), qsizetype(line.size()));
    return true;
}

} // namespace nb::platform
