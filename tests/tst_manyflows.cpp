// SPDX-License-Identifier: GPL-3.0-or-later
// Many flows end to end on loopback, nicbench-cli against nicbench-cli -s: every connection
// or stream moved data, no flow is lost, the per-flow counts add up to the totals and the
// fairness figures in -J are there and in range. Also the limits: more than 128 streams
// toward a stock iperf3 server is refused with a message that says why, and a descriptor
// limit too low for the asked connections is one clear error at the start (prlimit).
// Sizes are modest (2 s tests) so each case takes seconds on a 2-core machine.
#include "integrationhelpers.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using nbtest::kLoopback;

namespace {

QJsonObject parseJson(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object();
}

// flows, min <= median <= max, mean inside, 0 < J <= 1, min > 0 (every flow did work), and
// mean * flows equal to `total` (the per-flow counts add up).
void checkFairness(const QJsonObject &f, int flows, double total, const QString &where)
{
    const QString dump = where + QLatin1Char(' ') + QString::fromUtf8(QJsonDocument(f).toJson(QJsonDocument::Compact));
    QVERIFY2(!f.isEmpty(), qPrintable(where + QStringLiteral(": no fairness object")));
    QCOMPARE(f.value(QStringLiteral("flows")).toInt(), flows);
    const double min = f.value(QStringLiteral("min")).toDouble(-1);
    const double median = f.value(QStringLiteral("median")).toDouble(-1);
    const double max = f.value(QStringLiteral("max")).toDouble(-1);
    const double mean = f.value(QStringLiteral("mean")).toDouble(-1);
    const double jain = f.value(QStringLiteral("jain_index")).toDouble(-1);
    QVERIFY2(min > 0, qPrintable(dump));
    QVERIFY2(min <= median && median <= max && min <= mean && mean <= max, qPrintable(dump));
    QVERIFY2(jain > 0 && jain <= 1, qPrintable(dump));
    // Jain's index is at least 1/n whatever the spread.
    QVERIFY2(jain >= 1.0 / flows - 1e-12, qPrintable(dump));
    QVERIFY2(std::fabs(mean * flows - total) <= 1e-9 * total + 0.5,
             qPrintable(dump + QStringLiteral(" total %1").arg(total, 0, 'f', 0)));
}

} // namespace

class TestManyFlows : public QObject {
    Q_OBJECT
private slots:
    void requestResponse_data();
    void requestResponse();
    void streams_data();
    void streams();
    void stockIperf3RefusesMoreThan128();
    void descriptorLimitTooLowOnTheClient();
    void descriptorLimitTooLowOnTheServer();
};

void TestManyFlows::requestResponse_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("connections");
    QTest::newRow("rr 256 connections") << QStringLiteral("--rr") << 256;
    QTest::newRow("crr 32 connections") << QStringLiteral("--crr") << 32;
}

void TestManyFlows::requestResponse()
{
    QFETCH(QString, kind);
    QFETCH(int, connections);
    nbtest::ServerProcess server;
    const QString started = server.start(nbtest::cliPath(), {QStringLiteral("-s")});
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const QStringList args{QStringLiteral("-c"),
                           kLoopback,
                           QStringLiteral("-p"),
                           QString::number(server.port()),
                           kind,
                           QStringLiteral("--connections"),
                           QString::number(connections),
                           QStringLiteral("-t"),
                           QStringLiteral("2"),
                           QStringLiteral("-J")};
    const nbtest::CliRun run = nbtest::runCli(args, 30000);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe(args)));
    const QJsonObject root = parseJson(run.out);
    const QJsonObject rr = root.value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("rr")).toObject();
    QCOMPARE(rr.value(QStringLiteral("connections")).toInt(), connections);
    const double transactions = rr.value(QStringLiteral("transactions")).toDouble();
    QVERIFY2(transactions > connections, qPrintable(run.describe(args)));
    checkFairness(rr.value(QStringLiteral("fairness")).toObject(), connections, transactions,
                  QStringLiteral("nicbench.rr.fairness"));
    if (kind == QLatin1String("--rr")) {
        // One data connection per flow, none lost.
        QCOMPARE(root.value(QStringLiteral("end")).toObject().value(QStringLiteral("streams")).toArray().size(),
                 connections);
        QCOMPARE(root.value(QStringLiteral("start")).toObject().value(QStringLiteral("connected")).toArray().size(),
                 connections);
    }
    // The text report has the one-line summary of the spread.
    const QStringList textArgs = args.mid(0, args.size() - 1);
    const nbtest::CliRun text = nbtest::runCli(textArgs, 30000);
    QVERIFY2(text.finished && text.exitCode == 0, qPrintable(text.describe(textArgs)));
    QVERIFY2(text.out.contains(QStringLiteral("flows: %1, transactions per flow min ").arg(connections).toUtf8()) &&
                 text.out.contains("Jain's fairness "),
             qPrintable(text.describe(textArgs)));
}

