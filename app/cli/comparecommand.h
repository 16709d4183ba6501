// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `nicbench-cli compare` (run a comparison headless, write a .nicbench snapshot) and
// `nicbench-cli report` (print a snapshot's comparison table). docs/compare-spec.md.

#include "compare/comparison.h"

#include <QString>
#include <QStringList>

namespace nb::cli {

enum class TableFormat { Text, Csv, Markdown };
// "text", "csv", "markdown" (or "md").
bool parseFormat(const QString &text, TableFormat *out);

// Where a headless comparison's snapshot goes and how its report is printed.
struct RunOutput {
    QString path;
    bool gzip = false;
    bool quiet = false;
    TableFormat format = TableFormat::Text;
};
// Runs the comparison (progress lines unless quiet; Ctrl-C stops after the current run),
// saves the snapshot and prints the report (a mesh's with its matrix). The exit code: 0
// every run succeeded, 2 some failed or it was interrupted, 1 the snapshot was not written.
// groups: configurations that run side by side (ComparisonRunner::setConcurrentGroups).
int runAndReport(const Comparison &comparison, const RunOutput &out, const QList<QList<int>> &groups = {});

// True for the subcommands handled here ("compare", "report").
bool isComparisonSubcommand(const QString &firstArgument);
// `args` without the program name, starting with the subcommand. Returns the exit code.
int runComparisonSubcommand(const QStringList &args);

// The subcommands' --help texts (also in the man page).
QString compareUsage();
QString reportUsage();

// The spec format itself is engine/comparisonspec.h, shared with the GUI.

} // namespace nb::cli
