// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Text from a peer (server messages, results, machine descriptions) or from a file
// (snapshot labels and titles) reaches the terminal through here: control characters
// could move the cursor, rewrite earlier lines, change the title or hide text.

#include <QString>

namespace nb::cli {

// The text with every control character but newline and tab (C0, DEL, C1) and every
// bidirectional override or isolate shown as an escape ("\x1b", "\u202e"), so nothing in
// it is interpreted by the terminal and nothing is hidden.
QString terminalSafe(const QString &text);

} // namespace nb::cli
