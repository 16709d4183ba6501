// SPDX-License-Identifier: GPL-3.0-or-later
// Loopback integration: our server (in process, ephemeral port) against our client in
// every mode, fake servers that misbehave in the ways a real network does, and the CLI
// processes killed mid-test.
#include "integrationhelpers.h"
#include "net/connect.h"
#include "protocol/controlchannel.h"
#include "protocol/protocol.h"
#include "session/server.h"
#include "session/throughputclient.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>
#include <QtEndian>

#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

using namespace std::chrono_literals;

namespace {

// Records what the server reports; called from the server's thread.
class ServerRecorder : public nb::TestListener {
public:
    void testStarted(const nb::TestResult &) override { m_started.fetch_add(1); }
    void intervalReady(const nb::IntervalReport &r) override
    {
        if (r.sum(false).bytes > 0 || r.sum(true).bytes > 0)
            m_intervalsWithData.fetch_add(1);
    }
    int intervalsWithData() const { return m_intervalsWithData.load(); }
    void testFinished(const nb::TestResult &r) override
    {
        std::lock_guard lock(m_mutex);
        m_finished.append(r);
    }
    int started() const { return m_started.load(); }
    int finishedCount() const
    {
        std::lock_guard lock(m_mutex);
        return int(m_finished.size());
    }
    nb::TestResult finished(int i) const
    {
        std::lock_guard lock(m_mutex);
        return m_finished.value(i);
    }

private:
    std::atomic<int> m_started{0};
    std::atomic<int> m_intervalsWithData{0};
    mutable std::mutex m_mutex;
    QList<nb::TestResult> m_finished;
};

// nb::Server on an ephemeral port, served on its own thread, stopped and joined on scope exit.
class InProcessServer {
public:
    explicit InProcessServer(nb::ServerOptions options = loopbackOptions()) : m_server(options, &recorder) {}
    ~InProcessServer()
    {
        m_server.stop();
        if (m_thread.joinable())
            m_thread.join();
    }
    static nb::ServerOptions loopbackOptions()
    {
        nb::ServerOptions o;
        o.port = 0;
        o.bindAddress = QStringLiteral("127.0.0.1");
        return o;
    }
    bool start(QString *error)
    {
        if (!m_server.listen(error))
            return false;
        m_thread = std::thread([this] { m_server.serve(); });
        return true;
    }
    quint16 port() const { return m_server.port(); }
    bool waitFinished(int count, int ms) const
    {
        QDeadlineTimer deadline(ms);
        while (recorder.finishedCount() < count && !deadline.hasExpired())
            QThread::msleep(10);
        return recorder.finishedCount() >= count;
    }
    bool waitStarted(int count, int ms) const
    {
        QDeadlineTimer deadline(ms);
        while (recorder.started() < count && !deadline.hasExpired())
            QThread::msleep(10);
        return recorder.started() >= count;
    }

