// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Past runs as a comparison: the runs chosen in the run history become a Comparison (a
// snapshot like any other), so the Compare view charts, tables and overlays them and Save
// keeps them as a .nicbench file.
//
// Each run is one series ("adapter") named by what tells the runs apart: the user's label
// of the run when it has one, else the adapter that carried it, else its target, else its
// time ("03:12:05") when the runs went the same way. Tests of one kind ("TCP upload P=4")
// are one variant; runs of one series and variant are its repeats, in the order they ran.
// The comparison says in its warnings that the runs were not interleaved.

#include "compare/comparison.h"
#include "compare/runhistory.h"

#include <QList>
#include <QString>

namespace nb {

// False with *error when there are no runs, or more repeats of one configuration than a
// comparison holds.
bool comparisonFromHistory(const QList<HistoryRun> &runs, Comparison *out, QString *error);

// The series name of each run, in order (see above).
QStringList historySeriesLabels(const QList<HistoryRun> &runs);

} // namespace nb
