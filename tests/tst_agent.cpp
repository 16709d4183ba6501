// SPDX-License-Identifier: GPL-3.0-or-later
// Tests an agent runs for a controller (docs/protocol.md §6), on loopback with real
// processes: a server B on 127.0.0.3, an agent A on 127.0.0.2 (nicbench-cli -s --agent-key),
// and nicbench-cli -c B --from A as the controller. Every kind of test, the intervals as they
// arrive, keys that are wrong, missing, readable by everyone or replayed, targets outside the
// rule, the policy's caps, and either end vanishing mid-test. tst_agentnamespaces runs the
// same across three network namespaces.
#include "agentfixtures.h"
#include "net/connect.h"
#include "protocol/agentchannel.h"
#include "session/agentcontroller.h"
#include "session/agentrequest.h"
#include "session/commandline.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTest>

#include <atomic>
#include <thread>

using namespace nbtest;
namespace agentwire = nb::proto::agent;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

const QString kAgentHost = s("127.0.0.2");
const QString kServerHost = s("127.0.0.3");

// The agent's lines for each test it ran: one when it starts, one when it ends.
int testsRun(CliServer &agent)
{
    return agent.count(s("Controller 127.0.0.1 runs"));
}
int testsEnded(CliServer &agent)
{
    return agent.count(s("Ran a test for controller")) + agent.count(s("ended with an error"));
}

// Plays a controller by hand up to the request: for what the CLI never does (go silent).
struct HandmadeController {
    agentwire::AgentChannel channel;
    QString error;
    bool open(quint16 port, const QByteArray &key, const QStringList &testArgs)
    {
        nb::net::Socket sock =
            nb::net::connectTcp(kAgentHost, port, nb::AddressFamily::IPv4, QString(), {}, 5000, &error);
        agentwire::Session session;
        if (!sock.valid() || agentwire::controllerHandshake(sock, key, nb::net::deadlineIn(10), &session, &error) !=
                                 agentwire::HandshakeResult::Ok)
            return false;
        channel = agentwire::AgentChannel(std::move(sock), std::move(session));
        nb::CommandLine cl;
        return nb::parseCommandLine(testArgs, &cl, &error) &&
               channel.write(nb::agentRequestJson(cl, s("handmade")), nb::net::deadlineIn(5), &error) ==
                   nb::net::IoStatus::Ok;
    }
};

// Waits until the controller printed n interval lines ("[  1]   0.00-0.50   sec ..."; the
// boundaries drift by a few ms, so lines are counted, not matched).
bool waitForIntervals(Child &c, int n, int ms)
{
    QDeadlineTimer deadline(ms);
    while (c.out().count(" sec ") < n) {
        if (deadline.hasExpired() || !c.running())
            return c.out().count(" sec ") >= n;
        c.process()->waitForReadyRead(50);
    }
    return true;
}

QByteArray readKey(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
}

// Relays one connection to the agent and keeps what the controller sent, in order.
class RecordingRelay {
public:
    explicit RecordingRelay(quint16 agentPort) : m_agentPort(agentPort)
    {
        QString e;
        m_listener = nb::net::listenTcp(s("127.0.0.1"), 0, nb::AddressFamily::IPv4, {}, &e);
        m_port = m_listener.valid() ? nb::net::localPort(m_listener) : 0;
        m_thread = std::thread([this] { relay(); });
    }
    ~RecordingRelay()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    quint16 port() const { return m_port; }
    QByteArray fromController()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        return m_recorded;
    }

private:
    void relay()
    {
        nb::net::Socket c = nb::net::acceptTcp(m_listener, 15000);
        QString e;
        nb::net::Socket a =
            nb::net::connectTcp(kAgentHost, m_agentPort, nb::AddressFamily::IPv4, QString(), {}, 5000, &e);
        char buf[65536];
        while (c.valid() && a.valid() && !m_stop) {
            const int ready = nb::net::waitEither(c, a, 50);
            if (ready < 0)
                return;
            for (auto [from, to, record] : {std::tuple{&c, &a, true}, std::tuple{&a, &c, false}}) {
                if (!(ready & (record ? 1 : 2)))
                    continue;
                const nb::net::Transfer t = nb::net::receiveSome(*from, buf, sizeof buf);
                if (t.status != nb::net::IoStatus::Ok || t.bytes <= 0)
                    return;
                if (record)
                    m_recorded.append(buf, qsizetype(t.bytes));
                if (nb::net::writeAll(*to, buf, std::size_t(t.bytes), nb::net::deadlineIn(5), &e) !=
                    nb::net::IoStatus::Ok)
                    return;
            }
        }
    }
    quint16 m_agentPort;
    nb::net::Socket m_listener;
    quint16 m_port = 0;
    std::atomic<bool> m_stop{false};
    QByteArray m_recorded;
    std::thread m_thread;
};

} // namespace

