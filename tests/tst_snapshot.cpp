// SPDX-License-Identifier: GPL-3.0-or-later
// The .nicbench snapshot: round trips (plain and gzip), the version 0 migration, a file
// written by nicbench-cli, and rejection of corrupt, truncated and hostile files.
#include "comparisonchartdata.h"

#include "compare/comparisonstatistics.h"
#include "compare/snapshot.h"
#include "core/gzip.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

using namespace nb;

namespace {

QString dataFile(const QString &name)
{
    return QStringLiteral(NICBENCH_TEST_DATA "/snapshots/") + name;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

TestResult makeResult(const TestParams &params, double gbps, double cpuPct, int seed)
{
    TestResult r;
    r.params = params;
    r.version = QStringLiteral("0.1.0");
    r.timestampSecs = 1700000000 + seed;
    r.cookie = QStringLiteral("cookie%1").arg(seed);
    const std::uint64_t bytes = std::uint64_t(gbps * 1e9 / 8 * params.duration);
    for (int s = 0; s < params.streams; ++s) {
        r.connections.append(
            {s + 5, QStringLiteral("127.0.0.1"), quint16(40000 + s), QStringLiteral("127.0.0.1"), 5201});
        StreamSummary sum;
        sum.id = s + 5;
        sum.seconds = params.duration;
        sum.receiverSeconds = params.duration;
        sum.bytesSent = bytes / params.streams;
        sum.bytesReceived = bytes / params.streams;
        sum.retransmits = seed;
        r.streams.append(sum);
    }
    for (int i = 0; i < int(params.duration); ++i) {
        IntervalReport ir;
        for (int s = 0; s < params.streams; ++s) {
            StreamInterval si;
            si.id = s + 5;
            si.start = i;
            si.end = i + 1;
            si.bytes = bytes / params.streams / std::uint64_t(params.duration);
            si.retransmits = 0;
            si.cwndBytes = 65536;
            si.rttUs = 40 + s;
            ir.streams.append(si);
        }
        ir.hasCpu = true;
        ir.cpu.start = i;
        ir.cpu.end = i + 1;
        ir.cpu.cpuCount = 2;
        ir.cpu.systemValid = true;
        ir.cpu.systemBusyPct = cpuPct;
        ir.cpu.userPct = cpuPct / 4;
        ir.cpu.systemPct = cpuPct / 2;
        ir.cpu.irqPct = cpuPct / 4;
        r.intervals.append(ir);
    }
    r.localCpuKnown = true;
    r.localCpu.end = params.duration;
    r.localCpu.cpuCount = 2;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = cpuPct;
    r.localCpu.processValid = true;
    r.localCpu.processPct = cpuPct * 1.5;
    AdapterInfo lo;
    lo.name = QStringLiteral("lo");
    lo.index = 1;
    lo.family = AdapterFamily::Loopback;
    lo.loopback = true;
    lo.mtu = 65536;
    lo.operState = QStringLiteral("unknown");
    lo.addresses.append({QHostAddress(QStringLiteral("127.0.0.1")), 8});
    r.localAdapter = lo;
    r.warnings.append(QStringLiteral("synthetic result %1").arg(seed));
    return r;
}

Comparison makeComparison()
{
    Comparison c;
    c.title = QStringLiteral("P1 vs P4, \"quoted\", ünïcode");
    c.repeats = 2;
    c.order = OrderPolicy::Shuffled;
    c.seed = 12345;
    c.pauseSeconds = 0.5;
    c.baselineIndex = 0;
    c.createdAt = QDateTime(QDate(2024, 5, 1), QTime(12, 0, 0, 250), QTimeZone::utc());
    c.finishedAt = c.createdAt.addSecs(30);
    TestParams p;
    p.host = QStringLiteral("127.0.0.1");
    p.duration = 3;
    Configuration a{
        QStringLiteral("lo, P=1"), QStringLiteral("lo"), QStringLiteral("P=1"), p, QStringLiteral("notes here"), {}};
    p.streams = 4;
    Configuration b{QStringLiteral("lo, P=4"), QStringLiteral("lo"), QStringLiteral("P=4"), p, QString(), {}};
    c.configurations = {a, b};
    const QList<ScheduledRun> schedule = c.schedule();
    for (int i = 0; i < schedule.size(); ++i) {
        Run r;
        r.configIndex = schedule[i].configIndex;
        r.repeatIndex = schedule[i].repeatIndex;
        r.orderIndex = i;
        r.startedAt = c.createdAt.addSecs(5 * i);
        const TestParams &rp = c.configurations[r.configIndex].params;
        r.result = makeResult(rp, r.configIndex ? 20 + i : 10 + i, 50 + i, i);
        c.runs.append(r);
    }
    // One failed run is part of the record too.
    c.runs.removeLast();
    Run failed;
    failed.orderIndex = int(c.runs.size());
    failed.startedAt = c.createdAt.addSecs(25);
    failed.result.error = QStringLiteral("unable to connect to server: Connection refused");
    failed.configIndex = schedule.last().configIndex;
    failed.repeatIndex = schedule.last().repeatIndex;
    failed.result.params = c.configurations[failed.configIndex].params;
    c.runs.append(failed);
    c.environment.local.known = true;
    c.environment.local.hostName = QStringLiteral("testhost");
    c.environment.local.os = QStringLiteral("Debian GNU/Linux 12 (bookworm)");
    c.environment.local.kernel = QStringLiteral("6.1.0");
    c.environment.local.cpuModel = QStringLiteral("Test CPU");
    c.environment.local.cpuCount = 2;
    c.environment.local.adapters = {*c.runs.first().result.localAdapter};
    c.warnings = {QStringLiteral("run 4 failed")};
    return c;
}

QByteArray documentBytes(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

class TestSnapshot : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void roundTrip();
    void fairnessInSnapshots();
    void gzipRoundTrip();
    void gzipBySuffix();
    void statisticsInFile();
    void loadsCliFile();
    void olderVersionLoads();
    void version1Migrates();
    void version2Migrates();
    void loadedLatencyRoundTrip();
    void loadsVersion3File();
    void writeVersion3Fixture();
    void udpRoundTrip();
    void version3UdpMigrates();
    void loadsVersion4File();
    void writeVersion4Fixture();
    void singleResultIsVersion0();
    void rejectsFixtures_data();
    void rejectsFixtures();
    void rejectsWhatIsNoFile();
    void leavesOutMacAddresses();
    void rejectsMutations_data();
    void rejectsMutations();
    void rejectsHugeArrays();
    void rejectsBadGzip();
    void gzipBombIsCapped();
    void rejectsImpossibleUdpFigures_data();
    void rejectsImpossibleUdpFigures();
    void atomicSaveKeepsOldFile();

private:
    QTemporaryDir m_dir;
};

void TestSnapshot::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestSnapshot::roundTrip()
{
    Comparison c = makeComparison();
    c.equivalencePercent = 3.5;
    QCOMPARE(c.validate(), QString());
    const QString path = m_dir.filePath(QStringLiteral("round.nicbench"));
    QString error;
    QVERIFY2(Snapshot::save(c, path, &error), qPrintable(error));
    QVERIFY(!isGzip(readAll(path)));
    Comparison back;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::load(path, &back, &error, &info), qPrintable(error));
    QCOMPARE(info.version, Snapshot::kFormatVersion);
    QVERIFY(!info.compressed);
    QVERIFY(!info.migrated);
    QCOMPARE(back.title, c.title);
    QCOMPARE(back.repeats, 2);
    QCOMPARE(back.order, OrderPolicy::Shuffled);
    QCOMPARE(back.seed, quint64(12345));
    QCOMPARE(back.equivalencePercent, 3.5);
    QCOMPARE(back.createdAt, c.createdAt);
    QCOMPARE(back.finishedAt, c.finishedAt);
    QCOMPARE(back.configurations.size(), 2);
    QCOMPARE(back.configurations[0].notes, QStringLiteral("notes here"));
    QCOMPARE(back.configurations[1].params.streams, 4);
    QCOMPARE(back.runs.size(), c.runs.size());
    for (int i = 0; i < c.runs.size(); ++i) {
        QCOMPARE(back.runs[i].configIndex, c.runs[i].configIndex);
        QCOMPARE(back.runs[i].repeatIndex, c.runs[i].repeatIndex);
        QCOMPARE(back.runs[i].orderIndex, i);
        QCOMPARE(back.runs[i].startedAt, c.runs[i].startedAt);
        QCOMPARE(back.runs[i].ok(), c.runs[i].ok());
        QCOMPARE(back.runs[i].result.intervals.size(), c.runs[i].result.intervals.size());
        QCOMPARE(back.runs[i].result.bytesDelivered(), c.runs[i].result.bytesDelivered());
    }
    QVERIFY(!back.runs.last().ok());
    QCOMPARE(back.runs.last().result.error, c.runs.last().result.error);
    QCOMPARE(back.environment, c.environment);
    QCOMPARE(back.warnings, c.warnings);
    // Everything else: the whole document is identical.
    QCOMPARE(documentBytes(Snapshot::toJson(back)), documentBytes(Snapshot::toJson(c)));
}

// The per-flow spread travels in snapshots; files written before it load without it.
void TestSnapshot::fairnessInSnapshots()
{
    Comparison c = makeComparison();
    TestResult &r = c.runs[0].result;
    r.streams[0].bytesSent = 1000;
    r.computeStreamFairness();
    QVERIFY(r.fairness);
    QCOMPARE(r.fairness->count, r.params.streams);
    QVERIFY(!r.fairnessBidirReverse);
    const QString path = m_dir.filePath(QStringLiteral("fair.nicbench"));
    QString error;
    QVERIFY2(Snapshot::save(c, path, &error), qPrintable(error));
    Comparison back;
    QVERIFY2(Snapshot::load(path, &back, &error), qPrintable(error));
    QVERIFY(back.runs[0].result.fairness);
    QCOMPARE(*back.runs[0].result.fairness, *r.fairness);
    QVERIFY(!back.runs[1].result.fairness); // never computed there

    Comparison old;
    QVERIFY2(Snapshot::load(dataFile(QStringLiteral("cli-v1-loopback.nicbench")), &old, &error), qPrintable(error));
    for (const Run &run : std::as_const(old.runs))
        QVERIFY(!run.result.fairness && !run.result.fairnessBidirReverse && !run.result.rr.fairness);
}

void TestSnapshot::gzipRoundTrip()
{
    const Comparison c = makeComparison();
    const QString path = m_dir.filePath(QStringLiteral("forced.nicbench"));
    QString error;
    SnapshotSaveOptions options;
    options.compression = SnapshotCompression::Gzip;
    QVERIFY2(Snapshot::save(c, path, &error, options), qPrintable(error));
    const QByteArray raw = readAll(path);
    QVERIFY(isGzip(raw));
    QVERIFY(raw.size() < documentBytes(Snapshot::toJson(c)).size());
    Comparison back;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::load(path, &back, &error, &info), qPrintable(error));
    QVERIFY(info.compressed);
    QCOMPARE(documentBytes(Snapshot::toJson(back)), documentBytes(Snapshot::toJson(c)));
}

