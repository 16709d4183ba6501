// SPDX-License-Identifier: GPL-3.0-or-later
// Comparisons end to end on loopback: -P 1 against -P 4, 1 s per run, 2 repeats, through
// the engine's ComparisonRunner (in-process server) and through `nicbench-cli compare` /
// `nicbench-cli report` (server and client as separate processes). Plus the schedule and
// matrix builders, and a failing run that must not stop the comparison.
#include "compare/comparisonmatrix.h"
#include "compare/comparisonrunner.h"
#include "compare/comparisonspec.h"
#include "compare/comparisonstatistics.h"
#include "compare/snapshot.h"
#include "compare/udpmetrics.h"
#include "comparisonruns.h"
#include "core/gzip.h"
#include "integrationhelpers.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <mutex>
#include <thread>

using namespace nb;
using nbtest::CliRun;
using nbtest::freePort;
using nbtest::kLoopback;
using nbtest::runCli;
using nbtest::ServerThread;

namespace {

// Records what the runner reports, from the runner's thread.
class Recorder : public ComparisonListener {
public:
    void runStarted(const Configuration &, const ScheduledRun &slot, int orderIndex, int total) override
    {
        std::lock_guard lock(m_mutex);
        started.append(slot);
        startedOrder.append(orderIndex);
        totals.append(total);
    }
    void runFinished(const Run &run, int) override
    {
        std::lock_guard lock(m_mutex);
        finished.append(run.orderIndex);
    }
    void interval(int orderIndex, const IntervalReport &) override
    {
        std::lock_guard lock(m_mutex);
        intervalsByRun[orderIndex] += 1;
    }
    std::mutex m_mutex;
    QList<ScheduledRun> started;
    QList<int> startedOrder, totals, finished;
    QMap<int, int> intervalsByRun;
};

TestParams loopbackParams(quint16 port, int streams, double seconds)
{
    TestParams p = nbtest::loopbackTestParams(port, seconds, 0.5);
    p.streams = streams;
    return p;
}

// nicbench-cli -s as a child process, killed however the test ends.
class CliServer : public nbtest::ServerProcess {
public:
    QString start()
    {
        return ServerProcess::start(nbtest::cliPath(), {QStringLiteral("-s"), QStringLiteral("-B"), kLoopback});
    }
};

// Minimal CSV reader (quoted fields with doubled quotes), enough for our own output.
QList<QStringList> parseCsv(const QString &text, QString *error)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false, fieldStarted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    field += c;
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"') && !fieldStarted) {
            quoted = fieldStarted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
            fieldStarted = false;
        } else if (c == QLatin1Char('\n')) {
            row << field;
            rows << row;
            row.clear();
            field.clear();
            fieldStarted = false;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted)
        *error = QStringLiteral("unterminated quote");
    if (!field.isEmpty() || !row.isEmpty())
        rows << (row << field);
    return rows;
}

// The checks every finished -P 1 / -P 4 loopback comparison must pass.
void checkLoopbackComparison(const Comparison &c, int repeats)
{
    QCOMPARE(c.configurations.size(), 2);
    QCOMPARE(c.runs.size(), 2 * repeats);
    for (int i = 0; i < c.runs.size(); ++i) {
        const Run &r = c.runs[i];
        QVERIFY2(r.ok(), qPrintable(QStringLiteral("run %1: %2").arg(i).arg(r.result.error)));
        QCOMPARE(r.orderIndex, i);
        QVERIFY(r.startedAt.isValid());
        if (i > 0)
            QVERIFY(r.startedAt >= c.runs[i - 1].startedAt);
        QVERIFY(!r.result.intervals.isEmpty());
    }
    const ComparisonStatistics s = computeStatistics(c);
    for (int config = 0; config < 2; ++config) {
        const MetricStatistics *tp = s.find(config, Metric::Throughput);
        QVERIFY(tp);
        QCOMPARE(tp->summary.n, repeats);
        QVERIFY(tp->summary.mean > 1e6); // loopback moves far more than 1 Mbit/s
        QVERIFY(tp->summary.spreadKnown);
        QVERIFY(tp->summary.ciLow <= tp->summary.mean && tp->summary.mean <= tp->summary.ciHigh);
        QVERIFY(s.find(config, Metric::LocalCpu));
    }
    const MetricStatistics *p4 = s.find(1, Metric::Throughput);
    QVERIFY(p4->hasBaseline);
    QVERIFY(p4->vsBaseline.difference.valid);
    QVERIFY(p4->vsBaseline.welch.valid);
    QVERIFY(p4->vsBaseline.verdict != stats::Verdict::NotEnoughRuns);
    QVERIFY(!s.find(0, Metric::Throughput)->hasBaseline); // the baseline itself
}

// `nicbench-cli compare` with two repeats of each of `configs` ("label=flags"), `pause`
// seconds apart, into the snapshot `out`.
QStringList twoRepeatsArgs(const QString &pause, const QStringList &configs, const QString &out)
{
    QStringList args{QStringLiteral("compare"), QStringLiteral("--repeats"), QStringLiteral("2"),
                     QStringLiteral("--pause"), pause};
    for (const QString &config : configs)
        args << QStringLiteral("--config") << config;
    return args << QStringLiteral("-o") << out;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
private slots:
    void interleavedSchedule();
    void shuffledSchedule();
    void matrixLabels();
    void configFlags_data();
    void configFlags();
    void runnerEndToEnd();
    void failedRunIsRecorded();
    void stopEndsEarly();
    void cliEndToEnd();
    void cliFlagsForm();
    void cliLatencyUnderLoad();
    void udpMatrixVariants();
    void cliUdp();
    void cliRejectsBadInput();
    void cliRefusesGzipBomb();
    void cliReportsManySmallHistograms();
    void cliReportIsTerminalSafe();
    void cliEquivalence();

private:
    QTemporaryDir m_dir;
};

