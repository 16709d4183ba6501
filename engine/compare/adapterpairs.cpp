// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/adapterpairs.h"

#include <QSet>

#include <algorithm>

namespace nb {

namespace {

bool isIPv6(const AdapterAddress &a)
{
    return a.address.protocol() == QAbstractSocket::IPv6Protocol;
}

// Addresses a test can be pointed at without more information than the address itself.
bool usable(const AdapterAddress &a)
{
    const QAbstractSocket::NetworkLayerProtocol p = a.address.protocol();
    if (p != QAbstractSocket::IPv4Protocol && p != QAbstractSocket::IPv6Protocol)
        return false;
    // fe80::/10 needs a scope (%eth0), which the remote side's name does not give us.
    if (p == QAbstractSocket::IPv6Protocol && a.address.isLinkLocal())
        return false;
    const int maxPrefix = p == QAbstractSocket::IPv4Protocol ? 32 : 128;
    return a.prefixLength >= 1 && a.prefixLength <= maxPrefix;
}

// Same family and same network under the shorter prefix: a host configured with /16 and
// its peer with /24 still reach each other directly when the /16 holds both.
bool sameSubnet(const AdapterAddress &l, const AdapterAddress &r, int *prefix)
{
    if (l.address.protocol() != r.address.protocol())
        return false;
    const int p = std::min(l.prefixLength, r.prefixLength);
    if (!l.address.isInSubnet(r.address, p))
        return false;
    *prefix = p;
    return true;
}

AdapterPair makePair(const AdapterInfo &l, const AdapterInfo &r, const AdapterAddress &la, const AdapterAddress &ra,
                     int prefix)
{
    AdapterPair pair;
    pair.local = l;
    pair.remote = r;
    pair.localAddress = la.address.toString();
    pair.remoteAddress = ra.address.toString();
    pair.prefixLength = prefix;
    return pair;
}

// Two lists taken from the same network stack (see the header): the loopback fallback is
// only right when 127.0.0.1 dialled from here reaches the server that was asked.
bool sameStack(const QList<AdapterInfo> &local, const QList<AdapterInfo> &remote)
{
    // Servers before the MAC was left out of the hello send hardware addresses: compare
    // those. Newer ones send none (docs/protocol.md §2.2): compare names and addresses.
    const bool byMac =
        std::any_of(remote.cbegin(), remote.cend(), [](const AdapterInfo &a) { return !a.hardwareAddress.isEmpty(); });
    auto identities = [byMac](const QList<AdapterInfo> &list) {
        QSet<QString> s;
        for (const AdapterInfo &a : list) {
            if (a.loopback)
                continue;
            if (byMac && !a.hardwareAddress.isEmpty())
                s.insert(a.name + QLatin1Char(' ') + a.hardwareAddress.toLower());
            if (!byMac && !a.addresses.isEmpty()) {
                QStringList addresses;
                for (const AdapterAddress &ad : a.addresses)
                    addresses.append(QStringLiteral("%1/%2").arg(ad.address.toString()).arg(ad.prefixLength));
                addresses.sort();
                s.insert(a.name + QLatin1Char(' ') + addresses.join(QLatin1Char(' ')));
            }
        }
        return s;
    };
    return identities(local) == identities(remote);
}

bool isLoopbackAddress(const AdapterAddress &a)
{
    return a.address.isLoopback() && a.prefixLength >= 0;
}

} // namespace

QString AdapterPair::label() const
{
    // Like the matrix builder's "<family> <name>", so a pair reads "e1000 eth1 -> ens192".
    const bool v6 = QHostAddress(localAddress).protocol() == QAbstractSocket::IPv6Protocol;
    QString text = QStringLiteral("%1 %2 -> %3").arg(familyName(local.family), local.name, remote.name);
    if (v6)
        text += QStringLiteral(" (IPv6)");
    return text;
}

QList<AdapterPair> suggestAdapterPairs(const QList<AdapterInfo> &local, const QList<AdapterInfo> &remote)
{
    QList<AdapterPair> pairs;
    for (const AdapterInfo &l : local) {
        if (l.loopback || !l.isUp())
            continue;
        for (const AdapterInfo &r : remote) {
            if (r.loopback || !r.isUp())
                continue;
            for (const AdapterAddress &la : l.addresses) {
                if (!usable(la) || la.address.isLoopback())
                    continue;
                for (const AdapterAddress &ra : r.addresses) {
                    int prefix = 0;
                    if (!usable(ra) || ra.address.isLoopback() || la.address == ra.address ||
                        !sameSubnet(la, ra, &prefix))
                        continue;
                    pairs.append(makePair(l, r, la, ra, prefix));
                }
            }
        }
    }
    if (!pairs.isEmpty() || !sameStack(local, remote))
        return pairs;

    // Nothing else: this machine talking to itself through lo, IPv4 before IPv6 as the
    // adapter lists them. Any 127/8 address reaches lo, so the remote address is the one
    // the server's lo lists.
    for (const AdapterInfo &l : local) {
        if (!l.loopback || !l.isUp())
            continue;
        for (const AdapterInfo &r : remote) {
            if (!r.loopback || !r.isUp())
                continue;
            for (const AdapterAddress &la : l.addresses) {
                if (!isLoopbackAddress(la))
                    continue;
                for (const AdapterAddress &ra : r.addresses) {
                    if (!isLoopbackAddress(ra) || isIPv6(la) != isIPv6(ra))
                        continue;
                    pairs.append(makePair(l, r, la, ra, std::min(la.prefixLength, ra.prefixLength)));
                }
            }
        }
    }
    return pairs;
}

} // namespace nb