void TestSnapshot::gzipBySuffix()
{
    const Comparison c = makeComparison();
    const QString path = m_dir.filePath(QStringLiteral("auto.nicbench.gz"));
    QString error;
    QVERIFY2(Snapshot::save(c, path, &error), qPrintable(error));
    QVERIFY(isGzip(readAll(path)));
    // A stock gunzip reads it (when installed): the file really is gzip, not qCompress.
    QByteArray plain;
    QVERIFY(gzipDecompress(readAll(path), Snapshot::kMaxJsonBytes, &plain, &error));
    QVERIFY(plain.startsWith("{"));
}

void TestSnapshot::statisticsInFile()
{
    const Comparison c = makeComparison();
    const QJsonObject doc = Snapshot::toJson(c);
    QCOMPARE(doc.value(QStringLiteral("format")).toString(), QStringLiteral("nicbench-snapshot"));
    QCOMPARE(doc.value(QStringLiteral("version")).toInt(), Snapshot::kFormatVersion);
    const QJsonArray configs =
        doc.value(QStringLiteral("statistics")).toObject().value(QStringLiteral("configurations")).toArray();
    QCOMPARE(configs.size(), 2);
    const QJsonObject tp = configs[1]
                               .toObject()
                               .value(QStringLiteral("metrics"))
                               .toObject()
                               .value(QStringLiteral("throughput_bps"))
                               .toObject();
    QVERIFY(tp.value(QStringLiteral("mean")).toDouble() > 1e10);
    QVERIFY(tp.contains(QStringLiteral("vs_baseline")));
    QCOMPARE(configs[1].toObject().value(QStringLiteral("failed_runs")).toInt(), 1);
}