void TestManyFlows::streams_data()
{
    QTest::addColumn<int>("parallel");
    QTest::addColumn<bool>("bidir");
    QTest::addColumn<int>("seconds");
    QTest::newRow("-P 64") << 64 << false << 2;
    // With one thread per stream, 400 busy threads on two cores start slowly (a new thread
    // waits a whole scheduler period): 4 s leaves the last ones time to run.
    QTest::newRow("-P 200 (above stock iperf3's 128)") << 200 << false << 4;
    QTest::newRow("-P 16 --bidir") << 16 << true << 2;
}

void TestManyFlows::streams()
{
    QFETCH(int, parallel);
    QFETCH(bool, bidir);
    QFETCH(int, seconds);
    nbtest::ServerProcess server;
    const QString started = server.start(nbtest::cliPath(), {QStringLiteral("-s")});
    QVERIFY2(started.isEmpty(), qPrintable(started));
    QStringList args{QStringLiteral("-c"), kLoopback,
                     QStringLiteral("-p"), QString::number(server.port()),
                     QStringLiteral("-P"), QString::number(parallel),
                     QStringLiteral("-t"), QString::number(seconds),
                     QStringLiteral("-l"), QStringLiteral("16K"),
                     QStringLiteral("-J")};
    if (bidir)
        args << QStringLiteral("--bidir");
    const nbtest::CliRun run = nbtest::runCli(args, 40000);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe(args)));
    const QJsonObject root = parseJson(run.out);
    const QJsonObject end = root.value(QStringLiteral("end")).toObject();
    const QJsonArray streams = end.value(QStringLiteral("streams")).toArray();
    QCOMPARE(streams.size(), bidir ? 2 * parallel : parallel);

    // Per direction (sender == the client sent): what every stream moved, summed.
    double sent[2] = {0, 0}, received[2] = {0, 0}, localCount[2] = {0, 0};
    int perDirection[2] = {0, 0};
    for (const QJsonValue &v : streams) {
        const QJsonObject snd = v.toObject().value(QStringLiteral("sender")).toObject();
        const QJsonObject rcv = v.toObject().value(QStringLiteral("receiver")).toObject();
        const double s = snd.value(QStringLiteral("bytes")).toDouble(-1);
        const double r = rcv.value(QStringLiteral("bytes")).toDouble(-1);
        QVERIFY2(s > 0 && r > 0, qPrintable(QString::fromUtf8(QJsonDocument(v.toObject()).toJson())));
        const int forward = snd.value(QStringLiteral("sender")).toBool() ? 0 : 1;
        sent[forward] += s;
        received[forward] += r;
        // The client's own count: what it sent forward, what it received back.
        localCount[forward] += forward == 0 ? s : r;
        ++perDirection[forward];
    }
    QCOMPARE(perDirection[0], parallel);
    QCOMPARE(perDirection[1], bidir ? parallel : 0);
    QCOMPARE(end.value(QStringLiteral("sum_sent")).toObject().value(QStringLiteral("bytes")).toDouble(), sent[0]);
    QCOMPARE(end.value(QStringLiteral("sum_received")).toObject().value(QStringLiteral("bytes")).toDouble(),
             received[0]);
    const QJsonObject nb = root.value(QStringLiteral("nicbench")).toObject();
    checkFairness(nb.value(QStringLiteral("fairness")).toObject(), parallel, localCount[0],
                  QStringLiteral("nicbench.fairness"));
    if (bidir) {
        QCOMPARE(
            end.value(QStringLiteral("sum_sent_bidir_reverse")).toObject().value(QStringLiteral("bytes")).toDouble(),
            sent[1]);
        checkFairness(nb.value(QStringLiteral("fairness_bidir_reverse")).toObject(), parallel, localCount[1],
                      QStringLiteral("nicbench.fairness_bidir_reverse"));
    } else {
        QVERIFY(!nb.contains(QStringLiteral("fairness_bidir_reverse")));
    }
}

