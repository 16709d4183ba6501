// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 30, part A: UDP against a server that runs short of tasks (C1: a thread the system
// refuses refused one test and aborted the server), against datagrams from strangers (M2:
// a spoofed UDP hello bound a stream to whoever sent it) and against datagrams injected
// into a running test (M3: a forged sequence jump made up the loss figure). A real server
// process on loopback; the task limit is one this test sets on that process alone.
#include "integrationhelpers.h"
#include "net/connect.h"
#include "protocol/controlchannel.h"
#include "protocol/protocol.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <thread>

namespace {

using nb::net::IoStatus;
using nbtest::CliRun;
using nbtest::runCli;
using nbtest::ServerProcess;

// The server as a user of its own with at most `tasks` threads (RLIMIT_NPROC counts the
// threads of a real user id; root is exempt, hence the unprivileged id).
QString startLimitedServer(ServerProcess *server, int tasks, const QStringList &serverArgs)
{
    const QString uid = QString::number(200000 + (::getpid() % 100000));
    return server->start(QStringLiteral("prlimit"),
                         QStringList{QStringLiteral("--nproc=%1:%1").arg(tasks), QStringLiteral("setpriv"),
                                     QStringLiteral("--reuid=") + uid, QStringLiteral("--regid=") + uid,
                                     QStringLiteral("--clear-groups"), QStringLiteral("--"), nbtest::cliPath(),
                                     QStringLiteral("-s")} +
                             serverArgs);
}

QStringList udpClient(quint16 port, const QStringList &extra, int seconds = 1)
{
    return QStringList{QStringLiteral("-c"), nbtest::kLoopback,    QStringLiteral("-p"),    QString::number(port),
                       QStringLiteral("-u"), QStringLiteral("-t"), QString::number(seconds)} +
           extra;
}

// A UDP socket bound to a loopback address, closed however the test ends.
struct UdpSocket {
    int fd = -1;
    explicit UdpSocket(const char *address)
    {
        fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        ::inet_pton(AF_INET, address, &a.sin_addr);
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ~UdpSocket()
    {
        if (fd >= 0)
            ::close(fd);
    }
    UdpSocket(const UdpSocket &) = delete;
    UdpSocket &operator=(const UdpSocket &) = delete;
};

sockaddr_in loopbackPort(quint16 port)
{
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    return a;
}

// The peer port of the connected UDP socket bound to `port` (/proc/net/udp and udp6: a
// dual-stack server's sockets are IPv6): one end's data socket tells the other end's port.
// 0 when there is none yet.
quint16 connectedPeerPort(quint16 port)
{
    const QByteArray suffix = ':' + QByteArray::number(port, 16).toUpper().rightJustified(4, '0');
    for (const char *table : {"/proc/net/udp", "/proc/net/udp6"}) {
        QFile f{QString::fromLatin1(table)};
        if (!f.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QList<QByteArray> cols = line.simplified().split(' ');
            if (cols.size() > 3 && cols[1].endsWith(suffix) && !cols[2].endsWith(":0000"))
                return quint16(cols[2].mid(cols[2].lastIndexOf(':') + 1).toUInt(nullptr, 16));
        }
    }
    return 0;
}

// Datagrams that claim to come from 127.0.0.1:from (a raw socket writes the UDP header; the
// checksum 0 means none, as IPv4 allows) with iperf3's 12-byte header and these sequences.
bool injectDatagrams(quint16 from, quint16 to, const QList<quint32> &sequences)
{
    const int fd = ::socket(AF_INET, SOCK_RAW, IPPROTO_UDP);
    if (fd < 0)
        return false;
    bool ok = true;
    for (quint32 seq : sequences) {
        unsigned char d[8 + 1400] = {};
        const quint16 length = htons(quint16(sizeof d));
        const quint16 src = htons(from), dst = htons(to);
        std::memcpy(d, &src, 2);
        std::memcpy(d + 2, &dst, 2);
        std::memcpy(d + 4, &length, 2);
        const quint32 header[3] = {htonl(1), htonl(0), htonl(seq)};
        std::memcpy(d + 8, header, sizeof header);
        sockaddr_in a = loopbackPort(to);
        a.sin_port = 0;
        ok = ok && ::sendto(fd, d, sizeof d, 0, reinterpret_cast<sockaddr *>(&a), sizeof a) == ssize_t(sizeof d);
    }
    ::close(fd);
    return ok;
}

// The highest lost_percent of the -J document's end sums.
double worstLossPercent(const QJsonObject &doc)
{
    double worst = -1;
    const QJsonObject end = doc.value(QStringLiteral("end")).toObject();
    for (auto it = end.begin(); it != end.end(); ++it)
        if (it.key().startsWith(QStringLiteral("sum")) &&
            it.value().toObject().contains(QStringLiteral("lost_percent")))
            worst = std::max(worst, it.value().toObject().value(QStringLiteral("lost_percent")).toDouble());
    return worst;
}

} // namespace

class TestUdpHostile : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void manyUdpStreamsUnderATaskLimit();
    void threadRefusedRefusesOneTest();
    void helloFromAnotherAddressIsIgnored();
    void forgedSequenceJumpIsDropped_data();
    void forgedSequenceJumpIsDropped();

private:
    bool m_canLimit = false;
};

