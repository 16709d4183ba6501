// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// nicbench(1): printed by the hidden `nicbench --man` (before any QApplication exists), which
// the build runs to write the installed page. Its options are --help's, word for word.

#include <QString>

namespace nb::gui {

QString guiManPage();

} // namespace nb::gui
