// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 15, peers that send what cannot be right: control messages of 16 MiB sent to a real
// server process (whose resident memory is read from /proc before and after) and by a
// scripted server to our client; absurd client results refused by the server; a server's
// CPU intervals beyond what the test can have made cut, with a note; no wrong-path warning
// on a test that ended in an error. Everything on loopback; every wait bounded.
#include "integrationhelpers.h"
#include "net/connect.h"
#include "net/io.h"
#include "protocol/controlchannel.h"
#include "protocol/protocol.h"
#include "session/throughputclient.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>
#include <QtEndian>

#include <atomic>
#include <functional>
#include <thread>

namespace {

using nb::net::IoStatus;

QByteArray lengthHeader(quint32 length)
{
    QByteArray h(4, '\0');
    qToBigEndian<quint32>(length, h.data());
    return h;
}

// Resident memory of a process in KiB (VmRSS), -1 when unknown.
qint64 residentKiB(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

nb::net::Socket connectTo(quint16 port)
{
    QString err;
    return nb::net::connectTcp(nbtest::kLoopback, port, nb::AddressFamily::IPv4, {}, {}, 2000, &err);
}

bool sendAll(const nb::net::Socket &s, const QByteArray &bytes, double seconds = 5)
{
    QString err;
    return nb::net::writeAll(s, bytes.constData(), std::size_t(bytes.size()), nb::net::deadlineIn(seconds), &err) ==
           IoStatus::Ok;
}

// The next state byte, or 0 when none came within the time (-128 when the peer closed).
int readState(const nb::net::Socket &s, double seconds = 5)
{
    char c = 0;
    QString err;
    const IoStatus st = nb::net::readExact(s, &c, 1, nb::net::deadlineIn(seconds), &err);
    return st == IoStatus::Ok ? int(std::int8_t(c)) : st == IoStatus::Closed ? -128 : 0;
}

constexpr quint32 kHuge = 16 * 1024 * 1024;

// The body of a 16 MiB message, as much of it as the peer takes within a second (a peer
// that refused the header has hung up by then).
void sendHugeBody(const nb::net::Socket &s)
{
    sendAll(s, QByteArray(qsizetype(kHuge), ' '), 1);
}

// A server stand-in: one connection, scripted, on its own thread (joined on scope exit).
class ScriptedServer {
public:
    using Script = std::function<void(const nb::net::Socket &ctrl)>;
    explicit ScriptedServer(Script script) : m_script(std::move(script)) {}
    ~ScriptedServer()
    {
        if (m_thread.joinable())
            m_thread.join();
    }
    bool start()
    {
        QString err;
        m_listen = nb::net::listenTcp(nbtest::kLoopback, 0, nb::AddressFamily::IPv4, {}, &err);
        if (!m_listen.valid())
            return false;
        port = nb::net::localPort(m_listen);
        m_thread = std::thread([this] {
            const nb::net::Socket ctrl = nb::net::acceptTcp(m_listen, 5000);
            if (ctrl.valid())
                m_script(ctrl);
        });
        return true;
    }
    // After CREATE_STREAMS: the client's data connection, and its cookie read.
    nb::net::Socket acceptData()
    {
        nb::net::Socket data = nb::net::acceptTcp(m_listen, 5000);
        char cookie[nb::proto::CookieSize];
        QString err;
        if (data.valid() &&
            nb::net::readExact(data, cookie, sizeof cookie, nb::net::deadlineIn(5), &err) != IoStatus::Ok)
            data.reset();
        return data;
    }
    quint16 port = 0;

private:
    Script m_script;
    nb::net::Socket m_listen;
    std::thread m_thread;
};

// The server's side up to PARAM_EXCHANGE and the client's parameters.
bool greet(const nb::net::Socket &ctrl)
{
    char cookie[nb::proto::CookieSize];
    QString err;
    QJsonObject params;
    return nb::net::readExact(ctrl, cookie, sizeof cookie, nb::net::deadlineIn(5), &err) == IoStatus::Ok &&
           sendAll(ctrl, QByteArray(1, char(nb::proto::ParamExchange))) &&
           nb::proto::readJson(ctrl, &params, nb::net::deadlineIn(5), &err) == IoStatus::Ok;
}

// A scripted client's one-stream upload against our server, up to EXCHANGE_RESULTS: the
// server now waits for the client's results.
bool runUpToResults(quint16 port, nb::net::Socket *ctrl, nb::net::Socket *data)
{
    *ctrl = connectTo(port);
    const QByteArray cookie = nb::proto::makeCookie();
    if (!ctrl->valid() || !sendAll(*ctrl, cookie) || readState(*ctrl) != nb::proto::ParamExchange)
        return false;
    QString err;
    if (nb::proto::writeJson(*ctrl, nbtest::loopbackTestParams(port, 0.5, 1).toIperfParams(), nb::net::deadlineIn(5),
                             &err) != IoStatus::Ok)
        return false;
    int state = readState(*ctrl);
    if (state == nb::proto::NicbenchHello) {
        QJsonObject hello;
        if (nb::proto::readJson(*ctrl, &hello, nb::net::deadlineIn(5), &err) != IoStatus::Ok)
            return false;
        state = readState(*ctrl);
    }
    if (state != nb::proto::CreateStreams)
        return false;
    *data = connectTo(port);
    return data->valid() && sendAll(*data, cookie) && readState(*ctrl) == nb::proto::TestStart &&
           readState(*ctrl) == nb::proto::TestRunning && sendAll(*data, QByteArray(1024 * 1024, 'd')) &&
           sendAll(*ctrl, QByteArray(1, char(nb::proto::TestEnd))) && readState(*ctrl) == nb::proto::ExchangeResults;
}

nb::TestResult runClient(quint16 port, double seconds, QElapsedTimer *t)
{
    nb::TestParams p = nbtest::loopbackTestParams(port, seconds, 1);
    p.direction = nb::Direction::Download;
    t->start();
    return nb::ThroughputClient(p).run();
}

} // namespace

class TestHostilePeers : public QObject {
    Q_OBJECT
private slots:
    void serverRefusesHugeMessages();
    void serverRefusesAbsurdResults_data();
    void serverRefusesAbsurdResults();
    void clientRefusesHugeHello();
    void clientCutsCpuIntervals();
    void clientReadsServerErrorForResults();
    void noPathWarningAfterError();
};

// 16 MiB as parameters, then 16 MiB as results after a real test: each refused from its
// length header at once, and the server process stays small (it went from 14 to 177 MB,
// and to ~300 MB for the results, before).
void TestHostilePeers::serverRefusesHugeMessages()
{
    nbtest::Child server;
    QString why;
    const quint16 port = nbtest::startListening(server, nbtest::cliPath(), {QStringLiteral("-s")}, &why);
    QVERIFY2(port != 0, qPrintable(why));
    const qint64 pid = server.process()->processId();
    const qint64 before = residentKiB(pid);
    QVERIFY(before > 0);

    QElapsedTimer t;
    {
        const nb::net::Socket c = connectTo(port);
        QVERIFY(c.valid());
        QVERIFY(sendAll(c, nb::proto::makeCookie()));
        QCOMPARE(readState(c), int(nb::proto::ParamExchange));
        t.start();
        QVERIFY(sendAll(c, lengthHeader(kHuge)));
        QCOMPARE(readState(c), int(nb::proto::ServerError));
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
        sendHugeBody(c);
    }
    {
        // A real one-stream upload of half a second, then 16 MiB where the results go.
        nb::net::Socket c, data;
        QVERIFY(runUpToResults(port, &c, &data));
        t.start();
        QVERIFY(sendAll(c, lengthHeader(kHuge)));
        // Refused from the header: the server hangs up (or says SERVER_ERROR) at once.
        const int after = readState(c, 3);
        QVERIFY2(after == -128 || after == nb::proto::ServerError, qPrintable(QString::number(after)));
        QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
        sendHugeBody(c);
    }
    // Free again for a real client, and still small.
    QElapsedTimer wait;
    wait.start();
    nb::TestResult r;
    do {
        r = nb::ThroughputClient(nbtest::loopbackTestParams(port, 0.5, 1)).run();
    } while (r.errorCode == nb::ErrorCode::Busy && wait.elapsed() < 10000);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const qint64 after = residentKiB(pid);
    qInfo("nicbench-cli -s resident memory: %lld KiB before, %lld KiB after two 16 MiB messages", before, after);
    QVERIFY2(after < before + 16 * 1024, qPrintable(QStringLiteral("%1 -> %2 KiB").arg(before).arg(after)));
}

// A hello (the NicBench greeting) of 16 MiB: refused at once, a one-line error.
void TestHostilePeers::serverRefusesAbsurdResults_data()
{
    QTest::addColumn<QByteArray>("results");
    QTest::newRow("CPU 1e308") << QByteArray(R"({"cpu_util_total":1e308,"streams":[{"id":1,"bytes":1000}]})");
    QTest::newRow("no streams") << QByteArray(R"({"cpu_util_total":1,"streams":[]})");
    QTest::newRow("sent 1e17 bytes") << QByteArray(R"({"streams":[{"id":1,"bytes":100000000000000000}]})");
}

// The client's results are checked by the server as the server's are by the client: the
// server answers SERVER_ERROR, and the test is not counted as a result.
void TestHostilePeers::serverRefusesAbsurdResults()
{
    QFETCH(QByteArray, results);
    nbtest::ServerThread server;
    QString err;
    QVERIFY2(server.start(&err), qPrintable(err));
    nb::net::Socket c, data;
    QVERIFY(runUpToResults(server.port(), &c, &data));
    QVERIFY(sendAll(c, lengthHeader(quint32(results.size())) + results));
    QCOMPARE(readState(c), int(nb::proto::ServerError));
}

void TestHostilePeers::clientRefusesHugeHello()
{
    ScriptedServer fake([](const nb::net::Socket &ctrl) {
        if (greet(ctrl) && sendAll(ctrl, QByteArray(1, char(nb::proto::NicbenchHello))) &&
            sendAll(ctrl, lengthHeader(kHuge)))
            sendHugeBody(ctrl);
    });
    QVERIFY(fake.start());
    QElapsedTimer t;
    const nb::TestResult r = runClient(fake.port, 1, &t);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QStringLiteral("exceeds")), qPrintable(r.error));
    QVERIFY(!r.error.contains(QLatin1Char('\n')));
    QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
}

