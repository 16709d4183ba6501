// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Hosts on one switch, as root: N network namespaces, each with a veth into a bridge that
// lives in a namespace of its own (so the root namespace holds nothing of the test), on
// 198.18.0.0/24 (host i is 198.18.0.(i + 1)), no default route. The destructor deletes the
// namespaces (their veths go with them) however the test ends. Used by tst_agentnamespaces
// and tst_meshnamespaces.

#include "integrationhelpers.h"

#include <QStringList>

#include <unistd.h>

namespace nbtest {

inline bool runIp(const QStringList &args, QString *error)
{
    Child c;
    c.start(QStringLiteral("ip"), args);
    if (!c.waitStarted() || !c.waitFinished(10000) || c.crashed() || c.exitCode() != 0) {
        *error = QStringLiteral("ip %1: %2").arg(args.join(QLatin1Char(' ')), QString::fromLocal8Bit(c.err()));
        return false;
    }
    return true;
}

class BridgedHosts {
public:
    // prefix: a few letters that tell the test's namespaces apart ("nbag", "nbms").
    BridgedHosts(const QString &prefix, int count)
    {
        const QString pid = QString::number(::getpid());
        bridge = prefix + QStringLiteral("x") + pid;
        for (int i = 0; i < count; ++i)
            hosts.append(QStringLiteral("%1%2h%3").arg(prefix).arg(i).arg(pid));
    }
    ~BridgedHosts()
    {
        QString ignored;
        for (const QString &ns : m_created)
            runIp({QStringLiteral("netns"), QStringLiteral("del"), ns}, &ignored);
    }
    BridgedHosts(const BridgedHosts &) = delete;
    BridgedHosts &operator=(const BridgedHosts &) = delete;

    static QString address(int host) { return QStringLiteral("198.18.0.%1").arg(host + 1); }
    // The host's end of its veth: what the adapter in its results must be.
    static QString device(int host) { return QStringLiteral("veth%1").arg(host); }

    bool create(QString *error)
    {
        const auto s = [](const char *t) { return QString::fromLatin1(t); };
        for (const QString &ns : QStringList{bridge} + hosts) {
            if (!runIp({s("netns"), s("add"), ns}, error))
                return false;
            m_created.append(ns);
            if (!runIp({s("-n"), ns, s("link"), s("set"), s("lo"), s("up")}, error))
                return false;
        }
        if (!runIp({s("-n"), bridge, s("link"), s("add"), s("br0"), s("type"), s("bridge")}, error) ||
            !runIp({s("-n"), bridge, s("link"), s("set"), s("br0"), s("up")}, error))
            return false;
        for (int h = 0; h < hosts.size(); ++h) {
            const QString port = QStringLiteral("port%1").arg(h);
            if (!runIp({s("link"), s("add"), device(h), s("netns"), hosts[h], s("type"), s("veth"), s("peer"),
                        s("name"), port, s("netns"), bridge},
                       error) ||
                !runIp({s("-n"), bridge, s("link"), s("set"), port, s("master"), s("br0"), s("up")}, error) ||
                !runIp({s("-n"), hosts[h], s("addr"), s("add"), address(h) + s("/24"), s("dev"), device(h)}, error) ||
                !runIp({s("-n"), hosts[h], s("link"), s("set"), device(h), s("up")}, error))
                return false;
        }
        return true;
    }

    QString bridge;
    QStringList hosts;

private:
    QStringList m_created;
};

// nicbench-cli ARGS inside a namespace.
inline CliRun runInNamespace(const QString &netns, const QStringList &args, int timeoutMs)
{
    return runCli(QStringList{QStringLiteral("netns"), QStringLiteral("exec"), netns, cliPath()} + args, timeoutMs,
                  QStringLiteral("ip"));
}

} // namespace nbtest
