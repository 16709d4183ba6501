// SPDX-License-Identifier: GPL-3.0-or-later
// Latency under load without sockets: the phase schedule, the per-phase sums the tracker
// makes of intervals, the increase over idle, the server's figures it accepts, the JSON
// round trip and the parameters' rules (test/loadschedule.h, test/loadphasetracker.h).

#include "datapath/loadphasetracker.h"
#include "model/loadschedule.h"
#include "model/testparams.h"

#include <QJsonArray>
#include <QTest>

using namespace nb;

namespace {

// An interval of a bidirectional test: `up` bytes sent by this side, `down` received, and
// the probe's transactions with every one taking `latencyUs`.
IntervalReport interval(double start, double end, std::uint64_t up, std::uint64_t down, std::uint64_t transactions,
                        double latencyUs, LatencyHistogram *probe)
{
    IntervalReport r;
    StreamInterval s{1, true, start, end, up};
    StreamInterval d{3, false, start, end, down};
    r.streams = {s, d};
    r.hasRr = true;
    r.rr.start = start;
    r.rr.end = end;
    r.rr.transactions = transactions;
    probe->reset();
    for (std::uint64_t i = 0; i < transactions; ++i)
        probe->record(std::int64_t(latencyUs * 1000));
    r.rr.latencyUs = probe->summary();
    return r;
}

} // namespace

class TestLoadSchedule : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parseOrder_data();
    void parseOrder();
    void phaseAt_data();
    void phaseAt();
    void gates();
    void trackerSumsPerPhase();
    void serverFigures_data();
    void serverFigures();
    void serverFiguresBeyondWhatWasSent_data();
    void serverFiguresBeyondWhatWasSent();
    void increaseAndWorst();
    void jsonRoundTrip();
    void paramsRules_data();
    void paramsRules();
    void wireParams();
};

void TestLoadSchedule::parseOrder_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected"); // orderText of the result, or "" for an error
    QTest::newRow("default") << QStringLiteral("idle,download,upload,bidir,idle")
                             << QStringLiteral("idle,download,upload,bidir,idle");
    QTest::newRow("spaces and case") << QStringLiteral(" Idle , BIDIR") << QStringLiteral("idle,bidir");
    QTest::newRow("one phase") << QStringLiteral("upload") << QStringLiteral("upload");
    QTest::newRow("unknown") << QStringLiteral("idle,sideways") << QString();
    QTest::newRow("empty") << QString() << QString();
    QTest::newRow("empty item") << QStringLiteral("idle,,upload") << QString();
    QTest::newRow("16 phases") << QStringLiteral("idle,").repeated(15) + QStringLiteral("idle")
                               << QStringLiteral("idle,").repeated(15) + QStringLiteral("idle");
    QTest::newRow("17 phases") << QStringLiteral("idle,").repeated(16) + QStringLiteral("idle") << QString();
}

void TestLoadSchedule::parseOrder()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QString error;
    const auto phases = LoadSchedule::parseOrder(text, &error);
    if (expected.isEmpty()) {
        QVERIFY(!phases);
        QVERIFY(!error.isEmpty());
    } else {
        QVERIFY2(phases, qPrintable(error));
        QCOMPARE(LoadSchedule::orderText(*phases), expected);
    }
}

void TestLoadSchedule::phaseAt_data()
{
    QTest::addColumn<double>("t");
    QTest::addColumn<int>("phase");
    QTest::addColumn<double>("next");
    // Three phases of 2 s.
    QTest::newRow("before start") << -1.0 << 0 << 0.0;
    QTest::newRow("start") << 0.0 << 0 << 2.0;
    QTest::newRow("inside first") << 1.5 << 0 << 2.0;
    QTest::newRow("on a boundary") << 2.0 << 1 << 4.0;
    QTest::newRow("a hair before it") << 2.0 - 1e-12 << 0 << 4.0;
    QTest::newRow("last") << 5.0 << 2 << 6.0;
    QTest::newRow("end") << 6.0 << 2 << 6.0;
    QTest::newRow("after the end") << 9.0 << 2 << 6.0;
}

