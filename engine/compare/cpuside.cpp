// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/cpuside.h"

#include <QSet>

namespace nb {

namespace {

// What tells one configuration's end from another's: the adapter (name and driver) and, for
// the server, the address the test went to; for the client, the address it was bound to.
QSet<QString> endIdentities(const Comparison &c, const QList<int> &configs, bool server)
{
    QSet<QString> ids;
    for (const Run &run : c.runs) {
        if (!configs.contains(run.configIndex) || !run.ok())
            continue;
        const TestResult &r = run.result;
        const std::optional<AdapterInfo> &adapter = server ? r.remoteAdapter : r.localAdapter;
        QString id = server ? r.params.host : r.params.bindAddress;
        if (adapter)
            id += QLatin1Char('|') + adapter->name + QLatin1Char('|') + adapter->driver;
        ids.insert(id);
    }
    return ids;
}

bool measuredEverywhere(const QList<int> &configs, const ComparisonStatistics &statistics, Metric m)
{
    for (int i : configs)
        if (!statistics.find(i, m))
            return false;
    return !configs.isEmpty();
}

CpuSideChoice chooseSide(const Comparison &c, const QList<int> &configs, const ComparisonStatistics &statistics,
                         Metric serverCost)
{
    const bool serverMeasured = measuredEverywhere(configs, statistics, serverCost);
    const QString notMeasured = QStringLiteral("the server's CPU was not measured in every configuration: a stock "
                                               "iperf3 server reports none");
    if (c.cpuSide == CpuSide::Client)
        return {false, QStringLiteral("as asked with --cpu-side client")};
    if (c.cpuSide == CpuSide::Server)
        return serverMeasured ? CpuSideChoice{true, QStringLiteral("as asked with --cpu-side server")}
                              : CpuSideChoice{false, notMeasured};
    const bool clientsDiffer = endIdentities(c, configs, false).size() > 1;
    const bool serversDiffer = endIdentities(c, configs, true).size() > 1;
    if (serversDiffer && !clientsDiffer)
        return serverMeasured ? CpuSideChoice{true, QStringLiteral("the configurations differ in the server's "
                                                                   "adapter; --cpu-side client for this computer's")}
                              : CpuSideChoice{false, QStringLiteral("the configurations differ in the server's "
                                                                    "adapter, but ") +
                                                         notMeasured};
    if (clientsDiffer && serversDiffer)
        return {false, QStringLiteral("the configurations differ at both ends; --cpu-side server for the server's")};
    return {false, QStringLiteral("--cpu-side server for the server's")};
}

} // namespace

Metric serverCostMetric(Metric localCost)
{
    switch (localCost) {
    case Metric::LocalCpuPerGbps:
        return Metric::RemoteCpuPerGbps;
    case Metric::LocalCpuPerKtps:
        return Metric::RemoteCpuPerKtps;
    case Metric::UdpLocalCpuPerGbps:
        return Metric::UdpRemoteCpuPerGbps;
    case Metric::UdpRrLocalCpuPerKtps:
        return Metric::UdpRrRemoteCpuPerKtps;
    default:
        return localCost;
    }
}

CpuSideChoice chooseCpuSide(const Comparison &c, const QList<int> &configs, const ComparisonStatistics &statistics,
                            Metric serverCost)
{
    CpuSideChoice choice = chooseSide(c, configs, statistics, serverCost);
    for (int i : configs)
        if (i >= 0 && i < c.configurations.size() && c.configurations[i].from.isSet())
            choice.clientIsAgent = true;
    if (choice.clientIsAgent)
        choice.reason.replace(QLatin1String("this computer's"), QLatin1String("the client's"));
    return choice;
}

QString cpuSideLine(const CpuSideChoice &choice)
{
    return QStringLiteral("CPU cost is %1 (%2).")
        .arg(choice.server          ? QStringLiteral("the server's")
             : choice.clientIsAgent ? QStringLiteral("the client's, the agent that ran the test")
                                    : QStringLiteral("this computer's"),
             choice.reason);
}

} // namespace nb
