// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/historycomparison.h"

#include "compare/comparisonoptions.h"
#include "compare/rundescription.h"
#include "core/jsonfields.h"

#include <QHash>
#include <QSet>
#include <QTimeZone>

#include <algorithm>

namespace nb {

namespace {

QString localAdapterName(const HistoryRun &run)
{
    for (const TestResult &r : run.results) {
        if (r.localAdapter)
            return r.localAdapter->name;
    }
    return {};
}

QString targetHost(const HistoryRun &run)
{
    return run.results.isEmpty() ? QString() : run.results.constFirst().params.host;
}

QList<HistoryRun> oldestFirst(QList<HistoryRun> runs)
{
    std::stable_sort(runs.begin(), runs.end(),
                     [](const HistoryRun &a, const HistoryRun &b) { return a.entry.finishedAt < b.entry.finishedAt; });
    return runs;
}

// Names that collide (runs the same second) get " (2)", " (3)".
class UniqueNames {
public:
    QString add(const QString &name)
    {
        const int n = ++m_seen[name];
        return n > 1 ? QStringLiteral("%1 (%2)").arg(name).arg(n) : name;
    }

private:
    QHash<QString, int> m_seen;
};

QString title(const QStringList &series)
{
    QStringList distinct;
    for (const QString &s : series) {
        if (!distinct.contains(s))
            distinct << s;
    }
    if (distinct.size() >= 2 && distinct.size() <= 3)
        return QStringLiteral("Past runs: %1").arg(distinct.join(QStringLiteral(" vs ")));
    return series.size() == 1 ? QStringLiteral("1 past run") : QStringLiteral("%1 past runs").arg(series.size());
}

HostEnvironment localHost(const QList<HistoryRun> &runs)
{
    HostEnvironment host = runs.constFirst().host;
    host.adapters.clear();
    // The adapters that carried the runs, not every adapter the machine had.
    for (const HistoryRun &run : runs) {
        for (const TestResult &r : run.results) {
            if (!r.localAdapter)
                continue;
            const bool listed = std::any_of(host.adapters.cbegin(), host.adapters.cend(),
                                            [&r](const AdapterInfo &a) { return a.name == r.localAdapter->name; });
            if (!listed)
                host.adapters.append(*r.localAdapter);
        }
    }
    host.known = host.known || !host.adapters.isEmpty();
    return host;
}

} // namespace

QStringList historySeriesLabels(const QList<HistoryRun> &runs)
{
    QSet<QString> targets, days;
    QHash<QString, QSet<QString>> targetsOf; // per local adapter (known ones only)
    for (const HistoryRun &run : runs) {
        if (!localAdapterName(run).isEmpty())
            targetsOf[localAdapterName(run)].insert(targetHost(run));
        targets.insert(targetHost(run));
        days.insert(run.entry.finishedAt.toLocalTime().date().toString(Qt::ISODate));
    }
    const bool byAdapter = targetsOf.size() > 1;
    // Both only when an adapter went to several targets: else the adapter says it all.
    const bool byBoth = byAdapter && std::any_of(targetsOf.cbegin(), targetsOf.cend(),
                                                 [](const QSet<QString> &t) { return t.size() > 1; });
    const bool byTarget = targets.size() > 1;
    const bool byTime = !byAdapter && !byTarget;
    QStringList labels;
    UniqueNames uniqueTimes;
    for (const HistoryRun &run : runs) {
        const QString local = localAdapterName(run);
        const QString target = targetHost(run);
        QString label;
        if (byBoth)
            label = QStringLiteral("%1 \u2192 %2").arg(local.isEmpty() ? QStringLiteral("?") : local, target);
        else if (byAdapter)
            label = local.isEmpty() ? target : local;
        else if (byTarget)
            label = target;
        else // the same way each time: the runs are told apart by when they ran
            label = run.entry.finishedAt.toLocalTime().toString(days.size() > 1 ? QStringLiteral("d MMM HH:mm:ss")
                                                                                : QStringLiteral("HH:mm:ss"));
        if (byTime && run.entry.label.isEmpty()) // two runs the same second: " (2)"
            label = uniqueTimes.add(label);
        labels << (run.entry.label.isEmpty() ? label : run.entry.label); // the user's name wins
    }
    return labels;
}

bool comparisonFromHistory(const QList<HistoryRun> &chosen, Comparison *out, QString *error)
{
    if (chosen.isEmpty())
        return json::fail(error, QString(), QStringLiteral("choose at least one run"));
    const QList<HistoryRun> runs = oldestFirst(chosen);
    const QStringList series = historySeriesLabels(runs);
    QStringList variants;
    for (const HistoryRun &run : runs) {
        for (const TestResult &r : run.results) {
            if (!variants.contains(runKindLabel(r.params)))
                variants << runKindLabel(r.params);
        }
    }
    const bool oneVariant = variants.size() == 1;

    Comparison c;
    c.title = title(series);
    c.pauseSeconds = 0;
    QHash<QString, int> configOf;
    QList<int> repeatsOf;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        for (const TestResult &r : runs[i].results) {
            const QString variant = oneVariant ? QString() : runKindLabel(r.params);
            const QString label = Configuration::joinLabel(series[i], variant);
            auto it = configOf.find(label);
            if (it == configOf.end()) {
                Configuration conf;
                conf.label = label;
                conf.adapter = series[i];
                conf.variant = variant;
                conf.params = r.params;
                it = configOf.insert(label, int(c.configurations.size()));
                c.configurations.append(conf);
                repeatsOf.append(0);
            }
            Run run;
            run.configIndex = it.value();
            run.repeatIndex = repeatsOf[run.configIndex]++;
            run.orderIndex = int(c.runs.size());
            run.startedAt = r.timestampSecs > 0 ? QDateTime::fromSecsSinceEpoch(r.timestampSecs, QTimeZone::utc())
                                                : runs[i].entry.finishedAt;
            run.result = r;
            if (!r.ok())
                c.warnings << QStringLiteral("%1 (%2) failed: %3")
                                  .arg(
                                      label,
                                      runs[i].entry.finishedAt.toLocalTime().toString(QStringLiteral("d MMM HH:mm:ss")),
                                      r.error);
            c.runs.append(run);
        }
    }
    c.repeats = std::max(1, *std::max_element(repeatsOf.cbegin(), repeatsOf.cend()));
    const compareopt::Option &repeatsRow = compareopt::option(compareopt::Id::Repeats);
    if (!compareopt::inRange(repeatsRow, c.repeats))
        return json::fail(error, QString(),
                          QStringLiteral("%1 runs of one configuration; a comparison holds at most %2")
                              .arg(c.repeats)
                              .arg(repeatsRow.max));
    c.createdAt = runs.constFirst().entry.finishedAt;
    c.finishedAt = runs.constLast().entry.finishedAt;
    c.environment.local = localHost(runs);
    QList<TestResult> all;
    for (const HistoryRun &run : runs)
        all += run.results;
    c.environment.remote = remoteHostFromResults(all);
    c.warnings.prepend(QStringLiteral("made from %1 run(s) of the run history, run one after another as they were "
                                      "started, not interleaved by a comparison: drift between them is not balanced")
                           .arg(runs.size()));
    if (const QString problem = c.validate(); !problem.isEmpty())
        return json::fail(error, QString(), problem);
    *out = c;
    return true;
}

} // namespace nb
