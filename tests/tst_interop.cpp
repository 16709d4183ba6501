// SPDX-License-Identifier: GPL-3.0-or-later
// Interoperability with the stock Debian tools: iperf3 3.12 (both directions of the
// client/server pairing) and iperf 2.1.8 as a server. Needs `iperf3` and `iperf` in PATH;
// the tests skip with a reason when they are missing (CI installs them).
#include "integrationhelpers.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>

#include <cmath>

using nbtest::Child;

namespace {

constexpr int DurationSecs = 2;

QStringList modeArgs(const QString &mode)
{
    return mode.isEmpty() ? QStringList() : mode.split(QLatin1Char(' '));
}

QJsonObject sumOf(const QJsonObject &doc, const QString &key)
{
    return doc.value(QStringLiteral("end")).toObject().value(key).toObject();
}

double relDiff(double a, double b)
{
    return std::fabs(a - b) / std::max(std::fabs(a), std::fabs(b));
}

// One direction of a test as described by iperf3's JSON keys (sum_sent/sum_received,
// with _bidir_reverse for the server->client half of a bidir test).
struct DirectionKeys {
    QString sent, received;
    bool clientSends;
};

QList<DirectionKeys> directionsFor(const QString &mode)
{
    const DirectionKeys forward{QStringLiteral("sum_sent"), QStringLiteral("sum_received"), true};
    if (mode == QLatin1String("-R"))
        return {{QStringLiteral("sum_sent"), QStringLiteral("sum_received"), false}};
    if (mode == QLatin1String("--bidir"))
        return {forward,
                {QStringLiteral("sum_sent_bidir_reverse"), QStringLiteral("sum_received_bidir_reverse"), false}};
    return {forward};
}

// Checks two -J documents of the same test, one from each side, against each other:
// - the sender's own count and the receiver's own count agree within 10% (on loopback
//   only what was in flight at the end differs);
// - wherever both documents give a figure for the same key, they agree within tolerance
//   (iperf3 3.12 servers print 0 for figures they did not measure; those are skipped).
void compareDocuments(const QJsonObject &clientDoc, const QJsonObject &serverDoc, const QString &mode, double tolerance,
                      const char *clientName, const char *serverName)
{
    for (const DirectionKeys &k : directionsFor(mode)) {
        const QJsonObject &senderDoc = k.clientSends ? clientDoc : serverDoc;
        const QJsonObject &receiverDoc = k.clientSends ? serverDoc : clientDoc;
        const double sent = sumOf(senderDoc, k.sent).value(QStringLiteral("bytes")).toDouble();
        const double received = sumOf(receiverDoc, k.received).value(QStringLiteral("bytes")).toDouble();
        const QString where = QStringLiteral("%1 (%2 -> %3): sender counted %4, receiver counted %5")
                                  .arg(k.sent, k.clientSends ? QLatin1String(clientName) : QLatin1String(serverName),
                                       k.clientSends ? QLatin1String(serverName) : QLatin1String(clientName))
                                  .arg(sent, 0, 'f', 0)
                                  .arg(received, 0, 'f', 0);
        QVERIFY2(sent > 0 && received > 0, qPrintable(where));
        QVERIFY2(received <= sent, qPrintable(where));
        // What is still in the socket buffers when the receiver stops counting is lost
        // to it: several MB per stream on loopback, so this bound is looser than the
        // figure-for-figure comparison below.
        QVERIFY2(relDiff(sent, received) <= 0.10, qPrintable(where));

        int compared = 0;
        for (const QString &key : {k.sent, k.received}) {
            const QJsonObject a = sumOf(clientDoc, key), b = sumOf(serverDoc, key);
            for (const char *field : {"bytes", "bits_per_second"}) {
                const double x = a.value(QLatin1String(field)).toDouble(), y = b.value(QLatin1String(field)).toDouble();
                if (x <= 0 || y <= 0)
                    continue;
                ++compared;
                QVERIFY2(relDiff(x, y) <= tolerance,
                         qPrintable(QStringLiteral("%1.%2: %3 says %4, %5 says %6")
                                        .arg(key, QLatin1String(field), QLatin1String(clientName))
                                        .arg(x, 0, 'f', 0)
                                        .arg(QLatin1String(serverName))
                                        .arg(y, 0, 'f', 0)));
            }
        }
        QVERIFY2(compared >= 2, qPrintable(QStringLiteral("nothing to compare for %1").arg(k.sent)));
    }
}

QJsonObject parseJson(const QByteArray &text, QString *error)
{
    QJsonParseError perr;
    const QJsonDocument d = QJsonDocument::fromJson(text, &perr);
    if (perr.error != QJsonParseError::NoError || !d.isObject()) {
        *error = perr.errorString();
        return {};
    }
    return d.object();
}

} // namespace

