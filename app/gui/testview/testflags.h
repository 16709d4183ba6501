// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CLI's test flags (-c -p -P -t -R --bidir -l -w ...) as the GUI uses them: on its
// own command line and in presets, which are stored as flag strings. The parsing itself
// is the engine's, shared with nicbench-cli, so both accept exactly the same flags.

#include <model/testparams.h>

#include <QString>
#include <QStringList>

namespace nb::gui {

struct GuiCommandLine {
    bool run = false;          // --run: start the test once the window is up
    bool quitWhenDone = false; // --quit-when-done: exit after that test
    bool hostGiven = false;    // -c was given; otherwise the built-in server is the target
    bool showHelp = false;
    bool showVersion = false;
    QString jsonOutPath; // --json-out FILE: write the result JSON when the test ends
    nb::TestParams params;
    QString error; // one line, empty when the arguments are fine
};

// The window's report interval when the flags name none: 0.5 s, twice the points of
// iperf3's 1 s at no real cost (docs/design.md, "Live throughput"). nicbench-cli keeps 1 s.
inline constexpr double DefaultIntervalSecs = 0.5;

// Test flags (no program name, no -c) on top of the defaults (the window's interval).
// Returns false and sets *error on an unknown flag or an invalid value.
bool parseTestFlags(const QStringList &flags, nb::TestParams *params, QString *error);

// Parses the GUI's full argument list (program name first).
GuiCommandLine parseGuiCommandLine(const QStringList &arguments);
QString guiCommandLineHelp(const QString &program);

} // namespace nb::gui
