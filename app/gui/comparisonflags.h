// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's comparison arguments: snapshot files to open (several overlay) and
// `--compare SPEC [--snapshot-out FILE] [--quit-when-done]`. They are taken out of the
// argument list before the test flags are parsed (testflags.h).

#include <QString>
#include <QStringList>

namespace nb::gui {

struct ComparisonArguments {
    QStringList snapshots;     // FILE.nicbench[.gz] given as plain arguments
    QString specPath;          // --compare SPEC
    QString snapshotOut;       // --snapshot-out FILE
    bool quitWhenDone = false; // with --compare: exit when the comparison ends
    QStringList rest;          // everything else, program name first
    QString error;
};

// `arguments` with the program name first.
ComparisonArguments takeComparisonArguments(const QStringList &arguments);
QString comparisonArgumentsHelp();

} // namespace nb::gui
