// SPDX-License-Identifier: GPL-3.0-or-later
// The agent protocol without sockets (docs/protocol.md §6): the handshake fed byte by byte,
// what a wrong, replayed, reflected or skipped proof gets, the sealed frames, the key file,
// the target rule, and the request that carries a test's options to the agent.
#include "model/parameters.h"
#include "net/socket.h"
#include "platform/adapterinfo.h"
#include "protocol/agentwire.h"
#include "protocol/auth.h"
#include "session/agentkey.h"
#include "session/agentpolicy.h"
#include "session/agentrequest.h"
#include "session/commandline.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

namespace agent = nb::proto::agent;
using Status = agent::AgentHandshake::Status;

namespace {

const QByteArray kKey = QByteArrayLiteral("0123456789abcdef-the-shared-key");

QStringList split(const char *args)
{
    return QString::fromLatin1(args).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// Feeds all of bytes, one at a time (the acceptor may get them so): the last status.
Status feedAll(agent::AgentHandshake *h, const QByteArray &bytes, QByteArray *out)
{
    Status s = Status::NeedMore;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        std::size_t used = 0;
        s = h->feed(bytes.constData() + i, 1, &used);
        *out += h->takeOutput();
        if (s != Status::NeedMore)
            return s;
    }
    return s;
}

// A controller's side, played by hand over the wire format, so a test can keep and alter
// what it sends.
struct Controller {
    QByteArray key = kKey;
    QByteArray nonce = agent::randomNonce();
    QByteArray greeting() const { return QByteArray(agent::Magic, agent::MagicSize) + nonce; }
    QByteArray proofFor(const QByteArray &answer) const
    {
        return agent::proof(key, agent::Role::Controller, nonce, answer.mid(1));
    }
};

QJsonObject runRequest()
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("run")},
                       {QStringLiteral("target"), QStringLiteral("b")}};
}

nb::AdapterInfo adapter(const char *address, int prefix)
{
    nb::AdapterInfo a;
    a.name = QStringLiteral("eth0");
    a.addresses.append({QHostAddress(QString::fromLatin1(address)), prefix});
    return a;
}

} // namespace

class TestAgentWire : public QObject {
    Q_OBJECT

private slots:
    void handshakeBothWays();
    void wrongKeyGetsNoProof();
    void replayedHandshakeFails();
    void reflectedProofFails();
    void requestWithoutProofFails();
    void notAGreeting();
    void framesAreSealed();
    void oversizedFrameRefusedFromItsHeader();
    void keyFile();
    void keyFileReadableByEveryone();
    void targetRule_data();
    void targetRule();
    void requestCarriesTheOptions_data();
    void requestCarriesTheOptions();
    void requestRefusesWhatIsNoTestParameter_data();
    void requestRefusesWhatIsNoTestParameter();
    void agentOptionsOnTheCommandLine_data();
    void agentOptionsOnTheCommandLine();
};

void TestAgentWire::handshakeBothWays()
{
    Controller c;
    agent::AgentHandshake h(kKey);
    QByteArray answer;
    QCOMPARE(feedAll(&h, c.greeting(), &answer), Status::NeedMore);
    QCOMPARE(answer.size(), 1 + agent::NonceSize);
    QCOMPARE(answer.at(0), agent::AgentAnswer);
    QVERIFY(!h.authenticated());

    QByteArray agentProof;
    QCOMPARE(feedAll(&h, c.proofFor(answer), &agentProof), Status::NeedMore);
    QVERIFY(h.authenticated());
    // The agent proves the key to the controller in turn, with its own label.
    QCOMPARE(agentProof, agent::proof(kKey, agent::Role::Agent, c.nonce, answer.mid(1)));
    QVERIFY(agentProof != c.proofFor(answer));

    agent::Session mine = agent::sessionFor(agent::Role::Controller, kKey, c.nonce, answer.mid(1));
    QByteArray none;
    QCOMPARE(feedAll(&h, mine.out.seal(runRequest()), &none), Status::Done);
    QCOMPARE(h.request(), runRequest());
    // The session goes on in both directions with the same keys.
    agent::Session theirs = h.takeSession();
    const QByteArray reply = theirs.out.seal(QJsonObject{{QStringLiteral("type"), QStringLiteral("accepted")}});
    std::size_t used = 0;
    QCOMPARE(mine.in.feed(reply.constData(), std::size_t(reply.size()), &used), agent::FrameOpener::Status::Complete);
    QCOMPARE(used, std::size_t(reply.size()));
    QCOMPARE(mine.in.take().value(QStringLiteral("type")).toString(), QStringLiteral("accepted"));
}

