// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a secret from the terminal without showing it (the client's password prompt).
// One file per OS: terminal_linux.cpp, terminal_windows.cpp.

#include <QString>

namespace nb::platform {

// True when standard input is a terminal (so a prompt can be answered).
bool stdinIsTerminal();
// Writes prompt to standard error, reads one line from standard input with echo off, puts
// echo back and returns the line without its end. False with *error set at end of input or
// when the line is longer than maxBytes.
bool readSecretLine(const QString &prompt, int maxBytes, QString *out, QString *error);

} // namespace nb::platform
