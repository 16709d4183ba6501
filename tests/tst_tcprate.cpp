// SPDX-License-Identifier: GPL-3.0-or-later
// TCP -b (iperf3's paced TCP): every sender holds the rate asked, per stream, in each
// pairing of our client and server with stock iperf3 3.12 (forward, -R, --bidir). Our side
// paces its sockets with the kernel's TCP pacing (SO_MAX_PACING_RATE); a stock server paces
// by the "bandwidth" our client sends, a stock client paces itself. On loopback an unpaced
// stream runs at many Gbit/s, so a receiver within a few per cent of the rate shows the
// pacing. Needs `iperf3` in PATH for the stock pairings (they skip with a reason without).
#include "integrationhelpers.h"
#include "udpdocuments.h"

#include <QTest>

using nbtest::Child;
using nbtest::modeArgs;
using nbtest::parseJson;

namespace {

constexpr double RatePerStream = 100e6;
constexpr int Streams = 2;

QString programFor(bool ours)
{
    return ours ? nbtest::cliPath() : QStringLiteral("iperf3");
}

} // namespace

class TestTcpRate : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void pairings_data();
    void pairings();
    void withoutRateNothingIsPaced();
};

void TestTcpRate::initTestCase()
{
    QVERIFY2(QFile::exists(nbtest::cliPath()), qPrintable(nbtest::cliPath()));
}

void TestTcpRate::pairings_data()
{
    QTest::addColumn<bool>("ourClient");
    QTest::addColumn<bool>("ourServer");
    QTest::addColumn<QString>("mode");
    for (const auto &[ourClient, ourServer, name] :
         {std::tuple{true, true, "ours-ours"}, {true, false, "ours-stock"}, {false, true, "stock-ours"}}) {
        for (const char *mode : {"", "-R", "--bidir"})
            QTest::addRow("%s %s", name, *mode ? mode : "forward")
                << ourClient << ourServer << QString::fromLatin1(mode);
    }
}

void TestTcpRate::pairings()
{
    QFETCH(bool, ourClient);
    QFETCH(bool, ourServer);
    QFETCH(QString, mode);
    if ((!ourClient || !ourServer) && !nbtest::haveTool(QStringLiteral("iperf3")))
        QSKIP("iperf3 is not in PATH (install the Debian package iperf3 to run the stock pairings)");
    Child server;
    QString why;
    const quint16 port = nbtest::startListening(
        server, programFor(ourServer), {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-J")}, &why);
    QVERIFY2(port != 0, qPrintable(why));
    Child client;
    client.start(programFor(ourClient), QStringList{QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"),
                                                    QString::number(port), QStringLiteral("-b"), QStringLiteral("100M"),
                                                    QStringLiteral("-P"), QString::number(Streams),
                                                    QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("-J")} +
                                            modeArgs(mode));
    QVERIFY2(client.waitFinished(20000), qPrintable(client.describe()));
    QVERIFY2(server.waitFinished(5000), qPrintable(server.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    QVERIFY2(server.exitCode() == 0, qPrintable(server.describe()));
    QString error;
    const QJsonObject clientDoc = parseJson(client.out(), &error);
    QVERIFY2(!clientDoc.isEmpty(), qPrintable(error));
    const QJsonObject serverDoc = parseJson(server.out(), &error);
    QVERIFY2(!serverDoc.isEmpty(), qPrintable(error));
    for (const auto &[suffix, clientSends] : nbtest::directions(mode)) {
        // The receiver's own figure, from its own document.
        const QJsonObject &receiverDoc = clientSends ? serverDoc : clientDoc;
        const QJsonObject received =
            nbtest::endOf(receiverDoc).value(QStringLiteral("sum_received") + suffix).toObject();
        const double bps = nbtest::num(received, "bits_per_second");
        const QString where = QStringLiteral("direction %1 (client sends: %2): received %3 bit/s, asked %4\n%5\n%6")
                                  .arg(suffix.isEmpty() ? QStringLiteral("primary") : suffix)
                                  .arg(clientSends)
                                  .arg(bps)
                                  .arg(RatePerStream * Streams)
                                  .arg(client.describe(), server.describe());
        // Above: pacing (unpaced loopback is tens of times faster). Below: a loaded 2-core
        // machine may hold a sender up now and then; the figure measured is in the notes.
        QVERIFY2(bps <= RatePerStream * Streams * 1.05, qPrintable(where));
        QVERIFY2(bps >= RatePerStream * Streams * 0.85, qPrintable(where));
        qInfo("%s %s: %.2f Mbit/s received", suffix.isEmpty() ? "primary" : qPrintable(suffix),
              clientSends ? "(client sends)" : "(server sends)", bps / 1e6);
    }
}

// No -b: nothing is paced (iperf3's 1 Mbit/s default is UDP's): loopback runs far above it.
void TestTcpRate::withoutRateNothingIsPaced()
{
    Child server;
    QString why;
    const quint16 port =
        nbtest::startListening(server, nbtest::cliPath(), {QStringLiteral("-s"), QStringLiteral("-1")}, &why);
    QVERIFY2(port != 0, qPrintable(why));
    Child client;
    client.start(nbtest::cliPath(),
                 {QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"), QString::number(port),
                  QStringLiteral("-R"), QStringLiteral("-t"), QStringLiteral("1"), QStringLiteral("-J")});
    QVERIFY2(client.waitFinished(20000), qPrintable(client.describe()));
    QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
    QString error;
    const QJsonObject doc = parseJson(client.out(), &error);
    QVERIFY2(!doc.isEmpty(), qPrintable(error));
    const double bps =
        nbtest::num(nbtest::endOf(doc).value(QStringLiteral("sum_received")).toObject(), "bits_per_second");
    QVERIFY2(bps > 3 * RatePerStream, qPrintable(QStringLiteral("%1 bit/s\n%2").arg(bps).arg(client.describe())));
}

QTEST_GUILESS_MAIN(TestTcpRate)
#include "tst_tcprate.moc"