void TestSnapshot::loadsCliFile()
{
    // Written by `nicbench-cli compare` (2 configurations x 2 repeats on loopback).
    Comparison c;
    QString error;
    QVERIFY2(Snapshot::load(dataFile(QStringLiteral("cli-v1-loopback.nicbench")), &c, &error), qPrintable(error));
    QCOMPARE(c.configurations.size(), 2);
    QCOMPARE(c.runs.size(), 4);
    const ComparisonStatistics s = computeStatistics(c);
    QVERIFY(s.find(1, Metric::Throughput));
    QVERIFY(s.find(1, Metric::Throughput)->hasBaseline);
    QCOMPARE(s.find(1, Metric::Throughput)->summary.n, 2);
}

void TestSnapshot::version1Migrates()
{
    // A version 1 file has labels only ("E1000, P=4"); loading derives adapter and variant
    // from them, so each variant gets its verdict against the baseline adapter.
    Comparison c = makeComparison();
    c.configurations[0].label = QStringLiteral("E1000, P=1");
    c.configurations[1].label = QStringLiteral("VMXNET3, P=1");
    QJsonObject doc = Snapshot::toJson(c);
    doc.insert(QStringLiteral("version"), 1);
    QJsonArray configs = doc.value(QStringLiteral("configurations")).toArray();
    for (QJsonValueRef v : configs) {
        QJsonObject o = v.toObject();
        o.remove(QStringLiteral("adapter"));
        o.remove(QStringLiteral("variant"));
        v = o;
    }
    doc.insert(QStringLiteral("configurations"), configs);
    Comparison back;
    QString error;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::fromJson(doc, &back, &error, &info), qPrintable(error));
    QCOMPARE(info.version, 1);
    QVERIFY(info.migrated);
    QCOMPARE(back.configurations[0].adapter, QStringLiteral("E1000"));
    QCOMPARE(back.configurations[1].adapter, QStringLiteral("VMXNET3"));
    QCOMPARE(back.configurations[1].variant, QStringLiteral("P=1"));
    QCOMPARE(back.baselineFor(1), 0);
    const ComparisonStatistics s = computeStatistics(back);
    QVERIFY(s.find(1, Metric::Throughput) && s.find(1, Metric::Throughput)->hasBaseline);
    // Saved again, it is the current version with both fields.
    const QJsonObject again = Snapshot::toJson(back);
    QCOMPARE(again.value(QStringLiteral("version")).toInt(), Snapshot::kFormatVersion);
    QCOMPARE(again.value(QStringLiteral("configurations")).toArray().at(1).toObject().value(QStringLiteral("adapter")),
             QJsonValue(QStringLiteral("VMXNET3")));
}

void TestSnapshot::version2Migrates()
{
    // Version 2 is version 3 without latency-under-load runs: it loads as it is, marked
    // migrated, and saves as the current version.
    const Comparison c = makeComparison();
    QJsonObject doc = Snapshot::toJson(c);
    doc.insert(QStringLiteral("version"), 2);
    Comparison back;
    QString error;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::fromJson(doc, &back, &error, &info), qPrintable(error));
    QCOMPARE(info.version, 2);
    QVERIFY(info.migrated);
    QCOMPARE(documentBytes(Snapshot::toJson(back)), documentBytes(Snapshot::toJson(c)));
    QCOMPARE(Snapshot::toJson(back).value(QStringLiteral("version")).toInt(), Snapshot::kFormatVersion);
    // Version 5 is a newer NicBench's: refused with a message, not misread.
    doc.insert(QStringLiteral("version"), 5);
    QVERIFY(!Snapshot::fromJson(doc, &back, &error));
    QVERIFY2(error.contains(QLatin1String("newer NicBench")), qPrintable(error));
}

namespace {

// Every phase and every interval's probe summary of two results.
void compareLoadedLatency(const TestResult &a, const TestResult &b)
{
    QVERIFY(a.loadedLatency && b.loadedLatency);
    QCOMPARE(b.params.kind, TestKind::LoadedLatency);
    QCOMPARE(b.params.phaseSeconds, a.params.phaseSeconds);
    const LoadedLatencyResult &x = *a.loadedLatency, &y = *b.loadedLatency;
    QCOMPARE(y.phases.size(), x.phases.size());
    QVERIFY(!x.phases.isEmpty());
    for (int i = 0; i < x.phases.size(); ++i) {
        QCOMPARE(y.phases[i].phase, x.phases[i].phase);
        QCOMPARE(y.phases[i].start, x.phases[i].start);
        QCOMPARE(y.phases[i].end, x.phases[i].end);
        QCOMPARE(y.phases[i].uploadBitsPerSecond, x.phases[i].uploadBitsPerSecond);
        QCOMPARE(y.phases[i].downloadBitsPerSecond, x.phases[i].downloadBitsPerSecond);
        QCOMPARE(y.phases[i].transactions, x.phases[i].transactions);
        QCOMPARE(y.phases[i].latencyUs, x.phases[i].latencyUs);
    }
    QCOMPARE(b.intervals.size(), a.intervals.size());
    for (int i = 0; i < a.intervals.size(); ++i) {
        QVERIFY(b.intervals[i].hasRr);
        QCOMPARE(b.intervals[i].rr.transactions, a.intervals[i].rr.transactions);
        QCOMPARE(b.intervals[i].rr.latencyUs, a.intervals[i].rr.latencyUs);
        QVERIFY(b.intervals[i].rr.latencyUs.count > 0);
    }
}

// Two adapters x (P=1, latency under load) x 3 repeats, 1 s phases: small enough for a fixture.
Comparison loadedComparison()
{
    Comparison c = chartdata::makeComparison({{QStringLiteral("E1000"), QStringLiteral("P=1"), 2.9},
                                              {QStringLiteral("VMXNET3"), QStringLiteral("P=1"), 4.7},
                                              {QStringLiteral("E1000"), QStringLiteral("Latency under load"), 1.0},
                                              {QStringLiteral("VMXNET3"), QStringLiteral("Latency under load"), 0.4}});
    c.title = QStringLiteral("Latency under load");
    c.createdAt = QDateTime(QDate(2026, 12, 3), QTime(21, 0), QTimeZone::utc());
    c.finishedAt = c.createdAt.addSecs(300);
    for (Run &r : c.runs) {
        r.startedAt = c.createdAt.addSecs(r.orderIndex * 15);
        if (r.result.loadedLatency) {
            loadeddata::Levels l;
            const bool e1000 = c.configurations[r.configIndex].adapter == QLatin1String("E1000");
            l.downloadAddUs = e1000 ? 400 : 160;
            l.uploadAddUs = e1000 ? 250 : 100;
            l.bidirAddUs = e1000 ? 900 : 360;
            r.result = loadeddata::loadedLatencyResult(l, r.orderIndex + 1, 1);
        }
    }
    return c;
}

} // namespace

