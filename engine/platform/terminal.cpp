// SPDX-License-Identifier: GPL-3.0-or-later
// platform/terminal.h, the part every system shares: reading one secret line with a size cap.
// Hiding the echo is per system (terminal_linux.cpp, terminal_windows.cpp).
#include "platform/terminal.h"
#include "platform/terminal_p.h"

#include <cstdio>
#include <string>

namespace nb::platform {

bool readSecretLine(const QString &prompt, int maxBytes, QString *out, QString *error)
{
    std::fputs(prompt.toLocal8Bit().constData(), stderr);
    std::fflush(stderr);
    const std::function<void()> restoreEcho = detail::hideInputEcho();
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
    if (restoreEcho)
        restoreEcho();
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