class TestAgent : public QObject {
    Q_OBJECT

private slots:
    // Agent, server and controller in this process: what the sanitizers (TSan) run.
    void inProcess();
    // The rest share a server and an agent as child processes, started here (not in
    // initTestCase: the TSan build runs inProcess alone, and starting a child aborts it).
    void startProcesses();
    void everyKindOfTest_data();
    void everyKindOfTest();
    void intervalsPrintAsTheyArrive();
    void wrongKey();
    void noKey();
    void keyReadableByEveryone();
    void replayedHandshake();
    void targetOutsideTheRule();
    void policyCapsBoundTheRequest();
    void controllerVanishes();
    void silentControllerIsGivenUp();
    void agentVanishes();

private:
    QStringList controller(const QStringList &test, quint16 agentPort, const QString &key) const
    {
        return QStringList{s("-c"),          kServerHost,
                           s("-p"),          QString::number(m_server.port()),
                           s("--from"),      QStringLiteral("%1:%2").arg(kAgentHost).arg(agentPort),
                           s("--agent-key"), key} +
               test;
    }
    QString startAgent(CliServer *agent, const QStringList &extra = {}) const
    {
        return agent->start(QStringList{s("-B"), kAgentHost, s("--agent-key"), m_key.path()} + extra);
    }

    KeyFile m_key;
    CliServer m_server, m_agent;
    bool m_ready = false;
};

namespace {

// Collects what a controller hands its listener, as the CLI's printer would get it.
struct Collected : nb::TestListener {
    int started = 0, finished = 0;
    QList<nb::IntervalReport> intervals;
    void testStarted(const nb::TestResult &) override { ++started; }
    void intervalReady(const nb::IntervalReport &r) override { intervals.append(r); }
    void testFinished(const nb::TestResult &) override { ++finished; }
};

} // namespace

void TestAgent::inProcess()
{
    ServerThread server(kServerHost);
    nb::ServerOptions agentOptions = ServerThread::options(kAgentHost);
    agentOptions.agentKeyPath = m_key.path();
    ServerThread agent(agentOptions);
    QString error;
    QVERIFY2(server.start(&error) && agent.start(&error), qPrintable(error));
    for (const char *test : {"-t 1.2 -i 0.4 -P 2", "-t 1.2 -i 0.4 --rr"}) {
        nb::CommandLine cl;
        const QStringList args =
            QStringList{s("-c"),          kServerHost,
                        s("-p"),          QString::number(server.port()),
                        s("--from"),      QStringLiteral("%1:%2").arg(kAgentHost).arg(agent.port()),
                        s("--agent-key"), m_key.path()} +
            s(test).split(QLatin1Char(' '));
        QVERIFY2(nb::parseCommandLine(args, &cl, &error), qPrintable(error));
        Collected seen;
        nb::AgentController controller(cl, &seen);
        const nb::TestResult r = controller.run();
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(controller.handshakeSeconds() >= 0 && controller.handshakeSeconds() < 5);
        QCOMPARE(seen.started, 1);
        QCOMPARE(seen.finished, 1);
        QVERIFY(seen.intervals.size() >= 2);
        QCOMPARE(r.intervals.size(), seen.intervals.size());
        QVERIFY(r.drivenBy && r.drivenBy->controller == s("127.0.0.1"));
        QVERIFY(r.localCpuKnown && r.remoteCpuKnown);
    }
    // The agent counts a test once the controller has closed after its result.
    QTRY_COMPARE_WITH_TIMEOUT(agent.testsServed(), 2, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(server.testsServed(), 2, 10000);
}

void TestAgent::startProcesses()
{
    QString why = m_server.start({s("-B"), kServerHost});
    QVERIFY2(why.isEmpty(), qPrintable(why));
    why = startAgent(&m_agent);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QVERIFY2(m_agent.output().contains(s("Agent: runs tests for controllers")), qPrintable(m_agent.output()));
    m_ready = true;
}

void TestAgent::everyKindOfTest_data()
{
    QTest::addColumn<QString>("flags");
    QTest::addColumn<QString>("kind");
    QTest::newRow("stream") << "-t 1.5 -P 2"
                            << "stream";
    QTest::newRow("-R") << "-t 1.5 -R"
                        << "stream";
    QTest::newRow("--bidir") << "-t 1.5 --bidir"
                             << "stream";
    QTest::newRow("--rr") << "-t 1.5 --rr --connections 2"
                          << "rr";
    QTest::newRow("--crr") << "-t 1.5 --crr"
                           << "crr";
    QTest::newRow("-u") << "-t 1.5 -u -b 20M"
                        << "stream";
    QTest::newRow("-u --rr") << "-t 1.5 -u --rr --request-size 32 --response-size 32"
                             << "rr";
    QTest::newRow("latency under load") << "--latency-under-load --phase-seconds 1 --phases idle,bidir"
                                        << "loaded_latency";
}

void TestAgent::everyKindOfTest()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    QFETCH(QString, flags);
    QFETCH(QString, kind);
    const QStringList args = controller(flags.split(QLatin1Char(' ')) << s("-J"), m_agent.port(), m_key.path());
    const CliRun r = runCli(args, 60000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe(args)));
    const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
    checkThirdPartyDocument(doc, s("127.0.0.1"), QStringLiteral("%1:%2").arg(kAgentHost).arg(m_agent.port()));
    const QJsonObject params = doc.value(s("nicbench")).toObject().value(s("params")).toObject();
    QCOMPARE(params.value(s("kind")).toString(), kind);
    QCOMPARE(params.value(s("udp")).toBool(), flags.split(QLatin1Char(' ')).contains(s("-u")));
    QCOMPARE(doc.value(s("start")).toObject().value(s("connecting_to")).toObject().value(s("host")).toString(),
             kServerHost);
}