void TestCompare::interleavedSchedule()
{
    const QList<ScheduledRun> s = buildSchedule(3, 2, OrderPolicy::Interleaved, 0);
    const QList<ScheduledRun> expected{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}};
    QCOMPARE(s, expected);
    QVERIFY(buildSchedule(0, 3, OrderPolicy::Interleaved, 0).isEmpty());
    QVERIFY(buildSchedule(3, 0, OrderPolicy::Interleaved, 0).isEmpty());
}

void TestCompare::shuffledSchedule()
{
    const QList<ScheduledRun> a = buildSchedule(4, 5, OrderPolicy::Shuffled, 42);
    QCOMPARE(a, buildSchedule(4, 5, OrderPolicy::Shuffled, 42)); // reproducible
    QVERIFY(a != buildSchedule(4, 5, OrderPolicy::Interleaved, 42));
    QCOMPARE(a.size(), 20);
    // Blocked: every round holds every configuration once.
    for (int round = 0; round < 5; ++round) {
        QSet<int> seen;
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(a[round * 4 + i].repeatIndex, round);
            seen.insert(a[round * 4 + i].configIndex);
        }
        QCOMPARE(seen.size(), 4);
    }
}

void TestCompare::configFlags_data()
{
    QTest::addColumn<QString>("flag");
    QTest::addColumn<QString>("adapter");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("streams");
    QTest::newRow("plain") << QStringLiteral("P1=-c 127.0.0.1 -P 1") << QStringLiteral("P1") << QString() << 1;
    // A variant name holding '=' ("P=4"): the split is where the flags start.
    QTest::newRow("variant with =") << QStringLiteral("E1000, P=4=-c 127.0.0.1 -P 4") << QStringLiteral("E1000")
                                    << QStringLiteral("P=4") << 4;
    QTest::newRow("space before flags") << QStringLiteral("VMXNET3, P=16= -c 127.0.0.1 -P 16")
                                        << QStringLiteral("VMXNET3") << QStringLiteral("P=16") << 16;
}

void TestCompare::configFlags()
{
    QFETCH(QString, flag);
    QFETCH(QString, adapter);
    QFETCH(QString, variant);
    QFETCH(int, streams);
    Configuration c;
    QString error;
    QVERIFY2(configurationFromFlag(flag, &c, &error), qPrintable(error));
    QCOMPARE(c.adapter, adapter);
    QCOMPARE(c.variant, variant);
    QCOMPARE(c.params.streams, streams);
}

void TestCompare::matrixLabels()
{
    TestParams base;
    base.duration = 5;
    MatrixEndpoint lo = MatrixEndpoint::fromBindAddress(kLoopback, QStringLiteral("127.0.0.2"));
    QVERIFY(lo.adapter); // 127.0.0.1 belongs to the loopback adapter
    AdapterInfo e1000;
    e1000.name = QStringLiteral("eth1");
    e1000.family = AdapterFamily::E1000;
    MatrixEndpoint vm{QStringLiteral("198.18.0.1"), QStringLiteral("198.18.0.2"), e1000, QString()};
    const QList<Configuration> m =
        buildMatrix(base, {lo, vm}, {MatrixVariant::withStreams(1), MatrixVariant::withStreams(4)});
    QCOMPARE(m.size(), 4);
    // Short labels: the NIC model when the family names one, else the interface name.
    QCOMPARE(m[0].label, QStringLiteral("%1, P=1").arg(lo.adapter->name));
    QCOMPARE(m[3].label, QStringLiteral("E1000, P=4"));
    QCOMPARE(m[3].adapter, QStringLiteral("E1000"));
    QCOMPARE(m[3].variant, QStringLiteral("P=4"));
    QCOMPARE(m[3].params.streams, 4);
    QCOMPARE(m[3].params.bindAddress, QStringLiteral("198.18.0.1"));
    QCOMPARE(m[3].params.host, QStringLiteral("198.18.0.2"));
    QCOMPARE(m[3].params.duration, 5.0);
    // The RR variant has its own connection count (1, netperf's TCP_RR), not the
    // throughput variants' streams (the review's M4).
    base.streams = 4;
    const QList<Configuration> kinds =
        buildMatrix(base, {vm}, {MatrixVariant::throughput(), MatrixVariant::requestResponse()});
    QCOMPARE(kinds[1].label, QStringLiteral("E1000, TCP_RR"));
    QCOMPARE(kinds[1].params.kind, TestKind::Rr);
    QCOMPARE(kinds[1].params.connections(), 1);
    QCOMPARE(kinds[0].params.streams, 4);
    QCOMPARE(buildMatrix(base, {vm}, {MatrixVariant::requestResponse(8)}).first().variant,
             QStringLiteral("TCP_RR (8 conn.)"));
    // Two endpoints of the same model are told apart by their interface names.
    AdapterInfo second = e1000;
    second.name = QStringLiteral("eth2");
    const MatrixEndpoint vm2{QStringLiteral("198.18.2.1"), QStringLiteral("198.18.2.2"), second, QString()};
    QCOMPARE(defaultLabels({vm, vm2}), (QStringList{QStringLiteral("E1000 eth1"), QStringLiteral("E1000 eth2")}));
    base.streams = 1;
    vm.label = QStringLiteral("VM NIC");
    QCOMPARE(buildMatrix(base, {vm}, {}).first().label, QStringLiteral("VM NIC"));
}

