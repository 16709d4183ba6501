// SPDX-License-Identifier: GPL-3.0-or-later
// A man page (roff, man macros) made from a program's --help text. The help text comes from
// the one table of options (test/parameters.cpp), so the page and --help cannot drift apart:
// both executables print their page with the hidden --man flag and the build writes it out.
#pragma once

#include <QList>
#include <QString>
#include <utility>

namespace nb {

struct ManPage {
    QString name;                             // "nicbench-cli"
    QString section;                          // "1"
    QString version;                          // in the footer
    QString summary;                          // the NAME line after the dash
    QString help;                             // the --help text, as printed
    QStringList description;                  // paragraphs before OPTIONS
    QList<std::pair<QString, QString>> files; // FILES: path, what it is
    QStringList seeAlso;                      // "iperf3(1)"
};

// The page in roff. Help lines: "Usage: ..." (and the indented lines after it) become the
// SYNOPSIS; unindented lines ending in ':' sub-sections; indented "FLAGS  text" rows tagged
// paragraphs (deeper indented lines continue the text); anything else plain paragraphs.
QString manPageRoff(const ManPage &page);

// Escapes text for roff: backslashes, dashes (as \-, so flags copy and paste), double quotes
// (\(dq: macro arguments), leading dots and apostrophes.
QString roffEscape(const QString &text);

} // namespace nb
