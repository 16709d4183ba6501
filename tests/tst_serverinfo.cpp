// SPDX-License-Identifier: GPL-3.0-or-later
// The info query end to end (docs/protocol.md §2.6): our server describes its machine and
// adapters and goes straight back to serving tests; a stock iperf3 server is left clean
// with a clear message; refused, silent and busy servers fail within the timeout; test
// results carry the server's machine; `nicbench-cli --interfaces -c` prints it and the
// adapter pairs; and, as root, two network namespaces joined by a veth pair get that pair
// suggested.
#include "compare/adapterpairs.h"
#include "integrationhelpers.h"
#include "model/testlistener.h"
#include "session/server.h"
#include "session/serverinfo.h"
#include "session/throughputclient.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTest>

#include <unistd.h>

#include <memory>
#include <mutex>
#include <thread>

using namespace nb;
using nbtest::Child;

namespace {

const QString kLocalhost = QStringLiteral("127.0.0.1");

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

// Counts the server's started and finished tests; called on the server's thread.
class ServerResults : public TestListener {
public:
    void testStarted(const TestResult &) override { m_started.store(true); }
    bool started() const { return m_started.load(); }
    void testFinished(const TestResult &) override
    {
        std::lock_guard lock(m_mutex);
        ++m_count;
    }
    int count() const
    {
        std::lock_guard lock(m_mutex);
        return m_count;
    }

private:
    mutable std::mutex m_mutex;
    int m_count = 0;
    std::atomic<bool> m_started{false};
};

// Our server on its own thread, stopped and joined however the test ends.
class InProcessServer {
public:
    explicit InProcessServer(bool oneOff = false)
    {
        ServerOptions o;
        o.port = 0;
        o.bindAddress = kLocalhost;
        o.idleTimeoutSecs = 10;
        o.oneOff = oneOff;
        m_server = std::make_unique<Server>(o, &results);
    }
    ~InProcessServer()
    {
        m_server->stop();
        if (m_thread.joinable())
            m_thread.join();
    }
    bool start(QString *error)
    {
        if (!m_server->listen(error))
            return false;
        m_thread = std::thread([this] {
            m_server->serve();
            m_returned.store(true);
        });
        return true;
    }
    quint16 port() const { return m_server->port(); }
    int testsServed() const { return m_server->testsServed(); }
    bool returned() const { return m_returned.load(); }

