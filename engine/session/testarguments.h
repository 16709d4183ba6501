// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A test's parameters as the client flags that say them, for a test the window has an agent
// run (docs/protocol.md §6.4): the agent reads the flags with the command-line parser, so
// the window sends what `nicbench-cli -c B --from A` would have sent for the same test.

#include "model/testparams.h"
#include "session/commandline.h"

#include <QString>
#include <QStringList>

namespace nb {

// The flags (no -c) that parseCommandLine reads back into `t`: each table row whose value
// differs from TestParams' default, in the table's order ("--parallel 4 --reverse").
QStringList testArguments(const TestParams &t);

// The options an agent is sent for `t` (CommandLine::given, AgentFrom::given): testArguments(t)
// as parseCommandLine reads them. False with a one-line *error when they are refused or do
// not read back as `t` (a setting no flag can say), so an agent never runs another test.
bool givenOptions(const TestParams &t, QList<GivenOption> *out, QString *error);

// `-c HOST --from FROM --agent-key KEY` and testArguments(t), read as nicbench-cli reads
// them: the command line an AgentController runs. `from` is "HOST[:PORT]". False with a
// one-line *error as givenOptions, or for a bad `from` or key path.
bool agentCommandLine(const TestParams &t, const QString &from, const QString &keyPath, CommandLine *out,
                      QString *error);

} // namespace nb
