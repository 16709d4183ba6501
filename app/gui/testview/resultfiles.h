// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One test's results written as the file a user asked for, by its suffix: .json (the -J
// document), .csv (every interval) or .pdf (the one-page report, testreport.h); and the file
// dialog that asks for the name. The Test view's Save Result As and the History window's
// Save As both use it.

#include "testview/testreport.h"

#include <QString>

class QFileDialog;
class QWidget;

namespace nb::gui {

// False with a sentence in *error (the file is left as it was).
bool writeResultFile(const QString &path, const TestReportInput &input, QString *error);
// The Save Result As dialog, not shown (askResultPath runs it; tests grab it).
QFileDialog *newResultDialog(QWidget *parent, const TestReportInput &input);
// Asks for a file (JSON, CSV or PDF; the suffix follows the chosen type), starting in the
// export folder with a name from when the run ended. Empty when cancelled.
QString askResultPath(QWidget *parent, const TestReportInput &input);

} // namespace nb::gui