    ServerResults results;

private:
    std::unique_ptr<Server> m_server;
    std::thread m_thread;
    std::atomic<bool> m_returned{false};
};

ServerInfoQuery localQuery(quint16 port, double timeout = 5)
{
    ServerInfoQuery q;
    q.host = kLocalhost;
    q.port = port;
    q.timeoutSeconds = timeout;
    return q;
}

TestParams shortTest(quint16 port, TestKind kind = TestKind::Stream)
{
    TestParams p;
    p.host = kLocalhost;
    p.port = port;
    p.kind = kind;
    p.duration = 0.5;
    p.interval = 0.25;
    return p;
}

QStringList names(const QList<AdapterInfo> &adapters)
{
    QStringList n;
    for (const AdapterInfo &a : adapters)
        n.append(a.name);
    return n;
}

bool hasLoopback127(const HostEnvironment &e)
{
    for (const AdapterInfo &a : e.adapters) {
        if (a.name != QLatin1String("lo"))
            continue;
        for (const AdapterAddress &ad : a.addresses) {
            if (ad.address == QHostAddress(QHostAddress::LocalHost))
                return true;
        }
    }
    return false;
}

// The machine facts the query and the hello carry, as they are read here.
void compareWithLocal(const HostEnvironment &got)
{
    const HostEnvironment local = HostEnvironment::local();
    QVERIFY(got.known);
    QVERIFY(!got.os.isEmpty());
    QVERIFY(!got.kernel.isEmpty());
    QVERIFY(got.cpuCount > 0);
    QCOMPARE(got.os, local.os);
    QCOMPARE(got.kernel, local.kernel);
    QCOMPARE(got.cpuModel, local.cpuModel);
    QCOMPARE(got.cpuCount, local.cpuCount);
    QCOMPARE(got.hostName, local.hostName);
    QCOMPARE(got.nicbenchVersion, QStringLiteral(NICBENCH_VERSION));
}

// Runs nicbench-cli (optionally through `ip netns exec NS`) to the end.
struct CliRun {
    int exitCode = -1;
    QByteArray out, err;
    QString describe() const
    {
        return QStringLiteral("exit %1\nstdout: %2\nstderr: %3")
            .arg(exitCode)
            .arg(QString::fromUtf8(out.left(3000)), QString::fromUtf8(err));
    }
};

CliRun runCli(const QStringList &args, const QString &netns = {}, int timeoutMs = 15000)
{
    Child c;
    if (netns.isEmpty())
        c.start(nbtest::cliPath(), args);
    else
        c.start(s("ip"), QStringList{s("netns"), s("exec"), netns, nbtest::cliPath()} + args);
    CliRun r;
    if (!c.waitStarted() || !c.waitFinished(timeoutMs)) {
        r.err = "did not finish in time";
        return r;
    }
    r.exitCode = c.crashed() ? -1 : c.exitCode();
    r.out = c.out();
    r.err = c.err();
    return r;
}

bool runIp(const QStringList &args, QString *error)
{
    Child c;
    c.start(s("ip"), args);
    if (!c.waitStarted() || !c.waitFinished(5000) || c.crashed() || c.exitCode() != 0) {
        *error = QStringLiteral("ip %1: %2").arg(args.join(QLatin1Char(' ')), QString::fromLocal8Bit(c.err()));
        return false;
    }
    return true;
}

// Two namespaces joined by a veth pair (198.18.0.1/24 + fd00:198::1/64 on the server
// side, .2 and ::2 on the client side), no default route. The server runs in one of them.
// The destructor stops the server and deletes both namespaces (taking the veth with them),
// also when a check fails half-way.
class NamespacePair {
public:
    NamespacePair()
        : serverNs(QStringLiteral("nbsi%1s").arg(::getpid()))
        , clientNs(QStringLiteral("nbsi%1c").arg(::getpid()))
        , serverIf(QStringLiteral("nbsi%1s").arg(::getpid()))
        , clientIf(QStringLiteral("nbsi%1c").arg(::getpid()))
    {
    }
    ~NamespacePair()
    {
        m_server.stop();
        QString ignored;
        for (const QString &ns : m_created)
            runIp({s("netns"), s("del"), ns}, &ignored);
    }
    bool create(QString *error)
    {
        for (const QString &ns : {serverNs, clientNs}) {
            if (!runIp({s("netns"), s("add"), ns}, error))
                return false;
            m_created.append(ns);
            if (!runIp({s("-n"), ns, s("link"), s("set"), s("lo"), s("up")}, error))
                return false;
        }
        return runIp({s("link"), s("add"), serverIf, s("netns"), serverNs, s("type"), s("veth"), s("peer"), s("name"),
                      clientIf, s("netns"), clientNs},
                     error) &&
               configure(serverNs, serverIf, s("198.18.0.1/24"), s("fd00:198::1/64"), error) &&
               configure(clientNs, clientIf, s("198.18.0.2/24"), s("fd00:198::2/64"), error) &&
               waitOperUp(serverNs, serverIf, error) && waitOperUp(clientNs, clientIf, error);
    }
    bool startServer(QString *error)
    {
        m_server.start(s("ip"), {s("netns"), s("exec"), serverNs, nbtest::cliPath(), s("-s")});
        if (!m_server.waitStarted() || !m_server.waitForOutput("Server listening", 5000)) {
            *error = QStringLiteral("server did not start: %1").arg(m_server.describe());
            return false;
        }
        return true;
    }

