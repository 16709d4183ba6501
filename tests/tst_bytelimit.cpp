// SPDX-License-Identifier: GPL-3.0-or-later
// What ends a test when both a byte count (-n) and a duration (-t) are given: the first
// limit reached (README, "What ends a test"). Real nicbench-cli processes on loopback,
// against our server and against a stock iperf3 server.

#include "integrationhelpers.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QTest>

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

struct Sums {
    double sent = 0, received = 0, seconds = 0;
};

Sums sums(const QJsonObject &doc)
{
    const QJsonObject end = doc.value(QStringLiteral("end")).toObject();
    const QJsonObject s = end.value(QStringLiteral("sum_sent")).toObject();
    const QJsonObject r = end.value(QStringLiteral("sum_received")).toObject();
    return {s.value(QStringLiteral("bytes")).toDouble(), r.value(QStringLiteral("bytes")).toDouble(),
            s.value(QStringLiteral("seconds")).toDouble()};
}

} // namespace

class TestByteLimit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bytesBeforeTime_data();
    void bytesBeforeTime();
    void timeBeforeBytes();
    void reverseBytes_data();
    void reverseBytes();
    void bidirBytes_data();
    void bidirBytes();

private:
    // Starts a one-off server of the given kind and returns its port (0 on failure).
    quint16 startServer(nbtest::Child *server, const QString &kind);
    // Runs nicbench-cli -c against the port with these flags and -J; false on a hang.
    static bool runClient(nbtest::Child *client, quint16 port, const QStringList &flags);
};

quint16 TestByteLimit::startServer(nbtest::Child *server, const QString &kind)
{
    QString why;
    const quint16 port =
        nbtest::startListening(*server, kind == QLatin1String("iperf3") ? QStringLiteral("iperf3") : nbtest::cliPath(),
                               {QStringLiteral("-s"), QStringLiteral("-1")}, &why);
    if (port == 0)
        qWarning("%s", qPrintable(why));
    return port;
}

bool TestByteLimit::runClient(nbtest::Child *client, quint16 port, const QStringList &flags)
{
    client->start(nbtest::cliPath(), QStringList{QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"),
                                                 QString::number(port), QStringLiteral("-J")} +
                                         flags);
    return client->waitFinished(30000);
}

void TestByteLimit::bytesBeforeTime_data()
{
    QTest::addColumn<QString>("server");
    QTest::newRow("nicbench") << QStringLiteral("nicbench");
    QTest::newRow("iperf3") << QStringLiteral("iperf3");
}