void TestAgent::intervalsPrintAsTheyArrive()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    Child c;
    QElapsedTimer clock;
    clock.start();
    c.start(cliPath(), controller({s("-t"), s("4"), s("-i"), s("0.5")}, m_agent.port(), m_key.path()));
    QVERIFY(c.waitStarted());
    QVERIFY2(waitForIntervals(c, 2, 15000), qPrintable(c.describe()));
    const qint64 firstSecondAt = clock.elapsed();
    QVERIFY(c.waitFinished(30000));
    QCOMPARE(c.exitCode(), 0);
    // Printed while the test ran, not all at its end: 3 of its 4 s were still to come.
    QVERIFY2(
        clock.elapsed() - firstSecondAt > 1500,
        qPrintable(QStringLiteral("second interval at %1 ms, end at %2 ms").arg(firstSecondAt).arg(clock.elapsed())));
    QVERIFY2(c.out().count(" sec ") >= 8 && c.out().contains("-4.00 ") && c.out().contains("sender"),
             qPrintable(c.describe()));
}

void TestAgent::wrongKey()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    KeyFile other;
    const int before = testsRun(m_agent);
    const QStringList args = controller({s("-t"), s("1")}, m_agent.port(), other.path());
    const CliRun r = runCli(args, 30000);
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe(args)));
    QVERIFY2(r.err.contains("refused the key") && r.err.count('\n') == 1, qPrintable(r.describe(args)));
    QVERIFY(m_agent.waitForOutput("failed the agent handshake: its proof does not match", 5000));
    QCOMPARE(testsRun(m_agent), before);
}

void TestAgent::noKey()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    // The CLI does not try without one.
    const QStringList args{s("-c"), kServerHost, s("--from"), kAgentHost};
    const CliRun r = runCli(args, 30000);
    QVERIFY2(r.exitCode != 0 && r.err.contains("--from needs --agent-key"), qPrintable(r.describe(args)));
    // A peer that has no key and sends its request unproven gets nothing: the connection
    // closes after the nonce, the agent's proof never comes, no test runs.
    CliServer agent;
    QString why = startAgent(&agent);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QString e;
    nb::net::Socket sock =
        nb::net::connectTcp(kAgentHost, agent.port(), nb::AddressFamily::IPv4, QString(), {}, 5000, &e);
    QVERIFY2(sock.valid(), qPrintable(e));
    const QByteArray greeting = QByteArray(agentwire::Magic, agentwire::MagicSize) + agentwire::randomNonce();
    QCOMPARE(nb::net::writeAll(sock, greeting.constData(), std::size_t(greeting.size()), nb::net::deadlineIn(5), &e),
             nb::net::IoStatus::Ok);
    char answer[1 + agentwire::NonceSize];
    QCOMPARE(nb::net::readExact(sock, answer, sizeof answer, nb::net::deadlineIn(5), &e), nb::net::IoStatus::Ok);
    agentwire::FrameSealer unkeyed(QByteArray(32, '\0'), agentwire::Role::Controller);
    const QByteArray request = unkeyed.seal(QJsonObject{{s("type"), s("run")}, {s("target"), kServerHost}});
    nb::net::writeAll(sock, request.constData(), std::size_t(request.size()), nb::net::deadlineIn(5), &e);
    char proof[agentwire::MacSize];
    // Closed, or reset: the agent closes with the rest of the frame unread.
    const nb::net::IoStatus st = nb::net::readExact(sock, proof, sizeof proof, nb::net::deadlineIn(10), &e);
    QVERIFY2(st == nb::net::IoStatus::Closed || st == nb::net::IoStatus::Error, "the agent proved itself to no key");
    QVERIFY(agent.waitForOutput("failed the agent handshake", 5000));
    QCOMPARE(testsRun(agent), 0);
}