// Review minor: a server that refuses the client's results answers SERVER_ERROR where its
// own results belong; the client said "JSON message of 4261412864 bytes" (the state byte
// and the top of the error number read as a length). It says what the server reported.
void TestHostilePeers::clientReadsServerErrorForResults()
{
    ScriptedServer *self = nullptr;
    ScriptedServer fake([&self](const nb::net::Socket &ctrl) {
        if (!greet(ctrl) || !sendAll(ctrl, QByteArray(1, char(nb::proto::CreateStreams))))
            return;
        const nb::net::Socket data = self->acceptData();
        if (!data.valid() || !sendAll(ctrl, QByteArray(1, char(nb::proto::TestStart)) + char(nb::proto::TestRunning)))
            return;
        sendAll(data, QByteArray(1024 * 1024, 'x'));
        if (readState(ctrl, 10) != nb::proto::TestEnd ||
            !sendAll(ctrl, QByteArray(1, char(nb::proto::ExchangeResults))))
            return;
        QJsonObject theirs;
        QString err;
        nb::proto::readJson(ctrl, &theirs, nb::net::deadlineIn(5), &err);
        nb::proto::ControlChannel(ctrl.duplicate()).sendError(nb::proto::IeStreamId);
        readState(ctrl, 3);
    });
    self = &fake;
    QVERIFY(fake.start());
    QElapsedTimer t;
    const nb::TestResult r = runClient(fake.port, 1, &t);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QStringLiteral("reported an error instead: ")) &&
                 !r.error.contains(QStringLiteral("4261412864")),
             qPrintable(r.error));
    QVERIFY2(r.error.contains(nb::proto::iperfErrorText(nb::proto::IeStreamId)), qPrintable(r.error));
}

