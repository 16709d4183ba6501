// SPDX-License-Identifier: GPL-3.0-or-later
// UDP mode (-u) faults: bad -b and -l, a server whose UDP port is closed or that never
// answers the UDP connect, and a server that stops sending in the middle of a -R test.
// Each ends with a one-line message, a non-zero exit and in bounded time; the intervals
// measured before the fault stay in the -J document. The misbehaving servers are fakes
// on loopback that speak just enough of the iperf3 protocol (plain POSIX sockets, on a
// thread of the test, joined however the test ends).
#include "integrationhelpers.h"
#include "udpdocuments.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>

#include <arpa/inet.h>
#include <poll.h>

#include <atomic>
#include <cstring>

namespace {

// How far the fake server goes before it falls silent.
enum class Silence { ClosedUdpPort, NoUdpReply, StopsSendingAfterOneSecond };

class FakeServer {
public:
    explicit FakeServer(Silence mode) : m_mode(mode)
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const int one = 1;
        ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_listen, reinterpret_cast<sockaddr *>(&a), sizeof a);
        ::listen(m_listen, 4);
        socklen_t len = sizeof a;
        ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] { run(); });
    }
    ~FakeServer()
    {
        m_quit = true;
        m_thread.join();
        ::close(m_listen);
    }
    quint16 port() const { return m_port; }

private:
    bool readable(int fd, int ms)
    {
        QElapsedTimer t;
        t.start();
        while (!m_quit && t.elapsed() < ms) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 50) > 0)
                return true;
        }
        return false;
    }
    bool readExact(int fd, char *buf, std::size_t n)
    {
        std::size_t got = 0;
        while (got < n) {
            if (!readable(fd, 5000))
                return false;
            const ssize_t r = ::recv(fd, buf + got, n - got, 0);
            if (r <= 0)
                return false;
            got += std::size_t(r);
        }
        return true;
    }
    void state(int fd, char s) { ::send(fd, &s, 1, MSG_NOSIGNAL); }

    void run()
    {
        if (!readable(m_listen, 10000))
            return;
        const int ctrl = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
        char buf[8192];
        std::uint32_t len = 0;
        if (readExact(ctrl, buf, 37)) {
            state(ctrl, 9); // PARAM_EXCHANGE
            if (readExact(ctrl, reinterpret_cast<char *>(&len), 4) && ntohl(len) < sizeof buf &&
                readExact(ctrl, buf, ntohl(len)))
                serveStreams(ctrl);
        }
        // Silent from here on: keep the control connection open until the test ends.
        while (!m_quit)
            readable(ctrl, 100) && ::recv(ctrl, buf, sizeof buf, 0) <= 0 ? (void)QThread::msleep(50) : (void)0;
        ::close(ctrl);
    }

    void serveStreams(int ctrl)
    {
        if (m_mode == Silence::ClosedUdpPort) {
            state(ctrl, 10); // CREATE_STREAMS, and no UDP socket on the port
            return;
        }
        const int u = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(m_port);
        ::bind(u, reinterpret_cast<sockaddr *>(&a), sizeof a);
        state(ctrl, 10);
        if (m_mode == Silence::NoUdpReply || !readable(u, 5000)) {
            while (!m_quit)
                QThread::msleep(50);
            ::close(u);
            return;
        }
        sockaddr_in from{};
        socklen_t fl = sizeof from;
        char hello[16];
        ::recvfrom(u, hello, sizeof hello, 0, reinterpret_cast<sockaddr *>(&from), &fl);
        ::connect(u, reinterpret_cast<sockaddr *>(&from), fl);
        const unsigned char reply[4] = {0x36, 0x37, 0x38, 0x39};
        ::send(u, reply, 4, 0);
        state(ctrl, 1); // TEST_START
        state(ctrl, 2); // TEST_RUNNING
        // One second of datagrams (1000 bytes, 32-bit header), then nothing.
        char datagram[1000] = {};
        for (std::uint32_t seq = 1; seq <= 50 && !m_quit; ++seq) {
            const std::uint32_t be = htonl(seq);
            std::memcpy(datagram + 8, &be, 4);
            ::send(u, datagram, sizeof datagram, 0);
            QThread::msleep(20);
        }
        while (!m_quit)
            QThread::msleep(50);
        ::close(u);
    }

    Silence m_mode;
    int m_listen = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_quit{false};
    std::thread m_thread;
};