void TestAgentWire::wrongKeyGetsNoProof()
{
    Controller c;
    c.key = QByteArrayLiteral("another-key-of-enough-bytes");
    agent::AgentHandshake h(kKey);
    QByteArray answer, after;
    feedAll(&h, c.greeting(), &answer);
    QCOMPARE(feedAll(&h, c.proofFor(answer), &after), Status::Failed);
    QVERIFY2(after.isEmpty(), "the agent must not prove anything to a controller that did not");
    QVERIFY(!h.authenticated());
    QVERIFY(h.error().contains(QLatin1String("does not match")));
}

void TestAgentWire::replayedHandshakeFails()
{
    // Everything a controller sent in one good handshake, sent again to a new one.
    Controller c;
    agent::AgentHandshake first(kKey);
    QByteArray answer, ignored;
    feedAll(&first, c.greeting(), &answer);
    const QByteArray proof = c.proofFor(answer);
    agent::Session s = agent::sessionFor(agent::Role::Controller, kKey, c.nonce, answer.mid(1));
    const QByteArray request = s.out.seal(runRequest());
    QCOMPARE(feedAll(&first, proof + request, &ignored), Status::Done);

    agent::AgentHandshake replay(kKey);
    QByteArray answer2;
    QCOMPARE(feedAll(&replay, c.greeting(), &answer2), Status::NeedMore);
    QVERIFY2(answer2.mid(1) != answer.mid(1), "each handshake needs a fresh nonce of the agent's");
    QByteArray after;
    QCOMPARE(feedAll(&replay, proof + request, &after), Status::Failed);
    QVERIFY(after.isEmpty());
    QVERIFY(replay.request().isEmpty());
}

void TestAgentWire::reflectedProofFails()
{
    // A controller that answers with what an agent would send (the agent's label) fails.
    Controller c;
    agent::AgentHandshake h(kKey);
    QByteArray answer, after;
    feedAll(&h, c.greeting(), &answer);
    const QByteArray reflected = agent::proof(kKey, agent::Role::Agent, c.nonce, answer.mid(1));
    QCOMPARE(feedAll(&h, reflected, &after), Status::Failed);
    QVERIFY(after.isEmpty());
}

void TestAgentWire::requestWithoutProofFails()
{
    Controller c;
    agent::AgentHandshake h(kKey);
    QByteArray answer, after;
    feedAll(&h, c.greeting(), &answer);
    agent::Session s = agent::sessionFor(agent::Role::Controller, kKey, c.nonce, answer.mid(1));
    QCOMPARE(feedAll(&h, s.out.seal(runRequest()), &after), Status::Failed);
    QVERIFY(h.request().isEmpty());
}

void TestAgentWire::notAGreeting()
{
    agent::AgentHandshake h(kKey);
    QByteArray out;
    // Refused once the magic is in, before any nonce.
    QCOMPARE(feedAll(&h, QByteArray("NOTAGENT"), &out), Status::Failed);
    QVERIFY(out.isEmpty());
    // An iperf3 cookie never starts a greeting: its alphabet is a-z and 2-7.
    for (char ch : QByteArray("abcdefghijklmnopqrstuvwxyz234567"))
        QVERIFY(!agent::isGreetingStart(ch));
    QVERIFY(agent::isGreetingStart('N'));
}