void TestLoadSchedule::phaseAt()
{
    QFETCH(double, t);
    QFETCH(int, phase);
    QFETCH(double, next);
    const LoadSchedule s({LoadPhase::Idle, LoadPhase::Download, LoadPhase::Idle}, 2.0);
    QCOMPARE(s.total(), 6.0);
    QCOMPARE(s.phaseAt(t), phase);
    QCOMPARE(s.nextBoundary(t), next);
}

void TestLoadSchedule::gates()
{
    QVERIFY(!clientSendsIn(LoadPhase::Idle) && !serverSendsIn(LoadPhase::Idle));
    QVERIFY(!clientSendsIn(LoadPhase::Download) && serverSendsIn(LoadPhase::Download));
    QVERIFY(clientSendsIn(LoadPhase::Upload) && !serverSendsIn(LoadPhase::Upload));
    QVERIFY(clientSendsIn(LoadPhase::Bidir) && serverSendsIn(LoadPhase::Bidir));
    LoadPhaseTracker client(LoadSchedule({LoadPhase::Idle, LoadPhase::Upload, LoadPhase::Download}, 1.0), true);
    LoadPhaseTracker server(LoadSchedule({LoadPhase::Idle, LoadPhase::Upload, LoadPhase::Download}, 1.0), false);
    client.start(100);
    server.start(100);
    QVERIFY(!client.sendersActive() && !server.sendersActive());
    QCOMPARE(client.nextBoundary(), 101.0);
    QVERIFY(!client.advance(100.5));
    QVERIFY(client.advance(101.0) && server.advance(101.0));
    QVERIFY(client.sendersActive() && !server.sendersActive());
    QCOMPARE(client.nextBoundary(), 102.0);
    QVERIFY(client.advance(102.2) && server.advance(102.2));
    QVERIFY(!client.sendersActive() && server.sendersActive());
    QCOMPARE(client.nextBoundary(), 103.0);
}

