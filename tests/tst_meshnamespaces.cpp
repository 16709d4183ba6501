// SPDX-License-Identifier: GPL-3.0-or-later
// Meshes as an admin runs them (nicbench-cli mesh, README "Meshes"): a controller and four
// agents, each in a network namespace of its own on one bridge (198.18.0.1 and .2-.5/24),
// nothing in the root namespace. The full mesh gives a 4 x 3 matrix snapshot whose every run
// went between the right two agents' adapters; a ring run with --parallel disjoint runs the
// pairs that share no host at once; --hosts-from-dns reads the agents from a DNS server
// (dnsmasq in the controller's namespace) that answers for one name with every agent's
// address, as a Kubernetes headless service does. Needs root; skips with the reason otherwise.
#include "agentfixtures.h"
#include "bridgedhosts.h"
#include "netfixtures.h"

#include <compare/meshmatrix.h>
#include <compare/snapshot.h>

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace nbtest;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

constexpr int Agents = 4;

// Host index of an agent's address ("198.18.0.3" -> 2), -1 when none.
int hostOf(const QString &address)
{
    for (int h = 0; h <= Agents; ++h)
        if (address == BridgedHosts::address(h) || address == BridgedHosts::address(h) + s(":5201"))
            return h;
    return -1;
}

} // namespace

class TestMeshNamespaces : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void fullMesh();
    void ringSideBySide();
    void hostsFromDns();
    void cleanupTestCase();

private:
    QStringList agentList(int count) const
    {
        QStringList list;
        for (int h = 1; h <= count; ++h)
            list.append(BridgedHosts::address(h));
        return list;
    }
    // Runs `mesh ARGS -o FILE` in the controller's namespace; the snapshot it wrote.
    nb::Comparison mesh(const QStringList &args, CliRun *run);

    std::unique_ptr<BridgedHosts> m_hosts;
    KeyFile m_key;
    std::vector<std::unique_ptr<CliServer>> m_agents;
    QTemporaryDir m_dir;
    QString m_dnsFolder;
    Child m_dns;
};

void TestMeshNamespaces::initTestCase()
{
    if (const QString why = vethUnavailableReason(); !why.isEmpty())
        QSKIP(qPrintable(why));
    m_hosts = std::make_unique<BridgedHosts>(s("nbms"), Agents + 1);
    QString error;
    QVERIFY2(m_hosts->create(&error), qPrintable(error));
    for (int h = 1; h <= Agents; ++h) {
        m_agents.push_back(std::make_unique<CliServer>());
        error = m_agents.back()->start({s("--agent-key"), m_key.path()}, m_hosts->hosts[h], 5201);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
}

nb::Comparison TestMeshNamespaces::mesh(const QStringList &args, CliRun *run)
{
    static int count = 0;
    const QString out = m_dir.filePath(QStringLiteral("mesh%1.nicbench").arg(++count));
    const QStringList all =
        QStringList{s("mesh"), s("--agent-key"), m_key.path(), s("-o"), out, s("--pause"), s("0")} + args;
    *run = runInNamespace(m_hosts->hosts[0], all, 180000);
    nb::Comparison c;
    QString error;
    if (run->finished && run->exitCode == 0 && !nb::Snapshot::load(out, &c, &error))
        qWarning("%s", qPrintable(error));
    return c;
}

void TestMeshNamespaces::fullMesh()
{
    CliRun r;
    const QStringList args{s("--hosts"), agentList(Agents).join(QLatin1Char(',')), s("--"), s("-t"), s("1")};
    const nb::Comparison c = mesh(args, &r);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe(args)));
    QCOMPARE(c.configurations.size(), Agents * (Agents - 1));
    QCOMPARE(c.runs.size(), Agents * (Agents - 1));
    for (const nb::Run &run : c.runs) {
        const nb::Configuration &conf = c.configurations[run.configIndex];
        QVERIFY2(run.ok(), qPrintable(conf.label + s(": ") + run.result.error));
        const int from = hostOf(conf.from.host), to = hostOf(conf.params.host);
        QVERIFY2(from >= 1 && to >= 1 && from != to, qPrintable(conf.label));
        // Driven from here, run on the source, toward the destination: their adapters.
        QVERIFY(run.result.drivenBy);
        QCOMPARE(run.result.drivenBy->controller, BridgedHosts::address(0));
        QCOMPARE(hostOf(run.result.drivenBy->agent), from);
        QVERIFY(run.result.localAdapter && run.result.remoteAdapter);
        QCOMPARE(run.result.localAdapter->name, BridgedHosts::device(from));
        QCOMPARE(run.result.remoteAdapter->name, BridgedHosts::device(to));
        QVERIFY(run.result.localCpuKnown && run.result.remoteCpuKnown);
    }
    const nb::MeshMatrix m = nb::MeshMatrix::of(c, nb::computeStatistics(c), nb::Metric::Throughput);
    QCOMPARE(m.hosts.size(), Agents);
    int filled = 0;
    for (int a = 0; a < Agents; ++a)
        for (int b = 0; b < Agents; ++b)
            if (m.cells[a][b].configIndex >= 0) {
                QVERIFY(a != b);
                QCOMPARE(m.cells[a][b].summary.n, 1);
                QVERIFY(m.cells[a][b].summary.mean > 1e6);
                ++filled;
            }
    QCOMPARE(filled, Agents * (Agents - 1));
    QVERIFY2(r.out.contains("from \\ to") && r.out.contains("Controller:"), r.out.constData());
}