// stderr's message: one line, not empty.
QString oneLine(const nbtest::CliRun &r)
{
    return QString::fromUtf8(r.err).trimmed();
}

// A run of our client against a one-off `nicbench-cli -s -1 -J` on a free port.
struct BothEndsRun {
    QStringList args; // the client's: `-c 127.0.0.1 -p PORT`, then the test's own
    nbtest::CliRun client;
    QJsonObject clientDoc;
    QByteArray serverOut;
    QString failure; // empty when both ended with 0 and the client printed a -J document
};

BothEndsRun runBothEnds(const QStringList &clientArgs)
{
    BothEndsRun run;
    nbtest::Child server;
    QString why;
    const quint16 port = nbtest::startListening(
        server, nbtest::cliPath(), {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-J")}, &why);
    if (port == 0) {
        run.failure = QStringLiteral("the server is not listening: ") + why;
        return run;
    }
    run.args =
        QStringList{QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"), QString::number(port)} + clientArgs;
    run.client = nbtest::runCli(run.args, 20000);
    if (!run.client.finished || run.client.exitCode != 0) {
        run.failure = run.client.describe(run.args);
        return run;
    }
    // 15 s: the server writes its -J document after the test; under ASan beside another test
    // (ctest -j2) 5 s was once not enough after a -R run.
    if (!server.waitFinished(15000) || server.exitCode() != 0) {
        run.failure = QStringLiteral("the server did not end with 0: ") + server.describe();
        return run;
    }
    run.serverOut = server.out();
    QString error;
    run.clientDoc = nbtest::parseJson(run.client.out, &error);
    if (run.clientDoc.isEmpty())
        run.failure = error.isEmpty() ? QStringLiteral("the client's -J document is empty") : error;
    return run;
}

} // namespace

class TestUdp : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void badInput_data();
    void badInput();
    void closedUdpPort();
    void noUdpReply();
    void serverStopsSending();
    void nicbenchBothEnds_data();
    void nicbenchBothEnds();
    void lowRateCountsTheTestOnly_data();
    void lowRateCountsTheTestOnly();
    void requestResponse();
    void requestResponseRefused_data();
    void requestResponseRefused();
};

void TestUdp::initTestCase()
{
    QVERIFY2(QFile::exists(nbtest::cliPath()), qPrintable(nbtest::cliPath()));
}

void TestUdp::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("-l beyond a datagram")
        << QStringList{QStringLiteral("-l"), QStringLiteral("70000")} << QStringLiteral("-l");
    QTest::newRow("-l below the header") << QStringList{QStringLiteral("-l"), QStringLiteral("8")}
                                         << QStringLiteral("-l");
    QTest::newRow("-b too large") << QStringList{QStringLiteral("-b"), QStringLiteral("5T")} << QStringLiteral("-b");
    QTest::newRow("-b not a rate") << QStringList{QStringLiteral("-b"), QStringLiteral("fast")} << QStringLiteral("-b");
    QTest::newRow("-b negative") << QStringList{QStringLiteral("-b"), QStringLiteral("-5M")} << QStringLiteral("-b");
}

void TestUdp::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    // Nothing listens on the port: the arguments must be refused before any connection.
    const nbtest::CliRun r = nbtest::runCli(QStringList{QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"),
                                                        QString::number(nbtest::freePort()), QStringLiteral("-u")} +
                                                args,
                                            10000);
    QVERIFY2(r.finished, qPrintable(r.describe(args)));
    QVERIFY2(r.exitCode != 0, qPrintable(r.describe(args)));
    const QString msg = oneLine(r);
    QVERIFY2(!msg.isEmpty() && !msg.contains(QLatin1Char('\n')) && msg.contains(mentions),
             qPrintable(r.describe(args)));
}

