// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Network fixtures for the tests that need root: a veth pair, a way to run one test function
// in a network namespace of its own, and the reason a test skips when it cannot make them.
// (The testbed's namespaces are built by scripts/testbed, driven from tst_testbed.cpp.)

#include <QCoreApplication>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <unistd.h>

#include <functional>
#include <optional>

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

// One test function in a network namespace of its own, so that what it creates is never seen
// by the tests that run beside it (ctest -j2: a veth pair in the root namespace gave
// tst_policyserver's --interfaces query a pair to suggest instead of lo). The function calls
// this first: outside, it makes the namespace <prefix><pid> with lo up, runs this test program's
// `function` in it through `ip netns exec` (which also gives it its own /sys, so the adapter
// list is the namespace's), deletes the namespace however the child ends and returns "" when
// the child passed, else its output; inside (the child), it returns nullopt and the function
// goes on with its body.
inline std::optional<QString> runInOwnNamespace(const QString &prefix, const char *function, int timeoutMs = 120000)
{
    const QString marker = QStringLiteral("NBTEST_OWN_NETNS");
    if (qEnvironmentVariableIsSet(qPrintable(marker)))
        return std::nullopt;
    const QString ns = prefix + QString::number(::getpid());
    const auto ip = [](const QStringList &args) {
        QProcess p;
        p.start(QStringLiteral("ip"), args);
        return p.waitForFinished(10000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    };
    if (!ip({QStringLiteral("netns"), QStringLiteral("add"), ns}))
        return QStringLiteral("ip netns add %1 failed").arg(ns);
    struct Remove {
        std::function<bool(const QStringList &)> ip;
        QString ns;
        ~Remove() { ip({QStringLiteral("netns"), QStringLiteral("del"), ns}); }
    } remove{ip, ns};
    if (!ip({QStringLiteral("-n"), ns, QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("lo"),
             QStringLiteral("up")}))
        return QStringLiteral("cannot bring lo up in %1").arg(ns);
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(marker, QStringLiteral("1"));
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::MergedChannels);
    child.start(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("exec"), ns,
                                       QCoreApplication::applicationFilePath(), QString::fromLatin1(function)});
    const bool finished = child.waitForFinished(timeoutMs);
    if (!finished) {
        child.kill();
        child.waitForFinished(5000);
    }
    const QString out = QString::fromLocal8Bit(child.readAll());
    if (finished && child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0)
        return QString();
    return QStringLiteral("%1 in namespace %2 %3:\n%4")
        .arg(QString::fromLatin1(function), ns, finished ? QStringLiteral("failed") : QStringLiteral("timed out"), out);
}

// A veth pair in the current namespace (tests run it inside runInOwnNamespace), named <prefix><pid>a / <prefix><pid>b
// so parallel test processes never collide, both ends up and holding the two addresses of one /30 of `subnet`
// ("198.18.7."): nothing routes outside the machine. Both addresses are local, so traffic between them goes through lo;
// the pair is for what the adapter layer sees and for binding to an address that belongs to another interface. Removed
// however the test ends.
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