class TestInterop : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void ourClientStockIperf3Server_data() { modes_data(); }
    void ourClientStockIperf3Server();
    void stockIperf3ClientOurServer_data() { modes_data(); }
    void stockIperf3ClientOurServer();
    void stockIperf3ClientTextSummary_data() { modes_data(); }
    void stockIperf3ClientTextSummary();
    void stockIperf3ClientBusyServer();
    void ourClientStockIperf2Server();

private:
    void modes_data();
    void requireIperf3();
};

void TestInterop::initTestCase()
{
    QVERIFY2(QFile::exists(nbtest::cliPath()), qPrintable(nbtest::cliPath()));
}

void TestInterop::requireIperf3()
{
    if (!nbtest::haveTool(QStringLiteral("iperf3")))
        QSKIP("iperf3 is not in PATH (install the Debian package iperf3 to run the interoperability tests)");
}

void TestInterop::modes_data()
{
    QTest::addColumn<QString>("mode");
    QTest::newRow("forward") << QString();
    QTest::newRow("reverse -R") << QStringLiteral("-R");
    QTest::newRow("bidir") << QStringLiteral("--bidir");
    QTest::newRow("parallel -P 4") << QStringLiteral("-P 4");
}

void TestInterop::ourClientStockIperf3Server()
{
    requireIperf3();
    QFETCH(QString, mode);
    Child server;
    QString why;
    const quint16 port = nbtest::startListening(
        server, QStringLiteral("iperf3"), {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-J")}, &why);
    QVERIFY2(port != 0, qPrintable(why));

    Child client;
    client.start(nbtest::cliPath(), QStringList{QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                                QString::number(port), QStringLiteral("-t"),
                                                QString::number(DurationSecs), QStringLiteral("-J")} +
                                        modeArgs(mode));
    QVERIFY2(client.waitFinished((DurationSecs + 10) * 1000), qPrintable(client.describe()));
    QVERIFY2(server.waitFinished(5000), qPrintable(server.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    QVERIFY2(server.exitCode() == 0, qPrintable(server.describe()));

    QString error;
    const QJsonObject ours = parseJson(client.out(), &error);
    QVERIFY2(!ours.isEmpty(), qPrintable(error));
    const QJsonObject theirs = parseJson(server.out(), &error);
    QVERIFY2(!theirs.isEmpty(), qPrintable(error));
    QVERIFY2(!ours.contains(QStringLiteral("error")), qPrintable(ours.value(QStringLiteral("error")).toString()));
    QVERIFY2(!theirs.contains(QStringLiteral("error")), qPrintable(theirs.value(QStringLiteral("error")).toString()));

    const int expectedStreams = mode == QLatin1String("-P 4") ? 4 : mode == QLatin1String("--bidir") ? 2 : 1;
    QCOMPARE(theirs.value(QStringLiteral("end")).toObject().value(QStringLiteral("streams")).toArray().size(),
             expectedStreams);
    QCOMPARE(ours.value(QStringLiteral("end")).toObject().value(QStringLiteral("streams")).toArray().size(),
             expectedStreams);
    compareDocuments(ours, theirs, mode, 0.03, "nicbench-cli -c", "iperf3 -s");
    // The stock server saw the parameters we meant.
    const QJsonObject ts =
        theirs.value(QStringLiteral("start")).toObject().value(QStringLiteral("test_start")).toObject();
    QCOMPARE(ts.value(QStringLiteral("duration")).toInt(), DurationSecs);
    QCOMPARE(ts.value(QStringLiteral("reverse")).toInt(), mode == QLatin1String("-R") ? 1 : 0);
}

void TestInterop::stockIperf3ClientOurServer()
{
    requireIperf3();
    QFETCH(QString, mode);
    Child server;
    QString why;
    const quint16 port = nbtest::startListening(
        server, nbtest::cliPath(), {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-J")}, &why);
    QVERIFY2(port != 0, qPrintable(why));

    Child client;
    client.start(QStringLiteral("iperf3"),
                 QStringList{QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                             QString::number(port), QStringLiteral("-t"), QString::number(DurationSecs),
                             QStringLiteral("-J")} +
                     modeArgs(mode));
    QVERIFY2(client.waitFinished((DurationSecs + 10) * 1000), qPrintable(client.describe()));
    QVERIFY2(server.waitFinished(5000), qPrintable(server.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    QVERIFY2(server.exitCode() == 0, qPrintable(server.describe()));

    QString error;
    const QJsonObject theirs = parseJson(client.out(), &error);
    QVERIFY2(!theirs.isEmpty(), qPrintable(error));
    QVERIFY2(!theirs.contains(QStringLiteral("error")), qPrintable(theirs.value(QStringLiteral("error")).toString()));
    QVERIFY(sumOf(theirs, QStringLiteral("sum_received")).value(QStringLiteral("bytes")).toDouble() > 0);
    QVERIFY(sumOf(theirs, QStringLiteral("sum_sent")).value(QStringLiteral("bytes")).toDouble() > 0);

    // Our server prints a JSON document after the "Server listening" banner.
    QByteArray serverOut = server.out();
    serverOut = serverOut.mid(serverOut.indexOf('{'));
    const QJsonObject ours = parseJson(serverOut, &error);
    QVERIFY2(!ours.isEmpty(), qPrintable(error + QStringLiteral(": ") + server.describe()));
    QVERIFY2(!ours.contains(QStringLiteral("error")), qPrintable(ours.value(QStringLiteral("error")).toString()));
    compareDocuments(theirs, ours, mode, 0.03, "iperf3 -c", "nicbench-cli -s");
    QCOMPARE(ours.value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("remote_version")).toString(),
             QStringLiteral("3.12"));
}

void TestInterop::stockIperf3ClientTextSummary()
{
    requireIperf3();
    QFETCH(QString, mode);
    const quint16 port = nbtest::freePort();
    Child server;
    server.start(nbtest::cliPath(),
                 {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-p"), QString::number(port)});
    QVERIFY2(server.waitForOutput("Server listening", 5000), qPrintable(server.describe()));

    Child client;
    client.start(QStringLiteral("iperf3"),
                 QStringList{QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                             QString::number(port), QStringLiteral("-t"), QStringLiteral("1")} +
                     modeArgs(mode));
    QVERIFY2(client.waitFinished(11000), qPrintable(client.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    const QByteArray out = client.out();
    QVERIFY2(out.contains("iperf Done."), qPrintable(client.describe()));
    QVERIFY2(out.contains(" sender") && out.contains(" receiver"), qPrintable(client.describe()));
    QVERIFY2(!out.contains("error") && client.err().isEmpty(), qPrintable(client.describe()));
    if (mode == QLatin1String("-P 4"))
        QVERIFY2(out.contains("[SUM]"), qPrintable(client.describe()));
    if (mode == QLatin1String("--bidir"))
        QVERIFY2(out.contains("[TX-C]") && out.contains("[RX-C]"), qPrintable(client.describe()));
    QVERIFY2(server.waitFinished(5000), qPrintable(server.describe()));
    QCOMPARE(server.exitCode(), 0);
}

void TestInterop::stockIperf3ClientBusyServer()
{
    requireIperf3();
    const quint16 port = nbtest::freePort();
    Child server;
    server.start(nbtest::cliPath(), {QStringLiteral("-s"), QStringLiteral("-p"), QString::number(port)});
    QVERIFY2(server.waitForOutput("Server listening", 5000), qPrintable(server.describe()));
    Child first;
    first.start(nbtest::cliPath(),
                {QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"), QString::number(port),
                 QStringLiteral("-t"), QStringLiteral("5"), QStringLiteral("-i"), QStringLiteral("0.2")});
    QVERIFY2(first.waitForOutput(" sec ", 5000), qPrintable(first.describe())); // the test is running

    QElapsedTimer t;
    t.start();
    Child second;
    second.start(QStringLiteral("iperf3"), {QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                            QString::number(port), QStringLiteral("-t"), QStringLiteral("1")});
    QVERIFY2(second.waitFinished(5000), qPrintable(second.describe()));
    QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
    QVERIFY2(second.exitCode() != 0, qPrintable(second.describe()));
    const QByteArray all = second.out() + second.err();
    QVERIFY2(all.contains("the server is busy running a test"), qPrintable(second.describe()));
    QVERIFY2(first.running(), "the running test must not be disturbed");
}

void TestInterop::ourClientStockIperf2Server()
{
    if (!nbtest::haveTool(QStringLiteral("iperf")))
        QSKIP("iperf (iperf2) is not in PATH (install the Debian package iperf to run this test)");
    // iperf2 has no one-off mode: the Child kills it (by its own QProcess) at scope exit.
    Child server;
    QString why;
    const quint16 port = nbtest::startListening(
        server, QStringLiteral("iperf"), {QStringLiteral("-s"), QStringLiteral("-y"), QStringLiteral("C")}, &why);
    QVERIFY2(port != 0, qPrintable(why));

    Child client;
    client.start(nbtest::cliPath(), {QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                     QString::number(port), QStringLiteral("-t"), QString::number(DurationSecs),
                                     QStringLiteral("--iperf2"), QStringLiteral("-J")});
    QVERIFY2(client.waitFinished((DurationSecs + 10) * 1000), qPrintable(client.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    QString error;
    const QJsonObject ours = parseJson(client.out(), &error);
    QVERIFY2(!ours.isEmpty(), qPrintable(error));
    const QJsonObject sent = sumOf(ours, QStringLiteral("sum_sent"));
    const double ourBytes = sent.value(QStringLiteral("bytes")).toDouble();
    const double ourBps = sent.value(QStringLiteral("bits_per_second")).toDouble();
    QVERIFY2(ourBps > 100e6, qPrintable(QStringLiteral("%1 bit/s on loopback").arg(ourBps)));
    QVERIFY2(sent.value(QStringLiteral("seconds")).toDouble() >= DurationSecs * 0.99, qPrintable(client.describe()));

    // iperf2's CSV report: time,src,sport,dst,dport,id,interval,bytes,bits_per_second
    QVERIFY2(server.waitForOutput("\n", 5000), qPrintable(server.describe()));
    const QList<QByteArray> lines = server.out().trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    const QList<QByteArray> fields = lines.first().trimmed().split(',');
    QVERIFY2(fields.size() >= 9, lines.first().constData());
    const double theirBytes = fields.at(7).toDouble(), theirBps = fields.at(8).toDouble();
    QVERIFY2(relDiff(ourBytes, theirBytes) <= 0.05, qPrintable(QStringLiteral("we sent %1 bytes, iperf2 received %2")
                                                                   .arg(ourBytes, 0, 'f', 0)
                                                                   .arg(theirBytes, 0, 'f', 0)));
    QVERIFY2(
        relDiff(ourBps, theirBps) <= 0.05,
        qPrintable(QStringLiteral("we report %1 bit/s, iperf2 %2").arg(ourBps, 0, 'f', 0).arg(theirBps, 0, 'f', 0)));
    QVERIFY2(server.err().isEmpty() || !server.err().contains("fail"), qPrintable(server.describe()));
}

QTEST_GUILESS_MAIN(TestInterop)
#include "tst_interop.moc"
