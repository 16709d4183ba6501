// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/terminal.h"

#include <windows.h>

#include <cstdio>
#include <io.h>
#include <string>

namespace nb::platform {

bool stdinIsTerminal()
{
    return _isatty(_fileno(stdin)) != 0;
}

bool readSecretLine(const QString &prompt, int maxBytes, QString *out, QString *error)
{
    std::fputs(prompt.toLocal8Bit().constData(), stderr);
    std::fflush(stderr);
    const HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
    DWORD saved = 0;
    const bool console = GetConsoleMode(in, &saved) != 0;
    if (console)
        SetConsoleMode(in, saved & ~DWORD(ENABLE_ECHO_INPUT));
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
            tooLong = true;
        else
            line.push_back(char(c));
    }
    if (console) {
        SetConsoleMode(in, saved);
        std::fputs("\n", stderr); // the Enter the user typed was not echoed
    }
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