void TestUdpHostile::initTestCase()
{
    m_canLimit =
        ::geteuid() == 0 && nbtest::haveTool(QStringLiteral("prlimit")) && nbtest::haveTool(QStringLiteral("setpriv"));
}

// C1: 64 UDP streams and 64 UDP request/response connections share the server's two
// workers; with a thread per stream the server aborted at its 16th task.
void TestUdpHostile::manyUdpStreamsUnderATaskLimit()
{
    if (!m_canLimit)
        QSKIP("needs root with prlimit and setpriv to run the server as another user under a task limit");
    ServerProcess server;
    const QString error = startLimitedServer(&server, 16, {QStringLiteral("--threads"), QStringLiteral("2")});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList streams = udpClient(
        server.port(), {QStringLiteral("-P"), QStringLiteral("64"), QStringLiteral("-b"), QStringLiteral("100K")});
    const CliRun r = runCli(streams, 60000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe(streams) + server.output()));
    const QStringList rr =
        udpClient(server.port(), {QStringLiteral("--rr"), QStringLiteral("--connections"), QStringLiteral("64")});
    const CliRun r2 = runCli(rr, 60000);
    QVERIFY2(r2.finished && r2.exitCode == 0, qPrintable(r2.describe(rr) + server.output()));
    QVERIFY2(!server.output().contains(QStringLiteral("terminate called")), qPrintable(server.output()));
}

// C1: a server told to use more threads than its task limit allows refuses that test with
// a message (the client exits non-zero with it) and answers the next one.
void TestUdpHostile::threadRefusedRefusesOneTest()
{
    if (!m_canLimit)
        QSKIP("needs root with prlimit and setpriv to run the server as another user under a task limit");
    ServerProcess server;
    const QString error = startLimitedServer(&server, 16, {QStringLiteral("--threads"), QStringLiteral("64")});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QStringList big = udpClient(
        server.port(), {QStringLiteral("-P"), QStringLiteral("32"), QStringLiteral("-b"), QStringLiteral("100K")});
    const CliRun r = runCli(big, 60000);
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(r.describe(big) + server.output()));
    QVERIFY2(r.err.contains("unable to initialize stream") && r.err.contains("Resource temporarily unavailable"),
             qPrintable(r.describe(big)));
    QTRY_VERIFY_WITH_TIMEOUT(server.output().contains(QStringLiteral("cannot start data thread")), 10000);
    const QStringList small = udpClient(
        server.port(), {QStringLiteral("-P"), QStringLiteral("2"), QStringLiteral("-b"), QStringLiteral("100K")});
    const CliRun r2 = runCli(small, 60000);
    QVERIFY2(r2.finished && r2.exitCode == 0, qPrintable(r2.describe(small) + server.output()));
}