// A server whose results carry 2000 CPU intervals for a one-second test: the client keeps
// as many as it took itself (and the partial last), says so, and its -J stays small.
void TestHostilePeers::clientCutsCpuIntervals()
{
    ScriptedServer *self = nullptr;
    ScriptedServer fake([&self](const nb::net::Socket &ctrl) {
        if (!greet(ctrl) || !sendAll(ctrl, QByteArray(1, char(nb::proto::CreateStreams))))
            return;
        const nb::net::Socket data = self->acceptData();
        if (!data.valid() || !sendAll(ctrl, QByteArray(1, char(nb::proto::TestStart)) + char(nb::proto::TestRunning)))
            return;
        sendAll(data, QByteArray(1024 * 1024, 'x'));
        QJsonObject theirs;
        QString err;
        if (readState(ctrl, 10) != nb::proto::TestEnd ||
            !sendAll(ctrl, QByteArray(1, char(nb::proto::ExchangeResults))) ||
            nb::proto::readJson(ctrl, &theirs, nb::net::deadlineIn(5), &err) != IoStatus::Ok)
            return;
        QJsonArray intervals;
        for (int i = 0; i < 2000; ++i)
            intervals.append(
                QJsonObject{{QStringLiteral("start"), i * 0.001}, {QStringLiteral("end"), (i + 1) * 0.001}});
        const QJsonObject results{
            {QStringLiteral("cpu_util_total"), 1.0},
            {QStringLiteral("streams"),
             QJsonArray{QJsonObject{{QStringLiteral("id"), 1}, {QStringLiteral("bytes"), 1024 * 1024}}}},
            {QStringLiteral("nicbench"), QJsonObject{{QStringLiteral("cpu_intervals"), intervals},
                                                     {QStringLiteral("version"), QString(5000, QLatin1Char('v'))}}}};
        nb::proto::writeJson(ctrl, results, nb::net::deadlineIn(5), &err);
        sendAll(ctrl, QByteArray(1, char(nb::proto::DisplayResults)));
        readState(ctrl, 3); // IPERF_DONE
    });
    self = &fake;
    QVERIFY(fake.start());
    QElapsedTimer t;
    const nb::TestResult r = runClient(fake.port, 1, &t);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY2(
        r.remoteCpuIntervals.size() <= r.intervals.size() + 2,
        qPrintable(QStringLiteral("%1 kept for %2 taken").arg(r.remoteCpuIntervals.size()).arg(r.intervals.size())));
    const QString warnings = r.warnings.join(QLatin1Char('|'));
    QVERIFY2(warnings.contains(QStringLiteral("of its 2000 CPU intervals")), qPrintable(warnings));
    QVERIFY2(warnings.contains(QStringLiteral("256 characters")), qPrintable(warnings));
    QVERIFY(r.peerExtension.value(QStringLiteral("version")).toString().size() <= 256);
}