void TestSnapshot::loadedLatencyRoundTrip()
{
    const Comparison c = chartdata::withLoadedLatency();
    QCOMPARE(c.validate(), QString());
    for (bool gzip : {false, true}) {
        const QString path =
            m_dir.filePath(gzip ? QStringLiteral("loaded.nicbench.gz") : QStringLiteral("loaded.nicbench"));
        QString error;
        QVERIFY2(Snapshot::save(c, path, &error), qPrintable(error));
        Comparison back;
        SnapshotLoadInfo info;
        QVERIFY2(Snapshot::load(path, &back, &error, &info), qPrintable(error));
        QCOMPARE(info.version, Snapshot::kFormatVersion);
        QVERIFY(!info.migrated);
        QCOMPARE(back.runs.size(), c.runs.size());
        int loaded = 0;
        for (int i = 0; i < c.runs.size(); ++i) {
            QCOMPARE(bool(back.runs[i].result.loadedLatency), bool(c.runs[i].result.loadedLatency));
            if (!c.runs[i].result.loadedLatency)
                continue;
            ++loaded;
            compareLoadedLatency(c.runs[i].result, back.runs[i].result);
        }
        QCOMPARE(loaded, 6);
        // The statistics from the file are the ones from memory.
        QCOMPARE(documentBytes(computeStatistics(back).toJson()), documentBytes(computeStatistics(c).toJson()));
        QCOMPARE(documentBytes(Snapshot::toJson(back)), documentBytes(Snapshot::toJson(c)));
    }
}

void TestSnapshot::loadsVersion3File()
{
    // tests/data/snapshots/v3-loaded-latency.nicbench, written by writeVersion3Fixture().
    Comparison c;
    QString error;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::load(dataFile(QStringLiteral("v3-loaded-latency.nicbench")), &c, &error, &info),
             qPrintable(error));
    QCOMPARE(info.version, 3);
    QVERIFY(info.migrated); // to version 4: no UDP runs in it, nothing changes
    const Comparison expected = loadedComparison();
    QCOMPARE(c.runs.size(), expected.runs.size());
    for (int i = 0; i < c.runs.size(); ++i)
        if (expected.runs[i].result.loadedLatency)
            compareLoadedLatency(expected.runs[i].result, c.runs[i].result);
    const ComparisonStatistics s = computeStatistics(c);
    const int vmxnet3 = 3; // "VMXNET3, Latency under load"
    QCOMPARE(c.configurations[vmxnet3].label, QStringLiteral("VMXNET3, Latency under load"));
    const MetricStatistics *ms = s.find(vmxnet3, Metric::LoadedBidirP99Increase);
    QVERIFY(ms && ms->hasBaseline);
    QCOMPARE(ms->summary.n, 3);
    QCOMPARE(ms->vsBaseline.verdict, stats::Verdict::Faster);
    QVERIFY(!s.find(vmxnet3, Metric::Throughput));
    QVERIFY(s.find(1, Metric::Throughput));
}

void TestSnapshot::writeVersion3Fixture()
{
    // Regenerates the fixture when asked (NICBENCH_WRITE_FIXTURES=1): a format change
    // shows up as a diff in review.
    if (qEnvironmentVariableIsEmpty("NICBENCH_WRITE_FIXTURES"))
        QSKIP("set NICBENCH_WRITE_FIXTURES=1 to rewrite tests/data/snapshots/v3-loaded-latency.nicbench");
    QString error;
    QVERIFY2(Snapshot::save(loadedComparison(), dataFile(QStringLiteral("v3-loaded-latency.nicbench")), &error),
             qPrintable(error));
}