void TestAgentWire::framesAreSealed()
{
    const QByteArray cn = agent::randomNonce(), an = agent::randomNonce();
    agent::Session ctl = agent::sessionFor(agent::Role::Controller, kKey, cn, an);
    agent::Session agt = agent::sessionFor(agent::Role::Agent, kKey, cn, an);
    const QByteArray one = ctl.out.seal(QJsonObject{{QStringLiteral("n"), 1}});
    const QByteArray two = ctl.out.seal(QJsonObject{{QStringLiteral("n"), 2}});
    const auto open = [](agent::FrameOpener *o, const QByteArray &f) {
        std::size_t used = 0, total = 0;
        agent::FrameOpener::Status s = agent::FrameOpener::Status::NeedMore;
        while (s == agent::FrameOpener::Status::NeedMore && total < std::size_t(f.size())) {
            s = o->feed(f.constData() + total, std::size_t(f.size()) - total, &used);
            total += used;
        }
        return s;
    };
    using S = agent::FrameOpener::Status;
    {
        agent::FrameOpener in = agt.in;
        QCOMPARE(open(&in, one), S::Complete);
        QCOMPARE(in.take().value(QStringLiteral("n")).toInt(), 1);
        QCOMPARE(open(&in, two), S::Complete);
        QCOMPARE(in.take().value(QStringLiteral("n")).toInt(), 2);
        QCOMPARE(open(&in, one), S::Error); // replayed
    }
    {
        agent::FrameOpener in = agt.in;
        QCOMPARE(open(&in, two), S::Error); // out of order
    }
    {
        agent::FrameOpener in = agt.in;
        QByteArray altered = one;
        altered[6] = char(altered[6] ^ 1);
        QCOMPARE(open(&in, altered), S::Error);
    }
    {
        // A frame of the agent's, sent back to it as if from the controller.
        const QByteArray agents = agt.out.seal(QJsonObject{{QStringLiteral("n"), 1}});
        agent::FrameOpener in = agt.in;
        QCOMPARE(open(&in, agents), S::Error);
    }
    {
        // Another session's frame (other nonces) does not open in this one.
        agent::Session other = agent::sessionFor(agent::Role::Controller, kKey, agent::randomNonce(), an);
        agent::FrameOpener in = agt.in;
        QCOMPARE(open(&in, other.out.seal(QJsonObject{{QStringLiteral("n"), 1}})), S::Error);
    }
}

void TestAgentWire::oversizedFrameRefusedFromItsHeader()
{
    agent::FrameOpener in(QByteArray(32, 'k'), agent::Role::Controller, agent::MaxControllerFrame);
    const char header[4] = {0, 1, 0, 1}; // 65,537 bytes: one over the cap
    std::size_t used = 0;
    QCOMPARE(in.feed(header, 4, &used), agent::FrameOpener::Status::Error);
    QCOMPARE(used, std::size_t(4));
    QVERIFY(in.error().contains(QLatin1String("65537")));
}

