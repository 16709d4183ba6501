// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// iperf3-style command line shared by nicbench-cli and the GUI's --run mode.

#include "model/parameters.h"
#include "model/testparams.h"
#include "session/server.h"

#include <QList>

#include <QString>
#include <QStringList>

namespace nb {

// One option as the user gave it: the table's row and the value as typed ("" for a flag).
struct GivenOption {
    param::Id id;
    QString value;
};

struct CommandLine {
    enum class Mode { None, Client, Server, Help, Version, Interfaces };
    Mode mode = Mode::None;
    TestParams params;
    ServerOptions server;
    bool json = false;        // -J
    bool jsonStream = false;  // --json-stream
    bool verbose = false;     // -V
    QStringList extraArgs;    // options the caller handles itself (e.g. --quit-when-done)
    QList<GivenOption> given; // every option in order, for a test an agent runs (--from)
    // A test run by an agent (--from AGENT[:PORT] --agent-key FILE); empty host: run here.
    QString fromHost;
    quint16 fromPort = 5201;
    QString agentKeyPath;
};

// Parses arguments (without the program name). extraFlags are boolean long options the
// caller accepts beyond the test flags (the GUI's --run, --quit-when-done). Returns false
// with a one-line *error for unknown flags and invalid values.
bool parseCommandLine(const QStringList &args, CommandLine *out, QString *error, const QStringList &extraFlags = {});
// `gui`: the window's help, without the server's and the agents' options (review minor).
QString commandLineHelp(const QString &program, bool gui = false);

} // namespace nb
