// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Comparisons made up in memory for the tests: a configuration named as the matrix names it,
// and the runs of a comparison's schedule with the results a test makes for them.

#include <compare/comparison.h>

#include <QList>
#include <QString>

namespace nbtest {

// The configuration of `variant` on `adapter`, labelled "adapter, variant".
inline nb::Configuration namedConfiguration(const QString &adapter, const QString &variant)
{
    nb::Configuration conf;
    conf.adapter = adapter;
    conf.variant = variant;
    conf.label = nb::Configuration::joinLabel(adapter, variant);
    return conf;
}

// Appends the runs of c's schedule (its configurations x repeats, in c's order), each with the
// result `resultOf(run)` makes from the run's configuration, repeat and order index.
template <typename ResultOf> void addScheduledRuns(nb::Comparison &c, ResultOf resultOf)
{
    const QList<nb::ScheduledRun> schedule = c.schedule();
    for (int i = 0; i < schedule.size(); ++i) {
        nb::Run run;
        run.configIndex = schedule[i].configIndex;
        run.repeatIndex = schedule[i].repeatIndex;
        run.orderIndex = i;
        run.result = resultOf(run);
        c.runs.append(run);
    }
}

} // namespace nbtest
