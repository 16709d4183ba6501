// SPDX-License-Identifier: GPL-3.0-or-later
// The run history (compare/runhistory.h): runs stored one file each and listed newest first,
// the limits that delete the oldest, the index that is only a cache, unreadable and hostile
// files, labels and deletion; the words of the list (compare/rundescription.h); past runs
// made into a comparison (compare/historycomparison.h); and the interval CSV and -J document
// of a saved result (model/resultexport.h).
#include "compare/historycomparison.h"
#include "compare/rundescription.h"
#include "compare/runhistory.h"
#include "compare/snapshot.h"
#include "model/resultexport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

using namespace nb;

Q_DECLARE_METATYPE(nb::TestParams)

namespace {

AdapterInfo adapterNamed(const QString &name, const QString &driver)
{
    AdapterInfo a;
    a.name = name;
    a.driver = driver;
    a.index = 2;
    a.mtu = 1500;
    a.operState = QStringLiteral("up");
    return a;
}

// A throughput test of `streams` streams at `gbps`, with intervals, CPU and the adapter.
TestResult streamRun(double gbps, int streams = 2, const QString &adapter = QStringLiteral("lo"),
                     const QString &host = QStringLiteral("127.0.0.1"))
{
    TestResult r;
    r.params.host = host;
    r.params.port = 5201;
    r.params.streams = streams;
    r.params.duration = 3;
    r.version = QStringLiteral("0.1.0");
    r.timestampSecs = 1764900000;
    const std::uint64_t bytes = std::uint64_t(gbps * 1e9 / 8 * 3);
    for (int s = 0; s < streams; ++s) {
        StreamSummary sum;
        sum.id = s + 5;
        sum.seconds = sum.receiverSeconds = 3;
        sum.bytesSent = sum.bytesReceived = bytes / streams;
        sum.retransmits = 0;
        r.streams.append(sum);
    }
    for (int i = 0; i < 3; ++i) {
        IntervalReport ir;
        for (int s = 0; s < streams; ++s) {
            StreamInterval si;
            si.id = s + 5;
            si.start = i;
            si.end = i + 1;
            si.bytes = bytes / streams / 3;
            si.retransmits = i;
            si.cwndBytes = 65536;
            si.rttUs = 40;
            ir.streams.append(si);
        }
        ir.hasCpu = true;
        ir.cpu.start = i;
        ir.cpu.end = i + 1;
        ir.cpu.cpuCount = 2;
        ir.cpu.systemValid = true;
        ir.cpu.systemBusyPct = 25;
        r.intervals.append(ir);
    }
    r.localCpuKnown = true;
    r.localCpu.end = 3;
    r.localCpu.cpuCount = 2;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = 25;
    r.localAdapter = adapterNamed(adapter, adapter == QStringLiteral("lo") ? QString() : QStringLiteral("vmxnet3"));
    return r;
}

TestResult failedRun(const QString &why)
{
    TestResult r;
    r.params.host = QStringLiteral("198.18.0.9");
    r.params.port = 5201;
    r.error = why;
    r.errorCode = ErrorCode::Refused;
    return r;
}

TestResult rrRun(double tps, int connections = 1)
{
    TestResult r;
    r.params.host = QStringLiteral("127.0.0.1");
    r.params.kind = TestKind::Rr;
    r.params.streams = connections;
    r.params.duration = 2;
    r.hasRr = true;
    r.rr.seconds = 2;
    r.rr.transactions = std::uint64_t(tps * 2);
    for (int i = 0; i < 100; ++i)
        r.rr.histogram.record(40000 + i * 100); // ns
    r.rr.latencyUs = r.rr.histogram.summary();
    for (int i = 0; i < 2; ++i) {
        IntervalReport ir;
        ir.hasRr = true;
        ir.rr.start = i;
        ir.rr.end = i + 1;
        ir.rr.transactions = std::uint64_t(tps);
        ir.rr.latencyUs = r.rr.latencyUs;
        r.intervals.append(ir);
    }
    return r;
}

QDateTime at(int minute, int second = 0)
{
    return QDateTime(QDate(2026, 12, 5), QTime(3, minute, second), QTimeZone::utc());
}

HostEnvironment thisHost()
{
    HostEnvironment h;
    h.known = true;
    h.hostName = QStringLiteral("bench-host");
    h.os = QStringLiteral("Debian GNU/Linux 12 (bookworm)");
    h.cpuCount = 2;
    h.adapters.append(adapterNamed(QStringLiteral("eth0"), QStringLiteral("virtio_net"))); // not stored
    return h;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QStringList ids(const QList<HistoryEntry> &entries)
{
    QStringList out;
    for (const HistoryEntry &e : entries)
        out << e.id;
    return out;
}

} // namespace

class TestRunHistory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void addListLoad()
    {
        QTemporaryDir dir;
        RunHistory history(dir.filePath(QStringLiteral("history"))); // made on the first run
        HistoryEntry first, second;
        QString error;
        QVERIFY2(history.add({streamRun(9.41)}, thisHost(), &first, &error, at(1)), qPrintable(error));
        QVERIFY2(history.add({streamRun(2.5, 4, QStringLiteral("ens192")), rrRun(24100)}, thisHost(), &second, &error,
                             at(2)),
                 qPrintable(error));
        QVERIFY(RunHistory::isRunId(first.id));
        QVERIFY(first.id.startsWith(QStringLiteral("20261205T030100000Z-")));