namespace {

// Every UDP figure of two results: the parameters, per stream and per interval.
void compareUdp(const TestResult &a, const TestResult &b)
{
    QCOMPARE(b.params.udp, a.params.udp);
    QCOMPARE(b.params.kind, a.params.kind);
    if (a.params.kind == TestKind::Stream) {
        QCOMPARE(b.params.bandwidth, a.params.bandwidth);
        QCOMPARE(b.params.blockSize, a.params.blockSize);
        QCOMPARE(b.params.pacingTimerUs, a.params.pacingTimerUs);
    } else {
        QCOMPARE(b.params.udpRrTimeoutMs, a.params.udpRrTimeoutMs);
    }
    QCOMPARE(b.streams.size(), a.streams.size());
    for (int i = 0; i < a.streams.size(); ++i) {
        const StreamSummary &x = a.streams[i], &y = b.streams[i];
        QCOMPARE(y.udp, x.udp);
        QCOMPARE(y.packetsSent, x.packetsSent);
        QCOMPARE(y.packetsReceived, x.packetsReceived);
        QCOMPARE(y.lostPackets, x.lostPackets);
        QCOMPARE(y.outOfOrder, x.outOfOrder);
        QCOMPARE(y.jitterMs, x.jitterMs);
    }
    QCOMPARE(b.intervals.size(), a.intervals.size());
    for (int i = 0; i < a.intervals.size(); ++i) {
        QCOMPARE(b.intervals[i].streams.size(), a.intervals[i].streams.size());
        for (int k = 0; k < a.intervals[i].streams.size(); ++k) {
            const StreamInterval &x = a.intervals[i].streams[k], &y = b.intervals[i].streams[k];
            QCOMPARE(y.udp, x.udp);
            QCOMPARE(y.packets, x.packets);
            QCOMPARE(y.lostPackets, x.lostPackets);
            QCOMPARE(y.outOfOrder, x.outOfOrder);
            QCOMPARE(y.jitterMs, x.jitterMs);
        }
        QCOMPARE(b.intervals[i].rr.transactions, a.intervals[i].rr.transactions);
    }
    QCOMPARE(b.rr.udpLost, a.rr.udpLost);
    QCOMPARE(b.rr.transactions, a.rr.transactions);
}

// The UDP comparison as version 3 wrote it: params without the UDP flag and its options.
QJsonObject asVersion3(const Comparison &c)
{
    QJsonObject doc = Snapshot::toJson(c);
    doc.insert(QStringLiteral("version"), 3);
    const auto strip = [](QJsonObject params) {
        for (const char *key : {"udp", "bitrate", "pacing_timer_us", "udp_counters_64bit", "udp_rr_timeout_ms"})
            params.remove(QLatin1String(key));
        return params;
    };
    QJsonArray configs = doc.value(QStringLiteral("configurations")).toArray();
    for (qsizetype i = 0; i < configs.size(); ++i) {
        QJsonObject conf = configs[i].toObject();
        conf.insert(QStringLiteral("params"), strip(conf.value(QStringLiteral("params")).toObject()));
        configs[i] = conf;
    }
    doc.insert(QStringLiteral("configurations"), configs);
    QJsonArray runs = doc.value(QStringLiteral("runs")).toArray();
    for (qsizetype i = 0; i < runs.size(); ++i) {
        QJsonObject run = runs[i].toObject();
        QJsonObject result = run.value(QStringLiteral("result")).toObject();
        QJsonObject nb = result.value(QStringLiteral("nicbench")).toObject();
        nb.insert(QStringLiteral("params"), strip(nb.value(QStringLiteral("params")).toObject()));
        result.insert(QStringLiteral("nicbench"), nb);
        run.insert(QStringLiteral("result"), result);
        runs[i] = run;
    }
    doc.insert(QStringLiteral("runs"), runs);
    return doc;
}

// E1000 and VMXNET3 x (UDP 100M, UDP 500M, UDP_RR, UDP 200M -R: the receiver's intervals
// with loss and jitter), 3 repeats; a fixed date for the fixture.
Comparison udpComparison()
{
    Comparison c = chartdata::makeComparison({{QStringLiteral("E1000"), QStringLiteral("UDP 100M"), 0.8},
                                              {QStringLiteral("VMXNET3"), QStringLiteral("UDP 100M"), 0.1},
                                              {QStringLiteral("E1000"), QStringLiteral("UDP 500M"), 4.0},
                                              {QStringLiteral("VMXNET3"), QStringLiteral("UDP 500M"), 0.6},
                                              {QStringLiteral("E1000"), QStringLiteral("UDP_RR"), 62},
                                              {QStringLiteral("VMXNET3"), QStringLiteral("UDP_RR"), 31},
                                              {QStringLiteral("E1000"), QStringLiteral("UDP 200M -R"), 2.0},
                                              {QStringLiteral("VMXNET3"), QStringLiteral("UDP 200M -R"), 0.5}});
    c.title = QStringLiteral("UDP");
    c.createdAt = QDateTime(QDate(2026, 12, 4), QTime(2, 0), QTimeZone::utc());
    c.finishedAt = c.createdAt.addSecs(120);
    for (Run &r : c.runs)
        r.startedAt = c.createdAt.addSecs(r.orderIndex * 6);
    return c;
}

} // namespace

void TestSnapshot::udpRoundTrip()
{
    const Comparison c = udpComparison();
    QCOMPARE(c.validate(), QString());
    const QString path = m_dir.filePath(QStringLiteral("udp.nicbench"));
    QString error;
    QVERIFY2(Snapshot::save(c, path, &error), qPrintable(error));
    Comparison back;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::load(path, &back, &error, &info), qPrintable(error));
    QCOMPARE(info.version, 4);
    QVERIFY(!info.migrated);
    QCOMPARE(back.runs.size(), c.runs.size());
    for (int i = 0; i < c.configurations.size(); ++i)
        QVERIFY(back.configurations[i].params.udp);
    for (int i = 0; i < c.runs.size(); ++i)
        compareUdp(c.runs[i].result, back.runs[i].result);
    QCOMPARE(back.runs[0].result.params.bandwidth, std::uint64_t(100000000));
    // The statistics from the file are the ones from memory, and they hold the UDP metrics.
    const QJsonObject stats = computeStatistics(back).toJson();
    QCOMPARE(documentBytes(stats), documentBytes(computeStatistics(c).toJson()));
    const QJsonObject vmxnet3 = stats.value(QStringLiteral("configurations"))
                                    .toArray()
                                    .at(1)
                                    .toObject()
                                    .value(QStringLiteral("metrics"))
                                    .toObject();
    for (const char *key : {"udp_goodput_bps", "udp_loss_pct", "udp_jitter_us", "udp_local_cpu_pct_per_gbps"})
        QVERIFY2(vmxnet3.contains(QLatin1String(key)), key);
    QVERIFY(!vmxnet3.contains(QStringLiteral("throughput_bps")));
    QCOMPARE(documentBytes(Snapshot::toJson(back)), documentBytes(Snapshot::toJson(c)));
}

void TestSnapshot::version3UdpMigrates()
{
    // Version 3 params had no UDP flag: the runs' UDP figures give it back, to runs and to
    // configurations, so their UDP metrics and verdicts are the same as before.
    const Comparison c = udpComparison();
    Comparison back;
    QString error;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::fromJson(asVersion3(c), &back, &error, &info), qPrintable(error));
    QCOMPARE(info.version, 3);
    QVERIFY(info.migrated);
    for (const Configuration &conf : std::as_const(back.configurations))
        QVERIFY2(conf.params.udp, qPrintable(conf.label));
    for (const Run &r : std::as_const(back.runs))
        QVERIFY(r.result.params.udp);
    const ComparisonStatistics before = computeStatistics(c), after = computeStatistics(back);
    for (Metric m : {Metric::UdpGoodput, Metric::UdpLossPercent, Metric::UdpJitter, Metric::UdpRrTransactionsPerSecond,
                     Metric::UdpRrLostPercent}) {
        for (int i = 0; i < c.configurations.size(); ++i) {
            const MetricStatistics *x = before.find(i, m), *y = after.find(i, m);
            QCOMPARE(bool(y), bool(x));
            if (x) {
                QCOMPARE(y->values, x->values);
                QCOMPARE(y->vsBaseline.verdict, x->vsBaseline.verdict);
            }
        }
    }
    QVERIFY(!after.find(0, Metric::Throughput));
    // A TCP comparison from version 3 stays TCP.
    QJsonObject tcp = Snapshot::toJson(makeComparison());
    tcp.insert(QStringLiteral("version"), 3);
    QVERIFY2(Snapshot::fromJson(tcp, &back, &error), qPrintable(error));
    for (const Run &r : std::as_const(back.runs))
        QVERIFY(!r.result.params.udp);
    QVERIFY(!back.configurations[0].params.udp);
}