void TestAgent::keyReadableByEveryone()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    KeyFile open(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther);
    const QStringList args = controller({s("-t"), s("1")}, m_agent.port(), open.path());
    const CliRun r = runCli(args, 30000);
    QVERIFY2(r.exitCode != 0 && r.err.contains("readable by every user") && r.err.count('\n') == 1,
             qPrintable(r.describe(args)));
    const QStringList agentArgs{s("-s"),          s("-B"),    kAgentHost, s("-p"), QString::number(freePort()),
                                s("--agent-key"), open.path()};
    const CliRun a = runCli(agentArgs, 30000);
    QVERIFY2(a.finished && a.exitCode != 0 && a.err.contains("readable by every user"),
             qPrintable(a.describe(agentArgs)));
}

void TestAgent::replayedHandshake()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    CliServer agent;
    QString why = startAgent(&agent);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    // A good test through a relay that keeps every byte the controller sent.
    RecordingRelay relay(agent.port());
    QVERIFY(relay.port() > 0);
    QStringList args = controller({s("-t"), s("1")}, relay.port(), m_key.path());
    args[args.indexOf(s("--from")) + 1] = QStringLiteral("127.0.0.1:%1").arg(relay.port());
    const CliRun r = runCli(args, 30000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe(args)));
    const QByteArray recorded = relay.fromController();
    QVERIFY(recorded.size() > agentwire::GreetingSize + agentwire::MacSize);
    QCOMPARE(testsRun(agent), 1);

    // The same bytes again, step by step as the controller sent them: the agent's new
    // nonce makes the old proof worthless, so it closes without proving anything.
    QString e;
    nb::net::Socket sock =
        nb::net::connectTcp(kAgentHost, agent.port(), nb::AddressFamily::IPv4, QString(), {}, 5000, &e);
    QVERIFY2(sock.valid(), qPrintable(e));
    QCOMPARE(nb::net::writeAll(sock, recorded.constData(), agentwire::GreetingSize, nb::net::deadlineIn(5), &e),
             nb::net::IoStatus::Ok);
    char answer[1 + agentwire::NonceSize];
    QCOMPARE(nb::net::readExact(sock, answer, sizeof answer, nb::net::deadlineIn(5), &e), nb::net::IoStatus::Ok);
    const QByteArray rest = recorded.mid(agentwire::GreetingSize);
    nb::net::writeAll(sock, rest.constData(), std::size_t(rest.size()), nb::net::deadlineIn(5), &e);
    char proof[agentwire::MacSize];
    const nb::net::IoStatus st = nb::net::readExact(sock, proof, sizeof proof, nb::net::deadlineIn(10), &e);
    QVERIFY2(st == nb::net::IoStatus::Closed || st == nb::net::IoStatus::Error, "the agent proved itself to a replay");
    QVERIFY(agent.waitForOutput("failed the agent handshake: its proof does not match", 5000));
    QCOMPARE(testsRun(agent), 1);
}

void TestAgent::targetOutsideTheRule()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    CliServer agent, server;
    QString why = startAgent(&agent, {s("--agent-targets"), s("127.0.0.3/32")});
    QVERIFY2(why.isEmpty(), qPrintable(why));
    why = server.start({s("-B"), kServerHost});
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QStringList args = controller({s("-t"), s("1")}, agent.port(), m_key.path());
    args[args.indexOf(s("-p")) + 1] = QString::number(server.port());
    args[1] = s("127.0.0.4");
    const CliRun r = runCli(args, 30000);
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe(args)));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.contains("refused the test: 127.0.0.4 is outside this agent's targets (127.0.0.3/32: its "
                            "--agent-targets)"),
             qPrintable(r.describe(args)));
    // A name is resolved once, on the agent, and the address is what is judged.
    args[1] = s("localhost");
    const CliRun n = runCli(args, 30000);
    QVERIFY2(n.exitCode != 0 && (n.err.contains("127.0.0.1 is outside") || n.err.contains("::1 is outside")),
             qPrintable(n.describe(args)));
    // Nothing reached a server; the target the rule allows is tested.
    QCOMPARE(testsRun(agent), 0);
    QVERIFY(!server.output().contains(s("Accepted connection")));
    args[1] = kServerHost;
    const CliRun ok = runCli(args, 30000);
    QVERIFY2(ok.exitCode == 0, qPrintable(ok.describe(args)));
    QCOMPARE(server.count(s("Accepted connection")), 1);
    // The default rule: the agent's own subnets, and TEST-NET-3 is on none of them.
    args = controller({s("-t"), s("1")}, m_agent.port(), m_key.path());
    args[1] = s("203.0.113.9");
    const CliRun d = runCli(args, 30000);
    QVERIFY2(d.exitCode != 0 && d.err.contains("the subnets of its own addresses"), qPrintable(d.describe(args)));
}