void TestManyFlows::stockIperf3RefusesMoreThan128()
{
    if (!nbtest::haveTool(QStringLiteral("iperf3")))
        QSKIP("iperf3 is not installed (apt-get install iperf3)");
    nbtest::ServerProcess server;
    const QString started =
        server.start(QStringLiteral("iperf3"), {QStringLiteral("-s"), QStringLiteral("--forceflush")});
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const QStringList args{QStringLiteral("-c"), kLoopback,
                           QStringLiteral("-p"), QString::number(server.port()),
                           QStringLiteral("-P"), QStringLiteral("129"),
                           QStringLiteral("-t"), QStringLiteral("1")};
    QElapsedTimer clock;
    clock.start();
    const nbtest::CliRun run = nbtest::runCli(args, 15000);
    QVERIFY2(run.finished && run.exitCode != 0, qPrintable(run.describe(args)));
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
    QVERIFY2(run.err.contains("stock iperf3 server, which takes at most 128 parallel streams; 129 were asked"),
             qPrintable(run.describe(args)));
    QVERIFY2(run.out.isEmpty() || !run.out.contains("sender"), qPrintable(run.describe(args)));
    // Left clean: the same server runs the next test.
    const QStringList next{
        QStringLiteral("-c"), kLoopback,           QStringLiteral("-p"), QString::number(server.port()),
        QStringLiteral("-P"), QStringLiteral("2"), QStringLiteral("-t"), QStringLiteral("1")};
    const nbtest::CliRun again = nbtest::runCli(next, 15000);
    QVERIFY2(again.finished && again.exitCode == 0, qPrintable(again.describe(next)));
}

void TestManyFlows::descriptorLimitTooLowOnTheClient()
{
    if (!nbtest::haveTool(QStringLiteral("prlimit")))
        QSKIP("prlimit (util-linux) is not installed");
    nbtest::ServerProcess server;
    const QString started = server.start(nbtest::cliPath(), {QStringLiteral("-s")});
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const QStringList args{QStringLiteral("--nofile=64:64"),
                           nbtest::cliPath(),
                           QStringLiteral("-c"),
                           kLoopback,
                           QStringLiteral("-p"),
                           QString::number(server.port()),
                           QStringLiteral("--rr"),
                           QStringLiteral("--connections"),
                           QStringLiteral("200"),
                           QStringLiteral("-t"),
                           QStringLiteral("2")};
    QProcess p;
    QElapsedTimer clock;
    clock.start();
    p.start(QStringLiteral("prlimit"), args);
    QVERIFY(p.waitForFinished(15000));
    QVERIFY2(clock.elapsed() < 5000, qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() != 0, qPrintable(err));
    for (const char *needed : {"for 200 data connections", "may open only 64", "RLIMIT_NOFILE", "hard limit 64",
                               "ulimit -n", "LimitNOFILE="})
        QVERIFY2(err.contains(QLatin1String(needed)),
                 qPrintable(QStringLiteral("missing '%1' in: %2").arg(QLatin1String(needed), err)));
    // Failed before any data connection: nothing measured, no half-run report.
    QVERIFY2(!p.readAllStandardOutput().contains("TCP_RR:"), qPrintable(err));
}

void TestManyFlows::descriptorLimitTooLowOnTheServer()
{
    if (!nbtest::haveTool(QStringLiteral("prlimit")))
        QSKIP("prlimit (util-linux) is not installed");
    nbtest::ServerProcess server;
    const QString started = server.start(QStringLiteral("prlimit"),
                                         {QStringLiteral("--nofile=100:100"), nbtest::cliPath(), QStringLiteral("-s")});
    QVERIFY2(started.isEmpty(), qPrintable(started));
    const QStringList args{QStringLiteral("-c"),   kLoopback,
                           QStringLiteral("-p"),   QString::number(server.port()),
                           QStringLiteral("--rr"), QStringLiteral("--connections"),
                           QStringLiteral("200"),  QStringLiteral("-t"),
                           QStringLiteral("2")};
    const nbtest::CliRun run = nbtest::runCli(args, 15000);
    QVERIFY2(run.finished && run.exitCode != 0, qPrintable(run.describe(args)));
    QVERIFY2(run.err.contains("test initialization failed (Too many open files)"), qPrintable(run.describe(args)));
    // The server says which limit and how to raise it.
    QTRY_VERIFY_WITH_TIMEOUT(server.output().contains(QStringLiteral("may open only 100 (RLIMIT_NOFILE")), 5000);
    QVERIFY2(server.output().contains(QStringLiteral("ulimit -n")), qPrintable(server.output()));
}

QTEST_GUILESS_MAIN(TestManyFlows)
#include "tst_manyflows.moc"
