// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// nicbench-cli(1): printed by the hidden `nicbench-cli --man`, which the build runs to write
// the installed page (packaging/CMakeLists.txt). Its options are --help's, word for word.

#include <QString>

namespace nb::cli {

QString cliManPage();

} // namespace nb::cli