void TestAgent::policyCapsBoundTheRequest()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    CliServer agent;
    QString why = startAgent(&agent, {s("--max-duration"), s("2"), s("--max-streams"), s("2")});
    QVERIFY2(why.isEmpty(), qPrintable(why));
    for (const QStringList &test : {QStringList{s("-t"), s("5")}, QStringList{s("-t"), s("1"), s("-P"), s("4")}}) {
        const QStringList args = controller(test, agent.port(), m_key.path());
        const CliRun r = runCli(args, 30000);
        QVERIFY2(r.exitCode != 0 && r.err.contains("refused the test") &&
                     (r.err.contains("--max-duration") || r.err.contains("--max-streams")),
                 qPrintable(r.describe(args)));
    }
    QCOMPARE(testsRun(agent), 0);
}

void TestAgent::controllerVanishes()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    Child c;
    c.start(cliPath(), controller({s("-t"), s("30"), s("-i"), s("0.5")}, m_agent.port(), m_key.path()));
    QVERIFY(c.waitStarted());
    QVERIFY2(waitForIntervals(c, 2, 15000), qPrintable(c.describe()));
    const int ended = m_agent.count(s("Ending the test for controller"));
    QElapsedTimer clock;
    clock.start();
    c.kill();
    // The agent sees the connection close at once and ends the test; its B side ends too.
    QVERIFY2(m_agent.waitForOutput("the controller disappeared", 10000), qPrintable(m_agent.output()));
    QVERIFY(m_agent.count(s("Ending the test for controller")) == ended + 1);
    QTRY_COMPARE_WITH_TIMEOUT(testsEnded(m_agent), testsRun(m_agent), 15000);
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    // And it goes on serving.
    const QStringList args = controller({s("-t"), s("1")}, m_agent.port(), m_key.path());
    const CliRun r = runCli(args, 30000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.describe(args)));
}

void TestAgent::silentControllerIsGivenUp()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    // A controller that stops sending without closing (its machine gone, a partition).
    HandmadeController h;
    QVERIFY2(h.open(m_agent.port(), readKey(m_key.path()),
                    {s("-c"), kServerHost, s("-p"), QString::number(m_server.port()), s("-t"), s("60")}),
             qPrintable(h.error));
    QElapsedTimer clock;
    clock.start();
    QVERIFY2(m_agent.waitForOutput("the controller sent nothing for 10 s", 30000), qPrintable(m_agent.output()));
    QVERIFY2(clock.elapsed() > 8000 && clock.elapsed() < 25000, qPrintable(QString::number(clock.elapsed())));
    const QStringList args = controller({s("-t"), s("1")}, m_agent.port(), m_key.path());
    QTRY_VERIFY_WITH_TIMEOUT(runCli(args, 30000).exitCode == 0, 30000);
}

void TestAgent::agentVanishes()
{
    QVERIFY2(m_ready, "the server and the agent did not start");
    CliServer agent;
    QString why = startAgent(&agent);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    Child c;
    c.start(cliPath(), controller({s("-t"), s("30"), s("-i"), s("0.5")}, agent.port(), m_key.path()));
    QVERIFY(c.waitStarted());
    QVERIFY2(waitForIntervals(c, 3, 15000), qPrintable(c.describe()));
    QElapsedTimer clock;
    clock.start();
    agent.kill();
    QVERIFY2(c.waitFinished(15000), "the controller did not notice its agent was gone");
    QVERIFY(clock.elapsed() < 10000);
    QVERIFY2(c.exitCode() != 0, qPrintable(c.describe()));
    QVERIFY2(c.err().contains("disappeared during the test") && c.err().contains("kept the"), qPrintable(c.describe()));
    QVERIFY2(c.out().contains("0.00-0.5") && c.out().count(" sec ") >= 3, qPrintable(c.describe()));
}

QTEST_GUILESS_MAIN(TestAgent)
#include "tst_agent.moc"
