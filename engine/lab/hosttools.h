// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The host programs and files the lab works with: finding and running a tool (ip, kill) with
// a bound on its time, whether we are root, and files written whole or not at all.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace nb::lab {

// A host program on PATH, else in the sbin folders (root's tools live there); empty when none.
QString findTool(const QString &name);

// Runs a tool to its end (30 s at most); its exit code, -1 when it did not run or was stopped.
// Its output (stdout and stderr merged, trimmed) in *output.
int runTool(const QString &program, const QStringList &args, QString *output = nullptr);

// True when this process's effective user is root (from /proc/self/status).
bool runningAsRoot();

// Writes `data` to `path` atomically (QSaveFile); one line in *error when it cannot.
bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error);

// 'text' for a POSIX shell, quotes inside escaped.
QString shellQuote(const QString &text);

} // namespace nb::lab