void TestCompare::runnerEndToEnd()
{
    ServerThread server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    Comparison c;
    c.title = QStringLiteral("P1 vs P4");
    c.repeats = 2;
    c.pauseSeconds = 0.2;
    c.configurations = {{QStringLiteral("P1"), {}, {}, loopbackParams(server.port(), 1, 1), QString(), {}},
                        {QStringLiteral("P4"), {}, {}, loopbackParams(server.port(), 4, 1), QString(), {}}};
    Recorder recorder;
    ComparisonRunner runner(c, &recorder);
    const Comparison done = runner.run();
    checkLoopbackComparison(done, 2);
    // Interleaved: P1 P4 P1 P4.
    QCOMPARE(done.runs[0].configIndex, 0);
    QCOMPARE(done.runs[1].configIndex, 1);
    QCOMPARE(done.runs[2].configIndex, 0);
    QCOMPARE(done.runs[3].configIndex, 1);
    QCOMPARE(done.runs[2].repeatIndex, 1);
    QCOMPARE(recorder.startedOrder, (QList<int>{0, 1, 2, 3}));
    QCOMPARE(recorder.finished, (QList<int>{0, 1, 2, 3}));
    QCOMPARE(recorder.totals, (QList<int>{4, 4, 4, 4}));
    for (int i = 0; i < 4; ++i)
        QVERIFY2(recorder.intervalsByRun.value(i) >= 1,
                 qPrintable(QStringLiteral("run %1 reported no intervals").arg(i)));
    QVERIFY(done.finishedAt.isValid());
    QVERIFY(done.environment.local.known);
    QVERIFY(done.environment.local.cpuCount > 0);
    QVERIFY(done.environment.remote.known); // our server answers with its extension
    QVERIFY2(done.warnings.isEmpty(), qPrintable(done.warnings.join(QLatin1Char('\n'))));
    // The snapshot of a real comparison round-trips too.
    const QString path = m_dir.filePath(QStringLiteral("engine.nicbench"));
    QVERIFY2(Snapshot::save(done, path, &error), qPrintable(error));
    Comparison back;
    QVERIFY2(Snapshot::load(path, &back, &error), qPrintable(error));
    QCOMPARE(QJsonDocument(Snapshot::toJson(back)).toJson(), QJsonDocument(Snapshot::toJson(done)).toJson());
}

void TestCompare::failedRunIsRecorded()
{
    ServerThread server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    const quint16 dead = freePort(); // nothing listens there any more
    Comparison c;
    c.repeats = 1;
    c.pauseSeconds = 0;
    c.configurations = {{QStringLiteral("nobody home"), {}, {}, loopbackParams(dead, 1, 1), QString(), {}},
                        {QStringLiteral("live"), {}, {}, loopbackParams(server.port(), 1, 1), QString(), {}}};
    c.configurations[0].params.connectTimeoutMs = 2000;
    const Comparison done = ComparisonRunner(c).run();
    QCOMPARE(done.runs.size(), 2);
    QVERIFY(!done.runs[0].ok());
    QVERIFY(!done.runs[0].result.error.isEmpty());
    QCOMPARE(done.runs[0].result.params.port, dead);
    QVERIFY2(done.runs[1].ok(), qPrintable(done.runs[1].result.error));
    QCOMPARE(done.warnings.size(), 1);
    QVERIFY(done.warnings.first().contains(QStringLiteral("nobody home")));
    const ComparisonStatistics s = computeStatistics(done);
    QCOMPARE(s.configurations[0].failedRuns, 1);
    QVERIFY(!s.find(0, Metric::Throughput));
    QVERIFY(s.find(1, Metric::Throughput));
    QVERIFY(!s.find(1, Metric::Throughput)->hasBaseline); // the baseline measured nothing
    QString ignored;
    Comparison back;
    QVERIFY(Snapshot::decode(Snapshot::encode(done, false), &back, &ignored));
    QVERIFY(!back.runs[0].ok());
}

void TestCompare::stopEndsEarly()
{
    ServerThread server;
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    Comparison c;
    c.repeats = 3;
    c.pauseSeconds = 0;
    c.configurations = {{QStringLiteral("long"), {}, {}, loopbackParams(server.port(), 1, 30), QString(), {}}};
    ComparisonRunner runner(c);
    QElapsedTimer t;
    t.start();
    std::thread stopper([&runner] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        runner.requestStop();
    });
    const Comparison done = runner.run();
    stopper.join();
    QVERIFY2(t.elapsed() < 15000, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(done.runs.size(), 1);
    QVERIFY(!done.finishedAt.isValid());
    QVERIFY(!done.warnings.isEmpty());
}

