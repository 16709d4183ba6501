// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What terminal.cpp needs of each system (terminal_linux.cpp, terminal_windows.cpp).

#include <functional>

namespace nb::platform::detail {

// Turns off the echo of standard input when it is a terminal (a console on Windows);
// the returned function turns it back on. Empty when there is nothing to restore.
std::function<void()> hideInputEcho();

} // namespace nb::platform::detail
