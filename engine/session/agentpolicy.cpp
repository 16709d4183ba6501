// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/agentpolicy.h"

#include <QStringList>

namespace nb {

namespace {

// An IPv4 subnet's broadcast address (all host bits set); /31 and /32 have none.
bool isSubnetBroadcast(const QHostAddress &a, const Subnet &s)
{
    if (a.protocol() != QAbstractSocket::IPv4Protocol || s.first.protocol() != QAbstractSocket::IPv4Protocol ||
        s.second >= 31 || !a.isInSubnet(s))
        return false;
    const quint32 hostBits = s.second <= 0 ? 0xffffffffu : (1u << (32 - s.second)) - 1;
    return (a.toIPv4Address() & hostBits) == hostBits;
}

} // namespace

QList<Subnet> connectedSubnets(const QList<AdapterInfo> &adapters)
{
    QList<Subnet> out;
    for (const AdapterInfo &a : adapters) {
        for (const AdapterAddress &ad : a.addresses) {
            if (ad.address.isNull() || ad.prefixLength < 0)
                continue;
            const Subnet s = QHostAddress::parseSubnet(QStringLiteral("%1/%2")
                                                           .arg(ad.address.toString().section(QLatin1Char('%'), 0, 0))
                                                           .arg(ad.prefixLength));
            if (!s.first.isNull() && !out.contains(s))
                out.append(s);
        }
    }
    return out;
}

QString networksText(const QList<Subnet> &networks)
{
    QStringList parts;
    for (const Subnet &s : networks)
        parts.append(QStringLiteral("%1/%2").arg(s.first.toString()).arg(s.second));
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral(", "));
}

QString checkAgentTarget(const QHostAddress &target, const QList<Subnet> &networks, bool ownSubnets)
{
    const QString t = target.toString();
    if (target.isNull() || target == QHostAddress::AnyIPv4 || target == QHostAddress::AnyIPv6)
        return QStringLiteral("%1 is not a host").arg(t);
    if (target.isMulticast())
        return QStringLiteral("%1 is a multicast address: an agent tests toward one host").arg(t);
    if (target.isBroadcast())
        return QStringLiteral("%1 is the broadcast address: an agent tests toward one host").arg(t);
    for (const Subnet &s : networks)
        if (isSubnetBroadcast(target, s))
            return QStringLiteral("%1 is the broadcast address of %2/%3: an agent tests toward one host")
                .arg(t, s.first.toString())
                .arg(s.second);
    if (inNetworks(networks, target))
        return {};
    return QStringLiteral("%1 is outside this agent's targets (%2%3)")
        .arg(t, networksText(networks),
             ownSubnets ? QStringLiteral(": the subnets of its own addresses; --agent-targets on the agent widens them")
                        : QStringLiteral(": its --agent-targets"));
}

} // namespace nb
