// SPDX-License-Identifier: GPL-3.0-or-later
// The data path's worker pool on real loopback connections: many streams on few
// threads, every stream served, counts that add up exactly, and the blocking path of a
// worker with one stream. Both ends are StreamSets in this process, as the client and
// the server use them.
#include "datapath/streamset.h"
#include "net/connect.h"

#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <memory>
#include <numeric>

using namespace nb;

namespace {

const QString Loopback = QStringLiteral("127.0.0.1");

struct Listener {
    net::Socket socket;
    quint16 port = 0;
};

Listener listenLoopback()
{
    Listener l;
    QString err;
    l.socket = net::listenTcp(Loopback, 0, AddressFamily::IPv4, {}, &err);
    l.port = net::localPort(l.socket);
    return l;
}

// n connected pairs on loopback: first the connecting side, second the accepted side.
bool connectPairs(int n, std::vector<net::Socket> *client, std::vector<net::Socket> *server)
{
    Listener l = listenLoopback();
    if (!l.socket.valid())
        return false;
    for (int i = 0; i < n; ++i) {
        QString err;
        net::Socket c = net::connectTcp(Loopback, l.port, AddressFamily::IPv4, {}, {}, 2000, &err);
        net::Socket s = net::acceptTcp(l.socket, 2000);
        if (!c.valid() || !s.valid())
            return false;
        client->push_back(std::move(c));
        server->push_back(std::move(s));
    }
    return true;
}

// Waits (bounded) until pred holds.
template <typename Pred> bool waitFor(Pred pred, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!pred()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QThread::msleep(10);
    }
    return true;
}

// Waits (bounded) until every stream's counter (transactions or bytes) reaches min.
bool waitEveryStream(StreamSet &set, std::uint64_t (DataStream::*counter)() const, std::uint64_t min)
{
    return waitFor(
        [&] {
            for (int i = 0; i < set.size(); ++i)
                if ((set.at(i).*counter)() < min)
                    return false;
            return true;
        },
        20000);
}

std::uint64_t totalTransactions(StreamSet &set)
{
    std::uint64_t sum = 0;
    for (int i = 0; i < set.size(); ++i)
        sum += set.at(i).transactions();
    return sum;
}

} // namespace

