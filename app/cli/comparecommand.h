// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `nicbench-cli compare` (run a comparison headless, write a .nicbench snapshot) and
// `nicbench-cli report` (print a snapshot's comparison table). docs/compare-spec.md.

#include <QString>
#include <QStringList>

namespace nb::cli {

// True for the subcommands handled here ("compare", "report").
bool isComparisonSubcommand(const QString &firstArgument);
// `args` without the program name, starting with the subcommand. Returns the exit code.
int runComparisonSubcommand(const QStringList &args);

// The subcommands' --help texts (also in the man page).
QString compareUsage();
QString reportUsage();

// The spec format itself is engine/comparisonspec.h, shared with the GUI.

} // namespace nb::cli