void TestCompare::cliEndToEnd()
{
    CliServer server;
    const QString why = server.start();
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QString spec = m_dir.filePath(QStringLiteral("spec.json"));
    QFile f(spec);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QString args = QStringLiteral("-c 127.0.0.1 -p %1 -t 1 -i 0.5").arg(server.port());
    f.write(QStringLiteral(R"({"title": "loopback, P1 vs P4", "repeats": 2, "order": "interleaved", "pause": 0.2,
        "baseline": "P1", "configurations": [
          {"label": "P1", "args": "%1 -P 1"},
          {"label": "P4", "args": "%1 -P 4", "notes": "four streams"}]})")
                .arg(args)
                .toUtf8());
    f.close();
    const QString out = m_dir.filePath(QStringLiteral("cli.nicbench"));
    const QStringList compareArgs{QStringLiteral("compare"), spec, QStringLiteral("-o"), out};
    const CliRun run = runCli(compareArgs, 90000);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe(compareArgs)));
    QVERIFY2(run.out.contains("[4/4]"), qPrintable(run.describe(compareArgs)));
    QVERIFY(run.out.contains("Throughput"));

    Comparison c;
    QString error;
    QVERIFY2(Snapshot::load(out, &c, &error), qPrintable(error));
    checkLoopbackComparison(c, 2);
    QCOMPARE(c.title, QStringLiteral("loopback, P1 vs P4"));
    QCOMPARE(c.configurations[1].notes, QStringLiteral("four streams"));
    QCOMPARE(c.configurations[1].params.streams, 4);
    const QList<int> order{c.runs[0].configIndex, c.runs[1].configIndex, c.runs[2].configIndex, c.runs[3].configIndex};
    QCOMPARE(order, (QList<int>{0, 1, 0, 1}));
    // The file carries its statistics for readers without the engine.
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(doc.value(QStringLiteral("version")).toInt(), Snapshot::kFormatVersion);
    QCOMPARE(
        doc.value(QStringLiteral("statistics")).toObject().value(QStringLiteral("configurations")).toArray().size(), 2);

    const QStringList reportArgs{QStringLiteral("report"), out, QStringLiteral("--format"), QStringLiteral("csv")};
    const CliRun report = runCli(reportArgs, 30000);
    QVERIFY2(report.finished && report.exitCode == 0, qPrintable(report.describe(reportArgs)));
    const QList<QStringList> rows = parseCsv(QString::fromUtf8(report.out), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(rows.size() >= 3);
    const QStringList header = rows.first();
    QCOMPARE(header.first(), QStringLiteral("metric"));
    for (const QStringList &r : rows)
        QCOMPARE(r.size(), header.size());
    const qsizetype metricCol = header.indexOf(QStringLiteral("metric"));
    const qsizetype labelCol = header.indexOf(QStringLiteral("label"));
    const qsizetype meanCol = header.indexOf(QStringLiteral("mean"));
    const qsizetype verdictCol = header.indexOf(QStringLiteral("verdict"));
    const qsizetype nCol = header.indexOf(QStringLiteral("n"));
    QVERIFY(metricCol >= 0 && labelCol >= 0 && meanCol >= 0 && verdictCol >= 0 && nCol >= 0);
    QStringList throughputLabels;
    for (const QStringList &r : rows.mid(1)) {
        bool ok = false;
        r[meanCol].toDouble(&ok);
        QVERIFY2(ok, qPrintable(r.join(QLatin1Char(','))));
        if (r[metricCol] != QLatin1String("throughput_bps"))
            continue;
        throughputLabels << r[labelCol];
        QCOMPARE(r[nCol], QStringLiteral("2"));
        QVERIFY(r[meanCol].toDouble() > 1e6);
        const QStringList verdicts{QStringLiteral("baseline"), QStringLiteral("faster"), QStringLiteral("slower"),
                                   QStringLiteral("no_difference")};
        QVERIFY2(verdicts.contains(r[verdictCol]), qPrintable(r[verdictCol]));
    }
    QCOMPARE(throughputLabels, (QStringList{QStringLiteral("P1"), QStringLiteral("P4")}));

    for (const QString &format : {QStringLiteral("text"), QStringLiteral("markdown")}) {
        const QStringList a{QStringLiteral("report"), out, QStringLiteral("--format"), format};
        const CliRun r = runCli(a, 30000);
        QVERIFY2(r.exitCode == 0 && r.out.contains("P4") && r.out.contains("95%"), qPrintable(r.describe(a)));
    }
}