    const QString serverNs, clientNs, serverIf, clientIf;

private:
    static bool configure(const QString &ns, const QString &dev, const QString &v4, const QString &v6, QString *error)
    {
        // nodad: the address is usable at once instead of after duplicate detection.
        return runIp({s("-n"), ns, s("addr"), s("add"), v4, s("dev"), dev}, error) &&
               runIp({s("-n"), ns, s("-6"), s("addr"), s("add"), v6, s("dev"), dev, s("nodad")}, error) &&
               runIp({s("-n"), ns, s("link"), s("set"), dev, s("up")}, error);
    }
    // The kernel publishes operstate "up" up to a second after the link works (linkwatch),
    // and the suggestions skip interfaces that are not up.
    static bool waitOperUp(const QString &ns, const QString &dev, QString *error)
    {
        QDeadlineTimer deadline(5000);
        while (!deadline.hasExpired()) {
            Child c;
            c.start(s("ip"), {s("-n"), ns, s("-o"), s("link"), s("show"), s("dev"), dev});
            if (c.waitStarted() && c.waitFinished(5000) && c.out().contains("state UP"))
                return true;
            QThread::msleep(50);
        }
        *error = QStringLiteral("%1 in %2 did not come up").arg(dev, ns);
        return false;
    }
    QStringList m_created;
    Child m_server;
};

QJsonObject findPair(const QJsonArray &pairs, const QString &localAddress, const QString &remoteAddress)
{
    for (const QJsonValue &v : pairs) {
        const QJsonObject p = v.toObject();
        if (p.value(s("local_address")).toString() == localAddress &&
            p.value(s("remote_address")).toString() == remoteAddress)
            return p;
    }
    return {};
}

} // namespace

class TestServerInfo : public QObject {
    Q_OBJECT
private slots:
    void ourServerDescribesItsMachine();
    void oneOffServerWaitsForItsTest();
    void busyServer();
    void stockIperf3Server();
    void refusedPort();
    void silentListener();
    void resultsCarryTheServersMachine_data();
    void resultsCarryTheServersMachine();
    void oldResultsStillLoad();
    void cliListsServerAdapters();
    void vethPairInNamespaces();
};

void TestServerInfo::ourServerDescribesItsMachine()
{
    InProcessServer server;
    QString err;
    QVERIFY2(server.start(&err), qPrintable(err));

    HostEnvironment info;
    QElapsedTimer t;
    t.start();
    QVERIFY2(queryServerInfo(localQuery(server.port()), &info, &err), qPrintable(err));
    QVERIFY2(t.elapsed() < 2000, qPrintable(QStringLiteral("took %1 ms").arg(t.elapsed())));
    QVERIFY2(hasLoopback127(info), qPrintable(names(info.adapters).join(QLatin1Char(' '))));
    compareWithLocal(info);
    if (QTest::currentTestFailed())
        return;
    // The same adapters as listed here (the order is the platform's).
    QStringList got = names(info.adapters), here = names(HostEnvironment::local().adapters);
    got.sort();
    here.sort();
    QCOMPARE(got, here);

    // Not a test: nothing reported, nothing counted ...
    QCOMPARE(server.testsServed(), 0);
    QCOMPARE(server.results.count(), 0);
    // ... and the server takes a test right away ...
    ThroughputClient client(shortTest(server.port()));
    const TestResult r = client.run();
    QVERIFY2(r.ok(), qPrintable(r.error));
    // ... and answers another query as soon as the test is over (the client's IPERF_DONE
    // and the new connection arrive together: the server must not take it for a second
    // client during the test).
    HostEnvironment again;
    QVERIFY2(queryServerInfo(localQuery(server.port()), &again, &err), qPrintable(err));
    QVERIFY(hasLoopback127(again));
    QCOMPARE(again.os, info.os);
    QTRY_COMPARE_WITH_TIMEOUT(server.testsServed(), 1, 5000);
    QCOMPARE(server.results.count(), 1);
}

void TestServerInfo::oneOffServerWaitsForItsTest()
{
    InProcessServer server(true);
    QString err;
    QVERIFY2(server.start(&err), qPrintable(err));
    HostEnvironment info;
    QVERIFY2(queryServerInfo(localQuery(server.port()), &info, &err), qPrintable(err));
    // -1 serves one *test*: the query must not use it up.
    QTest::qWait(200);
    QVERIFY(!server.returned());
    ThroughputClient client(shortTest(server.port()));
    const TestResult r = client.run();
    QVERIFY2(r.ok(), qPrintable(r.error));
    QTRY_VERIFY_WITH_TIMEOUT(server.returned(), 5000);
}

