// SPDX-License-Identifier: GPL-3.0-or-later
// The net layer's promises that the data path relies on, on real loopback sockets, so
// each OS file (socket/connect/io/poller_linux.cpp, *_windows.cpp) is held to the same
// ones: wake() ends a wait at once, a refused non-blocking connect is reported (WSAPoll
// on older Windows does not report it by itself), closing a socket takes it out of the
// poller, shutdownBoth() ends a receive blocked in another thread, acceptPending() on a
// non-blocking listener returns at once, a dual-stack listener takes IPv4 and IPv6, and a
// refused connect says so with the system's error; the zero-copy source sends its payload.
#include "net/connect.h"
#include "net/io.h"
#include "net/poller.h"

#include <QElapsedTimer>
#include <QTest>

#include <atomic>
#include <thread>

using namespace nb;

namespace {

const QString Loopback = QStringLiteral("127.0.0.1");

struct Pair {
    net::Socket client;
    net::Socket server;
};

Pair connectedPair()
{
    Pair p;
    QString err;
    const net::Socket l = net::listenTcp(Loopback, 0, AddressFamily::IPv4, {}, &err);
    if (!l.valid())
        return p;
    p.client = net::connectTcp(Loopback, net::localPort(l), AddressFamily::IPv4, {}, {}, 5000, &err);
    p.server = net::acceptTcp(l, 5000);
    return p;
}

// A loopback port nobody listens on: listen on port 0, note the port, close.
quint16 closedPort()
{
    QString err;
    const net::Socket l = net::listenTcp(Loopback, 0, AddressFamily::IPv4, {}, &err);
    return net::localPort(l);
}

} // namespace

class TestNetLayer : public QObject {
    Q_OBJECT
private slots:
    void wakeEndsWait();
    void refusedConnectIsReported();
    void closedSocketLeavesPoller();
    void shutdownEndsBlockedReceive();
    void unreadBytesCountsWhatWaits();
    void acceptPendingReturnsAtOnce();
    void dualStackListener();
    void refusedConnectSaysWhy();
    void zeroCopySendsThePayload();
};

void TestNetLayer::wakeEndsWait()
{
    net::Poller poller;
    QString err;
    QVERIFY2(poller.valid(&err), qPrintable(err));
    std::thread waker([&poller] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        poller.wake();
    });
    QElapsedTimer t;
    t.start();
    net::PollEvent events[4];
    const int n = poller.wait(events, 4, 10000);
    waker.join();
    QCOMPARE(n, 0); // the wake is not an event
    QVERIFY2(t.elapsed() < 5000, qPrintable(QStringLiteral("wake took %1 ms").arg(t.elapsed())));
    // A wake before the wait is not lost either.
    poller.wake();
    t.restart();
    poller.wait(events, 4, 10000);
    QVERIFY2(t.elapsed() < 5000, qPrintable(QStringLiteral("an early wake took %1 ms").arg(t.elapsed())));
}

void TestNetLayer::refusedConnectIsReported()
{
    QString err;
    const net::Address target = net::resolveAddress(Loopback, closedPort(), AddressFamily::IPv4, &err);
    QVERIFY2(target.valid(), qPrintable(err));
    net::Socket s = net::openTcp(AddressFamily::IPv4, true);
    QVERIFY(s.valid());
    const int started = net::startConnect(s, target, &err);
    if (started < 0)
        return; // refused at once: nothing left to report (a fast loopback may do that)
    QCOMPARE(started, 0);
    net::Poller poller;
    int token = 0;
    QVERIFY(poller.add(s, &token, net::Writable));
    // The poller must say something within a few seconds (Windows itself retries a
    // refused SYN for about 2 s); then a send tells the failure, not "not now".
    QElapsedTimer t;
    t.start();
    net::PollEvent events[4];
    int n = 0;
    while (n == 0 && t.elapsed() < 8000)
        n = poller.wait(events, 4, 200);
    QVERIFY2(n == 1, "a refused connect was never reported by the poller");
    QCOMPARE(events[0].token, static_cast<void *>(&token));
    const char byte = 1;
    const net::Transfer tr = net::sendSome(s, &byte, 1);
    QCOMPARE(tr.status, net::IoStatus::Error);
    QVERIFY(tr.systemError != 0);
}

