// SPDX-License-Identifier: GPL-3.0-or-later
// UDP mode (-u) against stock iperf3 3.12, both pairings (our client with `iperf3 -s`, the
// stock client with our server), forward, -R, --bidir and -P: the test runs, and both
// sides report the same figures for it. The datagram counts, losses and jitter cross in
// the results exchange, so what one side measured and the other was told must be equal;
// what each side counted itself (datagrams sent, the highest sequence number received)
// must be consistent with the bytes. Needs `iperf3` in PATH (skips with a reason without).
#include "integrationhelpers.h"
#include "udpdocuments.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

using nbtest::Child;
using nbtest::compareUdpDocuments;
using nbtest::modeArgs;
using nbtest::parseJson;

namespace {

constexpr int DurationSecs = 2;

QJsonObject testStart(const QJsonObject &doc)
{
    return doc.value(QStringLiteral("start")).toObject().value(QStringLiteral("test_start")).toObject();
}

} // namespace

class TestUdpInterop : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void ourClientStockServer_data() { modes_data(); }
    void ourClientStockServer();
    void stockClientOurServer_data() { modes_data(); }
    void stockClientOurServer();
    void wideCounters();

private:
    void modes_data();
    void requireIperf3();
};

void TestUdpInterop::initTestCase()
{
    QVERIFY2(QFile::exists(nbtest::cliPath()), qPrintable(nbtest::cliPath()));
}

void TestUdpInterop::requireIperf3()
{
    if (!nbtest::haveTool(QStringLiteral("iperf3")))
        QSKIP("iperf3 is not in PATH (install the Debian package iperf3 to run the interoperability tests)");
}

void TestUdpInterop::modes_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("streams");
    QTest::newRow("forward") << QString() << 1;
    QTest::newRow("reverse -R") << QStringLiteral("-R") << 1;
    QTest::newRow("bidir") << QStringLiteral("--bidir") << 1;
    QTest::newRow("parallel -P 2") << QStringLiteral("-P 2") << 2;
}

void TestUdpInterop::ourClientStockServer()
{
    requireIperf3();
    QFETCH(QString, mode);
    QFETCH(int, streams);
    Child server;
    QString why;
    const quint16 port = nbtest::startListening(
        server, QStringLiteral("iperf3"), {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-J")}, &why);
    QVERIFY2(port != 0, qPrintable(why));
    Child client;
    client.start(nbtest::cliPath(),
                 QStringList{QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"), QString::number(port),
                             QStringLiteral("-u"), QStringLiteral("-b"), QStringLiteral("20M"), QStringLiteral("-t"),
                             QString::number(DurationSecs), QStringLiteral("-J")} +
                     modeArgs(mode));
    QVERIFY2(client.waitFinished((DurationSecs + 15) * 1000), qPrintable(client.describe()));
    QVERIFY2(server.waitFinished(5000), qPrintable(server.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    QVERIFY2(server.exitCode() == 0, qPrintable(server.describe()));
    QString error;
    const QJsonObject ours = parseJson(client.out(), &error);
    QVERIFY2(!ours.isEmpty(), qPrintable(error));
    const QJsonObject theirs = parseJson(server.out(), &error);
    QVERIFY2(!theirs.isEmpty(), qPrintable(error));
    QVERIFY2(!theirs.contains(QStringLiteral("error")), qPrintable(theirs.value(QStringLiteral("error")).toString()));
    // The stock server ran a UDP test with what we asked and iperf3's default datagram size.
    QCOMPARE(testStart(theirs).value(QStringLiteral("protocol")).toString(), QStringLiteral("UDP"));
    QCOMPARE(testStart(theirs).value(QStringLiteral("num_streams")).toInt(), streams);
    QCOMPARE(testStart(ours).value(QStringLiteral("blksize")).toInt(),
             testStart(theirs).value(QStringLiteral("blksize")).toInt());
    compareUdpDocuments(ours, theirs, mode, streams, false);
}

void TestUdpInterop::stockClientOurServer()
{
    requireIperf3();
    QFETCH(QString, mode);
    QFETCH(int, streams);
    Child server;
    QString why;
    const quint16 port = nbtest::startListening(
        server, nbtest::cliPath(), {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-J")}, &why);
    QVERIFY2(port != 0, qPrintable(why));
    Child client;
    client.start(QStringLiteral("iperf3"),
                 QStringList{QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"), QString::number(port),
                             QStringLiteral("-u"), QStringLiteral("-b"), QStringLiteral("20M"), QStringLiteral("-t"),
                             QString::number(DurationSecs), QStringLiteral("-J")} +
                     modeArgs(mode));
    QVERIFY2(client.waitFinished((DurationSecs + 15) * 1000), qPrintable(client.describe()));
    QVERIFY2(server.waitFinished(5000), qPrintable(server.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    QVERIFY2(server.exitCode() == 0, qPrintable(server.describe()));
    QString error;
    const QJsonObject theirs = parseJson(client.out(), &error);
    QVERIFY2(!theirs.isEmpty(), qPrintable(error));
    QVERIFY2(!theirs.contains(QStringLiteral("error")), qPrintable(theirs.value(QStringLiteral("error")).toString()));
    const QJsonObject ours = parseJson(server.out(), &error);
    QVERIFY2(!ours.isEmpty(), qPrintable(error));
    QVERIFY2(!ours.contains(QStringLiteral("error")), qPrintable(ours.value(QStringLiteral("error")).toString()));
    QCOMPARE(testStart(ours).value(QStringLiteral("protocol")).toString(), QStringLiteral("UDP"));
    compareUdpDocuments(theirs, ours, mode, streams, true);
}

// --udp-counters-64bit: 16-byte headers both ways; both sides must agree on the counts.
void TestUdpInterop::wideCounters()
{
    requireIperf3();
    for (const bool stockClient : {false, true}) {
        Child server;
        QString why;
        const quint16 port =
            nbtest::startListening(server, stockClient ? nbtest::cliPath() : QStringLiteral("iperf3"),
                                   {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-J")}, &why);
        QVERIFY2(port != 0, qPrintable(why));
        Child client;
        client.start(stockClient ? QStringLiteral("iperf3") : nbtest::cliPath(),
                     {QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"), QString::number(port),
                      QStringLiteral("-u"), QStringLiteral("-b"), QStringLiteral("20M"), QStringLiteral("-t"),
                      QString::number(DurationSecs), QStringLiteral("--udp-counters-64bit"), QStringLiteral("-J")});
        QVERIFY2(client.waitFinished((DurationSecs + 15) * 1000), qPrintable(client.describe()));
        QVERIFY2(server.waitFinished(5000), qPrintable(server.describe()));
        QVERIFY2(client.exitCode() == 0 && server.exitCode() == 0,
                 qPrintable(client.describe() + QLatin1Char('\n') + server.describe()));
        QString error;
        const QJsonObject c = parseJson(client.out(), &error);
        const QJsonObject s = parseJson(server.out(), &error);
        QVERIFY2(!c.isEmpty() && !s.isEmpty(), qPrintable(error));
        compareUdpDocuments(c, s, QString(), 1, stockClient);
    }
}

QTEST_GUILESS_MAIN(TestUdpInterop)
#include "tst_udpinterop.moc"