// Issue 16: a latency-under-load variant next to P=1, run by `nicbench-cli compare` against
// `nicbench-cli -s` (1 s phases, 2 repeats): the snapshot keeps every phase with its probe
// figures and the per-interval probe summaries, the statistics have the loaded_* metrics
// for that variant only, and `report` lists them.
void TestCompare::cliLatencyUnderLoad()
{
    CliServer server;
    const QString why = server.start();
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QString host = QStringLiteral("-c 127.0.0.1 -p %1").arg(server.port());
    const QStringList args =
        twoRepeatsArgs(QStringLiteral("0.2"),
                       {QStringLiteral("lo, P=1=%1 -t 1").arg(host),
                        QStringLiteral("lo, Latency under load=%1 --latency-under-load --phase-seconds 1").arg(host)},
                       m_dir.filePath(QStringLiteral("loaded.nicbench")));
    const CliRun run = runCli(args, 120000);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe(args)));
    QVERIFY2(run.out.contains("idle p50") && run.out.contains("bidir p99 +"), qPrintable(run.describe(args)));

    Comparison c;
    QString error;
    QVERIFY2(Snapshot::load(m_dir.filePath(QStringLiteral("loaded.nicbench")), &c, &error), qPrintable(error));
    QCOMPARE(c.runs.size(), 4);
    int loadedRuns = 0;
    for (const Run &r : std::as_const(c.runs)) {
        QVERIFY2(r.ok(), qPrintable(r.result.error));
        const bool loaded = r.configIndex == 1;
        QCOMPARE(bool(r.result.loadedLatency), loaded);
        if (!loaded)
            continue;
        ++loadedRuns;
        QCOMPARE(r.result.params.kind, TestKind::LoadedLatency);
        const LoadedLatencyResult &l = *r.result.loadedLatency;
        QCOMPARE(l.phases.size(), 5);
        for (const LoadPhaseResult &p : l.phases) {
            QVERIFY2(p.hasProbe && p.latencyUs.count > 0, qPrintable(p.name()));
            QVERIFY(p.latencyUs.p50 > 0 && p.latencyUs.p50 <= p.latencyUs.p99);
            if (p.phase != LoadPhase::Idle)
                QVERIFY2(p.bitsPerSecond() > 1e6, qPrintable(p.name()));
        }
        int probeIntervals = 0;
        for (const IntervalReport &ir : r.result.intervals)
            if (ir.hasRr && ir.rr.latencyUs.count > 0)
                ++probeIntervals;
        QVERIFY2(probeIntervals >= 5, qPrintable(QString::number(probeIntervals)));
    }
    QCOMPARE(loadedRuns, 2);
    const ComparisonStatistics s = computeStatistics(c);
    for (Metric m : allMetrics()) {
        if (!isLoadedLatencyMetric(m))
            continue;
        QVERIFY(!s.find(0, m));
        const MetricStatistics *ms = s.find(1, m);
        QVERIFY2(ms && ms->summary.n == 2, qPrintable(metricKey(m)));
    }
    QVERIFY(s.find(0, Metric::Throughput) && !s.find(1, Metric::Throughput));

    const QStringList reportArgs{QStringLiteral("report"), m_dir.filePath(QStringLiteral("loaded.nicbench")),
                                 QStringLiteral("--format"), QStringLiteral("csv")};
    const CliRun report = runCli(reportArgs, 30000);
    QVERIFY2(report.finished && report.exitCode == 0, qPrintable(report.describe(reportArgs)));
    QVERIFY(report.out.contains("loaded_bidir_p99_increase_us,"));
    QVERIFY(report.out.contains("loaded_idle_p50_us,"));
}

void TestCompare::udpMatrixVariants()
{
    // "UDP <rate>" and "UDP_RR" on a TCP base with a TCP buffer length: the UDP stream takes
    // iperf3's default datagram (the unset length), or the one asked for.
    TestParams base;
    base.blockSize = 64 * 1024;
    base.bytes = 1000000;
    const MatrixEndpoint lo{QString(), QStringLiteral("127.0.0.1"), std::nullopt, QStringLiteral("lo")};
    const QList<Configuration> m = buildMatrix(base, {lo},
                                               {MatrixVariant::withStreams(1), MatrixVariant::udpStream(100000000),
                                                MatrixVariant::udpStream(1500000000, 1400, 2),
                                                MatrixVariant::udpStream(0), MatrixVariant::udpRequestResponse()});
    QCOMPARE(m.size(), 5);
    QCOMPARE(m[0].label, QStringLiteral("lo, P=1"));
    QVERIFY(!m[0].params.udp);
    QCOMPARE(m[1].variant, QStringLiteral("UDP 100M"));
    QVERIFY(m[1].params.udp);
    QCOMPARE(m[1].params.bandwidth, std::uint64_t(100000000));
    QVERIFY(m[1].params.udpDatagramSizeUnset());
    QCOMPARE(m[1].params.kind, TestKind::Stream);
    QCOMPARE(m[2].variant, QStringLiteral("UDP 1.5G 1400B P=2"));
    QCOMPARE(m[2].params.blockSize, 1400u);
    QCOMPARE(m[2].params.streams, 2);
    QCOMPARE(m[3].variant, QStringLiteral("UDP unlimited"));
    QCOMPARE(m[3].params.bandwidth, std::uint64_t(0));
    QCOMPARE(m[4].variant, QStringLiteral("UDP_RR"));
    QVERIFY(m[4].params.udp);
    QCOMPARE(m[4].params.kind, TestKind::Rr);
    for (const Configuration &c : m)
        QVERIFY2(c.params.validate().isEmpty(), qPrintable(c.label + QStringLiteral(": ") + c.params.validate()));
    // A TCP variant on a UDP base is TCP.
    TestParams udpBase = base;
    udpBase.udp = true;
    QVERIFY(!buildMatrix(udpBase, {lo}, {MatrixVariant::throughput()}).first().params.udp);
    QCOMPARE(MatrixVariant::rateText(64000), QStringLiteral("64K"));
    // The dialog's list of rates: -b's notation, each once; a bad entry is named.
    QList<std::uint64_t> rates;
    QString error;
    QVERIFY2(udpRatesFromText(QStringLiteral("100M, 1G;0 100M"), &rates, &error), qPrintable(error));
    QCOMPARE(rates, (QList<std::uint64_t>{100000000, 1000000000, 0}));
    QVERIFY(!udpRatesFromText(QStringLiteral("100M, -5"), &rates, &error));
    QVERIFY2(error.contains(QStringLiteral("\"-5\"")), qPrintable(error));
    QVERIFY(!udpRatesFromText(QStringLiteral("2T"), &rates, &error)); // above -b's range
    QVERIFY(!udpRatesFromText(QStringLiteral(" , "), &rates, &error));
}