class TestWorkerPool : public QObject {
    Q_OBJECT
private slots:
    void workerCount_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("flows");
        QTest::addColumn<int>("expected");
        QTest::newRow("one flow, four threads asked") << 4 << 1 << 1;
        QTest::newRow("more threads than flows") << 8 << 3 << 3;
        QTest::newRow("fewer threads than flows") << 2 << 1000 << 2;
        QTest::newRow("no flows still one worker") << 2 << 0 << 1;
    }
    void workerCount()
    {
        QFETCH(int, threads);
        QFETCH(int, flows);
        QFETCH(int, expected);
        QCOMPARE(WorkerPool::workersFor(threads, flows), expected);
        // 0 means one per core, never more than the flows.
        QVERIFY(WorkerPool::workersFor(0, 1) == 1);
        QVERIFY(WorkerPool::workersFor(0, 100000) >= 1);
    }

    void requestResponse_data()
    {
        QTest::addColumn<int>("connections");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("inFlight");
        QTest::addColumn<int>("requestSize");
        QTest::addColumn<int>("responseSize");
        QTest::newRow("one connection, blocking worker") << 1 << 1 << 1 << 100 << 300;
        QTest::newRow("64 connections on one thread") << 64 << 1 << 1 << 100 << 300;
        QTest::newRow("300 connections on three threads") << 300 << 3 << 1 << 100 << 300;
        QTest::newRow("16 connections, 8 in flight each") << 16 << 2 << 8 << 100 << 300;
        // More in flight than the socket buffers hold: both ends must read while they
        // write, or each waits for the other forever.
        QTest::newRow("16 MiB in flight each way, one connection") << 1 << 1 << 16 << (1 << 20) << (1 << 20);
    }
    void requestResponse()
    {
        QFETCH(int, connections);
        QFETCH(int, threads);
        QFETCH(int, inFlight);
        QFETCH(int, requestSize);
        QFETCH(int, responseSize);
        std::vector<net::Socket> c, s;
        QVERIFY(connectPairs(connections, &c, &s));
        StreamSet client, server;
        for (int i = 0; i < connections; ++i) {
            client.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::RrClient, std::move(c[i])));
            server.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::RrServer, std::move(s[i])));
        }
        DataStream::Config cfg;
        cfg.inFlight = inFlight;
        cfg.requestSize = std::uint32_t(requestSize);
        cfg.responseSize = std::uint32_t(responseSize);
        QVERIFY(server.startAll(cfg, threads).isEmpty());
        QVERIFY(client.startAll(cfg, threads).isEmpty());
        client.markStart(0);
        // Every connection completes transactions, however many share a thread.
        QVERIFY2(waitEveryStream(client, &DataStream::transactions, 20), "a connection starved");
        const IntervalReport interval = client.takeInterval(1, false);
        QVERIFY(interval.hasRr);
        QVERIFY(interval.rr.latencyUs.count > 0);
        client.stopSenders();
        client.freeze(2);
        QVERIFY(client.firstError().isEmpty());
        const RrSummary sum = client.rrSummary();
        QCOMPARE(sum.transactions, totalTransactions(client));
        // Every completed transaction was timed once, in exactly one worker's histogram.
        QCOMPARE(sum.histogram.count(), sum.transactions);
        QVERIFY(sum.latencyUs.min > 0);
        // Bytes count whole transactions.
        for (int i = 0; i < connections; ++i)
            QCOMPARE(client.at(i).bytes(), client.at(i).transactions() * std::uint64_t(requestSize + responseSize));
        // The server answered each request the client finished, and at most the ones
        // still in flight besides.
        const std::uint64_t served = totalTransactions(server);
        QVERIFY(served >= sum.transactions);
        QVERIFY(served <= sum.transactions + std::uint64_t(connections * inFlight));
        QVERIFY2(server.firstError().isEmpty(), qPrintable(server.firstError()));
        // Closing with responses unread resets the connections: the server ends either way.
        client.abortAll();
        QVERIFY(waitFor([&] { return server.allFinished(); }, 5000));
    }

    // Bulk data: every byte sent on every stream arrives, on few threads.
    void bulkNoByteLost_data()
    {
        QTest::addColumn<int>("streams");
        QTest::addColumn<int>("threads");
        QTest::newRow("one stream, blocking worker") << 1 << 1;
        QTest::newRow("16 streams on two threads") << 16 << 2;
        QTest::newRow("200 streams on one thread") << 200 << 1;
    }
    void bulkNoByteLost()
    {
        QFETCH(int, streams);
        QFETCH(int, threads);
        std::vector<net::Socket> c, s;
        QVERIFY(connectPairs(streams, &c, &s));
        StreamSet sender, receiver;
        for (int i = 0; i < streams; ++i) {
            sender.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::Sender, std::move(c[i])));
            receiver.add(
                std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::Receiver, std::move(s[i])));
        }
        DataStream::Config cfg;
        cfg.blockSize = 16 * 1024;
        QVERIFY(receiver.startAll(cfg, threads).isEmpty());
        QVERIFY(sender.startAll(cfg, threads).isEmpty());
        QVERIFY2(waitEveryStream(receiver, &DataStream::bytes, 64 * 1024), "a stream starved");
        sender.stopSenders();
        QVERIFY(sender.allSendersFinished());
        sender.abortAll(); // closes: the receivers see the end of each stream
        QVERIFY(waitFor([&] { return receiver.allFinished(); }, 10000));
        for (int i = 0; i < streams; ++i)
            QCOMPARE(receiver.at(i).bytes(), sender.at(i).bytes());
        QVERIFY(sender.firstError().isEmpty());
        QVERIFY(receiver.firstError().isEmpty());
    }

    // -n: the shared budget is spent exactly, over streams on several workers.
    void byteBudgetSpentExactly()
    {
        const int streams = 8;
        std::vector<net::Socket> c, s;
        QVERIFY(connectPairs(streams, &c, &s));
        StreamSet sender, receiver;
        for (int i = 0; i < streams; ++i) {
            sender.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::Sender, std::move(c[i])));
            receiver.add(
                std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::Receiver, std::move(s[i])));
        }
        ByteBudget budget;
        budget.enabled = true;
        budget.remaining = 10'000'003; // not a multiple of the block
        DataStream::Config cfg;
        cfg.blockSize = 64 * 1024;
        cfg.budget = &budget;
        QVERIFY(receiver.startAll(cfg, 2).isEmpty());
        QVERIFY(sender.startAll(cfg, 2).isEmpty());
        QVERIFY(waitFor([&] { return sender.allSendersFinished(); }, 20000));
        sender.abortAll();
        QVERIFY(waitFor([&] { return receiver.allFinished(); }, 10000));
        std::uint64_t sent = 0, received = 0;
        for (int i = 0; i < streams; ++i) {
            sent += sender.at(i).bytes();
            received += receiver.at(i).bytes();
        }
        QCOMPARE(sent, std::uint64_t(10'000'003));
        QCOMPARE(received, sent);
    }

    // CRR: connections per transaction, one listener per server worker; the other server
    // streams are placeholders that keep their ids.
    void connectRequestResponse()
    {
        Listener l = listenLoopback();
        QVERIFY(l.socket.valid());
        const int flows = 6, threads = 2;
        StreamSet client, server;
        for (int i = 0; i < flows; ++i) {
            client.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::CrrClient, net::Socket()));
            server.add(std::make_unique<DataStream>(streamIdForIndex(i), DataStream::Role::CrrServer,
                                                    i < threads ? l.socket.duplicate() : net::Socket()));
        }
        DataStream::Config cfg;
        cfg.requestSize = 10;
        cfg.responseSize = 1000;
        cfg.crrTarget = net::localAddress(l.socket);
        QVERIFY(cfg.crrTarget.valid());
        QVERIFY(server.startAll(cfg, threads).isEmpty());
        QVERIFY(client.startAll(cfg, threads).isEmpty());
        client.markStart(0);
        QVERIFY2(waitEveryStream(client, &DataStream::transactions, 10), qPrintable(client.firstError()));
        client.stopSenders();
        client.freeze(1);
        QVERIFY2(client.firstError().isEmpty(), qPrintable(client.firstError()));
        const RrSummary sum = client.rrSummary();
        QCOMPARE(sum.histogram.count(), sum.transactions);
        const std::uint64_t served = totalTransactions(server);
        QVERIFY(served >= sum.transactions);
        QVERIFY(served <= sum.transactions + flows);
        for (int i = threads; i < flows; ++i)
            QCOMPARE(server.at(i).transactions(), std::uint64_t(0)); // placeholders
        server.abortAll();
        QVERIFY(server.allFinished());
    }
};

QTEST_GUILESS_MAIN(TestWorkerPool)
#include "tst_workerpool.moc"
