// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/configurationends.h"

#include "core/format.h"

#include <QSet>

namespace nb {

QString adapterText(const AdapterInfo &a)
{
    QStringList parts;
    parts << familyName(a.family);
    if (!a.driver.isEmpty() && a.driver != familyName(a.family))
        parts << a.driver;
    if (a.linkSpeedBps > 0)
        parts << formatBitrate(double(a.linkSpeedBps));
    if (a.mtu > 0)
        parts << QStringLiteral("MTU %1").arg(a.mtu);
    for (const AdapterAddress &addr : a.addresses) {
        if (!addr.address.isLinkLocal()) {
            parts << QStringLiteral("%1/%2").arg(addr.address.toString()).arg(addr.prefixLength);
            break;
        }
    }
    return QStringLiteral("%1: %2").arg(a.name, parts.join(QStringLiteral(", ")));
}

QString hostText(const HostEnvironment &h)
{
    QStringList parts;
    if (!h.hostName.isEmpty())
        parts << h.hostName;
    if (!h.os.isEmpty())
        parts << h.os;
    if (h.cpuCount > 0)
        parts << (h.cpuCount == 1 ? QStringLiteral("1 CPU") : QStringLiteral("%1 CPUs").arg(h.cpuCount));
    return parts.join(QStringLiteral(", "));
}

namespace {

void addOnce(QStringList *list, const QString &text)
{
    if (!text.isEmpty() && !list->contains(text))
        list->append(text);
}

} // namespace

QList<ConfigurationEnds> configurationEnds(const Comparison &c)
{
    QList<ConfigurationEnds> out;
    for (int i = 0; i < c.configurations.size(); ++i) {
        ConfigurationEnds e;
        e.configIndex = i;
        e.agent = c.configurations[i].from.text();
        for (const Run *run : c.runsOf(i, false)) {
            const TestResult &r = run->result;
            if (r.localAdapter)
                addOnce(&e.client, adapterText(*r.localAdapter));
            if (r.remoteAdapter)
                addOnce(&e.server, adapterText(*r.remoteAdapter));
            if (r.remoteHost)
                addOnce(&e.serverHost, hostText(*r.remoteHost));
        }
        out.append(e);
    }
    return out;
}

bool serversDiffer(const QList<ConfigurationEnds> &ends)
{
    QSet<QString> hosts;
    for (const ConfigurationEnds &e : ends)
        for (const QString &h : e.serverHost)
            hosts.insert(h);
    return hosts.size() > 1;
}

QStringList configurationEndsLines(const Comparison &c)
{
    QStringList lines;
    const QString unknown = QStringLiteral("unknown");
    for (const ConfigurationEnds &e : configurationEnds(c)) {
        const QString client = e.client.isEmpty() ? unknown : e.client.join(QStringLiteral(" / "));
        QString server = e.serverHost.join(QStringLiteral(" / "));
        const QString serverAdapter = e.server.isEmpty() ? unknown : e.server.join(QStringLiteral(" / "));
        server = server.isEmpty() ? serverAdapter : QStringLiteral("%1 (%2)").arg(serverAdapter, server);
        const QString agent = e.agent.isEmpty() ? QString() : QStringLiteral(" (run on the agent %1)").arg(e.agent);
        lines << QStringLiteral("%1: client %2%3 -> server %4")
                     .arg(c.configurations[e.configIndex].label, client, agent, server);
    }
    return lines;
}

} // namespace nb