void TestServerInfo::busyServer()
{
    InProcessServer server;
    QString err;
    QVERIFY2(server.start(&err), qPrintable(err));
    TestParams p = shortTest(server.port());
    p.duration = 2;
    TestResult r;
    std::thread running([&] { r = ThroughputClient(p).run(); });
    // Once the test runs, a query is turned away at once.
    const bool started = QTest::qWaitFor([&] { return server.results.started(); }, 5000);
    HostEnvironment info;
    QElapsedTimer t;
    t.start();
    const bool ok = queryServerInfo(localQuery(server.port()), &info, &err);
    const qint64 ms = t.elapsed();
    running.join();
    QVERIFY(started);
    QVERIFY(!ok);
    QVERIFY2(err.contains(QLatin1String("the server is busy running a test")), qPrintable(err));
    QVERIFY2(ms < 1000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    QVERIFY2(r.ok(), qPrintable(r.error));
}

void TestServerInfo::stockIperf3Server()
{
    if (!nbtest::haveTool(s("iperf3")))
        QSKIP("iperf3 is not installed (CI installs it): this checks the query against a stock iperf3 server");
    nbtest::ServerProcess stock;
    const QString why = stock.start(s("iperf3"), {s("-s"), s("--forceflush")});
    QVERIFY2(why.isEmpty(), qPrintable(why));

    HostEnvironment info;
    QString err;
    QElapsedTimer t;
    t.start();
    QVERIFY(!queryServerInfo(localQuery(stock.port()), &info, &err));
    const qint64 ms = t.elapsed();
    QVERIFY2(ms < 3000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    const QString expected =
        QStringLiteral("127.0.0.1 port %1 runs a stock iperf3 server, which cannot list its adapters "
                       "(start 'nicbench-cli -s' there)")
            .arg(stock.port());
    QCOMPARE(err, expected);
    QVERIFY(!info.known);

    // The stock server was left clean: its own client runs a test right away.
    Child iperf;
    iperf.start(s("iperf3"), {s("-c"), kLocalhost, s("-p"), QString::number(stock.port()), s("-t"), s("1")});
    QVERIFY(iperf.waitStarted());
    QVERIFY(iperf.waitFinished(15000));
    QVERIFY2(iperf.exitCode() == 0, qPrintable(iperf.describe() + stock.output()));
}

void TestServerInfo::refusedPort()
{
    const quint16 port = nbtest::freePort();
    QVERIFY(port != 0);
    HostEnvironment info;
    QString err;
    QElapsedTimer t;
    t.start();
    QVERIFY(!queryServerInfo(localQuery(port), &info, &err));
    QVERIFY2(t.elapsed() < 1000, qPrintable(QStringLiteral("took %1 ms").arg(t.elapsed())));
    QVERIFY2(err.contains(QLatin1String("cannot connect")) && err.contains(QLatin1String("refused")), qPrintable(err));
}

void TestServerInfo::silentListener()
{
    // The kernel completes the handshake for a listening socket whether or not anyone
    // accepts, and nothing here ever answers.
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
    HostEnvironment info;
    QString err;
    QElapsedTimer t;
    t.start();
    QVERIFY(!queryServerInfo(localQuery(silent.serverPort(), 1.0), &info, &err));
    const qint64 ms = t.elapsed();
    QVERIFY2(ms >= 900 && ms < 2000, qPrintable(QStringLiteral("took %1 ms").arg(ms)));
    QVERIFY2(err.contains(QLatin1String("accepted the connection but sent no")), qPrintable(err));
}

void TestServerInfo::resultsCarryTheServersMachine_data()
{
    QTest::addColumn<TestKind>("kind");
    QTest::newRow("stream") << TestKind::Stream;
    QTest::newRow("rr") << TestKind::Rr;
}

void TestServerInfo::resultsCarryTheServersMachine()
{
    QFETCH(TestKind, kind);
    InProcessServer server;
    QString err;
    QVERIFY2(server.start(&err), qPrintable(err));
    ThroughputClient client(shortTest(server.port(), kind));
    const TestResult r = client.run();
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.peerIsNicbench);
    QVERIFY(r.remoteHost.has_value());
    QVERIFY(hasLoopback127(*r.remoteHost));

    const HostEnvironment remote = remoteHostFromResults({r});
    compareWithLocal(remote);
    if (QTest::currentTestFailed())
        return;
    // The adapters stay the ones that carried the test.
    QCOMPARE(names(remote.adapters), QStringList{s("lo")});

    // The -J document keeps it, and reading the document back gives the same answer.
    const QJsonObject doc = r.toJson();
    const QJsonObject host = doc.value(s("nicbench")).toObject().value(s("remote_host")).toObject();
    QCOMPARE(host.value(s("os")).toString(), remote.os);
    TestResult back;
    QVERIFY2(TestResult::fromJson(doc, &back, &err), qPrintable(err));
    QVERIFY(back.remoteHost.has_value());
    QCOMPARE(*back.remoteHost, *r.remoteHost);
    QCOMPARE(remoteHostFromResults({back}), remote);
}

void TestServerInfo::oldResultsStillLoad()
{
    InProcessServer server;
    QString err;
    QVERIFY2(server.start(&err), qPrintable(err));
    ThroughputClient client(shortTest(server.port()));
    const TestResult r = client.run();
    QVERIFY2(r.ok(), qPrintable(r.error));

    // A document written before the hello described the machine.
    QJsonObject doc = r.toJson();
    QJsonObject nbj = doc.value(s("nicbench")).toObject();
    QVERIFY(nbj.contains(s("remote_host")));
    nbj.remove(s("remote_host"));
    doc.insert(s("nicbench"), nbj);
    TestResult old;
    QVERIFY2(TestResult::fromJson(doc, &old, &err), qPrintable(err));
    QVERIFY(!old.remoteHost.has_value());
    const HostEnvironment remote = remoteHostFromResults({old});
    QVERIFY(remote.known);
    QVERIFY(remote.os.isEmpty());
    QCOMPARE(remote.nicbenchVersion, QStringLiteral(NICBENCH_VERSION));
}

void TestServerInfo::cliListsServerAdapters()
{
    InProcessServer server;
    QString err;
    QVERIFY2(server.start(&err), qPrintable(err));
    const QString port = QString::number(server.port());

    const CliRun text = runCli({s("--interfaces"), s("-c"), kLocalhost, s("-p"), port});
    QVERIFY2(text.exitCode == 0, qPrintable(text.describe()));
    const QString out = QString::fromUtf8(text.out);
    const HostEnvironment local = HostEnvironment::local();
    QVERIFY2(out.contains(local.os) && out.contains(local.kernel), qPrintable(text.describe()));
    QVERIFY2(out.contains(QLatin1String("\nlo ")) && out.contains(QLatin1String("127.0.0.1/8")),
             qPrintable(text.describe()));
    QVERIFY2(out.contains(QLatin1String("Suggested adapter pairs")) && out.contains(QLatin1String(" -> ")),
             qPrintable(text.describe()));

    const CliRun json = runCli({s("--interfaces"), s("-c"), kLocalhost, s("-p"), port, s("-J")});
    QVERIFY2(json.exitCode == 0, qPrintable(json.describe()));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json.out, &pe);
    QVERIFY2(pe.error == QJsonParseError::NoError && doc.isObject(), qPrintable(json.describe()));
    const QJsonObject root = doc.object();
    QCOMPARE(root.value(s("server")).toString(), kLocalhost);
    QCOMPARE(root.value(s("port")).toInt(), int(server.port()));
    HostEnvironment host;
    QVERIFY2(HostEnvironment::fromJson(root.value(s("host")).toObject(), &host, &err), qPrintable(err));
    QVERIFY(hasLoopback127(host));
    QCOMPARE(host.os, local.os);
    const QJsonArray pairs = root.value(s("pairs")).toArray();
    QVERIFY2(!pairs.isEmpty(), qPrintable(json.describe()));
    for (const QJsonValue &v : pairs) {
        const QJsonObject p = v.toObject();
        for (const char *k : {"label", "ip_family", "local_interface", "local_address", "remote_interface",
                              "remote_address", "prefix_length"})
            QVERIFY2(p.contains(QLatin1String(k)), k);
    }
    QCOMPARE(server.testsServed(), 0);

    // Without a server the command fails with the reason, and -J still prints a document.
    const quint16 closed = nbtest::freePort();
    const CliRun refused = runCli({s("--interfaces"), s("-c"), kLocalhost, s("-p"), QString::number(closed), s("-J")});
    QVERIFY2(refused.exitCode == 1, qPrintable(refused.describe()));
    QVERIFY2(refused.err.contains("cannot connect"), qPrintable(refused.describe()));
    QVERIFY(QJsonDocument::fromJson(refused.out).object().contains(s("error")));
}

