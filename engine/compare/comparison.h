// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A comparison: several configurations (an adapter, a target, test parameters), each run
// `repeats` times in an interleaved order, with every run's full result and the machines'
// environment. Plain value types; ComparisonRunner fills in the runs, comparisonstatistics.h
// turns them into means, intervals and verdicts, snapshot.h saves and loads them.

#include "compare/comparisonoptions.h"
#include "model/results.h"
#include "model/testparams.h"
#include "platform/hostenvironment.h"
#include "session/commandline.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace nb {

// Where a configuration's test runs: on this computer, or on an agent that this controller
// drives toward the configuration's host (`nicbench-cli -c B --from A`, docs/protocol.md §6).
// Snapshots keep `host` and `port` ("from"); the options and the key are for running only.
struct AgentFrom {
    QString host;             // empty: the test runs here
    quint16 port = 5201;      // the agent's server port
    QList<GivenOption> given; // the test's options as given, which travel to the agent
    QString keyPath;          // the agent key file; empty: the comparison's agentKeyPath

    bool isSet() const { return !host.isEmpty(); }
    // "198.18.0.2:5201", "[fd00::2]:5201"; empty when not set.
    QString text() const;
    // "HOST[:PORT]" (port 5201 unless given) as the host and port; false with a one-line *error.
    static bool fromText(const QString &text, AgentFrom *out, QString *error);
};

// A comparison is adapters x test variants: each configuration is one adapter (an endpoint:
// "E1000", "VMXNET3") running one variant of the test ("P=4", "TCP_RR"). Charts put the
// variants on the axis and one bar per adapter in each group; verdicts compare each
// configuration with the baseline adapter's configuration of the same variant.
struct Configuration {
    QString label;   // "E1000, P=4": the whole name, unique within a comparison (tables, CSV)
    QString adapter; // "E1000": the bar's series and legend entry
    QString variant; // "P=4": the group on the axis; empty when the comparison has one variant
    TestParams params;
    QString notes;  // free text ("jumbo frames on both ends")
    AgentFrom from; // run by an agent (a mesh's pair, a spec's "from")

    // "<adapter>, <variant>", or the adapter alone.
    static QString joinLabel(const QString &adapter, const QString &variant);
    // The adapter and variant a label written by joinLabel (or by hand, "before") names:
    // split at the last ", "; no ", " makes the whole label the adapter. Used for
    // snapshots written before the two were stored, and for specs that give only labels.
    static void splitLabel(const QString &label, QString *adapter, QString *variant);
    // Fills an empty adapter (and its variant) from the label (splitLabel).
    void completeFromLabel();
    // What to show and group by: the fields, or splitLabel(label) while adapter is empty.
    QString adapterName() const;
    QString variantName() const;

    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, Configuration *out, QString *error);
};

// How runs of the configurations are ordered. Interleaved: A B C A B C ... Shuffled: each
// round runs every configuration once, in an order drawn from `seed` (blocked
// randomisation: still balanced, but no fixed A-before-B pattern a periodic disturbance
// could line up with).
enum class OrderPolicy { Interleaved, Shuffled };
QString orderPolicyName(OrderPolicy p); // "interleaved", "shuffled"
bool orderPolicyFromName(const QString &name, OrderPolicy *out);

struct ScheduledRun {
    int configIndex = 0;
    int repeatIndex = 0; // 0-based round
    bool operator==(const ScheduledRun &) const = default;
};
// The order runs execute in: `repeats` rounds, each holding every configuration once.
// Whose CPU the answer's cost quotes: chosen from where the configurations' adapters differ
// (Auto, compare/cpuside.h), this computer's (Client) or the server's (Server).
enum class CpuSide { Auto, Client, Server };
QString cpuSideName(CpuSide s); // "auto", "client", "server"
bool cpuSideFromName(const QString &name, CpuSide *out);

QList<ScheduledRun> buildSchedule(int configurationCount, int repeats, OrderPolicy policy, quint64 seed);

struct Run {
    int configIndex = 0;
    int repeatIndex = 0;
    int orderIndex = 0;  // position in the executed sequence, 0-based
    QDateTime startedAt; // UTC
    TestResult result;   // result.error is set when the run failed

    bool ok() const { return result.ok(); }
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, Run *out, QString *error);
};

struct Comparison {
    QString title;
    QList<Configuration> configurations;
    int repeats = 3;
    OrderPolicy order = OrderPolicy::Interleaved;
    quint64 seed = 0; // used by OrderPolicy::Shuffled
    CpuSide cpuSide = CpuSide::Auto;
    // Differences smaller than this (percent) are "equivalent" (compareopt::Id::Equivalence;
    // 0: off). Snapshots keep it; the Compare view can change it after the fact.
    double equivalencePercent = compareopt::kDefaultEquivalencePercent;
    double pauseSeconds = 1.0; // idle time between runs, so one run's tail does not load the next
    int baselineIndex = 0;     // a configuration of the baseline adapter: every configuration is
                               // compared with the baseline adapter's one of the same variant
    QList<int> baselineOf;     // when not empty, the configuration each one is compared with
                               // (-1: none); overlays set it, snapshots do not store it
    QList<Run> runs;           // in execution order
    Environment environment;
    QStringList warnings; // comparison-level ("run 3 failed: ...", "adapters differ")
    QDateTime createdAt;  // UTC
    QDateTime finishedAt; // UTC; invalid while running or when stopped early
    QString agentKeyPath; // for configurations run by agents (AgentFrom); never saved

    QList<ScheduledRun> schedule() const { return buildSchedule(int(configurations.size()), repeats, order, seed); }
    // The baseline adapter: configurations[baselineIndex].adapter.
    QString baselineAdapter() const;
    // The configuration `configIndex` is compared with: the baseline adapter's
    // configuration of the same variant (with baselineOf set, baselineOf[configIndex]);
    // -1 for the baseline's own configurations and when there is none.
    int baselineFor(int configIndex) const;
    // True for a configuration others are compared with (the baseline adapter's, or a
    // baselineOf target).
    bool isBaseline(int configIndex) const;
    // Distinct adapters and variants, in order of first appearance.
    QStringList adapters() const;
    QStringList variants() const;
    // Successful runs of one configuration, in execution order.
    QList<const Run *> runsOf(int configIndex, bool okOnly = true) const;
    // Checks indices and counts; returns an empty string when consistent.
    QString validate() const;
    // Whether the configurations run by agents can run: each has the options that travel
    // and a key (its own or agentKeyPath). Empty when they can (or there are none).
    QString checkAgents() const;
};

} // namespace nb

Q_DECLARE_METATYPE(nb::Configuration)
Q_DECLARE_METATYPE(nb::Run)
Q_DECLARE_METATYPE(nb::Comparison)