void TestSnapshot::loadsVersion4File()
{
    // tests/data/snapshots/v4-udp.nicbench, written by writeVersion4Fixture().
    Comparison c;
    QString error;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::load(dataFile(QStringLiteral("v4-udp.nicbench")), &c, &error, &info), qPrintable(error));
    QCOMPARE(info.version, 4);
    QVERIFY(!info.migrated);
    // Written before the equivalence threshold existed: the default (review M8).
    QCOMPARE(c.equivalencePercent, compareopt::kDefaultEquivalencePercent);
    const Comparison expected = udpComparison();
    QCOMPARE(c.runs.size(), expected.runs.size());
    int receiverIntervals = 0;
    for (int i = 0; i < c.runs.size(); ++i) {
        compareUdp(expected.runs[i].result, c.runs[i].result);
        for (const IntervalReport &ir : std::as_const(c.runs[i].result.intervals))
            for (const StreamInterval &si : ir.streams)
                receiverIntervals += si.udp && !si.sender && si.lostPackets > 0 && si.jitterMs > 0 ? 1 : 0;
    }
    QCOMPARE(receiverIntervals, 2 * 3 * 4); // the -R configurations' 4 intervals a run
    const ComparisonStatistics s = computeStatistics(c);
    QCOMPARE(c.configurations[3].label, QStringLiteral("VMXNET3, UDP 500M"));
    const MetricStatistics *loss = s.find(3, Metric::UdpLossPercent);
    QVERIFY(loss && loss->hasBaseline);
    QCOMPARE(loss->summary.n, 3);
    QCOMPARE(loss->vsBaseline.verdict, stats::Verdict::Faster);
    QCOMPARE(s.find(5, Metric::UdpRrTransactionsPerSecond)->vsBaseline.verdict, stats::Verdict::Faster);
    QCOMPARE(s.find(7, Metric::UdpJitter)->vsBaseline.verdict, stats::Verdict::Faster);
}

void TestSnapshot::writeVersion4Fixture()
{
    if (qEnvironmentVariableIsEmpty("NICBENCH_WRITE_FIXTURES"))
        QSKIP("set NICBENCH_WRITE_FIXTURES=1 to rewrite tests/data/snapshots/v4-udp.nicbench");
    QString error;
    QVERIFY2(Snapshot::save(udpComparison(), dataFile(QStringLiteral("v4-udp.nicbench")), &error), qPrintable(error));
}

void TestSnapshot::olderVersionLoads()
{
    // Version 0: a JSON array of -J documents (here three stock iperf3 3.12 results).
    Comparison c;
    QString error;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::load(dataFile(QStringLiteral("v0-iperf3-array.json")), &c, &error, &info), qPrintable(error));
    QCOMPARE(info.version, 0);
    QVERIFY(info.migrated);
    QCOMPARE(c.configurations.size(), 1);
    QCOMPARE(c.runs.size(), 3);
    QCOMPARE(c.repeats, 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(c.runs[i].orderIndex, i);
        QCOMPARE(c.runs[i].repeatIndex, i);
    }
    QVERIFY(!c.warnings.isEmpty());
    QCOMPARE(c.validate(), QString());
    // The migrated comparison saves as the current version and reloads unchanged.
    const QString path = m_dir.filePath(QStringLiteral("migrated.nicbench"));
    QVERIFY2(Snapshot::save(c, path, &error), qPrintable(error));
    Comparison again;
    QVERIFY2(Snapshot::load(path, &again, &error, &info), qPrintable(error));
    QCOMPARE(info.version, Snapshot::kFormatVersion);
    QCOMPARE(documentBytes(Snapshot::toJson(again)), documentBytes(Snapshot::toJson(c)));
}

void TestSnapshot::singleResultIsVersion0()
{
    Comparison c;
    QString error;
    SnapshotLoadInfo info;
    QVERIFY2(Snapshot::load(QStringLiteral(NICBENCH_TEST_DATA "/iperf3-3.12-client.json"), &c, &error, &info),
             qPrintable(error));
    QCOMPARE(info.version, 0);
    QCOMPARE(c.runs.size(), 1);
}

void TestSnapshot::rejectsFixtures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected"); // part of the error message
    QTest::newRow("empty") << QStringLiteral("bad-empty.nicbench") << QStringLiteral("empty");
    QTest::newRow("html") << QStringLiteral("bad-not-json.nicbench") << QStringLiteral("not valid JSON");
    QTest::newRow("scalar") << QStringLiteral("bad-scalar.nicbench") << QStringLiteral("not valid JSON");
    QTest::newRow("other format") << QStringLiteral("bad-wrong-format.nicbench") << QStringLiteral("flent-data");
    QTest::newRow("truncated") << QStringLiteral("bad-truncated.nicbench") << QStringLiteral("truncated");
    QTest::newRow("deep nesting") << QStringLiteral("bad-deep-nesting.nicbench") << QStringLiteral("not valid JSON");
    QTest::newRow("missing") << QStringLiteral("does-not-exist.nicbench") << QStringLiteral("no such file");
}

