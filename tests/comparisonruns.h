// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Comparisons made up in memory for the tests: a configuration named as the matrix names it,
// and the runs of a comparison's schedule with the results a test makes for them.

#include <compare/comparison.h>

#include <QList>
#include <QString>
#include <QStringList>

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

// One 2-second stream at `gbps` with the client `cpuPct` busy: the result most comparison tests
// are made of.
inline nb::TestResult twoSecondStream(double gbps, double cpuPct)
{
    nb::TestResult r;
    r.params.duration = 2;
    nb::StreamSummary s;
    s.id = 1;
    s.seconds = s.receiverSeconds = 2;
    s.bytesSent = s.bytesReceived = std::uint64_t(gbps * 1e9 / 8 * 2);
    r.streams.append(s);
    r.localCpuKnown = true;
    r.localCpu.end = 2;
    r.localCpu.cpuCount = 2;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = cpuPct;
    return r;
}

// E1000 at 1.0 Gbit/s and VMXNET3 1% faster, three runs each 0.1% apart (a significant +1.0%
// ± 0.2%), both with the client 40% busy: the equivalence threshold's case (review M8).
inline nb::Comparison nearlyEqualAdapters()
{
    nb::Comparison c;
    c.title = QStringLiteral("Nearly the same");
    c.repeats = 3;
    c.configurations = {namedConfiguration(QStringLiteral("E1000"), QString()),
                        namedConfiguration(QStringLiteral("VMXNET3"), QString())};
    addScheduledRuns(c, [](const nb::Run &run) {
        return twoSecondStream((run.configIndex == 0 ? 1.0 : 1.01) * (1 + 0.001 * run.repeatIndex), 40);
    });
    return c;
}

} // namespace nbtest
