// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The request a controller sends an agent (docs/protocol.md §6.2): the host to test toward
// and the test's options as the parameter table names them (model/parameters.cpp), in the
// order the user gave them. The agent reads them with the command-line parser itself, so
// every parameter has one definition and one set of checks wherever the test runs.

#include "model/parameters.h"
#include "model/testparams.h"
#include "session/commandline.h"

#include <QJsonObject>
#include <QString>

namespace nb {

// At most this many options in one request, each value at most MaxAgentOptionChars.
constexpr int MaxAgentOptions = 128;
constexpr int MaxAgentOptionChars = 1024;

// Whether an option travels to the agent: the test parameters (rows a test kind reads),
// but not -c (the request's target) and not the credentials of an authenticating server.
bool travelsToAgent(const param::Parameter &p);
// The "run" message for a command line with --from.
QJsonObject agentRequestJson(const CommandLine &cl, const QString &controllerHost);
// The agent's side: the test the request asks for, read with the command-line parser as
// `nicbench-cli -c TARGET OPTIONS` would read it. False with a one-line *error.
bool testFromAgentRequest(const QJsonObject &request, TestParams *out, QString *error);

} // namespace nb
