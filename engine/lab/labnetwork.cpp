// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labnetwork.h"

#include "lab/hosttools.h"

#include <QFileInfo>

namespace nb::lab {

QString bridgeName()
{
    return QStringLiteral("nblab-br");
}

bool ip(const QString &netns, const QStringList &args, QString *error)
{
    QStringList all;
    if (!netns.isEmpty())
        all << QStringLiteral("-n") << netns;
    all << args;
    QString out;
    const int rc = runTool(findTool(QStringLiteral("ip")), all, &out);
    if (rc != 0 && error)
        *error =
            QStringLiteral("ip %1: %2").arg(all.join(QLatin1Char(' ')), out.isEmpty() ? QStringLiteral("failed") : out);
    return rc == 0;
}

bool linkExists(const QString &netns, const QString &name)
{
    return ip(netns, {QStringLiteral("link"), QStringLiteral("show"), QStringLiteral("dev"), name});
}

bool netnsExists(const QString &name)
{
    return QFileInfo::exists(QStringLiteral("/run/netns/") + name);
}

bool createNetns(const QString &netns, QString *error)
{
    if (!ip({}, {QStringLiteral("netns"), QStringLiteral("add"), netns}, error))
        return false;
    ip(netns, {QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("lo"), QStringLiteral("up")});
    return true;
}

bool createBridge(const QString &netns, int mtu, QString *error)
{
    const QString bridge = bridgeName();
    return ip(netns,
              {QStringLiteral("link"), QStringLiteral("add"), bridge, QStringLiteral("type"), QStringLiteral("bridge")},
              error) &&
           ip(netns,
              {QStringLiteral("link"), QStringLiteral("set"), bridge, QStringLiteral("mtu"), QString::number(mtu)},
              error) &&
           ip(netns,
              {QStringLiteral("addr"), QStringLiteral("add"),
               QStringLiteral("%1/%2").arg(hostAddress()).arg(kPrefixLength), QStringLiteral("dev"), bridge},
              error) &&
           ip(netns, {QStringLiteral("link"), QStringLiteral("set"), bridge, QStringLiteral("up")}, error);
}

bool createTap(const QString &netns, const QString &tap, int mtu, QString *error)
{
    return ip(netns,
              {QStringLiteral("tuntap"), QStringLiteral("add"), QStringLiteral("dev"), tap, QStringLiteral("mode"),
               QStringLiteral("tap")},
              error) &&
           ip(netns,
              {QStringLiteral("link"), QStringLiteral("set"), tap, QStringLiteral("mtu"), QString::number(mtu),
               QStringLiteral("master"), bridgeName(), QStringLiteral("up")},
              error);
}

bool removeNetwork(const LabState &s, QStringList *removed, QString *error)
{
    if (!s.netns.isEmpty() && !netnsExists(s.netns))
        return true; // gone, and everything inside it with it
    bool clean = true;
    for (const GuestState &g : s.guests) {
        if (!g.tap.isEmpty() && linkExists(s.netns, g.tap)) {
            if (ip(s.netns, {QStringLiteral("link"), QStringLiteral("del"), g.tap}, error))
                removed->append(QStringLiteral("tap %1").arg(g.tap));
            else
                clean = false;
        }
    }
    if (s.createdBridge && linkExists(s.netns, s.bridge)) {
        if (ip(s.netns, {QStringLiteral("link"), QStringLiteral("del"), s.bridge}, error))
            removed->append(QStringLiteral("bridge %1").arg(s.bridge));
        else
            clean = false;
    }
    if (s.createdNetns && !s.netns.isEmpty()) {
        if (ip({}, {QStringLiteral("netns"), QStringLiteral("del"), s.netns}, error))
            removed->append(QStringLiteral("network namespace %1").arg(s.netns));
        else
            clean = false;
    }
    return clean;
}

} // namespace nb::lab
