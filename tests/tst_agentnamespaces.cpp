// SPDX-License-Identifier: GPL-3.0-or-later
// A test between two other machines, as an admin runs it: a controller, an agent A and a
// server B, each in a network namespace of its own on one bridge (198.18.0.1, .2 and .3/24,
// no default route, nothing in the root namespace). Stream, request/response and UDP run
// on A toward B with both ends' CPU and adapters in the document the controller prints; the
// agent's default rule (its own subnets) lets B in and keeps a host beyond a router out.
// Needs root (CI runs as root); skips with the reason otherwise.
#include "agentfixtures.h"
#include "bridgedhosts.h"
#include "netfixtures.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace nbtest;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

// Controller, agent, server.
using ThreeHosts = BridgedHosts;

} // namespace

class TestAgentNamespaces : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void thirdPartyTest_data();
    void thirdPartyTest();
    void hostBeyondTheSubnetIsRefused();
    void cleanupTestCase();

private:
    QStringList controller(const QString &target, const QStringList &test) const
    {
        return QStringList{s("-c"), target, s("--from"), ThreeHosts::address(1), s("--agent-key"), m_key.path()} + test;
    }

    std::unique_ptr<ThreeHosts> m_hosts;
    KeyFile m_key;
    CliServer m_agent, m_server;
};

void TestAgentNamespaces::initTestCase()
{
    if (const QString why = vethUnavailableReason(); !why.isEmpty())
        QSKIP(qPrintable(why));
    m_hosts = std::make_unique<ThreeHosts>(s("nbag"), 3);
    QString error;
    QVERIFY2(m_hosts->create(&error), qPrintable(error));
    // Each in its own namespace: the ports are theirs alone.
    error = m_server.start({s("-B"), ThreeHosts::address(2)}, m_hosts->hosts[2], 5201);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    error = m_agent.start({s("--agent-key"), m_key.path()}, m_hosts->hosts[1], 5201);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(m_agent.output().contains(s("198.18.0.0/24")) && m_agent.output().contains(s("(this machine's subnets)")),
             qPrintable(m_agent.output()));
}

void TestAgentNamespaces::thirdPartyTest_data()
{
    QTest::addColumn<QString>("flags");
    QTest::addColumn<QString>("kind");
    QTest::newRow("stream") << "-t 2"
                            << "stream";
    QTest::newRow("-R") << "-t 2 -R"
                        << "stream";
    QTest::newRow("rr") << "-t 2 --rr"
                        << "rr";
    QTest::newRow("udp") << "-t 2 -u -b 50M"
                         << "stream";
}

void TestAgentNamespaces::thirdPartyTest()
{
    QFETCH(QString, flags);
    QFETCH(QString, kind);
    const QStringList args = controller(ThreeHosts::address(2), flags.split(QLatin1Char(' ')) << s("-J"));
    const CliRun r = runInNamespace(m_hosts->hosts[0], args, 60000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe(args)));
    const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
    checkThirdPartyDocument(doc, ThreeHosts::address(0), ThreeHosts::address(1) + s(":5201"));
    const QJsonObject nb = doc.value(s("nicbench")).toObject();
    QCOMPARE(nb.value(s("params")).toObject().value(s("kind")).toString(), kind);
    // The adapters are A's and B's, not the controller's: the test ran between them.
    const QJsonObject adapters = nb.value(s("adapters")).toObject();
    QCOMPARE(adapters.value(s("local")).toObject().value(s("name")).toString(), ThreeHosts::device(1));
    QCOMPARE(adapters.value(s("remote")).toObject().value(s("name")).toString(), ThreeHosts::device(2));
    const QJsonArray connected = doc.value(s("start")).toObject().value(s("connected")).toArray();
    if (kind == QLatin1String("stream") && !flags.contains(s("-u"))) {
        QVERIFY(!connected.isEmpty());
        QCOMPARE(connected.first().toObject().value(s("local_host")).toString(), ThreeHosts::address(1));
        QCOMPARE(connected.first().toObject().value(s("remote_host")).toString(), ThreeHosts::address(2));
    }
}

void TestAgentNamespaces::hostBeyondTheSubnetIsRefused()
{
    const int accepted = m_server.count(s("Accepted connection"));
    const QStringList args = controller(s("198.18.1.3"), {s("-t"), s("1")});
    const CliRun r = runInNamespace(m_hosts->hosts[0], args, 30000);
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe(args)));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains("198.18.1.3 is outside this agent's targets (") && r.err.contains("198.18.0.0/24"),
             qPrintable(r.describe(args)));
    QCOMPARE(m_server.count(s("Accepted connection")), accepted);
}

void TestAgentNamespaces::cleanupTestCase()
{
    // The processes before their namespaces.
    m_agent.kill();
    m_server.kill();
    m_hosts.reset();
}

QTEST_GUILESS_MAIN(TestAgentNamespaces)
#include "tst_agentnamespaces.moc"
