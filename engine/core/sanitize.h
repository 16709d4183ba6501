// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Text from a peer (a client's version string, a server's error, a label) is shown on
// terminals and written to logs. A terminal acts on escape sequences and control
// characters, so such text goes through printable() before it is printed or logged.

#include <QString>
#include <QStringView>

namespace nb {

// The text with every character that is not plainly printable replaced by '?': C0 and C1
// controls (so ESC, and with it any terminal escape sequence, loses its meaning), DEL,
// format characters (bidirectional overrides, zero-width characters), unpaired surrogates,
// and non-characters. Line breaks and tabs are replaced too: one peer text, one line.
// Longer than maxLen characters: cut to maxLen and "..." appended. maxLen <= 0: no cut.
QString printable(QStringView text, int maxLen = 200);

// For text printed as it is, over several lines (a report, a table, a peer's message on
// stderr): every character printable() would replace, except newline and tab, is shown as
// an escape instead ("\x1b", "\u202e"), so the terminal interprets nothing and nothing is
// hidden, and the reader sees what was there. No length cap.
QString terminalSafe(QStringView text);

} // namespace nb