// Issue 15: every test that ended in an error said "Traffic probably took another path than
// lo: ... lo counted only 0 Bytes" (the counters were never read at its end). A server
// killed mid-test: an error, and no such warning.
void TestHostilePeers::noPathWarningAfterError()
{
    struct Intervals : nb::TestListener {
        std::atomic<int> count{0};
        void intervalReady(const nb::IntervalReport &) override { count.fetch_add(1); }
    } listener;
    nbtest::Child server;
    QString why;
    const quint16 port = nbtest::startListening(server, nbtest::cliPath(), {QStringLiteral("-s")}, &why);
    QVERIFY2(port != 0, qPrintable(why));
    nb::ThroughputClient client(nbtest::loopbackTestParams(port, 20, 0.5), &listener);
    nb::TestResult r;
    std::thread run([&] { r = client.run(); });
    QElapsedTimer t;
    t.start();
    while (listener.count.load() < 1 && t.elapsed() < 10000)
        QThread::msleep(20);
    server.kill();
    run.join();
    QVERIFY2(listener.count.load() >= 1, "no interval within 10 s");
    QVERIFY(!r.ok());
    QVERIFY2(r.sum(true).bytesSent > 0, "the test had moved data before the server went away");
    for (const QString &w : r.warnings)
        QVERIFY2(!w.contains(QStringLiteral("another path")), qPrintable(w));
}

QTEST_GUILESS_MAIN(TestHostilePeers)
#include "tst_hostilepeers.moc"