    ServerRecorder recorder;

private:
    nb::Server m_server;
    std::thread m_thread;
};

nb::TestParams clientParams(quint16 port, const QString &host = QStringLiteral("127.0.0.1"))
{
    nb::TestParams p;
    p.host = host;
    p.port = port;
    p.duration = 1;
    return p;
}

// 1, 3, 4, 5, ... (A.4)
QList<int> expectedIds(int n)
{
    QList<int> ids;
    for (int i = 0; i < n; ++i)
        ids.append(i == 0 ? 1 : i + 2);
    return ids;
}

QList<int> idsOf(const QList<nb::StreamSummary> &streams)
{
    QList<int> ids;
    for (const nb::StreamSummary &s : streams)
        ids.append(s.id);
    return ids;
}

const nb::StreamSummary *findStream(const QList<nb::StreamSummary> &streams, int id)
{
    for (const nb::StreamSummary &s : streams)
        if (s.id == id)
            return &s;
    return nullptr;
}

double elapsedSecs(const QElapsedTimer &t)
{
    return double(t.elapsed()) / 1000.0;
}

bool ipv6LoopbackAvailable()
{
    nb::net::Socket fd(::socket(AF_INET6, SOCK_STREAM, 0));
    if (!fd.valid())
        return false;
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_loopback;
    return ::bind(fd.handle(), reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
}

QByteArray int32be(qint32 v)
{
    QByteArray b(4, '\0');
    qToBigEndian<qint32>(v, b.data());
    return b;
}

// A scripted stand-in for a server, on 127.0.0.1 with an ephemeral port. The script
// runs on its own thread with the listening socket; every wait in it is bounded, and
// the destructor joins it.
class FakeServer {
public:
    using Script = std::function<void(FakeServer &)>;
    explicit FakeServer(Script script) : m_script(std::move(script)) {}
    ~FakeServer()
    {
        stop.store(true);
        if (m_thread.joinable())
            m_thread.join();
    }
    bool start()
    {
        QString err;
        listenFd = nb::net::listenTcp(QStringLiteral("127.0.0.1"), 0, nb::AddressFamily::IPv4, {}, &err);
        if (!listenFd.valid())
            return false;
        port = nb::net::localPort(listenFd);
        m_thread = std::thread([this] { m_script(*this); });
        return true;
    }
    nb::net::Socket accept(double seconds = 5) { return nb::net::acceptTcp(listenFd, int(seconds * 1000)); }
    bool read(const nb::net::Socket &fd, std::size_t n, QByteArray *out = nullptr, double seconds = 5)
    {
        QByteArray buf(qsizetype(n), '\0');
        QString err;
        const bool ok =
            nb::net::readExact(fd, buf.data(), n, nb::net::deadlineIn(seconds), &err, &stop) == nb::net::IoStatus::Ok;
        if (out)
            *out = buf;
        return ok;
    }
    bool write(const nb::net::Socket &fd, const QByteArray &bytes)
    {
        QString err;
        return nb::net::writeAll(fd, bytes.constData(), std::size_t(bytes.size()), nb::net::deadlineIn(5), &err) ==
               nb::net::IoStatus::Ok;
    }
    bool state(const nb::net::Socket &fd, std::int8_t s) { return write(fd, QByteArray(1, char(s))); }
    // Holds the connection open until the peer closes it or the test ends.
    void waitForClose(const nb::net::Socket &fd, double seconds = 10)
    {
        const auto deadline = nb::net::deadlineIn(seconds);
        char buf[4096];
        while (!stop.load() && nb::net::Clock::now() < deadline) {
            if (nb::net::waitReadable(fd, 50) > 0 && ::recv(fd.handle(), buf, sizeof buf, 0) <= 0)
                return;
        }
    }
    // The iperf3 3.12 server side up to TEST_RUNNING for a one-stream test: cookie,
    // PARAM_EXCHANGE, params, CREATE_STREAMS, one data connection, TEST_START, TEST_RUNNING.
    bool handshake(nb::net::Socket *ctrl, nb::net::Socket *data)
    {
        *ctrl = accept();
        QByteArray cookie, dataCookie;
        if (!ctrl->valid() || !read(*ctrl, 37, &cookie) || !state(*ctrl, nb::proto::ParamExchange))
            return false;
        QJsonObject params;
        QString err;
        if (nb::proto::readJson(*ctrl, &params, nb::net::deadlineIn(5), &err) != nb::net::IoStatus::Ok)
            return false;
        receivedParams = params;
        if (!state(*ctrl, nb::proto::CreateStreams))
            return false;
        *data = accept();
        if (!data->valid() || !read(*data, 37, &dataCookie) || dataCookie != cookie)
            return false;
        return state(*ctrl, nb::proto::TestStart) && state(*ctrl, nb::proto::TestRunning);
    }

    nb::net::Socket listenFd;
    quint16 port = 0;
    std::atomic<bool> stop{false};
    std::atomic<bool> scriptDone{false};
    QJsonObject receivedParams;

private:
    Script m_script;
    std::thread m_thread;
};

struct TimedResult {
    nb::TestResult result;
    double seconds = 0;
};

TimedResult runClient(const nb::TestParams &p)
{
    QElapsedTimer t;
    t.start();
    nb::ThroughputClient client(p);
    TimedResult r{client.run(), 0};
    r.seconds = elapsedSecs(t);
    return r;
}

} // namespace

class TestLoopback : public QObject {
    Q_OBJECT

private slots:
    void modes_data();
    void modes();
    void byteCount();
    void omit();
    void intervals();
    void ipv6();
    void bindAddress();
    void bindAddressNotLocal();

    void connectionRefused();
    void busyServer();
    void oversizedParams();
    void silentServer();
    void fakeServerStates_data();
    void fakeServerStates();
    void serverErrorWhileRunning();
    void fakeServerResults_data();
    void fakeServerResults();

