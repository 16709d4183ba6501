// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `nicbench-cli mesh`: the same test between every chosen pair of agents, one snapshot
// whose configurations are the pairs (README "Meshes", engine/compare/mesh.h).

#include <QString>
#include <QStringList>

namespace nb::cli {

// `args` without the program name and without "mesh". Returns the exit code.
int meshCommand(const QStringList &args);
QString meshUsage();

} // namespace nb::cli