void TestMeshNamespaces::ringSideBySide()
{
    CliRun r;
    const QStringList args{s("--hosts"),    agentList(Agents).join(QLatin1Char(',')),
                           s("--pairs"),    s("ring"),
                           s("--parallel"), s("disjoint"),
                           s("--"),         s("-t"),
                           s("2"),          s("--rr")};
    const nb::Comparison c = mesh(args, &r);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe(args)));
    QCOMPARE(c.configurations.size(), Agents);
    QCOMPARE(c.runs.size(), Agents);
    // A ring of four: .2 -> .3 with .4 -> .5, then .3 -> .4 with .5 -> .2, each pair at once.
    for (int i = 0; i < c.runs.size(); i += 2) {
        const nb::Run &a = c.runs[i], &b = c.runs[i + 1];
        QVERIFY2(a.ok() && b.ok(), qPrintable(a.result.error + b.result.error));
        QVERIFY(a.result.hasRr && b.result.hasRr);
        const qint64 apart = std::abs(a.startedAt.msecsTo(b.startedAt));
        QVERIFY2(apart < 1000,
                 qPrintable(QStringLiteral("runs %1 and %2 started %3 ms apart").arg(i).arg(i + 1).arg(apart)));
    }
    const nb::Run &second = c.runs[2];
    QVERIFY2(c.runs[0].startedAt.msecsTo(second.startedAt) >= 1900, "the second group started before the first ended");
}

void TestMeshNamespaces::hostsFromDns()
{
    // dnsmasq answers for agents.nb.test with three agents' addresses; `ip netns exec` puts
    // /etc/netns/NS/resolv.conf in the controller's /etc/resolv.conf.
    if (QStandardPaths::findExecutable(s("dnsmasq"), {s("/usr/sbin"), s("/sbin")}).isEmpty())
        QSKIP("dnsmasq is not installed (Debian package dnsmasq-base; ./dev test installs it)");
    m_dnsFolder = s("/etc/netns/") + m_hosts->hosts[0];
    QVERIFY(QDir().mkpath(m_dnsFolder));
    QFile conf(m_dnsFolder + s("/resolv.conf"));
    QVERIFY(conf.open(QIODevice::WriteOnly));
    conf.write("nameserver 198.18.0.1\n");
    conf.close();
    QStringList dnsArgs{s("netns"),
                        s("exec"),
                        m_hosts->hosts[0],
                        s("dnsmasq"),
                        s("--keep-in-foreground"),
                        s("--no-resolv"),
                        s("--no-hosts"),
                        s("--conf-file=/dev/null"),
                        s("--listen-address=198.18.0.1"),
                        s("--bind-interfaces"),
                        s("--pid-file"),
                        s("--user=root"),
                        s("--log-facility=-")};
    for (int h = 1; h <= 3; ++h)
        dnsArgs.append(s("--host-record=agents.nb.test,") + BridgedHosts::address(h));
    m_dns.process()->setProcessChannelMode(QProcess::MergedChannels);
    m_dns.start(s("ip"), dnsArgs);
    QVERIFY2(m_dns.waitStarted(5000) && m_dns.waitForOutput("started", 10000), m_dns.out().constData());

    CliRun r;
    const QStringList args{
        s("--hosts-from-dns"), s("agents.nb.test"), s("--pairs"), s("ring"), s("--"), s("-n"), s("1M")};
    const nb::Comparison c = mesh(args, &r);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe(args)));
    QStringList sources;
    for (const nb::Configuration &conf : c.configurations)
        sources.append(conf.from.host);
    sources.sort();
    QCOMPARE(sources, agentList(3));
    for (const nb::Run &run : c.runs)
        QVERIFY2(run.ok(), qPrintable(run.result.error));

    // A name the server does not know: one line, nothing run.
    const QStringList unknown{s("--hosts-from-dns"), s("nobody.nb.test"), s("--"), s("-t"), s("1")};
    mesh(unknown, &r);
    QVERIFY2(r.finished && r.exitCode == 1 && r.err.contains("--hosts-from-dns nobody.nb.test") &&
                 r.err.count('\n') == 1,
             qPrintable(r.describe(unknown)));
}

void TestMeshNamespaces::cleanupTestCase()
{
    m_dns.kill();
    if (!m_dnsFolder.isEmpty()) {
        QDir(m_dnsFolder).removeRecursively();
        QDir().rmdir(s("/etc/netns")); // only when empty: someone else's stays
    }
    for (auto &a : m_agents)
        a->kill();
    m_hosts.reset();
}

QTEST_GUILESS_MAIN(TestMeshNamespaces)
#include "tst_meshnamespaces.moc"