    void clientProcessKilled();
    void serverProcessKilled();
};

void TestLoopback::modes_data()
{
    QTest::addColumn<nb::Direction>("direction");
    QTest::addColumn<int>("streams");
    QTest::newRow("forward") << nb::Direction::Upload << 1;
    QTest::newRow("reverse -R") << nb::Direction::Download << 1;
    QTest::newRow("bidir -P 2") << nb::Direction::Bidirectional << 2;
    QTest::newRow("forward -P 4") << nb::Direction::Upload << 4;
}

void TestLoopback::modes()
{
    QFETCH(nb::Direction, direction);
    QFETCH(int, streams);

    InProcessServer server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::TestParams p = clientParams(server.port());
    p.direction = direction;
    p.streams = streams;
    const TimedResult run = runClient(p);
    const nb::TestResult &r = run.result;
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY2(run.seconds < 4, qPrintable(QString::number(run.seconds)));
    QVERIFY(server.waitFinished(1, 5000));
    const nb::TestResult srv = server.recorder.finished(0);
    QVERIFY2(srv.ok(), qPrintable(srv.error));
    QVERIFY(srv.isServerSide);
    QCOMPARE(srv.params.streams, streams);
    QCOMPARE(srv.params.direction, direction);

    const int total = direction == nb::Direction::Bidirectional ? 2 * streams : streams;
    QCOMPARE(idsOf(r.streams), expectedIds(total));
    QCOMPARE(idsOf(srv.streams), expectedIds(total));
    QCOMPARE(r.connections.size(), total);

    // Which side sends on each stream: client creation order, senders first in bidir.
    for (int i = 0; i < total; ++i) {
        const bool clientSends =
            direction == nb::Direction::Bidirectional ? i < streams : direction == nb::Direction::Upload;
        QCOMPARE(r.streams[i].sender, clientSends);
        QCOMPARE(srv.streams[i].sender, !clientSends);
    }

    const bool forwardExpected = direction != nb::Direction::Download;
    const bool reverseExpected = direction != nb::Direction::Upload;
    QCOMPARE(r.hasDirection(true), forwardExpected);
    QCOMPARE(r.hasDirection(false), reverseExpected);
    for (const bool clientSent : {true, false}) {
        if (!r.hasDirection(clientSent))
            continue;
        const nb::DirectionSum d = r.sum(clientSent);
        const QString what = QStringLiteral("%1: sent %2 received %3 in %4 s")
                                 .arg(clientSent ? QStringLiteral("client->server") : QStringLiteral("server->client"))
                                 .arg(d.bytesSent)
                                 .arg(d.bytesReceived)
                                 .arg(d.seconds);
        QVERIFY2(d.bytesSent > 0, qPrintable(what));
        QVERIFY2(d.bytesReceived > 0, qPrintable(what));
        QVERIFY2(d.bytesReceived <= d.bytesSent, qPrintable(what));
        QVERIFY2(double(d.bytesReceived) >= 0.95 * double(d.bytesSent), qPrintable(what));
        // At least the requested duration, and no more than the client's wall time (the
        // exact end depends on scheduling on a loaded machine).
        QVERIFY2(d.seconds >= 0.99 * p.duration && d.seconds <= run.seconds, qPrintable(what));
        // Both sides end up with the same figures: each measured its own half and took
        // the other half from the results exchange.
        const nb::DirectionSum s = srv.sum(clientSent);
        QCOMPARE(s.bytesSent, d.bytesSent);
        QCOMPARE(s.bytesReceived, d.bytesReceived);
    }
    for (const nb::StreamSummary &c : r.streams) {
        const nb::StreamSummary *s = findStream(srv.streams, c.id);
        QVERIFY(s);
        QCOMPARE(s->bytesSent, c.bytesSent);
        QCOMPARE(s->bytesReceived, c.bytesReceived);
        QVERIFY2(c.bytesReceived > 0, qPrintable(QStringLiteral("stream %1 carried nothing").arg(c.id)));
    }
    QVERIFY(r.cpu.remoteKnown);
}

void TestLoopback::byteCount()
{
    InProcessServer server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::TestParams p = clientParams(server.port());
    p.duration = 0;
    p.bytes = 64ull * 1024 * 1024;
    p.streams = 2;
    const TimedResult run = runClient(p);
    QVERIFY2(run.result.ok(), qPrintable(run.result.error));
    QVERIFY2(run.seconds < 10, "64 MiB over loopback took more than 10 s");
    const nb::DirectionSum d = run.result.sum(true);
    // The budget is shared by the streams; each may finish the block it started.
    QVERIFY2(d.bytesSent >= p.bytes, qPrintable(QString::number(d.bytesSent)));
    QVERIFY2(d.bytesSent <= p.bytes + std::uint64_t(p.streams) * p.blockSize, qPrintable(QString::number(d.bytesSent)));
    QVERIFY(d.bytesReceived > 0);
    QVERIFY(d.bytesReceived <= d.bytesSent);
    QVERIFY(server.waitFinished(1, 5000));
    QVERIFY2(server.recorder.finished(0).ok(), qPrintable(server.recorder.finished(0).error));
}

void TestLoopback::omit()
{
    InProcessServer server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::TestParams p = clientParams(server.port());
    p.omit = 0.5;
    p.interval = 0.25;
    const TimedResult run = runClient(p);
    const nb::TestResult &r = run.result;
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY2(run.seconds > 1.4 && run.seconds < 4, qPrintable(QString::number(run.seconds)));
    int omitted = 0, counted = 0;
    std::uint64_t countedBytes = 0;
    for (const nb::IntervalReport &rep : r.intervals) {
        QVERIFY(!rep.streams.isEmpty());
        if (rep.streams.first().omitted) {
            ++omitted;
            QVERIFY2(counted == 0, "omitted intervals must all come first");
        } else {
            ++counted;
            countedBytes += rep.sum(true).bytes;
        }
    }
    QVERIFY2(omitted >= 1 && omitted <= 3, qPrintable(QString::number(omitted)));
    QVERIFY2(counted >= 3 && counted <= 5, qPrintable(QString::number(counted)));
    const nb::DirectionSum d = r.sum(true);
    // The summary covers the counted second only, not the warm-up.
    QVERIFY2(d.seconds >= 0.99 && d.seconds <= run.seconds - p.omit + 0.01,
             qPrintable(QStringLiteral("%1 s counted, %2 s wall time").arg(d.seconds).arg(run.seconds)));
    QVERIFY(d.bytesSent > 0);
    QVERIFY2(std::abs(double(countedBytes) - double(d.bytesSent)) <= 0.05 * double(d.bytesSent),
             qPrintable(QStringLiteral("intervals %1 vs total %2").arg(countedBytes).arg(d.bytesSent)));
    // Receiver and sender each drop their own warm-up, so they agree only roughly.
    QVERIFY2(std::abs(double(d.bytesReceived) - double(d.bytesSent)) <= 0.15 * double(d.bytesSent),
             qPrintable(QStringLiteral("received %1 vs sent %2").arg(d.bytesReceived).arg(d.bytesSent)));
    QVERIFY(server.waitFinished(1, 5000));
    const nb::TestResult srv = server.recorder.finished(0);
    QVERIFY2(srv.ok(), qPrintable(srv.error));
    QCOMPARE(srv.params.omit, 0.5);
    QVERIFY2(srv.sum(true).seconds <= run.seconds - p.omit + 0.01, qPrintable(QString::number(srv.sum(true).seconds)));
}

void TestLoopback::intervals()
{
    InProcessServer server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::TestParams p = clientParams(server.port());
    p.interval = 0.2;
    p.streams = 2;
    const TimedResult run = runClient(p);
    const nb::TestResult &r = run.result;
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY2(r.intervals.size() >= 4 && r.intervals.size() <= 6, qPrintable(QString::number(r.intervals.size())));
    std::uint64_t total = 0;
    double previousEnd = 0;
    for (int i = 0; i < r.intervals.size(); ++i) {
        const nb::IntervalReport &rep = r.intervals[i];
        QCOMPARE(rep.streams.size(), 2);
        QCOMPARE(rep.streams[0].id, 1);
        QCOMPARE(rep.streams[1].id, 3);
        const nb::IntervalSum s = rep.sum(true);
        QVERIFY2(std::abs(s.start - previousEnd) < 0.01, "intervals must be back to back");
        if (i + 1 < r.intervals.size())
            QVERIFY2(s.seconds() > 0.15 && s.seconds() < 0.35, qPrintable(QString::number(s.seconds())));
        QVERIFY2(s.bytes > 0, qPrintable(QStringLiteral("interval %1 carried nothing").arg(i)));
        previousEnd = s.end;
        total += s.bytes;
    }
    QVERIFY2(previousEnd >= 0.99 && previousEnd <= run.seconds, qPrintable(QString::number(previousEnd)));
    const std::uint64_t sent = r.sum(true).bytesSent;
    QVERIFY2(std::abs(double(total) - double(sent)) <= 0.05 * double(sent),
             qPrintable(QStringLiteral("intervals %1 vs total %2").arg(total).arg(sent)));
    QVERIFY(server.waitFinished(1, 5000));
    // -i is not part of the iperf3 parameters: the server reports at its own interval
    // (1 s), as a stock iperf3 server does.
    const nb::TestResult srv = server.recorder.finished(0);
    QVERIFY2(srv.intervals.size() >= 1 && srv.intervals.size() <= 2, qPrintable(QString::number(srv.intervals.size())));
}

void TestLoopback::ipv6()
{
    if (!ipv6LoopbackAvailable())
        QSKIP("IPv6 loopback (::1) is not available on this machine");
    nb::ServerOptions o;
    o.port = 0; // default: dual-stack wildcard, as iperf3 listens
    InProcessServer server(o);
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::TestParams p = clientParams(server.port(), QStringLiteral("::1"));
    p.family = nb::AddressFamily::IPv6;
    const TimedResult run = runClient(p);
    QVERIFY2(run.result.ok(), qPrintable(run.result.error));
    QVERIFY(run.result.sum(true).bytesReceived > 0);
    QCOMPARE(run.result.connections.size(), 1);
    QCOMPARE(run.result.connections[0].remoteHost, QStringLiteral("::1"));
    QCOMPARE(run.result.connections[0].localHost, QStringLiteral("::1"));
    QVERIFY(server.waitFinished(1, 5000));
    QCOMPARE(server.recorder.finished(0).params.host, QStringLiteral("::1"));

    // The same dual-stack server takes IPv4 too.
    const TimedResult v4 = runClient(clientParams(server.port()));
    QVERIFY2(v4.result.ok(), qPrintable(v4.result.error));
}

void TestLoopback::bindAddress()
{
    InProcessServer server; // bound to 127.0.0.1 (-B on the server)
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::TestParams p = clientParams(server.port());
    // All of 127/8 is local on Linux: binding the client to 127.0.0.2 shows that -B
    // really picks the source address the server sees.
    p.bindAddress = QStringLiteral("127.0.0.2");
    p.streams = 2;
    const TimedResult run = runClient(p);
    QVERIFY2(run.result.ok(), qPrintable(run.result.error));
    for (const nb::ConnectionInfo &c : run.result.connections)
        QCOMPARE(c.localHost, QStringLiteral("127.0.0.2"));
    QVERIFY(server.waitFinished(1, 5000));
    const nb::TestResult srv = server.recorder.finished(0);
    QCOMPARE(srv.params.host, QStringLiteral("127.0.0.2"));
    for (const nb::ConnectionInfo &c : srv.connections) {
        QCOMPARE(c.remoteHost, QStringLiteral("127.0.0.2"));
        QCOMPARE(c.localHost, QStringLiteral("127.0.0.1"));
    }
}

void TestLoopback::bindAddressNotLocal()
{
    InProcessServer server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::TestParams p = clientParams(server.port());
    p.bindAddress = QStringLiteral("192.0.2.1"); // TEST-NET-1, never a local address
    const TimedResult run = runClient(p);
    QVERIFY(!run.result.ok());
    QVERIFY2(run.seconds < 2, qPrintable(QString::number(run.seconds)));
    QVERIFY2(run.result.error.contains(QStringLiteral("192.0.2.1")), qPrintable(run.result.error));
    QVERIFY(!run.result.error.contains(QLatin1Char('\n')));
}

void TestLoopback::connectionRefused()
{
    const quint16 port = nbtest::freePort();
    QVERIFY(port != 0);
    const TimedResult run = runClient(clientParams(port));
    QVERIFY(!run.result.ok());
    QVERIFY2(run.seconds < 2, qPrintable(QString::number(run.seconds)));
    QVERIFY2(run.result.error.contains(QStringLiteral("refused")), qPrintable(run.result.error));
    QVERIFY2(run.result.error.contains(QString::number(port)), qPrintable(run.result.error));
    QVERIFY(!run.result.error.contains(QLatin1Char('\n')));
    QVERIFY(run.result.streams.isEmpty());
}

// A parameters message announced larger than MaxParamsJsonSize is refused from its length
// header alone, at once, with SERVER_ERROR; nothing of it is read, and the next client is
// served as usual.
void TestLoopback::oversizedParams()
{
    InProcessServer server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    {
        QString cerr;
        nb::net::Socket raw = nb::net::connectTcp(QStringLiteral("127.0.0.1"), server.port(), nb::AddressFamily::IPv4,
                                                  {}, {}, 2000, &cerr);
        QVERIFY2(raw.valid(), qPrintable(cerr));
        const QByteArray cookie = nb::proto::makeCookie();
        QCOMPARE(nb::net::writeAll(raw, cookie.constData(), std::size_t(cookie.size()), nb::net::deadlineIn(3), &cerr),
                 nb::net::IoStatus::Ok);
        char byte = 0;
        QCOMPARE(nb::net::readExact(raw, &byte, 1, nb::net::deadlineIn(3), &cerr), nb::net::IoStatus::Ok);
        QCOMPARE(int(std::int8_t(byte)), int(nb::proto::ParamExchange));
        const QByteArray header = int32be(qint32(nb::proto::MaxParamsJsonSize + 1));
        QCOMPARE(nb::net::writeAll(raw, header.constData(), 4, nb::net::deadlineIn(3), &cerr), nb::net::IoStatus::Ok);
        QElapsedTimer t;
        t.start();
        QCOMPARE(nb::net::readExact(raw, &byte, 1, nb::net::deadlineIn(3), &cerr), nb::net::IoStatus::Ok);
        QCOMPARE(int(std::int8_t(byte)), int(nb::proto::ServerError));
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
    }
    // The limit leaves room for real parameters: a test right after runs as usual.
    nb::TestParams p = clientParams(server.port());
    p.duration = 1;
    const nb::TestResult r = nb::ThroughputClient(p).run();
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY(r.streams.size() == 1 && r.streams.front().bytesReceived > 0);
}

void TestLoopback::busyServer()
{
    InProcessServer server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::TestParams longTest = clientParams(server.port());
    longTest.duration = 5;
    nb::ThroughputClient first(longTest);
    nb::TestResult firstResult;
    std::thread firstThread([&] { firstResult = first.run(); });
    struct Joiner {
        nb::ThroughputClient &c;
        std::thread &t;
        ~Joiner()
        {
            c.requestStop();
            if (t.joinable())
                t.join();
        }
    } joiner{first, firstThread};
    QVERIFY(server.waitStarted(1, 5000));
    // Data flows before anything else happens: a test stopped before its first byte has
    // no result (ErrorCode::NoData), which is not what this case is about.
    QTRY_VERIFY_WITH_TIMEOUT(server.recorder.intervalsWithData() > 0, 10000);

    // A raw connection gets exactly one ACCESS_DENIED byte and nothing else (A.8).
    QString cerr;
    nb::net::Socket raw =
        nb::net::connectTcp(QStringLiteral("127.0.0.1"), server.port(), nb::AddressFamily::IPv4, {}, {}, 2000, &cerr);
    QVERIFY2(raw.valid(), qPrintable(cerr));
    char byte = 0;
    QCOMPARE(nb::net::readExact(raw, &byte, 1, nb::net::deadlineIn(3), &cerr), nb::net::IoStatus::Ok);
    QCOMPARE(int(std::int8_t(byte)), int(nb::proto::AccessDenied));
    QCOMPARE(nb::net::readExact(raw, &byte, 1, nb::net::deadlineIn(3), &cerr), nb::net::IoStatus::Closed);

    const TimedResult second = runClient(clientParams(server.port()));
    QVERIFY(!second.result.ok());
    QVERIFY2(second.seconds < 3, qPrintable(QString::number(second.seconds)));
    QVERIFY2(second.result.error.contains(QStringLiteral("busy")), qPrintable(second.result.error));

    // The running test is not disturbed by the refusals.
    first.requestStop();
    firstThread.join();
    QVERIFY2(firstResult.ok(), qPrintable(firstResult.error));
    QVERIFY(firstResult.sum(true).bytesReceived > 0);
    QVERIFY(server.waitFinished(1, 5000));
    QVERIFY2(server.recorder.finished(0).ok(), qPrintable(server.recorder.finished(0).error));
}

void TestLoopback::silentServer()
{
    // Accepts, reads the cookie and then says nothing: an iperf2 server, or a wrong port.
    FakeServer fake([](FakeServer &f) {
        nb::net::Socket ctrl = f.accept();
        if (ctrl.valid())
            f.waitForClose(ctrl, 30);
    });
    QVERIFY(fake.start());
    const TimedResult run = runClient(clientParams(fake.port));
    QVERIFY(!run.result.ok());
    QVERIFY2(run.seconds < 8, qPrintable(QString::number(run.seconds)));
    QVERIFY2(run.result.error.contains(QStringLiteral("iperf3 protocol")), qPrintable(run.result.error));
}

void TestLoopback::fakeServerStates_data()
{
    QTest::addColumn<QByteArray>("reply"); // sent right after the cookie
    QTest::addColumn<bool>("closeAfter");
    QTest::addColumn<QString>("errorContains");

    QTest::newRow("unknown state 42")
        << QByteArray(1, char(42)) << false
        << QStringLiteral("protocol error: expected PARAM_EXCHANGE from the server, got unknown state 42");
    QTest::newRow("unknown state -100") << QByteArray(1, char(-100)) << false
                                        << QStringLiteral("got unknown state -100");
    QTest::newRow("out-of-order TEST_START")
        << QByteArray(1, char(nb::proto::TestStart)) << false
        << QStringLiteral("expected PARAM_EXCHANGE from the server, got TEST_START");
    QTest::newRow("ACCESS_DENIED") << QByteArray(1, char(nb::proto::AccessDenied)) << true << QStringLiteral("busy");
    QTest::newRow("SERVER_ERROR busy") << (QByteArray(1, char(nb::proto::ServerError)) + int32be(121) + int32be(0))
                                       << false << QStringLiteral("the server reported an error: the server is busy");
    QTest::newRow("SERVER_ERROR with errno")
        << (QByteArray(1, char(nb::proto::ServerError)) + int32be(114) + int32be(ECONNRESET)) << false
        << QStringLiteral("unable to receive parameters from client (") + QString::fromLocal8Bit(strerror(ECONNRESET));
    // 3.12's auth failure writes only one int32 and closes (A.8).
    QTest::newRow("SERVER_ERROR auth, one int") << (QByteArray(1, char(nb::proto::ServerError)) + int32be(142)) << true
                                                << QStringLiteral("test authorization failed");
    QTest::newRow("SERVER_TERMINATE") << QByteArray(1, char(nb::proto::ServerTerminate)) << false
                                      << QStringLiteral("terminated");
    QTest::newRow("close after cookie") << QByteArray() << true << QStringLiteral("closed the connection");
}

void TestLoopback::fakeServerStates()
{
    QFETCH(QByteArray, reply);
    QFETCH(bool, closeAfter);
    QFETCH(QString, errorContains);
    FakeServer fake([&](FakeServer &f) {
        nb::net::Socket ctrl = f.accept();
        if (!ctrl.valid() || !f.read(ctrl, 37))
            return;
        if (!reply.isEmpty())
            f.write(ctrl, reply);
        if (!closeAfter)
            f.waitForClose(ctrl);
    });
    QVERIFY(fake.start());
    const TimedResult run = runClient(clientParams(fake.port));
    QVERIFY(!run.result.ok());
    QVERIFY2(run.seconds < 3, qPrintable(QString::number(run.seconds)));
    QVERIFY2(run.result.error.contains(errorContains), qPrintable(run.result.error));
    QVERIFY(!run.result.error.contains(QLatin1Char('\n')));
}

void TestLoopback::serverErrorWhileRunning()
{
    // A.9: 3.21 servers send SERVER_ERROR mid-test (e.g. --server-max-duration).
    std::atomic<bool> handshakeOk{false};
    FakeServer fake([&](FakeServer &f) {
        nb::net::Socket ctrl, data;
        if (!f.handshake(&ctrl, &data))
            return;
        handshakeOk.store(true);
        std::this_thread::sleep_for(300ms);
        f.write(ctrl, QByteArray(1, char(nb::proto::ServerError)) + int32be(144) + int32be(0));
        f.waitForClose(ctrl);
    });
    QVERIFY(fake.start());
    nb::TestParams p = clientParams(fake.port);
    p.direction = nb::Direction::Download; // the fake never has to read data
    p.duration = 10;
    const TimedResult run = runClient(p);
    QVERIFY(handshakeOk.load());
    QVERIFY(!run.result.ok());
    QVERIFY2(run.seconds < 3,
             qPrintable(QStringLiteral("a 10 s test must end at the error, took %1 s").arg(run.seconds)));
    QVERIFY2(run.result.error.contains(QStringLiteral("idle timeout for receiving data")),
             qPrintable(run.result.error));
    // What the fake saw is the client's parameter JSON, as a stock server would.
    QCOMPARE(fake.receivedParams.value(QStringLiteral("reverse")), QJsonValue(true));
    QCOMPARE(fake.receivedParams.value(QStringLiteral("time")).toDouble(), 10.0);
}

void TestLoopback::fakeServerResults_data()
{
    QTest::addColumn<QByteArray>("results");    // what the fake sends after the client's results
    QTest::addColumn<QString>("errorContains"); // empty: the client must succeed
    QTest::addColumn<bool>("closeAfter");       // the fake hangs up right after sending
    QTest::addColumn<qint64>("retransmits");    // expected on success

    const QByteArray validTail = R"("cpu_util_total":1.5,"cpu_util_user":0.5,"cpu_util_system":1,)"
                                 R"("sender_has_retransmits":18446744073709551615,"congestion_used":"cubic"})";
    auto frame = [](const QByteArray &body) {
        QByteArray h(4, '\0');
        qToBigEndian<quint32>(quint32(body.size()), h.data());
        return h + body;
    };
    // Written by hand so the 3.12 unsigned -1 is on the wire literally.
    QTest::newRow("3.12 results with unsigned -1")
        << frame(R"({"streams":[{"id":1,"bytes":12345678,"retransmits":18446744073709551615,"jitter":0,)"
                 R"("errors":0,"packets":0,"start_time":0,"end_time":0.5}],)" +
                 validTail)
        << QString() << false << qint64(-1);
    QTest::newRow("pre-3.2 results without times")
        << frame(R"({"streams":[{"id":1,"bytes":12345678,"retransmits":3,"jitter":0,"errors":0,"packets":0}],)" +
                 validTail)
        << QString() << false << qint64(3);
    QByteArray huge(4, '\0');
    qToBigEndian<quint32>(0xFFFFFFF0u, huge.data());
    QTest::newRow("huge JSON length") << huge << QStringLiteral("exceeds") << false << qint64(0);
    QTest::newRow("zero JSON length") << QByteArray(4, '\0') << QStringLiteral("empty JSON") << false << qint64(0);
    QTest::newRow("not JSON") << frame("this is not json") << QStringLiteral("malformed JSON") << false << qint64(0);
    QTest::newRow("JSON array") << frame("[{\"id\":1}]") << QStringLiteral("not an object") << false << qint64(0);
    QTest::newRow("streams not an array")
        << frame(R"({"streams":{"id":1}})") << QStringLiteral("'streams' array") << false << qint64(0);
    QTest::newRow("bytes as string") << frame(R"({"streams":[{"id":1,"bytes":"12"}]})")
                                     << QStringLiteral("numeric 'id' and 'bytes'") << false << qint64(0);
    QTest::newRow("negative bytes") << frame(R"({"streams":[{"id":1,"bytes":-12}]})")
                                    << QStringLiteral("numeric 'id' and 'bytes'") << false << qint64(0);
    QTest::newRow("unknown stream id") << frame(R"({"streams":[{"id":99,"bytes":12}]})") << QStringLiteral("stream 99")
                                       << false << qint64(0);
    // Issue 15: absurd or empty figures were taken as results (exit 0).
    QTest::newRow("remote CPU 1e308")
        << frame(R"({"streams":[{"id":1,"bytes":12345678}],"cpu_util_total":1e308,"cpu_util_user":0,)"
                 R"("cpu_util_system":0})")
        << QStringLiteral("'cpu_util_total' is 1e+308") << false << qint64(0);
    QTest::newRow("empty results") << frame(R"({"streams":[]})") << QStringLiteral("stream 1 is missing") << false
                                   << qint64(0);
    QTest::newRow("16 MiB results") << int32be(16 * 1024 * 1024) << QStringLiteral("exceeds") << false << qint64(0);
    QTest::newRow("truncated then closed") << frame(R"({"streams":[]})").left(8)
                                           << QStringLiteral("cannot read the server's results") << true << qint64(0);
}

void TestLoopback::fakeServerResults()
{
    QFETCH(QByteArray, results);
    QFETCH(QString, errorContains);
    QFETCH(bool, closeAfter);
    QFETCH(qint64, retransmits);
    std::atomic<bool> gotTestEnd{false}, gotDone{false};
    QJsonObject clientResults;
    FakeServer fake([&](FakeServer &f) {
        nb::net::Socket ctrl, data;
        if (!f.handshake(&ctrl, &data))
            return;
        // A download: something must arrive, or the test has no result at all.
        f.write(data, QByteArray(256 * 1024, 'x'));
        QByteArray st;
        if (!f.read(ctrl, 1, &st, 5) || st.at(0) != char(nb::proto::TestEnd))
            return;
        gotTestEnd.store(true);
        QString err;
        if (!f.state(ctrl, nb::proto::ExchangeResults) ||
            nb::proto::readJson(ctrl, &clientResults, nb::net::deadlineIn(5), &err) != nb::net::IoStatus::Ok)
            return;
        f.write(ctrl, results);
        if (errorContains.isEmpty()) {
            f.state(ctrl, nb::proto::DisplayResults);
            if (f.read(ctrl, 1, &st, 5) && st.at(0) == char(nb::proto::IperfDone))
                gotDone.store(true);
        } else if (!closeAfter) {
            f.waitForClose(ctrl);
        }
    });
    QVERIFY(fake.start());
    nb::TestParams p = clientParams(fake.port);
    p.direction = nb::Direction::Download;
    p.duration = 0.5;
    const TimedResult run = runClient(p);
    QVERIFY(gotTestEnd.load());
    QVERIFY2(run.seconds < 3, qPrintable(QString::number(run.seconds)));
    // The client's own results are well formed and name its stream 1 (A.6).
    const QJsonArray mine = clientResults.value(QStringLiteral("streams")).toArray();
    QCOMPARE(mine.size(), 1);
    QCOMPARE(mine[0].toObject().value(QStringLiteral("id")).toInt(), 1);
    for (const char *k : {"cpu_util_total", "cpu_util_user", "cpu_util_system", "sender_has_retransmits"})
        QVERIFY2(clientResults.contains(QLatin1String(k)), k);
    for (const char *k : {"id", "bytes", "retransmits", "jitter", "errors", "packets"})
        QVERIFY2(mine[0].toObject().contains(QLatin1String(k)), k);

    if (errorContains.isEmpty()) {
        QVERIFY2(run.result.ok(), qPrintable(run.result.error));
        QTRY_VERIFY_WITH_TIMEOUT(gotDone.load(), 3000);
        QCOMPARE(run.result.streams.size(), 1);
        const nb::StreamSummary &s = run.result.streams[0];
        QVERIFY(!s.sender);
        QCOMPARE(s.bytesSent, std::uint64_t(12345678)); // the server's count, taken from its results
        QCOMPARE(qint64(s.retransmits), retransmits);
        QCOMPARE(run.result.cpu.remoteTotal, 1.5);
        QCOMPARE(run.result.receiverCongestion, QStringLiteral("cubic"));
    } else {
        QVERIFY(!run.result.ok());
        QVERIFY2(run.result.error.contains(errorContains), qPrintable(run.result.error));
        QVERIFY(!run.result.error.contains(QLatin1Char('\n')));
    }
}

void TestLoopback::clientProcessKilled()
{
    InProcessServer server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nbtest::Child client;
    client.start(nbtest::cliPath(), {QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                     QString::number(server.port()), QStringLiteral("-t"), QStringLiteral("10"),
                                     QStringLiteral("-P"), QStringLiteral("2")});
    QVERIFY2(client.waitStarted(), qPrintable(client.describe()));
    QVERIFY2(server.waitStarted(1, 5000), qPrintable(client.describe()));
    std::this_thread::sleep_for(300ms);
    QElapsedTimer t;
    t.start();
    client.kill(); // SIGKILL: no CLIENT_TERMINATE, no TEST_END
    QVERIFY2(server.waitFinished(1, 5000), "the server did not notice the vanished client");
    QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
    const nb::TestResult srv = server.recorder.finished(0);
    QVERIFY(!srv.ok());
    QVERIFY2(srv.error.contains(QStringLiteral("client")), qPrintable(srv.error));

    // The server is free again and serves the next test normally.
    const TimedResult next = runClient(clientParams(server.port()));
    QVERIFY2(next.result.ok(), qPrintable(next.result.error));
    QVERIFY(next.result.sum(true).bytesReceived > 0);
    QVERIFY(server.waitFinished(2, 5000));
    QVERIFY2(server.recorder.finished(1).ok(), qPrintable(server.recorder.finished(1).error));
}

void TestLoopback::serverProcessKilled()
{
    const quint16 port = nbtest::freePort();
    nbtest::Child server;
    server.start(nbtest::cliPath(), {QStringLiteral("-s"), QStringLiteral("-p"), QString::number(port)});
    QVERIFY2(server.waitForOutput("Server listening", 5000), qPrintable(server.describe()));

    const double duration = 2;
    nbtest::Child client;
    QElapsedTimer t;
    t.start();
    client.start(nbtest::cliPath(),
                 {QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"), QString::number(port),
                  QStringLiteral("-t"), QString::number(duration), QStringLiteral("-i"), QStringLiteral("0.2")});
    QVERIFY2(client.waitForOutput(" sec ", 5000), qPrintable(client.describe())); // data is flowing
    server.kill();
    const int budgetMs = int((duration + 5) * 1000) - int(t.elapsed());
    QVERIFY2(client.waitFinished(std::max(budgetMs, 0)),
             qPrintable(QStringLiteral("the client hung after the server died: ") + client.describe()));
    QVERIFY2(t.elapsed() < (duration + 5) * 1000, qPrintable(QString::number(t.elapsed())));
    QVERIFY(!client.crashed());
    QVERIFY2(client.exitCode() != 0, qPrintable(client.describe()));
    const QByteArray err = client.err().trimmed();
    QVERIFY2(err.startsWith("nicbench-cli: error: "), qPrintable(client.describe()));
    QVERIFY2(!err.contains('\n'), qPrintable(client.describe()));
}

QTEST_GUILESS_MAIN(TestLoopback)
#include "tst_loopback.moc"