        const QList<HistoryEntry> entries = history.entries();
        QCOMPARE(ids(entries), (QStringList{second.id, first.id})); // newest first
        const HistoryEntry &e = entries.last();
        QCOMPARE(e.finishedAt, at(1));
        QCOMPARE(e.kind, QStringLiteral("TCP upload P=2"));
        QCOMPARE(e.headline, QStringLiteral("9.41 Gbit/s"));
        QCOMPARE(e.adapter, QStringLiteral("lo"));
        QCOMPARE(e.target, QStringLiteral("127.0.0.1:5201"));
        QVERIFY(e.ok && e.readable);
        QCOMPARE(e.fileBytes, QFileInfo(dir.filePath(QStringLiteral("history/%1.json").arg(e.id))).size());
        QCOMPARE(entries.first().kind, QStringLiteral("TCP upload P=4 + TCP_RR"));
        QCOMPARE(entries.first().headline, QStringLiteral("2.50 Gbit/s \u00b7 24,100/s, p99 49.8 \u00b5s"));
        QCOMPARE(entries.first().adapter, QStringLiteral("ens192 (vmxnet3)"));
        QCOMPARE(history.runCount(), 2);
        QCOMPARE(history.totalBytes(), entries[0].fileBytes + entries[1].fileBytes);