void TestLoadSchedule::trackerSumsPerPhase()
{
    TestParams params;
    params.kind = TestKind::LoadedLatency;
    params.phases = QStringLiteral("idle,download,idle");
    params.phaseSeconds = 2;
    LoadPhaseTracker t(params.loadSchedule(), true);
    LatencyHistogram h;
    // Idle: 20 us; download: 1 ms with 2 Gbit/s in; idle again: 20 us. Two 1 s intervals each.
    t.addInterval(interval(0, 1, 0, 0, 1000, 20, &h), h);
    t.addInterval(interval(1, 2, 0, 0, 1000, 20, &h), h);
    t.addInterval(interval(2, 3, 0, 250'000'000, 500, 1000, &h), h);
    t.addInterval(interval(3, 4, 0, 250'000'000, 500, 1000, &h), h);
    t.addInterval(interval(4, 5, 10'000, 0, 1000, 20, &h), h);
    t.addInterval(interval(5, 6, 0, 0, 1000, 20, &h), h);
    QString warning;
    const LoadedLatencyResult r = t.result(params, {}, &warning);
    QVERIFY(warning.isEmpty());
    QVERIFY(!r.uploadMeasuredByReceiver);
    QCOMPARE(r.phases.size(), 3);
    QCOMPARE(r.phases[1].phase, LoadPhase::Download);
    QCOMPARE(r.phases[1].start, 2.0);
    QCOMPARE(r.phases[1].end, 4.0);
    QCOMPARE(r.phases[1].downloadBitsPerSecond, 2e9);
    QCOMPARE(r.phases[1].uploadBitsPerSecond, 0.0);
    QCOMPARE(r.phases[1].transactions, std::uint64_t(1000));
    QCOMPARE(r.phases[1].transactionsPerSecond(), 500.0);
    QCOMPARE(r.phases[2].uploadBitsPerSecond, 40'000.0);
    // The histogram's buckets are under 1% wide.
    QVERIFY(std::abs(r.phases[1].latencyUs.p50 - 1000) < 10);
    QVERIFY(std::abs(r.phases[0].latencyUs.p50 - 20) < 0.2);
    QCOMPARE(r.baselineIndex(), 0);
    QVERIFY(std::abs(*r.increaseUs(1, &LatencySummary::p50) - 980) < 10);
    QVERIFY(std::abs(*r.increaseUs(2, &LatencySummary::p99)) < 0.2);
}

void TestLoadSchedule::serverFigures_data()
{
    QTest::addColumn<QJsonObject>("server");
    QTest::addColumn<bool>("used");
    const auto make = [](QJsonArray bytes, QJsonArray seconds) {
        QJsonObject o;
        o.insert(QStringLiteral("received_bytes"), bytes);
        o.insert(QStringLiteral("seconds"), seconds);
        return o;
    };
    QTest::newRow("sound") << make({0, 125'000'000}, {1.0, 1.0}) << true;
    QTest::newRow("one phase short") << make({0}, {1.0}) << false;
    QTest::newRow("negative") << make({0, -5}, {1.0, 1.0}) << false;
    QTest::newRow("not numbers") << make({QStringLiteral("x"), 1}, {1.0, 1.0}) << false;
    QTest::newRow("faster than 1 TB/s") << make({0, 2e12}, {1.0, 1.0}) << false;
    QTest::newRow("longer than the test") << make({0, 1}, {1.0, 1e6}) << false;
}

void TestLoadSchedule::serverFigures()
{
    QFETCH(QJsonObject, server);
    QFETCH(bool, used);
    TestParams params;
    params.kind = TestKind::LoadedLatency;
    params.phases = QStringLiteral("idle,upload");
    params.phaseSeconds = 1;
    LoadPhaseTracker t(params.loadSchedule(), true);
    LatencyHistogram h;
    t.addInterval(interval(0, 1, 0, 0, 10, 20, &h), h);
    t.addInterval(interval(1, 2, 200'000'000, 0, 10, 20, &h), h);
    QString warning;
    const LoadedLatencyResult r = t.result(params, server, &warning);
    QCOMPARE(r.uploadMeasuredByReceiver, used);
    QCOMPARE(warning.isEmpty(), used);
    // The receiver's 1 Gbit/s when its figures are sound, else the 1.6 Gbit/s this side sent.
    QCOMPARE(r.phases[1].uploadBitsPerSecond, used ? 1e9 : 1.6e9);
}

// The server's per-phase receipts are bounded by what the client sent in the phase and the
// phases either side (1% and 16 MiB on top). Review M5: an upload phase at "8 Tbit/s" when
// the client sent far less. The server keeps the schedule on its own clock and may cut its
// interval a few ms late on a busy machine: the first of a loopback upload then lands in its
// download phase, where the client sent nothing (a fresh CI run: 17,039,360 bytes, refused
// as impossible when only the phase before counted).
void TestLoadSchedule::serverFiguresBeyondWhatWasSent_data()
{
    QTest::addColumn<QString>("phases");
    QTest::addColumn<QList<double>>("sent");
    QTest::addColumn<QList<double>>("received");
    QTest::addColumn<QString>("error"); // empty: the figures are accepted
    QTest::newRow("as sent") << QStringLiteral("idle,upload") << QList<double>{0, 2e8} << QList<double>{0, 2e8}
                             << QString();
    QTest::newRow("8 Tbit/s") << QStringLiteral("idle,upload") << QList<double>{0, 2e8} << QList<double>{0, 9e11}
                              << QStringLiteral("in phase 2 the server received 900000000000 bytes, the client sent "
                                                "200000000");
    QTest::newRow("server a few ms behind") << QStringLiteral("idle,download,upload") << QList<double>{0, 0, 2e9}
                                            << QList<double>{0, 17'039'360, 1'982'960'640} << QString();
    QTest::newRow("beyond the phases either side")
        << QStringLiteral("idle,download,upload") << QList<double>{0, 0, 2e9} << QList<double>{0, 2.1e9, 0}
        << QStringLiteral("in phase 2 the server received 2100000000 bytes, the client sent 2000000000");
}

void TestLoadSchedule::serverFiguresBeyondWhatWasSent()
{
    QFETCH(QString, phases);
    QFETCH(QList<double>, sent);
    QFETCH(QList<double>, received);
    QFETCH(QString, error);
    TestParams params;
    params.kind = TestKind::LoadedLatency;
    params.phases = phases;
    params.phaseSeconds = 1;
    LoadPhaseTracker t(params.loadSchedule(), true);
    LatencyHistogram h;
    QJsonArray bytes, seconds;
    for (qsizetype i = 0; i < sent.size(); ++i) {
        t.addInterval(interval(double(i), double(i + 1), std::uint64_t(sent[i]), 0, 10, 20, &h), h);
        bytes.append(received[i]);
        seconds.append(1.0);
    }
    QJsonObject server;
    server.insert(QStringLiteral("received_bytes"), bytes);
    server.insert(QStringLiteral("seconds"), seconds);
    QString warning, why;
    t.result(params, server, &warning, &why);
    if (error.isEmpty())
        QVERIFY2(why.isEmpty(), qPrintable(why));
    else
        QVERIFY2(why.contains(error), qPrintable(why));
}

void TestLoadSchedule::increaseAndWorst()
{
    LoadedLatencyResult r;
    const auto phase = [](LoadPhase p, double p50, double p99, bool probe = true) {
        LoadPhaseResult x;
        x.phase = p;
        x.hasProbe = probe;
        x.latencyUs.count = probe ? 100 : 0;
        x.latencyUs.p50 = p50;
        x.latencyUs.p99 = p99;
        return x;
    };
    r.phases = {phase(LoadPhase::Download, 900, 2000), phase(LoadPhase::Idle, 0, 0, false),
                phase(LoadPhase::Idle, 50, 80), phase(LoadPhase::Bidir, 1900, 5000)};
    QCOMPARE(r.baselineIndex(), 2); // the first idle phase with probe figures
    QCOMPARE(*r.increaseUs(0, &LatencySummary::p50), 850.0);
    QCOMPARE(*r.increaseUs(3, &LatencySummary::p99), 4920.0);
    QVERIFY(!r.increaseUs(1, &LatencySummary::p50));
    QVERIFY(!r.increaseUs(9, &LatencySummary::p50));
    QCOMPARE(r.worstLoadedPhase(), 3);
    r.phases.removeAt(2);
    QCOMPARE(r.baselineIndex(), -1);
    QVERIFY(!r.increaseUs(0, &LatencySummary::p50));
}

void TestLoadSchedule::jsonRoundTrip()
{
    LoadedLatencyResult r;
    r.phaseSeconds = 5;
    r.probeRequestSize = 64;
    r.probeResponseSize = 1024;
    r.probeDscp = 46;
    r.uploadMeasuredByReceiver = true;
    LoadPhaseResult idle;
    idle.hasProbe = true;
    idle.transactions = 1000;
    idle.end = 5;
    idle.latencyUs.count = 1000;
    idle.latencyUs.p50 = 25;
    idle.latencyUs.p99 = 60;
    LoadPhaseResult down = idle;
    down.phase = LoadPhase::Download;
    down.start = 5;
    down.end = 10;
    down.downloadBitsPerSecond = 9.4e8;
    down.latencyUs.p50 = 20'025;
    r.phases = {idle, down};
    const QJsonObject j = r.toJson();
    const QJsonObject d = j.value(QStringLiteral("phases")).toArray().at(1).toObject();
    QCOMPARE(d.value(QStringLiteral("name")).toString(), QStringLiteral("download"));
    QCOMPARE(d.value(QStringLiteral("bits_per_second")).toDouble(), 9.4e8);
    QCOMPARE(d.value(QStringLiteral("latency_us")).toObject().value(QStringLiteral("p50")).toDouble(), 20'025.0);
    QCOMPARE(d.value(QStringLiteral("latency_increase_us")).toObject().value(QStringLiteral("p50")).toDouble(),
             20'000.0);
    QCOMPARE(d.value(QStringLiteral("transactions_per_second")).toDouble(), 200.0);
    LoadedLatencyResult back;
    QString error;
    QVERIFY2(LoadedLatencyResult::fromJson(j, &back, &error), qPrintable(error));
    QCOMPARE(back.toJson(), j);
    // A phase name the reader does not know, or figures out of range, are refused.
    QJsonObject bad = j;
    QJsonArray phases = bad.value(QStringLiteral("phases")).toArray();
    QJsonObject p0 = phases.at(0).toObject();
    p0.insert(QStringLiteral("name"), QStringLiteral("sideways"));
    phases.replace(0, p0);
    bad.insert(QStringLiteral("phases"), phases);
    QVERIFY(!LoadedLatencyResult::fromJson(bad, &back, &error));
    p0.insert(QStringLiteral("name"), QStringLiteral("idle"));
    p0.insert(QStringLiteral("download_bits_per_second"), -1);
    phases.replace(0, p0);
    bad.insert(QStringLiteral("phases"), phases);
    QVERIFY(!LoadedLatencyResult::fromJson(bad, &back, &error));
}

void TestLoadSchedule::paramsRules_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<bool>("valid");
    QTest::newRow("defaults") << QString() << true;
    QTest::newRow("-R") << QStringLiteral("reverse") << false;
    QTest::newRow("-n") << QStringLiteral("bytes") << false;
    QTest::newRow("-O") << QStringLiteral("omit") << false;
    QTest::newRow("bad phases") << QStringLiteral("phases") << false;
    QTest::newRow("DSCP 64") << QStringLiteral("dscp") << false;
    QTest::newRow("phase 0.5 s") << QStringLiteral("short") << false;
}

void TestLoadSchedule::paramsRules()
{
    QFETCH(QString, change);
    QFETCH(bool, valid);
    TestParams p;
    p.host = QStringLiteral("h");
    p.kind = TestKind::LoadedLatency;
    if (change == QLatin1String("reverse"))
        p.direction = Direction::Download;
    else if (change == QLatin1String("bytes"))
        p.bytes = 1000;
    else if (change == QLatin1String("omit"))
        p.omit = 1;
    else if (change == QLatin1String("phases"))
        p.phases = QStringLiteral("idle,up");
    else if (change == QLatin1String("dscp"))
        p.probeDscp = 64;
    else if (change == QLatin1String("short"))
        p.phaseSeconds = 0.5;
    const QString error = p.validate();
    QVERIFY2(error.isEmpty() == valid, qPrintable(error));
    if (valid) {
        const TestParams n = p.normalized();
        QVERIFY(n.isBidir());
        QCOMPARE(n.duration, 25.0);
        QCOMPARE(n.dataConnectionCount(), 3); // one stream each way and the probe
        QVERIFY(n.validate().isEmpty());
    }
}

void TestLoadSchedule::wireParams()
{
    TestParams p;
    p.host = QStringLiteral("h");
    p.kind = TestKind::LoadedLatency;
    p.phases = QStringLiteral("idle,bidir");
    p.phaseSeconds = 3;
    p.probeDscp = 46;
    p.requestSize = 100;
    p.streams = 4;
    const QJsonObject wire = p.normalized().toIperfParams();
    QVERIFY(wire.value(QStringLiteral("bidirectional")).toBool());
    QCOMPARE(wire.value(QStringLiteral("time")).toDouble(), 6.0);
    TestParams back;
    QString error;
    QVERIFY2(TestParams::fromIperfParams(wire, &back, &error), qPrintable(error));
    QCOMPARE(back.kind, TestKind::LoadedLatency);
    QCOMPARE(back.phases, p.phases);
    QCOMPARE(back.phaseSeconds, 3.0);
    QCOMPARE(back.probeDscp, 46);
    QCOMPARE(back.requestSize, 100u);
    QCOMPARE(back.streams, 4);
    // A server refuses phases it does not know, and a latency test that is not bidirectional.
    QJsonObject bad = wire;
    QJsonObject ext = bad.value(QStringLiteral("nicbench")).toObject();
    ext.insert(QStringLiteral("phases"), QStringLiteral("idle,sideways"));
    bad.insert(QStringLiteral("nicbench"), ext);
    QVERIFY(!TestParams::fromIperfParams(bad, &back, &error));
    bad = wire;
    bad.remove(QStringLiteral("bidirectional"));
    QVERIFY(!TestParams::fromIperfParams(bad, &back, &error));
    // Nor a crafted UDP one: its phases gate TCP senders only (issue 30).
    bad = wire;
    bad.remove(QStringLiteral("tcp"));
    bad.insert(QStringLiteral("udp"), true);
    QVERIFY(!TestParams::fromIperfParams(bad, &back, &error));
    QCOMPARE(error, QStringLiteral("latency under load loads TCP streams and probes over TCP (not 'udp')"));
    // Snapshot/result form.
    TestParams fromJson;
    QVERIFY2(TestParams::fromJson(p.toJson(), &fromJson, &error), qPrintable(error));
    QCOMPARE(fromJson.kind, TestKind::LoadedLatency);
    QCOMPARE(fromJson.phases, p.phases);
    QCOMPARE(fromJson.probeDscp, 46);
}

QTEST_GUILESS_MAIN(TestLoadSchedule)
#include "tst_loadschedule.moc"