void TestUdp::closedUdpPort()
{
    FakeServer server(Silence::ClosedUdpPort);
    QElapsedTimer t;
    t.start();
    const QStringList args{
        QStringLiteral("-c"), nbtest::kLoopback,    QStringLiteral("-p"), QString::number(server.port()),
        QStringLiteral("-u"), QStringLiteral("-t"), QStringLiteral("2")};
    const nbtest::CliRun r = nbtest::runCli(args, 30000);
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe(args)));
    QVERIFY2(oneLine(r).contains(QStringLiteral("nothing listens on UDP port")), qPrintable(r.describe(args)));
    QVERIFY2(t.elapsed() < 15000, qPrintable(QString::number(t.elapsed())));
}

void TestUdp::noUdpReply()
{
    FakeServer server(Silence::NoUdpReply);
    QElapsedTimer t;
    t.start();
    const QStringList args{
        QStringLiteral("-c"), nbtest::kLoopback,    QStringLiteral("-p"), QString::number(server.port()),
        QStringLiteral("-u"), QStringLiteral("-t"), QStringLiteral("2")};
    const nbtest::CliRun r = nbtest::runCli(args, 40000);
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe(args)));
    QVERIFY2(oneLine(r).contains(QStringLiteral("did not answer the UDP connect")), qPrintable(r.describe(args)));
    // The connect waits 10 s; freed well within twice that on a loaded machine.
    QVERIFY2(t.elapsed() < 25000, qPrintable(QString::number(t.elapsed())));
}

// -R against a server that sends for a second and then stops: --rcv-timeout ends the test
// with an error, and the -J document keeps what arrived before.
void TestUdp::serverStopsSending()
{
    FakeServer server(Silence::StopsSendingAfterOneSecond);
    QElapsedTimer t;
    t.start();
    const QStringList args{QStringLiteral("-c"),           nbtest::kLoopback,    QStringLiteral("-p"),
                           QString::number(server.port()), QStringLiteral("-u"), QStringLiteral("-R"),
                           QStringLiteral("-t"),           QStringLiteral("30"), QStringLiteral("--rcv-timeout"),
                           QStringLiteral("2000"),         QStringLiteral("-J")};
    const nbtest::CliRun r = nbtest::runCli(args, 40000);
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe(args)));
    // 1 s of data, 2 s of silence, then the control channel's bounded waits.
    QVERIFY2(t.elapsed() < 20000, qPrintable(QString::number(t.elapsed())));
    const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
    QVERIFY2(doc.value(QStringLiteral("error")).toString().contains(QStringLiteral("no data moved")),
             qPrintable(r.describe(args)));
    std::uint64_t bytes = 0, packets = 0;
    for (const QJsonValue &iv : doc.value(QStringLiteral("intervals")).toArray())
        for (const QJsonValue &s : iv.toObject().value(QStringLiteral("streams")).toArray()) {
            bytes += std::uint64_t(s.toObject().value(QStringLiteral("bytes")).toDouble());
            packets += std::uint64_t(s.toObject().value(QStringLiteral("packets")).toDouble());
        }
    // The 50 datagrams sent arrive on loopback (all of them, or nearly: a loaded machine).
    QVERIFY2(bytes >= 40 * 1000 && bytes <= 50 * 1000, qPrintable(r.describe(args)));
    QVERIFY2(packets >= 40 && packets <= 50, qPrintable(r.describe(args)));
}

void TestUdp::nicbenchBothEnds_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("streams");
    QTest::newRow("forward") << QString() << 1;
    QTest::newRow("reverse -R") << QStringLiteral("-R") << 1;
    QTest::newRow("bidir -P 2") << QStringLiteral("--bidir -P 2") << 2;
    QTest::newRow("64-bit counters, 1400-byte datagrams") << QStringLiteral("--udp-counters-64bit -l 1400") << 1;
}

