// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `nicbench-cli lab up|status|exec|down`: the adapter lab's QEMU guests (docs/lab.md).

#include <QString>
#include <QStringList>

namespace nb::cli {

bool isLabSubcommand(const QString &firstArgument);
// `args` without the program name, starting with "lab". Returns the exit code.
int runLabSubcommand(const QStringList &args);
QString labUsage();

} // namespace nb::cli
