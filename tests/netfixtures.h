// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Network fixtures for the tests that need root: a veth pair in the root namespace and the
// reason a test skips when it cannot make one. (The testbed's namespaces are built by
// scripts/testbed, driven from tst_testbed.cpp.)

#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <unistd.h>

namespace nbtest {

// Why a veth pair cannot be created here, or "" when it can. Tests QSKIP with it; CI runs
// as root with iproute2 installed, so there these tests run.
inline QString vethUnavailableReason()
{
    if (::geteuid() != 0)
        return QStringLiteral("creating a veth pair needs root (CI runs as root)");
    if (QStandardPaths::findExecutable(QStringLiteral("ip")).isEmpty())
        return QStringLiteral("the ip tool (iproute2) is not installed");
    return {};
}

// A veth pair in the root namespace, named <prefix><pid>a / <prefix><pid>b so parallel
// test processes never collide, both ends up and holding the two addresses of one /30 of
// `subnet` ("198.18.7."): nothing routes outside the machine. Both addresses are local, so
// traffic between them goes through lo; the pair is for what the adapter layer sees and
// for binding to an address that belongs to another interface. Removed however the test ends.
class VethPair {
public:
    // mtu 0: the kernel's default.
    VethPair(const QString &prefix, const QString &subnetPrefix, int mtu = 0)
        : a(prefix + QString::number(::getpid()) + QLatin1Char('a'))
        , b(prefix + QString::number(::getpid()) + QLatin1Char('b'))
        , subnet(subnetPrefix)
        , m_mtu(mtu)
    {
    }
    ~VethPair()
    {
        if (created)
            ip({QStringLiteral("link"), QStringLiteral("del"), a}); // takes the peer with it
    }
    VethPair(const VethPair &) = delete;
    VethPair &operator=(const VethPair &) = delete;

    bool create()
    {
        QStringList add{QStringLiteral("link"), QStringLiteral("add"), a};
        if (m_mtu > 0)
            add << QStringLiteral("mtu") << QString::number(m_mtu);
        add << QStringLiteral("type") << QStringLiteral("veth") << QStringLiteral("peer") << QStringLiteral("name")
            << b;
        if (m_mtu > 0)
            add << QStringLiteral("mtu") << QString::number(m_mtu);
        created = ip(add);
        return created &&
               ip({QStringLiteral("addr"), QStringLiteral("add"), addressA() + QStringLiteral("/30"),
                   QStringLiteral("dev"), a}) &&
               ip({QStringLiteral("addr"), QStringLiteral("add"), addressB() + QStringLiteral("/30"),
                   QStringLiteral("dev"), b}) &&
               ip({QStringLiteral("link"), QStringLiteral("set"), a, QStringLiteral("up")}) &&
               ip({QStringLiteral("link"), QStringLiteral("set"), b, QStringLiteral("up")});
    }
    QString addressA() const { return subnet + QStringLiteral("1"); }
    QString addressB() const { return subnet + QStringLiteral("2"); }

    static bool ip(const QStringList &args)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::ForwardedChannels);
        p.start(QStringLiteral("ip"), args);
        return p.waitForFinished(5000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    }

    const QString a, b, subnet;
    bool created = false;

private:
    int m_mtu = 0;
};

} // namespace nbtest