        HistoryRun run;
        QVERIFY2(history.load(second.id, &run, &error), qPrintable(error));
        QCOMPARE(run.results.size(), 2);
        QCOMPARE(run.results[0].toJson(), streamRun(2.5, 4, QStringLiteral("ens192")).toJson());
        QCOMPARE(run.results[1].rr.transactions, rrRun(24100).rr.transactions);
        QCOMPARE(run.host.hostName, QStringLiteral("bench-host"));
        QVERIFY2(run.host.adapters.isEmpty(), "the machine's adapter list is not stored");
        QCOMPARE(run.entry.headline, entries.first().headline);
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("history/index.json"))));
    }

    // A failure is kept with its reason.
    void failedRunKept()
    {
        QTemporaryDir dir;
        RunHistory history(dir.path());
        HistoryEntry e;
        QString error;
        QVERIFY(history.add({failedRun(QStringLiteral("connection refused"))}, thisHost(), &e, &error));
        QVERIFY(!e.ok);
        QCOMPARE(e.headline, QStringLiteral("failed: connection refused"));
        QCOMPARE(e.target, QStringLiteral("198.18.0.9:5201"));
        HistoryRun run;
        QVERIFY(history.load(e.id, &run, &error));
        QCOMPARE(run.results.constFirst().error, QStringLiteral("connection refused"));
        QCOMPARE(run.results.constFirst().errorCode, ErrorCode::Refused);
    }

    void pruneByCount()
    {
        QTemporaryDir dir;
        RunHistory history(dir.path(), HistoryLimits{3, qint64(1) << 40});
        QStringList added;
        for (int i = 0; i < 5; ++i) {
            HistoryEntry e;
            QVERIFY(history.add({streamRun(1 + i)}, thisHost(), &e, nullptr, at(10 + i)));
            added << e.id;
        }
        QCOMPARE(ids(history.entries()), (QStringList{added[4], added[3], added[2]}));
        QVERIFY(!QFile::exists(QDir(dir.path()).filePath(added[0] + QStringLiteral(".json"))));
        QVERIFY(!QFile::exists(QDir(dir.path()).filePath(added[1] + QStringLiteral(".json"))));
        // A fresh look at the folder agrees (the index was rewritten).
        RunHistory again(dir.path(), HistoryLimits{3, qint64(1) << 40});
        QCOMPARE(ids(again.entries()), (QStringList{added[4], added[3], added[2]}));
    }

    void pruneByBytes()
    {
        QTemporaryDir dir;
        RunHistory history(dir.path());
        HistoryEntry e;
        QVERIFY(history.add({streamRun(1)}, thisHost(), &e, nullptr, at(20)));
        const qint64 one = e.fileBytes;
        QVERIFY(one > 1000);
        history.setLimits(HistoryLimits{500, one * 2 + one / 2}); // room for two
        QStringList added{e.id};
        for (int i = 1; i < 4; ++i) {
            QVERIFY(history.add({streamRun(1)}, thisHost(), &e, nullptr, at(20 + i)));
            added << e.id;
        }
        QCOMPARE(ids(history.entries()), (QStringList{added[3], added[2]}));
        QVERIFY(history.totalBytes() <= one * 2 + one / 2);
        // The run just added stays even when it alone is over the limit.
        history.setLimits(HistoryLimits{500, 1});
        QVERIFY(history.add({streamRun(3)}, thisHost(), &e, nullptr, at(30)));
        QCOMPARE(ids(history.entries()), QStringList{e.id});
    }

    // The index is a cache: lost, corrupt or stale, the folder's files are what counts.
    void indexIsACache()
    {
        QTemporaryDir dir;
        RunHistory history(dir.path());
        HistoryEntry a, b;
        QVERIFY(history.add({streamRun(1)}, thisHost(), &a, nullptr, at(40)));
        QVERIFY(history.add({rrRun(1000)}, thisHost(), &b, nullptr, at(41)));
        const QList<HistoryEntry> before = history.entries();
        const QString index = QDir(dir.path()).filePath(QStringLiteral("index.json"));

        QVERIFY(QFile::remove(index));
        QCOMPARE(history.entries(), before);
        QVERIFY(QFile::exists(index)); // rebuilt
        QVERIFY(writeFile(index, "{\"format\": \"nicbench-history-index\", \"version\": 1, \"runs\": [{\"id\": 5}"));
        QCOMPARE(history.entries(), before);
        QVERIFY(writeFile(index, QByteArray(100, '\0')));
        QCOMPARE(history.entries(), before);

        // Another window adds a run and deletes one: this one sees both on its next look.
        RunHistory other(dir.path());
        HistoryEntry c;
        QVERIFY(other.add({streamRun(7)}, thisHost(), &c, nullptr, at(42)));
        QVERIFY(other.remove({a.id}, nullptr));
        QCOMPARE(ids(history.entries()), (QStringList{c.id, b.id}));
        QCOMPARE(history.entries().constFirst().headline, QStringLiteral("7.00 Gbit/s"));
    }

    // Files in the folder are hostile input: each refused with a reason, listed so the user
    // can delete it, never a crash.
    void unreadableFilesListed_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("reason");
        const QByteArray result = QJsonDocument(streamRun(1).toJson()).toJson(QJsonDocument::Compact);
        QTest::newRow("garbage") << QByteArray("\x01\x02 not json") << QStringLiteral("not JSON");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("not JSON");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("not a NicBench run");
        QTest::newRow("other format") << QByteArray("{\"format\": \"nicbench-snapshot\", \"version\": 1}")
                                      << QStringLiteral("is not a NicBench run");
        QTest::newRow("newer") << QByteArray("{\"format\": \"nicbench-run\", \"version\": 2}")
                               << QStringLiteral("newer than this NicBench reads");
        QTest::newRow("no results") << QByteArray("{\"format\": \"nicbench-run\", \"version\": 1, \"finished_at\": "
                                                  "\"2026-12-05T03:00:00.000Z\", \"results\": []}")
                                    << QStringLiteral("results: is empty");
        QByteArray many = "{\"format\": \"nicbench-run\", \"version\": 1, \"finished_at\": "
                          "\"2026-12-05T03:00:00.000Z\", \"results\": [";
        for (int i = 0; i < 17; ++i)
            many += (i ? "," : "") + result;
        QTest::newRow("17 results") << many + "]}" << QStringLiteral("more than the 16 allowed");
        QTest::newRow("bad result") << QByteArray("{\"format\": \"nicbench-run\", \"version\": 1, \"finished_at\": "
                                                  "\"2026-12-05T03:00:00.000Z\", \"results\": [{\"start\": 5}]}")
                                    << QStringLiteral("results[0]");
        QTest::newRow("bad time") << "{\"format\": \"nicbench-run\", \"version\": 1, \"finished_at\": \"yesterday\", "
                                     "\"results\": [" +
                                         result + "]}"
                                  << QStringLiteral("finished_at");
        QTest::newRow("truncated")
            << RunHistory::encode(HistoryRun{HistoryEntry{}, thisHost(), {streamRun(1)}}).left(300)
            << QStringLiteral("not JSON");
    }
    void unreadableFilesListed()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        RunHistory history(dir.path());
        HistoryEntry good;
        QVERIFY(history.add({streamRun(1)}, thisHost(), &good, nullptr, at(50)));
        const QString id = QStringLiteral("20261205T030000000Z-abcd");
        QVERIFY(writeFile(QDir(dir.path()).filePath(id + QStringLiteral(".json")), content));
        QVERIFY(writeFile(QDir(dir.path()).filePath(QStringLiteral("notes.json")), "{}")); // not a run: ignored

        const QList<HistoryEntry> entries = history.entries();
        QCOMPARE(ids(entries), (QStringList{good.id, id}));
        const HistoryEntry &bad = entries.last();
        QVERIFY(!bad.readable && !bad.ok);
        QCOMPARE(bad.finishedAt, at(0));
        QVERIFY2(bad.headline.startsWith(QStringLiteral("unreadable: ")) && bad.headline.contains(reason),
                 qPrintable(bad.headline));
        HistoryRun run;
        QString error;
        QVERIFY(!history.load(id, &run, &error));
        QVERIFY2(error.contains(reason) && error.contains(id), qPrintable(error));
        QVERIFY(history.remove({id}, &error));
        QCOMPARE(ids(history.entries()), QStringList{good.id});
    }

    void labelsAndRemoval()
    {
        QTemporaryDir dir;
        RunHistory history(dir.path());
        HistoryEntry a, b;
        QVERIFY(history.add({streamRun(1)}, thisHost(), &a, nullptr, at(0, 1)));
        QVERIFY(history.add({streamRun(2)}, thisHost(), &b, nullptr, at(0, 2)));
        QString error;
        QVERIFY2(history.setLabel(a.id, QStringLiteral("  E1000\nguest "), &error), qPrintable(error));
        RunHistory fresh(dir.path());
        QCOMPARE(fresh.entries().last().label, QStringLiteral("E1000?guest")); // one line, printable
        HistoryRun run;
        QVERIFY(fresh.load(a.id, &run, &error));
        QCOMPARE(run.entry.label, QStringLiteral("E1000?guest"));
        QCOMPARE(run.results.constFirst().toJson(), streamRun(1).toJson());

        QVERIFY(!history.remove({QStringLiteral("../../etc/passwd")}, &error));
        QVERIFY2(error.contains(QStringLiteral("not a run")), qPrintable(error));
        QVERIFY(history.remove({a.id, b.id}, &error));
        QVERIFY(history.entries().isEmpty());
        QCOMPARE(history.totalBytes(), 0);
    }

    // A folder that cannot be made: an error, nothing written, nothing thrown.
    void unwritableFolder()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("plain-file"));
        QVERIFY(writeFile(file, "x"));
        RunHistory history(file + QStringLiteral("/history"));
        QString error;
        QVERIFY(!history.add({streamRun(1)}, thisHost(), nullptr, &error));
        QVERIFY2(error.contains(QStringLiteral("cannot create the folder")), qPrintable(error));
        QVERIFY(history.entries().isEmpty());
        QVERIFY(!history.add({}, thisHost(), nullptr, &error));
    }

    void kindLabels_data()
    {
        QTest::addColumn<TestParams>("params");
        QTest::addColumn<QString>("label");
        TestParams p;
        QTest::newRow("upload") << p << QStringLiteral("TCP upload P=1");
        p.direction = Direction::Bidirectional;
        p.streams = 4;
        QTest::newRow("bidir") << p << QStringLiteral("TCP both ways P=4");
        p = TestParams();
        p.udp = true;
        p.bandwidth = 100000000;
        p.direction = Direction::Download;
        QTest::newRow("udp") << p << QStringLiteral("UDP download 100M");
        p.streams = 2;
        p.bandwidth = 0;
        QTest::newRow("udp unlimited") << p << QStringLiteral("UDP download unlimited P=2");
        p = TestParams();
        p.kind = TestKind::Rr;
        QTest::newRow("rr") << p << QStringLiteral("TCP_RR");
        p.streams = 4;
        QTest::newRow("rr 4") << p << QStringLiteral("TCP_RR (4 conn.)");
        p.streams = 1;
        p.udp = true;
        QTest::newRow("udp rr") << p << QStringLiteral("UDP_RR");
        p.udp = false;
        p.kind = TestKind::Crr;
        QTest::newRow("crr") << p << QStringLiteral("TCP_CRR");
        p.kind = TestKind::LoadedLatency;
        QTest::newRow("loaded") << p << QStringLiteral("Latency under load");
    }
    void kindLabels()
    {
        QFETCH(TestParams, params);
        QFETCH(QString, label);
        QCOMPARE(runKindLabel(params), label);
    }

    void headlines_data()
    {
        QTest::addColumn<TestResult>("result");
        QTest::addColumn<QString>("headline");
        QTest::newRow("stream") << streamRun(0.9996) << QStringLiteral("1.00 Gbit/s");
        TestResult bidir = streamRun(2);
        bidir.params.direction = Direction::Bidirectional;
        bidir.streams[1].sender = false;
        bidir.streams[1].bytesReceived = std::uint64_t(0.5e9 / 8 * 3);
        QTest::newRow("bidir") << bidir << QStringLiteral("up 1.00 Gbit/s, down 500 Mbit/s");
        QTest::newRow("rr") << rrRun(950) << QStringLiteral("950/s, p99 49.8 \u00b5s");
        QTest::newRow("failed") << failedRun(QStringLiteral("Connection refused\x1b[31m"))
                                << QStringLiteral("failed: Connection refused?[31m");
        TestResult nothing;
        QTest::newRow("no figures") << nothing << QStringLiteral("no figures");
    }
    void headlines()
    {
        QFETCH(TestResult, result);
        QFETCH(QString, headline);
        QCOMPARE(runHeadline(result), headline);
    }

    // Two runs the same way: told apart by their time; one variant, no repeats.
    void compareTwoRuns()
    {
        HistoryRun a{HistoryEntry{}, thisHost(), {streamRun(9)}};
        a.entry.finishedAt = at(12, 5);
        HistoryRun b{HistoryEntry{}, thisHost(), {streamRun(8)}};
        b.entry.finishedAt = at(14, 0);
        Comparison c;
        QString error;
        QVERIFY2(comparisonFromHistory({b, a}, &c, &error), qPrintable(error)); // listed newest first
        QCOMPARE(c.configurations.size(), 2);
        const QString first = at(12, 5).toLocalTime().toString(QStringLiteral("HH:mm:ss"));
        const QString second = at(14, 0).toLocalTime().toString(QStringLiteral("HH:mm:ss"));
        QCOMPARE(c.adapters(), (QStringList{first, second})); // oldest first: the baseline
        QCOMPARE(c.configurations[0].variant, QString());
        QCOMPARE(c.configurations[0].label, first);
        QCOMPARE(c.repeats, 1);
        QCOMPARE(c.runs.size(), 2);
        QCOMPARE(c.runs[0].result.toJson(), streamRun(9).toJson());
        QCOMPARE(c.title, QStringLiteral("Past runs: %1 vs %2").arg(first, second));
        QVERIFY2(c.warnings.constFirst().contains(QStringLiteral("not interleaved")),
                 qPrintable(c.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(c.environment.local.hostName, QStringLiteral("bench-host"));
        QCOMPARE(c.environment.local.adapters.size(), 1); // the adapter that carried them
        QCOMPARE(c.environment.local.adapters.constFirst().name, QStringLiteral("lo"));
        QVERIFY(c.validate().isEmpty());
        // It is a snapshot like any other.
        Comparison back;
        QVERIFY2(Snapshot::decode(Snapshot::encode(c, false), &back, &error), qPrintable(error));
        QCOMPARE(back.configurations.size(), 2);
        QCOMPARE(back.runs.size(), 2);
    }

    // Runs on two adapters become two series; runs of one adapter and kind are its repeats;
    // a "both" run gives two variants; the user's labels win.
    void runsAsConfigurations()
    {
        QList<HistoryRun> runs;
        const auto add = [&runs](int minute, QList<TestResult> results, const QString &label = QString()) {
            HistoryRun r{HistoryEntry{}, thisHost(), results};
            r.entry.finishedAt = at(minute);
            r.entry.label = label;
            runs.prepend(r);
        };
        add(1, {streamRun(1, 1, QStringLiteral("ens192"))});
        add(2, {streamRun(2.5, 1, QStringLiteral("ens224"))});
        add(3, {streamRun(1.1, 1, QStringLiteral("ens192")), rrRun(3000)});
        add(4, {streamRun(2.4, 1, QStringLiteral("ens224"))});
        add(5, {failedRun(QStringLiteral("connection refused"))});
        Comparison c;
        QString error;
        QVERIFY2(comparisonFromHistory(runs, &c, &error), qPrintable(error));
        QCOMPARE(c.adapters(),
                 (QStringList{QStringLiteral("ens192"), QStringLiteral("ens224"), QStringLiteral("198.18.0.9")}));
        QCOMPARE(c.variants(), (QStringList{QStringLiteral("TCP upload P=1"), QStringLiteral("TCP_RR")}));
        QCOMPARE(c.configurations[0].label, QStringLiteral("ens192, TCP upload P=1"));
        QCOMPARE(c.repeats, 2);
        QCOMPARE(c.runsOf(0).size(), 2);
        QCOMPARE(c.configurations[2].label, QStringLiteral("ens192, TCP_RR"));
        QCOMPARE(c.runsOf(2).size(), 1);
        QCOMPARE(c.runs.size(), 6);
        QVERIFY(c.warnings.join(QLatin1Char('\n')).contains(QStringLiteral("failed: connection refused")));
        QVERIFY(c.validate().isEmpty());

        runs.last().entry.label = QStringLiteral("E1000");
        runs[runs.size() - 3].entry.label = QStringLiteral("E1000");
        QStringList labels = historySeriesLabels(runs);
        QCOMPARE(labels.last(), QStringLiteral("E1000"));
        QCOMPARE(labels[runs.size() - 3], QStringLiteral("E1000"));
        QVERIFY(comparisonFromHistory(runs, &c, &error));
        QCOMPARE(c.adapters().constFirst(), QStringLiteral("E1000"));
        QCOMPARE(c.runsOf(0).size(), 2); // both E1000 runs, repeats of one configuration

        QVERIFY(!comparisonFromHistory({}, &c, &error));
        QVERIFY(!error.isEmpty());
    }

    void resultDocuments()
    {
        const TestResult one = streamRun(1);
        QCOMPARE(resultsDocument({one}), one.toJson());
        const QJsonObject both = resultsDocument({one, rrRun(100)});
        QCOMPARE(both.value(QStringLiteral("results")).toArray().size(), 2);
        QList<TestResult> back;
        QString error;
        QVERIFY2(resultsFromDocument(both, &back, &error), qPrintable(error));
        QCOMPARE(back.size(), 2);
        QCOMPARE(back[0].toJson(), one.toJson());
        QVERIFY(resultsFromDocument(one.toJson(), &back, &error));
        QCOMPARE(back.size(), 1);
        QVERIFY(!resultsFromDocument(QJsonObject{{QStringLiteral("results"), QJsonArray()}}, &back, &error));
        QVERIFY(!resultsFromDocument(QJsonObject{{QStringLiteral("results"), 5}}, &back, &error));
    }

    void intervalCsv()
    {
        TestResult upload = streamRun(0.016, 2);   // 1 MB per stream per second
        upload.intervals[0].streams[0].rttUs = -1; // not known: an empty cell
        const QString csv = intervalsCsv({upload, rrRun(500)});
        const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QStringList header = intervalCsvHeader();
        QCOMPARE(lines.first(), header.join(QLatin1Char(',')));
        // 3 intervals x (1 sum + 2 streams) + 2 rr intervals.
        QCOMPARE(lines.size(), 1 + 9 + 2);
        for (const QString &line : lines)
            QCOMPARE(line.count(QLatin1Char(',')), header.size() - 1);
        const QStringList sum = lines[1].split(QLatin1Char(','));
        QCOMPARE(sum[header.indexOf(QStringLiteral("test"))], QStringLiteral("1"));
        QCOMPARE(sum[header.indexOf(QStringLiteral("kind"))], QStringLiteral("stream"));
        QCOMPARE(sum[header.indexOf(QStringLiteral("row"))], QStringLiteral("sum"));
        QCOMPARE(sum[header.indexOf(QStringLiteral("direction"))], QStringLiteral("upload"));
        QCOMPARE(sum[header.indexOf(QStringLiteral("bytes"))], QStringLiteral("2000000"));
        QCOMPARE(sum[header.indexOf(QStringLiteral("bits_per_second"))], QStringLiteral("16000000"));
        QCOMPARE(sum[header.indexOf(QStringLiteral("cpu_busy_percent"))], QStringLiteral("25"));
        const QStringList stream = lines[2].split(QLatin1Char(','));
        QCOMPARE(stream[header.indexOf(QStringLiteral("row"))], QStringLiteral("stream"));
        QCOMPARE(stream[header.indexOf(QStringLiteral("stream"))], QStringLiteral("5"));
        QCOMPARE(stream[header.indexOf(QStringLiteral("rtt_us"))], QString());
        QCOMPARE(stream[header.indexOf(QStringLiteral("cwnd_bytes"))], QStringLiteral("65536"));
        const QStringList rr = lines.last().split(QLatin1Char(','));
        QCOMPARE(rr[header.indexOf(QStringLiteral("test"))], QStringLiteral("2"));
        QCOMPARE(rr[header.indexOf(QStringLiteral("kind"))], QStringLiteral("rr"));
        QCOMPARE(rr[header.indexOf(QStringLiteral("row"))], QStringLiteral("rr"));
        QCOMPARE(rr[header.indexOf(QStringLiteral("transactions_per_second"))], QStringLiteral("500"));
        QCOMPARE(rr[header.indexOf(QStringLiteral("bytes"))], QString());
        // A server's result: what the client sent is still "upload".
        TestResult server = upload;
        server.isServerSide = true;
        for (StreamInterval &s : server.intervals[0].streams)
            s.sender = false;
        const QStringList serverSum = intervalsCsv({server}).split(QLatin1Char('\n'))[1].split(QLatin1Char(','));
        QCOMPARE(serverSum[header.indexOf(QStringLiteral("direction"))], QStringLiteral("upload"));
    }
};

QTEST_GUILESS_MAIN(TestRunHistory)
#include "tst_runhistory.moc"