// Issue 17: "UDP 100M", "UDP 500M" and "UDP_RR" by `nicbench-cli compare` against
// `nicbench-cli -s` (0.5 s runs, 2 repeats): the params keep the UDP flag and rate, the
// statistics have the udp_* metrics of each kind only, the answer has the UDP rows, and
// `report` lists them.
void TestCompare::cliUdp()
{
    CliServer server;
    const QString why = server.start();
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QString host = QStringLiteral("-c 127.0.0.1 -p %1 -t 0.5").arg(server.port());
    const QString path = m_dir.filePath(QStringLiteral("udp.nicbench"));
    const QStringList args = twoRepeatsArgs(QStringLiteral("0"),
                                            {QStringLiteral("lo, UDP 100M=%1 -u -b 100M").arg(host),
                                             QStringLiteral("lo, UDP 500M=%1 -u -b 500M").arg(host),
                                             QStringLiteral("lo, UDP_RR=%1 -u --rr").arg(host)},
                                            path);
    const CliRun run = runCli(args, 120000);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe(args)));
    QVERIFY2(run.out.contains("loss ") && run.out.contains("jitter ") && run.out.contains("UDP transactions/s"),
             qPrintable(run.describe(args)));

    Comparison c;
    QString error;
    QVERIFY2(Snapshot::load(path, &c, &error), qPrintable(error));
    QCOMPARE(c.runs.size(), 6);
    for (const Run &r : std::as_const(c.runs)) {
        QVERIFY2(r.ok(), qPrintable(r.result.error));
        QVERIFY(r.result.params.udp);
        QCOMPARE(r.result.params.kind, r.configIndex == 2 ? TestKind::Rr : TestKind::Stream);
        if (r.configIndex == 2) {
            QVERIFY(r.result.rr.udpLost.has_value());
            continue;
        }
        QCOMPARE(r.result.params.bandwidth, std::uint64_t(r.configIndex == 0 ? 100000000 : 500000000));
        const DirectionSum d = r.result.sum(true);
        QVERIFY(d.udp && d.packetsReceived > 0);
    }
    const ComparisonStatistics s = computeStatistics(c);
    for (Metric m : allMetrics()) {
        if (!isUdpMetric(m) || m == Metric::UdpLocalCpuPerGbps || m == Metric::UdpRrLocalCpuPerKtps)
            continue; // CPU costs need a CPU sample, which a loaded machine may miss
        const int config = isUdpRrMetric(m) ? 2 : 0;
        const MetricStatistics *ms = s.find(config, m);
        QVERIFY2(ms && ms->summary.n == 2, qPrintable(metricKey(m)));
        QVERIFY2(!s.find(isUdpRrMetric(m) ? 0 : 2, m), qPrintable(metricKey(m)));
    }
    // The receiver got a goodput near the rate asked for: on a loaded 2-core machine a
    // generous band (the pacing accuracy is tst_udp's), but not the other rate's.
    const double got100 = s.find(0, Metric::UdpGoodput)->summary.mean;
    QVERIFY2(got100 > 50e6 && got100 < 120e6, qPrintable(QString::number(got100)));
    QVERIFY(!s.find(0, Metric::Throughput) && !s.find(2, Metric::TransactionsPerSecond));
    QVERIFY(s.find(2, Metric::UdpRrTransactionsPerSecond)->summary.mean > 10);

    const QStringList reportArgs{QStringLiteral("report"), path};
    const CliRun report = runCli(reportArgs, 30000);
    QVERIFY2(report.finished && report.exitCode == 0, qPrintable(report.describe(reportArgs)));
    for (const char *row : {"UDP goodput", "UDP loss", "UDP jitter", "UDP_RR transactions/s", "UDP_RR lost requests",
                            "UDP_RR latency p99"})
        QVERIFY2(report.out.contains(row), row);
    // The answer line for the UDP 500M variant (compared with UDP 100M) quotes the loss.
    QVERIFY2(report.out.contains("UDP goodput") && report.out.contains("; loss "), report.out.constData());
}

void TestCompare::cliFlagsForm()
{
    CliServer server;
    const QString why = server.start();
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QString out = m_dir.filePath(QStringLiteral("flags.nicbench.gz"));
    const QString base = QStringLiteral("-c 127.0.0.1 -p %1 -t 1").arg(server.port());
    const QStringList args{QStringLiteral("compare"),
                           QStringLiteral("--repeats"),
                           QStringLiteral("2"),
                           QStringLiteral("--order"),
                           QStringLiteral("shuffled"),
                           QStringLiteral("--seed"),
                           QStringLiteral("7"),
                           QStringLiteral("--pause"),
                           QStringLiteral("0.2"),
                           QStringLiteral("--config"),
                           QStringLiteral("P1=%1 -P 1").arg(base),
                           QStringLiteral("--config"),
                           QStringLiteral("P4=%1 -P 4").arg(base),
                           QStringLiteral("--quiet"),
                           QStringLiteral("--format"),
                           QStringLiteral("csv"),
                           QStringLiteral("-o"),
                           out};
    const CliRun run = runCli(args, 90000);
    QVERIFY2(run.finished && run.exitCode == 0, qPrintable(run.describe(args)));
    QVERIFY(run.out.startsWith("metric,"));
    Comparison c;
    QString error;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::load(out, &c, &error, &info), qPrintable(error));
    QVERIFY(info.compressed);
    checkLoopbackComparison(c, 2);
    QCOMPARE(c.order, OrderPolicy::Shuffled);
    QCOMPARE(c.seed, quint64(7));
    const QList<ScheduledRun> schedule = buildSchedule(2, 2, OrderPolicy::Shuffled, 7);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(c.runs[i].configIndex, schedule[i].configIndex);
}