// M2: a scripted client asks for a -R UDP stream; at CREATE_STREAMS a stranger at 127.0.0.2
// says the UDP hello first. It gets no answer and no data (before: the stream was its own,
// and the client's hello went unanswered); the client's own hello is answered and its
// stream gets the data.
void TestUdpHostile::helloFromAnotherAddressIsIgnored()
{
    ServerProcess server;
    const QString error = server.start(nbtest::cliPath(), {QStringLiteral("-s")});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    UdpSocket stranger("127.0.0.2"), client("127.0.0.1");
    QVERIFY2(stranger.fd >= 0 && client.fd >= 0, "cannot bind UDP sockets to 127.0.0.2 and 127.0.0.1");
    QString err;
    nb::proto::ControlChannel ctrl(
        nb::net::connectTcp(nbtest::kLoopback, server.port(), nb::AddressFamily::IPv4, {}, {}, 5000, &err));
    QVERIFY2(ctrl.valid(), qPrintable(err));
    const QByteArray cookie = nb::proto::makeCookie();
    const auto d = [] { return nb::net::deadlineIn(10); };
    std::int8_t state = 0;
    QVERIFY(ctrl.writeBytes(cookie.constData(), std::size_t(cookie.size()), d(), &err) == IoStatus::Ok);
    QVERIFY(ctrl.readState(&state, d(), &err) == IoStatus::Ok && state == nb::proto::ParamExchange);
    nb::TestParams p = nbtest::loopbackTestParams(server.port(), 2, 1);
    p.udp = true;
    p.direction = nb::Direction::Download;
    p.bandwidth = 1e6;
    p.blockSize = 1400;
    QVERIFY(ctrl.writeJson(p.toIperfParams(), d(), &err) == IoStatus::Ok);
    QVERIFY(ctrl.readState(&state, d(), &err) == IoStatus::Ok);
    if (state == nb::proto::NicbenchHello) {
        QJsonObject hello;
        QVERIFY(ctrl.readJson(&hello, d(), &err) == IoStatus::Ok && ctrl.readState(&state, d(), &err) == IoStatus::Ok);
    }
    QCOMPARE(int(state), int(nb::proto::CreateStreams));
    const sockaddr_in to = loopbackPort(server.port());
    const unsigned char hello[4] = {0x39, 0x38, 0x37, 0x36};
    const auto sendHello = [&](const UdpSocket &u) {
        return ::sendto(u.fd, hello, sizeof hello, 0, reinterpret_cast<const sockaddr *>(&to), sizeof to) == 4;
    };
    const auto received = [](const UdpSocket &u, int ms) {
        pollfd pfd{u.fd, POLLIN, 0};
        if (::poll(&pfd, 1, ms) <= 0)
            return 0;
        char buf[2048];
        int n = 0;
        while (::recv(u.fd, buf, sizeof buf, 0) >= 0)
            ++n;
        return n;
    };
    QVERIFY(sendHello(stranger));
    QCOMPARE(received(stranger, 1000), 0); // a wait for what must not come
    QVERIFY(sendHello(client));
    QVERIFY2(received(client, 10000) > 0, "the client's own hello was not answered");
    QVERIFY(ctrl.readState(&state, d(), &err) == IoStatus::Ok && state == nb::proto::TestStart);
    QVERIFY(ctrl.readState(&state, d(), &err) == IoStatus::Ok && state == nb::proto::TestRunning);
    QVERIFY2(received(client, 10000) > 0, "no data reached the client's stream");
    QCOMPARE(received(stranger, 200), 0);
    ctrl.writeState(nb::proto::ClientTerminate, d(), &err);
    QTRY_VERIFY_WITH_TIMEOUT(server.output().contains(QStringLiteral("Ignored 1 UDP hello(s) from other addresses")),
                             10000);
}

void TestUdpHostile::forgedSequenceJumpIsDropped_data()
{
    QTest::addColumn<bool>("reverse");
    QTest::newRow("into the server's receiver") << false;
    QTest::newRow("into the client's receiver (-R)") << true;
}

// M3: three datagrams numbered a million ahead, injected from the peer's own address and
// port into a running -u -b 10M -l 1400 test, made up 99.7 % loss; they are dropped and
// counted apart now.
void TestUdpHostile::forgedSequenceJumpIsDropped()
{
    QFETCH(bool, reverse);
    if (::geteuid() != 0)
        QSKIP("needs root for a raw socket that writes datagrams with the peer's address");
    ServerProcess server;
    const QString error = server.start(nbtest::cliPath(), {QStringLiteral("-s")});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QStringList args = udpClient(server.port(),
                                 {QStringLiteral("-b"), QStringLiteral("10M"), QStringLiteral("-l"),
                                  QStringLiteral("1400"), QStringLiteral("-J")},
                                 3);
    if (reverse)
        args << QStringLiteral("-R");
    nbtest::Child client;
    client.start(nbtest::cliPath(), args);
    QVERIFY(client.waitStarted());
    quint16 clientPort = 0;
    QElapsedTimer t;
    t.start();
    while (clientPort == 0 && client.running() && t.elapsed() < 20000) {
        clientPort = connectedPeerPort(server.port());
        if (clientPort == 0)
            client.process()->waitForReadyRead(5); // bounded poll for the socket
    }
    QVERIFY2(clientPort != 0, qPrintable(client.describe() + server.output()));
    const bool injected = reverse ? injectDatagrams(server.port(), clientPort, {1000000, 1000001, 1000002})
                                  : injectDatagrams(clientPort, server.port(), {1000000, 1000001, 1000002});
    QVERIFY(injected);
    QVERIFY2(client.waitFinished(60000), qPrintable(client.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe() + server.output()));
    const QJsonObject doc = client.outJson();
    const double loss = worstLossPercent(doc);
    QVERIFY2(loss >= 0 && loss < 50, qPrintable(QStringLiteral("loss %1 %; ").arg(loss) + client.describe()));
    if (reverse) {
        const QJsonArray warnings =
            doc.value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("warnings")).toArray();
        QVERIFY2(QJsonDocument(warnings).toJson().contains("dropped 3 UDP datagram(s)"), qPrintable(client.describe()));
    } else {
        QTRY_VERIFY_WITH_TIMEOUT(server.output().contains(QStringLiteral("Dropped 3 UDP datagram(s)")), 10000);
    }
}

QTEST_GUILESS_MAIN(TestUdpHostile)
#include "tst_udphostile.moc"
