// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace nb::cli {

// SIGINT/SIGTERM: the first calls onFirst (which must only touch atomics: it runs in a
// signal handler) so the command can end gracefully and keep what it measured; the second
// exits at once with status 130. SIGPIPE is ignored.
void installInterruptHandler(void (*onFirst)());

// One line "nicbench-cli: error: MESSAGE" on stderr; returns 1 for main's exit status.
int fail(const QString &message);

} // namespace nb::cli