void TestCompare::cliRejectsBadInput()
{
    const QString spec = m_dir.filePath(QStringLiteral("bad-spec.json"));
    QFile f(spec);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"configurations": [{"label": "server?", "args": "-s"}]})");
    f.close();
    struct Case {
        QStringList args;
        const char *expected;
    };
    const QList<Case> cases{
        {{QStringLiteral("compare"), spec, QStringLiteral("-o"), m_dir.filePath(QStringLiteral("x.nicbench"))},
         "client test"},
        {{QStringLiteral("compare"), QStringLiteral("--config"), QStringLiteral("no-equals-sign"), QStringLiteral("-o"),
          QStringLiteral("x")},
         "LABEL=ARGS"},
        {{QStringLiteral("compare"), QStringLiteral("--config"), QStringLiteral("A=-c 127.0.0.1 -P 2000"),
          QStringLiteral("-o"), QStringLiteral("x")},
         "A"},
        {{QStringLiteral("compare"), QStringLiteral("--config"), QStringLiteral("A=-c 127.0.0.1")}, "-o"},
        {{QStringLiteral("report"), QStringLiteral(NICBENCH_TEST_DATA "/snapshots/bad-truncated.nicbench")},
         "truncated"},
        {{QStringLiteral("report")}, "snapshot"},
    };
    for (const Case &c : cases) {
        const CliRun r = runCli(c.args, 30000);
        QVERIFY2(r.finished && r.exitCode == 1 && r.err.contains(c.expected), qPrintable(r.describe(c.args)));
    }
}

// Issue 15: a 509 KB .nicbench.gz made `report` use 4.7 GB for 24 s. A bomb of the same
// shape (a snapshot header, then 512 MiB of one string, ~0.5 MB compressed as 128 gzip
// members) is refused while it is decompressed, at the 64 MiB cap, in a process limited to
// 1 GiB of address space, within a few seconds.
void TestCompare::cliRefusesGzipBomb()
{
    const QByteArray head = R"({"format":"nicbench-snapshot","version":2,"title":")";
    const QByteArray member = gzipCompress(QByteArray(4 * 1024 * 1024, 'a'));
    QByteArray bomb = gzipCompress(head);
    for (int i = 0; i < 128; ++i)
        bomb += member;
    QVERIFY2(bomb.size() < 1024 * 1024, qPrintable(QString::number(bomb.size())));
    const QString path = m_dir.filePath(QStringLiteral("bomb.nicbench.gz"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bomb) == bomb.size());
    f.close();
    QElapsedTimer t;
    t.start();
    // ASan reserves terabytes of address space for its shadow memory, so an address-space
    // limit cannot be set there; the native build checks the memory bound, the sanitizer
    // build the rest.
#if defined(__SANITIZE_ADDRESS__)
    const QString limit;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    const QString limit;
#else
    const QString limit = QStringLiteral("ulimit -v 1048576 && ");
#endif
#else
    const QString limit = QStringLiteral("ulimit -v 1048576 && ");
#endif
    QProcess p;
    p.start(QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), limit + QStringLiteral("exec \"$0\" report \"$1\""), nbtest::cliPath(), path});
    QVERIFY(p.waitForFinished(30000));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 1, err.constData());
    QVERIFY2(err.contains("exceeds the 64 MiB limit") && !err.contains("bad_alloc"), err.constData());
    QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
}