// The bug of issue 11: with -t also given, reaching -n failed the run with "the data
// connections were closed by the peer" and a receiver count of 0.
void TestByteLimit::bytesBeforeTime()
{
    QFETCH(QString, server);
    if (server == QLatin1String("iperf3") && !nbtest::haveTool(server))
        QSKIP("iperf3 is not installed");
    nbtest::Child srv;
    const quint16 port = startServer(&srv, server);
    QVERIFY2(port, qPrintable(srv.describe()));
    nbtest::Child client;
    QElapsedTimer t;
    t.start();
    QVERIFY2(runClient(&client, port,
                       {QStringLiteral("-n"), QStringLiteral("200M"), QStringLiteral("-t"), QStringLiteral("10")}),
             qPrintable(client.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    // The byte count came first: well before the 10 s (a loaded machine still moves 200M in 8 s).
    QVERIFY2(t.elapsed() < 9000, qPrintable(QString::number(t.elapsed())));
    const Sums s = sums(client.outJson());
    QVERIFY2(s.sent >= 200 * kMiB && s.sent < 201 * kMiB, qPrintable(QString::number(s.sent)));
    QVERIFY2(s.received >= 199 * kMiB && s.received <= s.sent, qPrintable(QString::number(s.received)));
    QVERIFY2(srv.waitFinished(10000), qPrintable(srv.describe()));
    QCOMPARE(srv.exitCode(), 0);
}

// The other order: the clock ends the test and fewer bytes than -n were sent.
void TestByteLimit::timeBeforeBytes()
{
    nbtest::Child srv;
    const quint16 port = startServer(&srv, QStringLiteral("nicbench"));
    QVERIFY2(port, qPrintable(srv.describe()));
    nbtest::Child client;
    QElapsedTimer t;
    t.start();
    QVERIFY2(runClient(&client, port,
                       {QStringLiteral("-n"), QStringLiteral("1000G"), QStringLiteral("-t"), QStringLiteral("1")}),
             qPrintable(client.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    QVERIFY2(t.elapsed() < 6000, qPrintable(QString::number(t.elapsed())));
    const Sums s = sums(client.outJson());
    QVERIFY2(s.seconds > 0.9 && s.seconds < 1.5, qPrintable(QString::number(s.seconds)));
    QVERIFY2(s.sent > 0 && s.sent < 1000 * 1024 * kMiB, qPrintable(QString::number(s.sent)));
    QVERIFY2(s.received > 0 && s.received <= s.sent, qPrintable(QString::number(s.received)));
    QVERIFY2(srv.waitFinished(10000), qPrintable(srv.describe()));
    QCOMPARE(srv.exitCode(), 0);
}

void TestByteLimit::reverseBytes_data()
{
    bytesBeforeTime_data();
}

// -R -n: only the server sends, so it stops at the count and the client ends once it has
// received it (as stock iperf3 does). Before, the client ended at once with a few MB and exit 0.
void TestByteLimit::reverseBytes()
{
    QFETCH(QString, server);
    if (server == QLatin1String("iperf3") && !nbtest::haveTool(server))
        QSKIP("iperf3 is not installed");
    nbtest::Child srv;
    const quint16 port = startServer(&srv, server);
    QVERIFY2(port, qPrintable(srv.describe()));
    nbtest::Child client;
    QVERIFY2(runClient(&client, port, {QStringLiteral("-R"), QStringLiteral("-n"), QStringLiteral("200M")}),
             qPrintable(client.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    const Sums s = sums(client.outJson());
    QVERIFY2(s.received >= 199 * kMiB && s.received <= 201 * kMiB, qPrintable(QString::number(s.received)));
    QVERIFY2(s.sent >= s.received && s.sent <= 201 * kMiB, qPrintable(QString::number(s.sent)));
    QVERIFY2(srv.waitFinished(10000), qPrintable(srv.describe()));
    QCOMPARE(srv.exitCode(), 0);
}

void TestByteLimit::bidirBytes_data()
{
    bytesBeforeTime_data();
}

// --bidir -n: each side sends the count, and the client ends only once it has the
// server's too (issue 15: ending at our own count could leave the reverse direction short).
void TestByteLimit::bidirBytes()
{
    QFETCH(QString, server);
    if (server == QLatin1String("iperf3") && !nbtest::haveTool(server))
        QSKIP("iperf3 is not installed");
    nbtest::Child srv;
    const quint16 port = startServer(&srv, server);
    QVERIFY2(port, qPrintable(srv.describe()));
    nbtest::Child client;
    QVERIFY2(runClient(&client, port, {QStringLiteral("--bidir"), QStringLiteral("-n"), QStringLiteral("100M")}),
             qPrintable(client.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    const QJsonObject doc = client.outJson();
    const Sums forward = sums(doc);
    const QJsonObject end = doc.value(QStringLiteral("end")).toObject();
    const double reverseReceived =
        end.value(QStringLiteral("sum_received_bidir_reverse")).toObject().value(QStringLiteral("bytes")).toDouble();
    QVERIFY2(forward.sent >= 100 * kMiB && forward.sent <= 101 * kMiB, qPrintable(QString::number(forward.sent)));
    QVERIFY2(forward.received >= 99 * kMiB, qPrintable(QString::number(forward.received)));
    QVERIFY2(reverseReceived >= 99 * kMiB && reverseReceived <= 101 * kMiB,
             qPrintable(QString::number(reverseReceived)));
    QVERIFY2(srv.waitFinished(10000), qPrintable(srv.describe()));
    QCOMPARE(srv.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestByteLimit)
#include "tst_bytelimit.moc"
