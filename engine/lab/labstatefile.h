// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the lab keeps what it made (docs/lab.md, "State and cleaning up") and the file that
// lists it: lab.json in the state folder, written atomically before each thing is made.

#include "lab/labmodel.h"

#include <QString>

namespace nb::lab {

// $XDG_RUNTIME_DIR/nicbench-lab, else /run/nicbench-lab for root, else /tmp/nicbench-lab-<user>.
QString defaultStateDirectory();

// False with "no lab is up ..." in *error when the file is missing, else with what is wrong.
bool readStateFile(const QString &path, LabState *state, QString *error);
bool writeStateFile(const QString &path, const LabState &state, QString *error);

} // namespace nb::lab