// Review M4: 100,000 runs (100 configurations x 1,000 repeats), each with a one-bucket
// latency histogram, in 52 MB of compact JSON, inside every documented limit: each
// histogram took 35 KB whatever it held, so `report` needed 4.1 GB and aborted with
// std::bad_alloc under `ulimit -v 3000000`. Memory follows what the file holds now.
// NICBENCH_KEEP_SNAPSHOT=PATH keeps the file (to measure `report` by hand).
void TestCompare::cliReportsManySmallHistograms()
{
    Comparison c;
    c.title = QStringLiteral("many small histograms");
    c.repeats = 1000;
    for (int i = 0; i < 100; ++i)
        c.configurations.append(nbtest::namedConfiguration(QStringLiteral("eth%1").arg(i), QString()));
    Run one;
    one.result.params.kind = TestKind::Rr;
    one.result.params.duration = 1;
    one.result.hasRr = true;
    one.result.rr.seconds = 1;
    one.result.rr.transactions = 1000;
    one.result.rr.histogram.record(50'000, 1000);
    one.result.rr.latencyUs = one.result.rr.histogram.summary();
    c.runs.append(one);
    QJsonObject doc = Snapshot::toJson(c);
    doc.remove(QStringLiteral("statistics"));
    // The run as small as the reader takes it (the review's file had about 360 bytes a run).
    QJsonObject run = doc.value(QStringLiteral("runs")).toArray().at(0).toObject();
    run.remove(QStringLiteral("started_at"));
    QJsonObject result = run.value(QStringLiteral("result")).toObject();
    result.insert(QStringLiteral("start"), QJsonObject());
    result.insert(QStringLiteral("end"), QJsonObject{{QStringLiteral("streams"), QJsonArray()}});
    QJsonObject nb = result.value(QStringLiteral("nicbench")).toObject();
    for (const char *key :
         {"cpu", "adapters", "warnings", "version", "remote_cpu_known", "peer_is_nicbench", "role", "format_version"})
        nb.remove(QLatin1String(key));
    nb.insert(QStringLiteral("params"),
              QJsonObject{{QStringLiteral("kind"), QStringLiteral("rr")}, {QStringLiteral("duration"), 1}});
    result.insert(QStringLiteral("nicbench"), nb);
    run.insert(QStringLiteral("result"), result);
    QJsonArray runs;
    for (int i = 0; i < 100000; ++i) {
        run.insert(QStringLiteral("config"), i % 100);
        run.insert(QStringLiteral("repeat"), i / 100);
        run.insert(QStringLiteral("order"), i);
        runs.append(run);
    }
    doc.insert(QStringLiteral("runs"), runs);
    const QByteArray json = QJsonDocument(doc).toJson(QJsonDocument::Compact);
    const QByteArray bytes = gzipCompress(json);
    const QString path = m_dir.filePath(QStringLiteral("many.nicbench.gz"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
    f.close();
    qInfo("snapshot: %lld bytes of JSON, %lld gzipped", static_cast<long long>(json.size()),
          static_cast<long long>(bytes.size()));
    if (const QString keep = qEnvironmentVariable("NICBENCH_KEEP_SNAPSHOT"); !keep.isEmpty())
        QFile::copy(path, keep);
#if defined(__SANITIZE_ADDRESS__)
    QSKIP("ASan reserves terabytes of address space: an address-space limit cannot be set");
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    QSKIP("ASan reserves terabytes of address space: an address-space limit cannot be set");
#endif
#endif
    QElapsedTimer t;
    t.start();
    QProcess p;
    p.start(QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QStringLiteral("ulimit -v 3000000 && exec \"$0\" report \"$1\""), nbtest::cliPath(),
             path});
    QVERIFY(p.waitForFinished(240000));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.right(2000).constData());
    QVERIFY(p.readAllStandardOutput().contains("eth99"));
    qInfo("report of 100,000 runs under ulimit -v 3000000: %.1f s", double(t.elapsed()) / 1000);
}

// Issue 15: escape sequences in a snapshot's labels and title reached the terminal through
// `report`. They are shown as text ("\x1b"), never written raw.
void TestCompare::cliReportIsTerminalSafe()
{
    QFile in(QStringLiteral(NICBENCH_TEST_DATA "/snapshots/cli-v1-loopback.nicbench"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
    doc.insert(QStringLiteral("title"), QStringLiteral("Lab\x1b]0;owned\x07 run\x1b[2J"));
    QJsonArray configs = doc.value(QStringLiteral("configurations")).toArray();
    QJsonObject first = configs.at(0).toObject();
    first.insert(QStringLiteral("label"), QStringLiteral("P1\x1b[31m\u202e"));
    configs.replace(0, first);
    doc.insert(QStringLiteral("configurations"), configs);
    const QString path = m_dir.filePath(QStringLiteral("escapes.nicbench"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(doc).toJson());
    out.close();
    const QStringList args{QStringLiteral("report"), path};
    const CliRun r = runCli(args, 30000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe(args)));
    QVERIFY2(!r.out.contains('\x1b') && !r.out.contains('\x07'), qPrintable(r.describe(args)));
    QVERIFY2(!r.out.contains("\xe2\x80\xae"), "a right-to-left override was printed raw");
    QVERIFY2(r.out.contains("Lab\\x1b]0;owned\\x07 run\\x1b[2J"), qPrintable(r.describe(args)));
}

// Review M8 from the command line: a snapshot where VMXNET3 is 1% faster with tight runs
// reads "equivalent" under its saved 2% threshold, "faster" with `report --equivalence 0`;
// out-of-range thresholds are refused with one line, by report and by compare.
void TestCompare::cliEquivalence()
{
    const Comparison c = nbtest::nearlyEqualAdapters();
    const QString path = m_dir.filePath(QStringLiteral("equivalent.nicbench"));
    QString error;
    QVERIFY2(Snapshot::save(c, path, &error), qPrintable(error));

    const QStringList saved{QStringLiteral("report"), path};
    const CliRun r = runCli(saved, 30000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(r.describe(saved)));
    QVERIFY2(r.out.contains("VMXNET3 and E1000 are equivalent in throughput") &&
                 r.out.contains("a difference under \xc2\xb1"
                                "2% is equivalent"),
             qPrintable(r.describe(saved)));

    const QStringList off{QStringLiteral("report"), path, QStringLiteral("--equivalence"), QStringLiteral("0")};
    const CliRun f = runCli(off, 30000);
    QVERIFY2(f.finished && f.exitCode == 0, qPrintable(f.describe(off)));
    QVERIFY2(f.out.contains("VMXNET3 is faster than E1000") && !f.out.contains("equivalent"),
             qPrintable(f.describe(off)));

    const QStringList csv{QStringLiteral("report"), path, QStringLiteral("--format"), QStringLiteral("csv")};
    const CliRun t = runCli(csv, 30000);
    QVERIFY2(t.finished && t.exitCode == 0 && t.out.contains(",equivalent"), qPrintable(t.describe(csv)));

    for (const QStringList &bad :
         {QStringList{QStringLiteral("report"), path, QStringLiteral("--equivalence"), QStringLiteral("80")},
          QStringList{QStringLiteral("report"), path, QStringLiteral("--equivalence")},
          QStringList{QStringLiteral("compare"), QStringLiteral("--equivalence"), QStringLiteral("two"),
                      QStringLiteral("--config"), QStringLiteral("a=-c 127.0.0.1"), QStringLiteral("-o"),
                      m_dir.filePath(QStringLiteral("never.nicbench"))}}) {
        const CliRun b = runCli(bad, 30000);
        QVERIFY2(b.finished && b.exitCode != 0, qPrintable(b.describe(bad)));
        QVERIFY2(b.err.contains("--equivalence needs a percentage from 0 to 50"), qPrintable(b.describe(bad)));
    }
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("never.nicbench"))));
}

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