void TestSnapshot::rejectsFixtures()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    Comparison c;
    QString error;
    QVERIFY(!Snapshot::load(dataFile(file), &c, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY2(error.contains(file), qPrintable(error)); // names the file
}

// A folder, or a pipe that a read would wait on for ever, is said to be what it is, at once.
void TestSnapshot::rejectsWhatIsNoFile()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.nicbench")));
    Comparison c;
    QString error;
    QVERIFY(!Snapshot::load(dir.filePath(QStringLiteral("folder.nicbench")), &c, &error));
    QVERIFY2(error.contains(QLatin1String("folder.nicbench")) && error.contains(QLatin1String("is a folder")),
             qPrintable(error));
#ifdef Q_OS_UNIX
    const QString fifo = dir.filePath(QStringLiteral("pipe.nicbench"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QElapsedTimer t;
    t.start();
    QVERIFY(!Snapshot::load(fifo, &c, &error));
    QVERIFY2(error.contains(QLatin1String("is not a regular file")), qPrintable(error));
    QVERIFY(t.elapsed() < 5000);
#endif
}

// A snapshot is mailed around: neither machine's MAC addresses go in (review minor), while
// the adapters themselves (name, driver, family) stay.
void TestSnapshot::leavesOutMacAddresses()
{
    Comparison c = makeComparison();
    AdapterInfo eth;
    eth.name = QStringLiteral("eth0");
    eth.driver = QStringLiteral("e1000");
    eth.hardwareAddress = QStringLiteral("52:54:00:ab:cd:ef");
    c.environment.local.adapters = {eth};
    c.environment.remote.adapters = {eth};
    c.runs[0].result.localAdapter = eth;
    c.runs[0].result.remoteAdapter = eth;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mail.nicbench"));
    QString error;
    QVERIFY2(Snapshot::save(c, path, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY(!bytes.contains("52:54:00:ab:cd:ef"));
    QVERIFY(!bytes.contains("hardware_address\": \"5"));
    Comparison back;
    QVERIFY2(Snapshot::load(path, &back, &error), qPrintable(error));
    QCOMPARE(back.environment.local.adapters.size(), 1);
    QCOMPARE(back.environment.local.adapters.first().driver, QStringLiteral("e1000"));
    QVERIFY(back.environment.local.adapters.first().hardwareAddress.isEmpty());
    QVERIFY(back.runs[0].result.localAdapter && back.runs[0].result.localAdapter->name == QStringLiteral("eth0"));
}

void TestSnapshot::rejectsMutations_data()
{
    // Each row damages one field of the CLI-written fixture.
    QTest::addColumn<QString>("mutation");
    QTest::addColumn<QString>("expected");
    QTest::newRow("repeats is a string") << QStringLiteral("repeats=\"three\"") << QStringLiteral("repeats");
    QTest::newRow("repeats negative") << QStringLiteral("repeats=-1") << QStringLiteral("repeats");
    QTest::newRow("equivalence too big") << QStringLiteral("equivalence_percent=80")
                                         << QStringLiteral("equivalence_percent");
    QTest::newRow("equivalence a string")
        << QStringLiteral("equivalence_percent=\"2\"") << QStringLiteral("equivalence_percent");
    QTest::newRow("repeats fractional") << QStringLiteral("repeats=1.5") << QStringLiteral("integer");
    QTest::newRow("future version") << QStringLiteral("version=99") << QStringLiteral("newer NicBench");
    QTest::newRow("version string") << QStringLiteral("version=\"1\"") << QStringLiteral("version");
    QTest::newRow("runs is an object") << QStringLiteral("runs={}") << QStringLiteral("runs");
    QTest::newRow("configurations missing") << QStringLiteral("configurations") << QStringLiteral("configurations");
    QTest::newRow("baseline out of range") << QStringLiteral("baseline=5") << QStringLiteral("baseline");
    QTest::newRow("run config out of range") << QStringLiteral("runs.1.config=7") << QStringLiteral("configuration 7");
    QTest::newRow("duplicate run") << QStringLiteral("runs.1.config=0") << QStringLiteral("repeats repeat");
    QTest::newRow("run order wrong") << QStringLiteral("runs.2.order=9") << QStringLiteral("order");
    QTest::newRow("result intervals wrong type")
        << QStringLiteral("runs.0.result.intervals=\"lots\"") << QStringLiteral("intervals");
    QTest::newRow("result missing") << QStringLiteral("runs.0.result") << QStringLiteral("result");
    QTest::newRow("params out of range") << QStringLiteral("configurations.0.params.streams=100000")
                                         << QStringLiteral("params");
    QTest::newRow("order policy") << QStringLiteral("order.policy=\"sideways\"") << QStringLiteral("sideways");
    QTest::newRow("started_at garbage") << QStringLiteral("runs.0.started_at=\"yesterday\"")
                                        << QStringLiteral("ISO 8601");
    QTest::newRow("environment wrong") << QStringLiteral("environment.local.cpu_count=\"many\"")
                                       << QStringLiteral("cpu_count");
    QTest::newRow("warnings not strings") << QStringLiteral("warnings=[1,2]") << QStringLiteral("warnings");
    QTest::newRow("label missing") << QStringLiteral("configurations.1.label") << QStringLiteral("label");
}

// "a.b.2.c=JSON" sets a value, "a.b" alone removes the key.
static QJsonValue mutate(const QJsonValue &node, const QStringList &path, const std::optional<QJsonValue> &value)
{
    if (path.isEmpty())
        return value ? *value : QJsonValue();
    const QString key = path.first();
    if (node.isArray()) {
        QJsonArray a = node.toArray();
        const int i = key.toInt();
        if (path.size() == 1 && !value)
            a.removeAt(i);
        else
            a[i] = mutate(a[i], path.mid(1), value);
        return a;
    }
    QJsonObject o = node.toObject();
    if (path.size() == 1 && !value)
        o.remove(key);
    else
        o.insert(key, mutate(o.value(key), path.mid(1), value));
    return o;
}

void TestSnapshot::rejectsMutations()
{
    QFETCH(QString, mutation);
    QFETCH(QString, expected);
    const QJsonObject good =
        QJsonDocument::fromJson(readAll(dataFile(QStringLiteral("cli-v1-loopback.nicbench")))).object();
    QVERIFY(!good.isEmpty());
    const qsizetype eq = mutation.indexOf(QLatin1Char('='));
    std::optional<QJsonValue> value;
    QString keyPath = mutation;
    if (eq > 0) {
        keyPath = mutation.left(eq);
        const QByteArray wrapped = "[" + mutation.mid(eq + 1).toUtf8() + "]";
        value = QJsonDocument::fromJson(wrapped).array().first();
    }
    const QJsonValue bad = mutate(good, keyPath.split(QLatin1Char('.')), value);
    Comparison c;
    QString error;
    QVERIFY(!Snapshot::decode(documentBytes(bad.toObject()), &c, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
    // And the unmodified document still loads (the mutation, not the fixture, is at fault).
    QVERIFY2(Snapshot::decode(documentBytes(good), &c, &error), qPrintable(error));
}

void TestSnapshot::rejectsHugeArrays()
{
    QJsonObject doc = Snapshot::toJson(makeComparison());
    QJsonArray runs;
    for (int i = 0; i < Snapshot::kMaxRuns + 1; ++i)
        runs.append(QJsonObject());
    doc.insert(QStringLiteral("runs"), runs);
    Comparison c;
    QString error;
    QElapsedTimer t;
    t.start();
    QVERIFY(!Snapshot::decode(documentBytes(doc), &c, &error));
    QVERIFY2(error.contains(QStringLiteral("more than")), qPrintable(error));
    QVERIFY(t.elapsed() < 10000);
    // Too large before parsing at all.
    QVERIFY(!Snapshot::decode(QByteArray(2048, ' '), &c, &error, nullptr, 1024));
    QVERIFY2(error.contains(QStringLiteral("limit")), qPrintable(error));
}

void TestSnapshot::rejectsBadGzip()
{
    const QByteArray gz = Snapshot::encode(makeComparison(), true);
    QVERIFY(isGzip(gz));
    Comparison c;
    QString error;
    QVERIFY(Snapshot::decode(gz, &c, &error));
    // Truncated at several points.
    for (qsizetype cut : {qsizetype(3), qsizetype(10), gz.size() / 2, gz.size() - 4}) {
        QVERIFY(!Snapshot::decode(gz.left(cut), &c, &error));
        QVERIFY2(error.contains(QStringLiteral("decompress")), qPrintable(error));
    }
    // Flipped bytes in the deflate data or the CRC.
    QByteArray corrupt = gz;
    corrupt[gz.size() / 2] = char(corrupt[gz.size() / 2] ^ 0x5a);
    QVERIFY(!Snapshot::decode(corrupt, &c, &error));
    corrupt = gz;
    corrupt[gz.size() - 6] = char(corrupt[gz.size() - 6] ^ 0x01);
    QVERIFY(!Snapshot::decode(corrupt, &c, &error));
    QVERIFY2(error.contains(QStringLiteral("corrupt")), qPrintable(error));
    // Trailing garbage.
    QVERIFY(!Snapshot::decode(gz + "garbage", &c, &error));
    QVERIFY2(error.contains(QStringLiteral("after the end")), qPrintable(error));
    // Two concatenated members are valid gzip (cat a.gz b.gz); here they make invalid JSON.
    QVERIFY(!Snapshot::decode(gz + gz, &c, &error));
    QVERIFY2(error.contains(QStringLiteral("JSON")), qPrintable(error));
}

void TestSnapshot::gzipBombIsCapped()
{
    // 64 MiB of spaces compress to ~64 KB; with a 1 MiB cap decoding stops early.
    const QByteArray bomb = gzipCompress(QByteArray(64 * 1024 * 1024, ' '));
    QVERIFY(bomb.size() < 1024 * 1024);
    Comparison c;
    QString error;
    QVERIFY(!Snapshot::decode(bomb, &c, &error, nullptr, 1024 * 1024));
    QVERIFY2(error.contains(QStringLiteral("limit")), qPrintable(error));
    QByteArray out;
    QVERIFY(!gzipDecompress(bomb, 1024 * 1024, &out, &error));
    QVERIFY(out.isEmpty());
}

void TestSnapshot::atomicSaveKeepsOldFile()
{
    const QString path = m_dir.filePath(QStringLiteral("atomic.nicbench"));
    const Comparison first = makeComparison();
    QString error;
    QVERIFY2(Snapshot::save(first, path, &error), qPrintable(error));
    const QByteArray before = readAll(path);
    Comparison second = makeComparison();
    second.title = QStringLiteral("second");
    SnapshotSaveOptions options;
    options.simulateWriteFailure = true;
    QVERIFY(!Snapshot::save(second, path, &error, options));
    QVERIFY(!error.isEmpty());
    QCOMPARE(readAll(path), before);
    Comparison back;
    QVERIFY2(Snapshot::load(path, &back, &error), qPrintable(error));
    QCOMPARE(back.title, first.title);
    // No temporary files left behind.
    const QStringList left = QDir(m_dir.path()).entryList({QStringLiteral("atomic*")}, QDir::Files);
    QCOMPARE(left, QStringList{QStringLiteral("atomic.nicbench")});
}

QTEST_GUILESS_MAIN(TestSnapshot)
// Review minor: a snapshot showed "UDP loss 10,000,000,000,000 %" and a jitter of 1e308 as
// "0 us". Such a file is refused with a one-line reason instead.
void TestSnapshot::rejectsImpossibleUdpFigures_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("errorContains"); // empty: loads
    QTest::newRow("as saved") << QString() << 0.0 << QString();
    QTest::newRow("loss beyond what was sent")
        << QStringLiteral("lost_packets") << 1e13 << QStringLiteral("UDP datagrams lost of 34528 sent cannot be right");
    QTest::newRow("jitter 1e308") << QStringLiteral("jitter_ms") << 1e308
                                  << QStringLiteral("a UDP jitter of 1e+308 ms cannot be right");
    QTest::newRow("jitter of a minute") << QStringLiteral("jitter_ms") << 60000.0 << QString();
}

void TestSnapshot::rejectsImpossibleUdpFigures()
{
    QFETCH(QString, key);
    QFETCH(double, value);
    QFETCH(QString, errorContains);
    QFile in(dataFile(QStringLiteral("v4-udp.nicbench")));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
    QJsonArray runs = doc.value(QStringLiteral("runs")).toArray();
    QJsonObject run = runs.at(0).toObject();
    QJsonObject result = run.value(QStringLiteral("result")).toObject();
    QJsonObject end = result.value(QStringLiteral("end")).toObject();
    QJsonArray streams = end.value(QStringLiteral("streams")).toArray();
    QJsonObject stream = streams.at(0).toObject();
    QJsonObject udp = stream.value(QStringLiteral("udp")).toObject();
    if (!key.isEmpty())
        udp.insert(key, value);
    stream.insert(QStringLiteral("udp"), udp);
    streams.replace(0, stream);
    end.insert(QStringLiteral("streams"), streams);
    result.insert(QStringLiteral("end"), end);
    run.insert(QStringLiteral("result"), result);
    runs.replace(0, run);
    doc.insert(QStringLiteral("runs"), runs);
    Comparison c;
    QString error;
    const bool ok = Snapshot::decode(QJsonDocument(doc).toJson(), &c, &error);
    if (errorContains.isEmpty()) {
        QVERIFY2(ok, qPrintable(error));
    } else {
        QVERIFY(!ok);
        QVERIFY2(error.contains(errorContains), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    }
}

#include "tst_snapshot.moc"