void TestServerInfo::vethPairInNamespaces()
{
#ifndef Q_OS_LINUX
    QSKIP("network namespaces need Linux");
#else
    if (::geteuid() != 0)
        QSKIP("creating network namespaces needs root (CI runs as root)");
    if (!nbtest::haveTool(s("ip")))
        QSKIP("the ip tool (iproute2) is not installed");
    NamespacePair ns;
    QString err;
    QVERIFY2(ns.create(&err), qPrintable(err));
    QVERIFY2(ns.startServer(&err), qPrintable(err));

    const CliRun run = runCli({s("--interfaces"), s("-c"), s("198.18.0.1"), s("-J")}, ns.clientNs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
    const QJsonObject root = QJsonDocument::fromJson(run.out).object();
    const QJsonArray pairs = root.value(s("pairs")).toArray();
    const QJsonObject v4 = findPair(pairs, s("198.18.0.2"), s("198.18.0.1"));
    QVERIFY2(!v4.isEmpty(), qPrintable(run.describe()));
    QCOMPARE(v4.value(s("local_interface")).toString(), ns.clientIf);
    QCOMPARE(v4.value(s("remote_interface")).toString(), ns.serverIf);
    QCOMPARE(v4.value(s("local_family")).toString(), s("veth"));
    QCOMPARE(v4.value(s("remote_family")).toString(), s("veth"));
    QCOMPARE(v4.value(s("prefix_length")).toInt(), 24);
    QCOMPARE(v4.value(s("label")).toString(), QStringLiteral("veth %1 -> %2").arg(ns.clientIf, ns.serverIf));
    const QJsonObject v6 = findPair(pairs, s("fd00:198::2"), s("fd00:198::1"));
    QVERIFY2(!v6.isEmpty(), qPrintable(run.describe()));
    QCOMPARE(v6.value(s("prefix_length")).toInt(), 64);
    // Only the veth connects the two namespaces: no other suggestion, lo included.
    QVERIFY2(pairs.size() == 2, qPrintable(run.describe()));

    // The suggestion works: a test with its -B/-c runs over the veth.
    const CliRun test =
        runCli({s("-c"), s("198.18.0.1"), s("-B"), s("198.18.0.2"), s("-t"), s("0.5"), s("-J")}, ns.clientNs);
    QVERIFY2(test.exitCode == 0, qPrintable(test.describe()));
    const QJsonObject nbj = QJsonDocument::fromJson(test.out).object().value(s("nicbench")).toObject();
    QCOMPARE(nbj.value(s("adapters")).toObject().value(s("local")).toObject().value(s("name")).toString(), ns.clientIf);
    QCOMPARE(nbj.value(s("remote_host")).toObject().value(s("kernel")).toString(), HostEnvironment::local().kernel);
#endif
}

QTEST_GUILESS_MAIN(TestServerInfo)
#include "tst_serverinfo.moc"
