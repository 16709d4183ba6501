// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/mesh.h"

#include "compare/comparisonspec.h"
#include "core/hostport.h"
#include "net/address.h"

#include <QRegularExpression>
#include <QSet>

namespace nb {

QString MeshHost::text() const
{
    if (port == 5201)
        return host;
    return (host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2") : QStringLiteral("%1:%2")).arg(host).arg(port);
}

QString meshPairsName(MeshPairs p)
{
    return p == MeshPairs::Ring ? QStringLiteral("ring") : QStringLiteral("all");
}

bool meshPairsFromName(const QString &name, MeshPairs *out)
{
    if (name == QLatin1String("all"))
        *out = MeshPairs::All;
    else if (name == QLatin1String("ring"))
        *out = MeshPairs::Ring;
    else
        return false;
    return true;
}

QList<std::pair<int, int>> meshPairs(int hostCount, MeshPairs pairs)
{
    QList<std::pair<int, int>> out;
    if (hostCount < 2)
        return out;
    if (pairs == MeshPairs::Ring) {
        for (int i = 0; i < hostCount; ++i)
            out.append({i, (i + 1) % hostCount});
        // Two hosts make a ring of A -> B and B -> A: the same as all pairs.
        return out;
    }
    for (int from = 0; from < hostCount; ++from)
        for (int to = 0; to < hostCount; ++to)
            if (from != to)
                out.append({from, to});
    return out;
}

bool meshHostsFromText(const QString &text, QList<MeshHost> *out, QString *error)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    QList<MeshHost> hosts;
    QSet<QString> seen;
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &line : lines)
        line = line.section(QLatin1Char('#'), 0, 0); // a comment to the end of the line
    for (const QString &item : lines.join(QLatin1Char(' ')).split(separators, Qt::SkipEmptyParts)) {
        MeshHost h;
        int port = 0;
        QString why;
        if (!splitHostPort(item, &h.host, &port, &why) || h.host.isEmpty()) {
            *error = QStringLiteral("host \"%1\": %2").arg(item, why.isEmpty() ? QStringLiteral("no host name") : why);
            return false;
        }
        if (port > 0)
            h.port = quint16(port);
        const QString key = QStringLiteral("%1 %2").arg(h.host.toLower()).arg(h.port);
        if (seen.contains(key)) {
            *error = QStringLiteral("host \"%1\" is given twice").arg(item);
            return false;
        }
        seen.insert(key);
        hosts.append(h);
        if (hosts.size() > MaxMeshHosts) {
            *error = QStringLiteral("more than %1 hosts in one mesh").arg(MaxMeshHosts);
            return false;
        }
    }
    if (hosts.size() < 2) {
        *error = QStringLiteral("a mesh needs at least 2 hosts, got %1").arg(hosts.size());
        return false;
    }
    *out = hosts;
    return true;
}

bool meshHostsFromDns(const QString &name, QList<MeshHost> *out, QString *error)
{
    QString host;
    int port = 0;
    QString why;
    if (!splitHostPort(name, &host, &port, &why) || host.isEmpty()) {
        *error = QStringLiteral("--hosts-from-dns: %1").arg(why.isEmpty() ? QStringLiteral("needs a name") : why);
        return false;
    }
    const QList<net::Address> addresses = net::resolveAllAddresses(host, 0, AddressFamily::Any, &why);
    if (addresses.isEmpty()) {
        *error = QStringLiteral("--hosts-from-dns %1: %2").arg(host, why);
        return false;
    }
    QStringList texts;
    for (const net::Address &a : addresses) {
        MeshHost h{a.host(), port > 0 ? quint16(port) : quint16(5201)};
        texts.append(h.text());
    }
    if (!meshHostsFromText(texts.join(QLatin1Char(',')), out, error)) {
        *error = QStringLiteral("--hosts-from-dns %1 (%2): %3").arg(host, texts.join(QStringLiteral(", ")), *error);
        return false;
    }
    return true;
}

namespace {

// The flags the mesh gives itself, per pair: one of them among the test flags, or "".
QString meshOwnFlag(const QStringList &flags)
{
    for (const QString &f : flags) {
        for (const char *own : {"--client", "--port", "--from", "--agent-key", "--server"})
            if (f == QLatin1String(own))
                return f;
        // -c, -p and -s, alone or with their value attached ("-p5300").
        if (f.size() >= 2 && f[0] == QLatin1Char('-') && QStringLiteral("cps").contains(f[1]))
            return f;
    }
    return {};
}

} // namespace

bool meshComparison(const QList<MeshHost> &hosts, MeshPairs pairs, const QStringList &testFlags, Comparison *out,
                    QString *error)
{
    if (const QString own = meshOwnFlag(testFlags); !own.isEmpty()) {
        *error = QStringLiteral("mesh: %1 is the mesh's to give (hosts and ports come from the host list, the key "
                                "from --agent-key)")
                     .arg(own);
        return false;
    }
    Comparison c;
    for (const auto &[from, to] : meshPairs(int(hosts.size()), pairs)) {
        Configuration conf;
        conf.adapter = hosts[from].text();
        conf.variant = QStringLiteral("to %1").arg(hosts[to].text());
        conf.label = QStringLiteral("%1 -> %2").arg(hosts[from].text(), hosts[to].text());
        const QStringList args =
            QStringList{QStringLiteral("-c"), hosts[to].host, QStringLiteral("-p"), QString::number(hosts[to].port)} +
            testFlags;
        if (!paramsFromArgs(args, conf.label, &conf.params, error, &conf.from))
            return false;
        conf.from.host = hosts[from].host;
        conf.from.port = hosts[from].port;
        c.configurations.append(conf);
    }
    *out = c;
    return true;
}

QList<QList<int>> disjointGroups(const QList<std::pair<int, int>> &pairs)
{
    QList<QList<int>> groups;
    QList<QSet<int>> busy;
    for (int i = 0; i < pairs.size(); ++i) {
        const auto [a, b] = pairs[i];
        qsizetype g = 0;
        while (g < groups.size() && (busy[g].contains(a) || busy[g].contains(b)))
            ++g;
        if (g == groups.size()) {
            groups.append(QList<int>());
            busy.append(QSet<int>());
        }
        groups[g].append(i);
        busy[g].insert(a);
        busy[g].insert(b);
    }
    return groups;
}

} // namespace nb