// Our client with our server: both documents agree, and every datagram was -l bytes.
void TestUdp::nicbenchBothEnds()
{
    QFETCH(QString, mode);
    QFETCH(int, streams);
    const BothEndsRun run = runBothEnds(QStringList{QStringLiteral("-u"), QStringLiteral("-b"), QStringLiteral("20M"),
                                                    QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("-J")} +
                                        nbtest::modeArgs(mode));
    QVERIFY2(run.failure.isEmpty(), qPrintable(run.failure));
    const QJsonObject &c = run.clientDoc;
    QString error;
    const QJsonObject s = nbtest::parseJson(run.serverOut, &error);
    QVERIFY2(!s.isEmpty(), qPrintable(error));
    const QString direction = mode.contains(QLatin1String("--bidir")) ? QStringLiteral("--bidir")
                              : mode == QLatin1String("-R")           ? QStringLiteral("-R")
                                                                      : QString();
    nbtest::compareUdpDocuments(c, s, direction, streams, false);
    // Datagrams are whole: bytes sent = datagrams sent x -l.
    const QJsonObject sent = nbtest::endOf(c).value(QStringLiteral("sum_sent")).toObject();
    const double blksize = c.value(QStringLiteral("start"))
                               .toObject()
                               .value(QStringLiteral("test_start"))
                               .toObject()
                               .value(QStringLiteral("blksize"))
                               .toDouble();
    if (mode.contains(QLatin1String("-l 1400")))
        QCOMPARE(blksize, 1400.0);
    QCOMPARE(nbtest::num(sent, "bytes"), nbtest::num(sent, "packets") * blksize);
}

void TestUdp::lowRateCountsTheTestOnly_data()
{
    QTest::addColumn<QString>("mode");
    QTest::newRow("reverse -R") << QStringLiteral("-R");
    QTest::newRow("bidir") << QStringLiteral("--bidir");
    // Both of the client's streams on one worker: the paced sender waits on its worker's
    // timer, not in a thread of its own (issue 30).
    QTest::newRow("bidir, one client worker") << QStringLiteral("--bidir --threads 1");
}

// Issue 17: at 200 datagrams/s a receiver counted up to 0.3 s of datagrams that arrived after
// the test's end (659 in 3.0 s at -R -b 1.6M -l 1000, the last interval 158 instead of 100).
// Every direction's receiver now counts no more than the rate offers over its own time (2% and
// 3 datagrams above). Below, the figure to hold it to is what the sender sent: a sender held
// up on a loaded machine writes off what it missed (176 of the 302 offered once, under a full
// parallel test run), and loopback loses nothing, so the receiver gets what was sent.
void TestUdp::lowRateCountsTheTestOnly()
{
    QFETCH(QString, mode);
    constexpr double PerSecond = 1.6e6 / (1000 * 8);
    const BothEndsRun run = runBothEnds(QStringList{QStringLiteral("-u"), QStringLiteral("-b"), QStringLiteral("1.6M"),
                                                    QStringLiteral("-l"), QStringLiteral("1000"), QStringLiteral("-t"),
                                                    QStringLiteral("1.5"), QStringLiteral("-i"), QStringLiteral("0.5"),
                                                    QStringLiteral("-J")} +
                                        nbtest::modeArgs(mode));
    QVERIFY2(run.failure.isEmpty(), qPrintable(run.failure));
    const QJsonObject &c = run.clientDoc;
    const auto withinRate = [&](const QJsonObject &o, const QString &what, double sentPackets) {
        const double seconds = nbtest::num(o, "seconds"), packets = nbtest::num(o, "packets");
        const double offered = PerSecond * seconds;
        const QString text = QStringLiteral("%1: %2 datagrams in %3 s, the rate offers %4, the sender sent %5\n%6")
                                 .arg(what)
                                 .arg(packets)
                                 .arg(seconds)
                                 .arg(offered)
                                 .arg(sentPackets)
                                 .arg(run.client.describe(run.args));
        QVERIFY2(packets <= offered * 1.02 + 3, qPrintable(text));
        if (sentPackets >= 0)
            QVERIFY2(packets >= sentPackets * 0.98 - 3 && packets <= sentPackets, qPrintable(text));
    };
    const QJsonObject end = nbtest::endOf(c);
    for (const auto &[suffix, clientSends] : nbtest::directions(mode)) {
        const QString key = QStringLiteral("sum_received") + suffix;
        const QJsonObject received = end.value(key).toObject();
        QVERIFY2(nbtest::num(received, "seconds") >= 1.4 && nbtest::num(received, "seconds") <= 2.0,
                 qPrintable(run.client.describe(run.args)));
        const double sent = nbtest::num(end.value(QStringLiteral("sum_sent") + suffix).toObject(), "packets");
        QVERIFY2(sent > 0, qPrintable(run.client.describe(run.args)));
        withinRate(received, key, sent);
        if (clientSends)
            continue;
        // Our own receiving stream's last interval holds no late burst either.
        const QJsonArray intervals = c.value(QStringLiteral("intervals")).toArray();
        QVERIFY(!intervals.isEmpty());
        withinRate(intervals.last().toObject().value(QStringLiteral("sum") + suffix).toObject(),
                   QStringLiteral("the last interval"), -1);
    }
}

