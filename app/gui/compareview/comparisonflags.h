// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's comparison arguments: snapshot files to open (several overlay) and
// `--compare SPEC [--snapshot-out FILE] [--report-pdf FILE] [--quit-when-done]`, and
// `--report-pdf FILE` with snapshot files (headless). They are taken out of the
// argument list before the test flags are parsed (testflags.h).

#include <QString>
#include <QStringList>

namespace nb::gui {

struct ComparisonArguments {
    QStringList snapshots;     // FILE.nicbench[.gz] given as plain arguments
    QString specPath;          // --compare SPEC
    QString snapshotOut;       // --snapshot-out FILE
    QString reportOut;         // --report-pdf FILE: with snapshots, write the one-page report
                               // and exit without a window; with --compare, when it ends
    bool quitWhenDone = false; // with --compare: exit when the comparison ends
    QStringList rest;          // everything else, program name first
    QString error;
};

// `arguments` with the program name first.
ComparisonArguments takeComparisonArguments(const QStringList &arguments);
QString comparisonArgumentsHelp();
// True when the arguments ask for a report from snapshot files only: no window is shown,
// so main() can pick the offscreen platform before QApplication exists.
bool isHeadlessReport(int argc, char **argv);

} // namespace nb::gui