void TestAgentWire::keyFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto write = [&](const char *name, const QByteArray &bytes) {
        const QString path = dir.filePath(QString::fromLatin1(name));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            return QString();
        f.close();
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        return path;
    };
    QByteArray key;
    QString error;
    QVERIFY2(nb::loadAgentKey(write("good", "  c2VjcmV0LXNlY3JldC1zZWNyZXQ=\n"), &key, &error), qPrintable(error));
    QCOMPARE(key, QByteArray("c2VjcmV0LXNlY3JldC1zZWNyZXQ="));
    QVERIFY(!nb::loadAgentKey(write("short", "fifteen-bytes!!\n"), &key, &error));
    QVERIFY2(error.contains(QLatin1String("15 bytes")) && error.contains(QLatin1String("at least 16")),
             qPrintable(error));
    QVERIFY(nb::loadAgentKey(write("sixteen", "sixteen-bytes!!!"), &key, &error));
    QVERIFY(!nb::loadAgentKey(write("large", QByteArray(5000, 'x')), &key, &error));
    QVERIFY(error.contains(QLatin1String("larger than")));
    QVERIFY(!nb::loadAgentKey(dir.filePath(QStringLiteral("missing")), &key, &error));
    QVERIFY(error.contains(QLatin1String("no such file")));
    QVERIFY(!nb::loadAgentKey(dir.path(), &key, &error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

void TestAgentWire::keyFileReadableByEveryone()
{
#ifdef Q_OS_WIN
    QSKIP("Windows keeps access in ACLs, which the key check does not read (platform.h)");
#else
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("key"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("a-key-with-plenty-of-bytes\n");
    f.close();
    QByteArray key;
    QString error;
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
    QVERIFY(!nb::loadAgentKey(path, &key, &error));
    QVERIFY2(error.contains(QLatin1String("readable by every user")), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
    // Readable by its group is the admin's choice (a group of controllers).
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::ReadGroup));
    QVERIFY2(nb::loadAgentKey(path, &key, &error), qPrintable(error));
#endif
}

void TestAgentWire::targetRule_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("given"); // --agent-targets; empty: the adapters' subnets
    QTest::addColumn<QString>("refusal");
    QTest::newRow("own subnet") << "198.18.0.3"
                                << ""
                                << "";
    QTest::newRow("own address") << "198.18.0.2"
                                 << ""
                                 << "";
    QTest::newRow("loopback") << "127.0.0.5"
                              << ""
                              << "";
    QTest::newRow("v6 own subnet") << "fd00:198::3"
                                   << ""
                                   << "";
    QTest::newRow("v4-mapped") << "::ffff:198.18.0.9"
                               << ""
                               << "";
    QTest::newRow("beyond a router") << "198.18.1.3"
                                     << ""
                                     << "outside this agent's targets";
    QTest::newRow("the internet") << "192.0.2.1"
                                  << ""
                                  << "the subnets of its own addresses";
    QTest::newRow("subnet broadcast") << "198.18.0.255"
                                      << ""
                                      << "broadcast address of 198.18.0.0/24";
    QTest::newRow("broadcast") << "255.255.255.255"
                               << ""
                               << "broadcast";
    QTest::newRow("multicast") << "224.0.0.1"
                               << ""
                               << "multicast";
    QTest::newRow("v6 multicast") << "ff02::1"
                                  << ""
                                  << "multicast";
    QTest::newRow("unspecified") << "0.0.0.0"
                                 << ""
                                 << "not a host";
    QTest::newRow("given network") << "10.1.2.3"
                                   << "10.0.0.0/8"
                                   << "";
    QTest::newRow("given replaces own") << "198.18.0.3"
                                        << "10.0.0.0/8"
                                        << "its --agent-targets";
    QTest::newRow("given host") << "192.0.2.7"
                                << "192.0.2.7"
                                << "";
    QTest::newRow("given host, neighbour") << "192.0.2.8"
                                           << "192.0.2.7"
                                           << "outside";
}

void TestAgentWire::targetRule()
{
    QFETCH(QString, target);
    QFETCH(QString, given);
    QFETCH(QString, refusal);
    QList<nb::Subnet> networks;
    if (given.isEmpty()) {
        QList<nb::AdapterInfo> adapters{adapter("198.18.0.2", 24), adapter("127.0.0.1", 8)};
        adapters[0].addresses.append({QHostAddress(QStringLiteral("fd00:198::2")), 64});
        networks = nb::connectedSubnets(adapters);
        QCOMPARE(nb::networksText(networks), QStringLiteral("198.18.0.0/24, fd00:198::/64, 127.0.0.0/8"));
    } else {
        QString error;
        networks = nb::parseNetworks(given, QStringLiteral("--agent-targets"), &error).value_or(networks);
        QVERIFY2(!networks.isEmpty(), qPrintable(error));
    }
    const QString why = nb::checkAgentTarget(QHostAddress(target), networks, given.isEmpty());
    if (refusal.isEmpty())
        QVERIFY2(why.isEmpty(), qPrintable(why));
    else
        QVERIFY2(why.contains(refusal), qPrintable(why));
}

void TestAgentWire::requestCarriesTheOptions_data()
{
    QTest::addColumn<QString>("args");
    QTest::newRow("stream") << "-c b -t 3 -P 4 -l 64K -w 1M -O 1";
    QTest::newRow("reverse") << "-c b -R -i 0.5";
    QTest::newRow("bidir") << "-c b --bidir -N -M 1400 -C cubic -Z --rx-copy";
    QTest::newRow("bytes") << "-c b -n 10M";
    QTest::newRow("udp") << "-c b -u -b 50M -l 1400 --udp-counters-64bit --dont-fragment --pacing-timer 500";
    if (nb::net::CanPaceTcp) // Windows has no per-connection TCP rate: -b is refused for TCP there
        QTest::newRow("tcp rate") << "-c b -b 300M -P 2";
    QTest::newRow("rr") << "-c b --rr --connections 8 --in-flight 4 --request-size 64 --response-size 1K";
    QTest::newRow("crr") << "-c b --crr --connections 2 -p 5300 -4";
    QTest::newRow("udp rr") << "-c b -u --rr --request-size 32 --response-size 32 --udp-rr-timeout 50";
    QTest::newRow("latency under load")
        << "-c b --latency-under-load --phase-seconds 2 --phases idle,bidir --probe-dscp 46 -P 2";
    QTest::newRow("the last of two wins") << "-c b -t 3 -t 4 --title x --title y";
    QTest::newRow("iperf2") << "-c b --iperf2 --connect-timeout 2 --rcv-timeout 5000 --threads 2 -B 192.0.2.1";
}

void TestAgentWire::requestCarriesTheOptions()
{
    QFETCH(QString, args);
    nb::CommandLine cl;
    QString error;
    QVERIFY2(nb::parseCommandLine(args.split(QLatin1Char(' ')) + split("--from a --agent-key k -J -V"), &cl, &error),
             qPrintable(error));
    const QJsonObject request = nb::agentRequestJson(cl, QStringLiteral("ctl"));
    // Only test parameters travel: not the agent's name, the key, nor how this side prints.
    const QByteArray wire = QJsonDocument(request).toJson(QJsonDocument::Compact);
    for (const char *local : {"agent-key", "\"from\"", "\"json\"", "verbose", "\"client\""})
        QVERIFY2(!wire.contains(local), wire.constData());
    nb::TestParams agentSide;
    QVERIFY2(nb::testFromAgentRequest(request, &agentSide, &error), qPrintable(error));
    QCOMPARE(nb::param::paramsJson(agentSide), nb::param::paramsJson(cl.params));
    QCOMPARE(agentSide.host, QStringLiteral("b"));
}

void TestAgentWire::requestRefusesWhatIsNoTestParameter_data()
{
    QTest::addColumn<QJsonArray>("options");
    QTest::addColumn<QString>("message");
    const auto opt = [](const char *name, const QJsonValue &v) { return QJsonArray{QLatin1String(name), v}; };
    // A list of one pair, built by append: `QJsonArray{pair}` is a copy of the pair itself under
    // clang (a single same-type element list-initialises by copy), an array of one under GCC.
    const auto one = [](const QJsonArray &pair) {
        QJsonArray list;
        list.append(pair);
        return list;
    };
    QTest::newRow("server") << one(opt("server", true)) << "'server' is not a test parameter";
    QTest::newRow("agent key") << one(opt("agent-key", QStringLiteral("/etc/shadow")))
                               << "'agent-key' is not a test parameter";
    QTest::newRow("from") << one(opt("from", QStringLiteral("c"))) << "'from' is not a test parameter";
    QTest::newRow("client") << one(opt("client", QStringLiteral("c"))) << "'client' is not a test parameter";
    QTest::newRow("username") << one(opt("username", QStringLiteral("u"))) << "'username' is not a test parameter";
    QTest::newRow("unknown") << one(opt("no-such-option", true)) << "'no-such-option' is not a test parameter";
    QTest::newRow("not a pair") << one(QJsonArray{QStringLiteral("time")}) << "'time' is not a test parameter";
    QTest::newRow("flag with a value") << one(opt("reverse", QStringLiteral("1"))) << "takes no value";
    QTest::newRow("number as number") << one(opt("time", 3)) << "needs a value as text";
    // The CLI's own checks and messages, as nicbench-cli -c would print them.
    QTest::newRow("out of range") << one(opt("parallel", QStringLiteral("2000")))
                                  << "-P: '2000' must be a whole number from 1 to 1024";
    QTest::newRow("two kinds") << QJsonArray{opt("rr", true), opt("crr", true)} << "different tests";
    QTest::newRow("rate on rr") << QJsonArray{opt("rr", true), opt("bitrate", QStringLiteral("1M"))} << "-b sets";
    QJsonArray many;
    for (int i = 0; i <= nb::MaxAgentOptions; ++i)
        many.append(opt("time", QStringLiteral("1")));
    QTest::newRow("too many") << many << "at most 128";
}

void TestAgentWire::requestRefusesWhatIsNoTestParameter()
{
    QFETCH(QJsonArray, options);
    QFETCH(QString, message);
    const QJsonObject request{{QStringLiteral("type"), QStringLiteral("run")},
                              {QStringLiteral("target"), QStringLiteral("b")},
                              {QStringLiteral("options"), options}};
    nb::TestParams p;
    QString error;
    QVERIFY(!nb::testFromAgentRequest(request, &p, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

void TestAgentWire::agentOptionsOnTheCommandLine_data()
{
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("host"); // --from's host; empty: a refusal whose text is `error`
    QTest::addColumn<int>("port");
    QTest::addColumn<QString>("error");
    QTest::newRow("from host") << "-c b --from a --agent-key k"
                               << "a" << 5201 << "";
    QTest::newRow("from host:port") << "-c b --from a:5300 --agent-key k"
                                    << "a" << 5300 << "";
    QTest::newRow("from [v6]:port") << "-c b --from [fd00::2]:5300 --agent-key k"
                                    << "fd00::2" << 5300 << "";
    QTest::newRow("from v6") << "-c b --from fd00::2 --agent-key k"
                             << "fd00::2" << 5201 << "";
    QTest::newRow("agent") << "-s --agent-key k --agent-targets 10.0.0.0/8"
                           << "" << 0 << "";
    QTest::newRow("from without key") << "-c b --from a"
                                      << "" << 0 << "--from needs --agent-key";
    QTest::newRow("key without from") << "-c b --agent-key k"
                                      << "" << 0 << "needs --from";
    QTest::newRow("from with -s") << "-s --from a --agent-key k"
                                  << "" << 0 << "give it with -c";
    QTest::newRow("bad port") << "-c b --from a:99999 --agent-key k"
                              << "" << 0 << "--from: port '99999'";
    QTest::newRow("targets without key") << "-s --agent-targets 10.0.0.0/8"
                                         << "" << 0 << "belongs to an agent";
    QTest::newRow("bad targets") << "-s --agent-key k --agent-targets 10.0.0.0/99"
                                 << "" << 0 << "--agent-targets: '10.0.0.0/99' is not a network";
    // A build without OpenSSL (Windows) refuses --username before it looks at --from.
    QTest::newRow("credentials") << "-c b --from a --agent-key k --username u --rsa-public-key-path p"
                                 << "" << 0
                                 << (nb::proto::auth::available() ? "cannot go through an agent"
                                                                  : "has no authentication");
}

void TestAgentWire::agentOptionsOnTheCommandLine()
{
    QFETCH(QString, args);
    QFETCH(QString, host);
    QFETCH(int, port);
    QFETCH(QString, error);
    nb::CommandLine cl;
    QString e;
    const bool ok = nb::parseCommandLine(args.split(QLatin1Char(' ')), &cl, &e);
    if (!error.isEmpty()) {
        QVERIFY2(!ok && e.contains(error), qPrintable(e));
        return;
    }
    QVERIFY2(ok, qPrintable(e));
    QCOMPARE(cl.fromHost, host);
    if (!host.isEmpty())
        QCOMPARE(int(cl.fromPort), port);
    QCOMPARE(cl.agentKeyPath, QStringLiteral("k"));
}

QTEST_GUILESS_MAIN(TestAgentWire)
#include "tst_agentwire.moc"