// -u --rr between NicBench ends: transactions complete, every one has a latency, and the
// loss count is there (0 on loopback: nothing drops a datagram there at this load). The
// client's two connections share one worker (--threads 1): its event loop, not a thread per
// connection, sends the first requests and times them out (issue 30).
void TestUdp::requestResponse()
{
    nbtest::ServerThread server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    const QStringList args{QStringLiteral("-c"),
                           nbtest::kLoopback,
                           QStringLiteral("-p"),
                           QString::number(server.port()),
                           QStringLiteral("-u"),
                           QStringLiteral("--rr"),
                           QStringLiteral("--connections"),
                           QStringLiteral("2"),
                           QStringLiteral("--in-flight"),
                           QStringLiteral("2"),
                           QStringLiteral("--response-size"),
                           QStringLiteral("1200"),
                           QStringLiteral("--threads"),
                           QStringLiteral("1"),
                           QStringLiteral("-t"),
                           QStringLiteral("2"),
                           QStringLiteral("-J")};
    const nbtest::CliRun r = nbtest::runCli(args, 20000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe(args)));
    const QJsonObject rr = QJsonDocument::fromJson(r.out)
                               .object()
                               .value(QStringLiteral("nicbench"))
                               .toObject()
                               .value(QStringLiteral("rr"))
                               .toObject();
    const double transactions = rr.value(QStringLiteral("transactions")).toDouble();
    QVERIFY2(transactions > 100, qPrintable(r.describe(args)));
    QCOMPARE(rr.value(QStringLiteral("connections")).toInt(), 2);
    QVERIFY2(rr.contains(QStringLiteral("udp_lost")), qPrintable(r.describe(args)));
    QCOMPARE(rr.value(QStringLiteral("udp_lost")).toDouble(), 0.0);
    // Every completed transaction was timed (the histogram holds them all).
    const QJsonObject lat = rr.value(QStringLiteral("latency_us")).toObject();
    QVERIFY2(lat.value(QStringLiteral("p50")).toDouble() > 0, qPrintable(r.describe(args)));
    QVERIFY2(lat.value(QStringLiteral("count")).toDouble() >= transactions * 0.99, qPrintable(r.describe(args)));
}

void TestUdp::requestResponseRefused_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("-u --crr") << QStringList{QStringLiteral("--crr")} << QStringLiteral("--crr");
    QTest::newRow("response beyond a datagram")
        << QStringList{QStringLiteral("--rr"), QStringLiteral("--response-size"), QStringLiteral("100000")}
        << QStringLiteral("single datagrams");
}

void TestUdp::requestResponseRefused()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const QStringList all = QStringList{QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"),
                                        QString::number(nbtest::freePort()), QStringLiteral("-u")} +
                            args;
    const nbtest::CliRun r = nbtest::runCli(all, 10000);
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe(all)));
    QVERIFY2(oneLine(r).contains(mentions) && !oneLine(r).contains(QLatin1Char('\n')), qPrintable(r.describe(all)));
}

QTEST_GUILESS_MAIN(TestUdp)
#include "tst_udp.moc"