void TestNetLayer::closedSocketLeavesPoller()
{
    Pair p = connectedPair();
    QVERIFY(p.client.valid() && p.server.valid());
    net::Poller poller;
    int token = 0;
    QVERIFY(poller.add(p.server, &token, net::Readable));
    const char byte = 7;
    QCOMPARE(net::sendSome(p.client, &byte, 1).status, net::IoStatus::Ok);
    net::PollEvent events[4];
    QElapsedTimer t;
    t.start();
    int n = 0;
    while (n == 0 && t.elapsed() < 5000)
        n = poller.wait(events, 4, 200);
    QCOMPARE(n, 1); // readable while open
    p.server.reset();
    QCOMPARE(poller.wait(events, 4, 200), 0); // gone once closed: no stale token
}

void TestNetLayer::shutdownEndsBlockedReceive()
{
    Pair p = connectedPair();
    QVERIFY(p.client.valid() && p.server.valid());
    std::atomic<int> status{-1};
    std::thread reader([&] {
        char buf[16];
        status = int(net::receiveSome(p.server, buf, sizeof buf).status); // blocking, no timeout
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    QCOMPARE(status.load(), -1); // still blocked: nothing was sent
    net::shutdownBoth(p.server);
    QElapsedTimer t;
    t.start();
    while (status.load() < 0 && t.elapsed() < 3000)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool woke = status.load() >= 0;
    if (!woke)
        p.client.reset(); // the peer's close ends it, so the thread can be joined
    reader.join();
    QVERIFY2(woke, "shutdownBoth() did not end a receive blocked in another thread");
    QVERIFY(status.load() != int(net::IoStatus::Ok));
}

// What the server's receivers still have to read at the client's TEST_END
// (StreamSet::settleReceivers): bytes that arrived and were not read, then fewer once read.
void TestNetLayer::unreadBytesCountsWhatWaits()
{
    Pair p = connectedPair();
    QVERIFY(p.client.valid() && p.server.valid());
    QCOMPARE(net::unreadBytes(p.server), std::int64_t(0));
    const QByteArray payload(1000, 'x');
    const std::atomic<bool> stop{false};
    QString err;
    QCOMPARE(net::sendAll(p.client, payload.constData(), std::size_t(payload.size()), stop, &err), net::IoStatus::Ok);
    QElapsedTimer t;
    t.start();
    while (net::unreadBytes(p.server) < 1000 && t.elapsed() < 5000)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    QCOMPARE(net::unreadBytes(p.server), std::int64_t(1000));
    char buf[400];
    const net::Transfer got = net::receiveSome(p.server, buf, sizeof buf);
    QCOMPARE(got.bytes, std::int64_t(400));
    QCOMPARE(net::unreadBytes(p.server), std::int64_t(600));
    net::Socket none;
    QCOMPARE(net::unreadBytes(none), std::int64_t(-1));
}

void TestNetLayer::acceptPendingReturnsAtOnce()
{
    QString err;
    net::Socket l = net::listenTcp(Loopback, 0, AddressFamily::IPv4, {}, &err);
    QVERIFY2(l.valid(), qPrintable(err));
    QVERIFY(net::setNonBlocking(l));
    QElapsedTimer t;
    t.start();
    QVERIFY(!net::acceptPending(l, nullptr, true).valid());
    QVERIFY2(t.elapsed() < 1000, "acceptPending blocked on a non-blocking listener");

    // A pending connection is taken, in the mode asked for: blocking, whatever the listener's.
    net::Socket c = net::connectTcp(Loopback, net::localPort(l), AddressFamily::IPv4, {}, {}, 5000, &err);
    QVERIFY2(c.valid(), qPrintable(err));
    QVERIFY(net::waitReadable(l, 5000) == 1);
    net::Address peer;
    net::Socket s = net::acceptPending(l, &peer, false);
    QVERIFY(s.valid());
    QCOMPARE(peer.host(), Loopback);
    net::setTimeouts(s, 300, -1);
    char buf[4];
    t.restart();
    const net::Transfer tr = net::receiveSome(s, buf, sizeof buf); // nothing sent: times out
    QCOMPARE(tr.status, net::IoStatus::Timeout);
    QVERIFY2(t.elapsed() >= 150, qPrintable(QStringLiteral("returned after %1 ms: not blocking").arg(t.elapsed())));
}

void TestNetLayer::dualStackListener()
{
    QString err;
    net::Socket l = net::listenTcp(QString(), 0, AddressFamily::Any, {}, &err);
    QVERIFY2(l.valid(), qPrintable(err));
    if (net::localAddress(l).family() != AddressFamily::IPv6)
        QSKIP("no IPv6 on this host: the listener fell back to IPv4");
    const quint16 port = net::localPort(l);
    net::Socket c4 = net::connectTcp(Loopback, port, AddressFamily::IPv4, {}, {}, 5000, &err);
    QVERIFY2(c4.valid(), qPrintable(err));
    net::Address peer;
    QVERIFY(net::acceptTcp(l, 5000, &peer).valid());
    QCOMPARE(peer.host(), Loopback); // IPv4-mapped, shown as IPv4
    net::Socket c6 = net::connectTcp(QStringLiteral("::1"), port, AddressFamily::IPv6, {}, {}, 5000, &err);
    if (!c6.valid())
        QSKIP(qPrintable(QStringLiteral("no IPv6 loopback here: %1").arg(err)));
    QVERIFY(net::acceptTcp(l, 5000, &peer).valid());
    QCOMPARE(peer.host(), QStringLiteral("::1"));
}

void TestNetLayer::refusedConnectSaysWhy()
{
    QString err;
    ErrorCode code = ErrorCode::None;
    const quint16 port = closedPort();
    net::Socket s = net::connectTcp(Loopback, port, AddressFamily::IPv4, {}, {}, 8000, &err, nullptr, &code);
    QVERIFY(!s.valid());
    QCOMPARE(code, ErrorCode::Refused);
    QVERIFY2(err.contains(QStringLiteral("port %1").arg(port)), qPrintable(err));
#ifdef Q_OS_WIN
    QVERIFY2(err.contains(QStringLiteral("WSAECONNREFUSED 10061")), qPrintable(err));
#else
    QVERIFY2(err.contains(QStringLiteral("refused")), qPrintable(err));
#endif
}

void TestNetLayer::zeroCopySendsThePayload()
{
    QByteArray payload(64 * 1024, Qt::Uninitialized);
    for (int i = 0; i < payload.size(); ++i)
        payload[i] = char((i * 131 + 7) & 0xff);
    const net::ZeroCopySource source(payload.constData(), std::size_t(payload.size()));
    QVERIFY2(source.valid(), "no zero-copy source on this platform (memfd / temporary file)");
    Pair p = connectedPair();
    QVERIFY(p.client.valid() && p.server.valid());
    // Each send starts from the payload's first byte, however often it is used.
    for (const std::size_t size : {std::size_t(1000), std::size_t(5000)}) {
        const net::Transfer t = source.sendTo(p.client, size);
        QCOMPARE(t.status, net::IoStatus::Ok);
        QCOMPARE(t.bytes, std::int64_t(size));
        QByteArray got(int(size), Qt::Uninitialized);
        QString err;
        QCOMPARE(net::readExact(p.server, got.data(), size, net::deadlineIn(5), &err), net::IoStatus::Ok);
        QCOMPARE(got, payload.left(int(size)));
    }
}

QTEST_GUILESS_MAIN(TestNetLayer)
#include "tst_netlayer.moc"
