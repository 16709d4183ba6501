// SPDX-License-Identifier: GPL-3.0-or-later
// Result value types: our JSON round trip, a real stock iperf3 3.12 -J document
// (tests/data/iperf3-3.12-client.json, recorded with `iperf3 -c 127.0.0.1 -t 1 -P 2 -J`),
// and documents with wrong types.
#include "model/results.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>

namespace {

QJsonObject loadFixture(const QString &name)
{
    QFile f(QStringLiteral(NICBENCH_TEST_DATA "/") + name);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

nb::TestResult sampleResult()
{
    nb::TestResult r;
    r.params.host = QStringLiteral("192.0.2.7");
    r.params.port = 5999;
    r.params.streams = 2;
    r.params.direction = nb::Direction::Bidirectional;
    r.params.duration = 3;
    r.params.omit = 1;
    r.params.blockSize = 65536;
    r.params.window = 262144;
    r.params.interval = 0.5;
    r.version = QStringLiteral("0.1.0");
    r.remoteVersion = QStringLiteral("3.12");
    r.timestampSecs = 1796216820;
    r.cookie = QStringLiteral("ea7ipmgbfvdwyqpayf2ery4u7rz23kwk4urw");
    r.connections = {{1, QStringLiteral("10.0.0.1"), 40001, QStringLiteral("192.0.2.7"), 5999},
                     {3, QStringLiteral("10.0.0.1"), 40002, QStringLiteral("192.0.2.7"), 5999}};
    for (int i = 0; i < 3; ++i) {
        nb::IntervalReport rep;
        nb::StreamInterval a;
        a.id = 1;
        a.sender = true;
        a.start = i * 0.5;
        a.end = (i + 1) * 0.5;
        a.bytes = 1000000ull * (i + 1);
        a.retransmits = i;
        a.cwndBytes = 65536 * (i + 1);
        a.rttUs = 100 + i;
        a.rttVarUs = 10 + i;
        a.omitted = i == 0;
        nb::StreamInterval b;
        b.id = 3;
        b.sender = false;
        b.start = a.start;
        b.end = a.end;
        b.bytes = 7000000000ull + i; // > 2^32
        b.omitted = a.omitted;
        rep.streams = {a, b};
        r.intervals.append(rep);
    }
    nb::StreamSummary s1;
    s1.id = 1;
    s1.sender = true;
    s1.seconds = 3.001;
    s1.bytesSent = 123456789012ull;
    s1.bytesReceived = 123456000000ull;
    s1.retransmits = 17;
    s1.maxRttUs = 900;
    s1.minRttUs = 40;
    s1.meanRttUs = 120;
    s1.maxCwndBytes = 4194304;
    s1.receiverSeconds = 3.002;
    nb::StreamSummary s3;
    s3.id = 3;
    s3.sender = false;
    s3.seconds = 3.003;
    s3.bytesSent = 5555555555ull;
    s3.bytesReceived = 5555000000ull;
    s3.receiverSeconds = 3.004;
    r.streams = {s1, s3};
    r.cpu.hostTotal = 46.25;
    r.cpu.hostUser = 3.71;
    r.cpu.hostSystem = 42.53;
    r.cpu.remoteTotal = 12.5;
    r.cpu.remoteUser = 2.5;
    r.cpu.remoteSystem = 10;
    r.cpu.remoteKnown = true;
    r.senderCongestion = QStringLiteral("cubic");
    r.receiverCongestion = QStringLiteral("bbr");
    r.warnings = {QStringLiteral("first warning"), QStringLiteral("second")};
    return r;
}

} // namespace

class TestResults : public QObject {
    Q_OBJECT

private slots:
    void roundTrip();
    void roundTripThroughText();
    void errorIsKept();
    void sumsAreIperfShaped();
    void parsesRealIperf3Document();
    void realIperf3DocumentHasNoNicbenchObject();
    void rejectsWrongTypes_data();
    void rejectsWrongTypes();
    void toleratesOddOptionalFields_data();
    void toleratesOddOptionalFields();
    void streamFairnessPerDirection();
    void fairnessRoundTripAndOlderDocuments();
    void badFairnessRejected();
};

void TestResults::roundTrip()
{
    const nb::TestResult in = sampleResult();
    nb::TestResult out;
    QString error;
    QVERIFY2(nb::TestResult::fromJson(in.toJson(), &out, &error), qPrintable(error));

    QCOMPARE(out.params.host, in.params.host);
    QCOMPARE(out.params.port, in.params.port);
    QCOMPARE(out.params.streams, in.params.streams);
    QCOMPARE(out.params.direction, in.params.direction);
    QCOMPARE(out.params.duration, in.params.duration);
    QCOMPARE(out.params.omit, in.params.omit);
    QCOMPARE(out.params.blockSize, in.params.blockSize);
    QCOMPARE(out.params.window, in.params.window);
    QCOMPARE(out.params.interval, in.params.interval);
    QCOMPARE(out.version, in.version);
    QCOMPARE(out.remoteVersion, in.remoteVersion);
    QCOMPARE(out.timestampSecs, in.timestampSecs);
    QCOMPARE(out.cookie, in.cookie);
    QCOMPARE(out.isServerSide, false);
    QCOMPARE(out.senderCongestion, in.senderCongestion);
    QCOMPARE(out.receiverCongestion, in.receiverCongestion);
    QCOMPARE(out.warnings, in.warnings);
    QVERIFY(out.ok());

    QCOMPARE(out.connections.size(), in.connections.size());
    for (int i = 0; i < in.connections.size(); ++i) {
        QCOMPARE(out.connections[i].id, in.connections[i].id);
        QCOMPARE(out.connections[i].localHost, in.connections[i].localHost);
        QCOMPARE(out.connections[i].localPort, in.connections[i].localPort);
        QCOMPARE(out.connections[i].remoteHost, in.connections[i].remoteHost);
        QCOMPARE(out.connections[i].remotePort, in.connections[i].remotePort);
    }

    QCOMPARE(out.intervals.size(), in.intervals.size());
    for (int i = 0; i < in.intervals.size(); ++i) {
        QCOMPARE(out.intervals[i].streams.size(), in.intervals[i].streams.size());
        for (int j = 0; j < in.intervals[i].streams.size(); ++j) {
            const nb::StreamInterval &a = in.intervals[i].streams[j], &b = out.intervals[i].streams[j];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.sender, a.sender);
            QCOMPARE(b.start, a.start);
            QCOMPARE(b.end, a.end);
            QCOMPARE(b.bytes, a.bytes);
            QCOMPARE(b.omitted, a.omitted);
            QCOMPARE(b.retransmits, a.sender ? a.retransmits : std::int64_t(-1));
            QCOMPARE(b.cwndBytes, a.cwndBytes);
            QCOMPARE(b.rttUs, a.rttUs);
            QCOMPARE(b.rttVarUs, a.rttVarUs);
        }
    }

    QCOMPARE(out.streams.size(), in.streams.size());
    for (int i = 0; i < in.streams.size(); ++i) {
        const nb::StreamSummary &a = in.streams[i], &b = out.streams[i];
        QCOMPARE(b.id, a.id);
        QCOMPARE(b.sender, a.sender);
        QCOMPARE(b.seconds, a.seconds);
        QCOMPARE(b.receiverSeconds, a.receiverSeconds);
        QCOMPARE(b.bytesSent, a.bytesSent);
        QCOMPARE(b.bytesReceived, a.bytesReceived);
        QCOMPARE(b.retransmits, a.retransmits);
        QCOMPARE(b.maxRttUs, a.maxRttUs);
        QCOMPARE(b.minRttUs, a.minRttUs);
        QCOMPARE(b.meanRttUs, a.meanRttUs);
        QCOMPARE(b.maxCwndBytes, a.maxCwndBytes);
    }
    QCOMPARE(out.sum(true).bytesSent, in.sum(true).bytesSent);
    QCOMPARE(out.sum(false).bytesReceived, in.sum(false).bytesReceived);

    QCOMPARE(out.cpu.hostTotal, in.cpu.hostTotal);
    QCOMPARE(out.cpu.hostUser, in.cpu.hostUser);
    QCOMPARE(out.cpu.hostSystem, in.cpu.hostSystem);
    QCOMPARE(out.cpu.remoteTotal, in.cpu.remoteTotal);
    QCOMPARE(out.cpu.remoteUser, in.cpu.remoteUser);
    QCOMPARE(out.cpu.remoteSystem, in.cpu.remoteSystem);
    QCOMPARE(out.cpu.remoteKnown, true);

    // Serialising the copy gives the same document.
    QCOMPARE(out.toJson(), in.toJson());
}

void TestResults::roundTripThroughText()
{
    nb::TestResult in = sampleResult();
    in.isServerSide = true;
    const QByteArray text = QJsonDocument(in.toJson()).toJson(QJsonDocument::Indented);
    nb::TestResult out;
    QString error;
    QVERIFY2(nb::TestResult::fromJson(QJsonDocument::fromJson(text).object(), &out, &error), qPrintable(error));
    QCOMPARE(out.isServerSide, true);
    QCOMPARE(out.streams.size(), 2);
    QCOMPARE(out.streams[0].bytesSent, 123456789012ull);
    QCOMPARE(out.streams[1].bytesReceived, 5555000000ull);
    QCOMPARE(out.intervals[2].streams[1].bytes, 7000000002ull);
}

void TestResults::errorIsKept()
{
    nb::TestResult in = sampleResult();
    in.error = QStringLiteral("the server is busy running a test; try again later");
    const QJsonObject json = in.toJson();
    QCOMPARE(json.value(QStringLiteral("error")).toString(), in.error);
    nb::TestResult out;
    QString error;
    QVERIFY(nb::TestResult::fromJson(json, &out, &error));
    QVERIFY(!out.ok());
    QCOMPARE(out.error, in.error);
}

void TestResults::sumsAreIperfShaped()
{
    // Scripts that read iperf3 -J output read ours: check the keys they use.
    const nb::TestResult r = sampleResult();
    const QJsonObject json = r.toJson();
    const QJsonObject end = json.value(QStringLiteral("end")).toObject();
    for (const char *k : {"streams", "sum_sent", "sum_received", "sum_sent_bidir_reverse", "sum_received_bidir_reverse",
                          "cpu_utilization_percent"})
        QVERIFY2(end.contains(QLatin1String(k)), k);
    const QJsonObject sent = end.value(QStringLiteral("sum_sent")).toObject();
    QCOMPARE(sent.value(QStringLiteral("bytes")).toDouble(), double(123456789012ull));
    QCOMPARE(sent.value(QStringLiteral("retransmits")).toDouble(), 17.0);
    QCOMPARE(end.value(QStringLiteral("sum_received")).toObject().value(QStringLiteral("bytes")).toDouble(),
             double(123456000000ull));
    QCOMPARE(
        end.value(QStringLiteral("sum_received_bidir_reverse")).toObject().value(QStringLiteral("bytes")).toDouble(),
        double(5555000000ull));
    const QJsonObject cpu = end.value(QStringLiteral("cpu_utilization_percent")).toObject();
    QCOMPARE(cpu.value(QStringLiteral("host_total")).toDouble(), 46.25);
    QCOMPARE(cpu.value(QStringLiteral("remote_total")).toDouble(), 12.5);
    const QJsonObject start = json.value(QStringLiteral("start")).toObject();
    QCOMPARE(start.value(QStringLiteral("test_start")).toObject().value(QStringLiteral("num_streams")).toInt(), 2);
    QVERIFY(json.value(QStringLiteral("nicbench")).isObject());
    QCOMPARE(json.value(QStringLiteral("intervals")).toArray().size(), 3);
}

void TestResults::parsesRealIperf3Document()
{
    const QJsonObject doc = loadFixture(QStringLiteral("iperf3-3.12-client.json"));
    QVERIFY2(!doc.isEmpty(), "fixture tests/data/iperf3-3.12-client.json is missing or unreadable");
    // Expected figures, read straight from the document.
    const QJsonObject end = doc.value(QStringLiteral("end")).toObject();
    const QJsonArray rawStreams = end.value(QStringLiteral("streams")).toArray();
    const QJsonArray rawIntervals = doc.value(QStringLiteral("intervals")).toArray();
    QCOMPARE(rawStreams.size(), 2);
    QVERIFY(!rawIntervals.isEmpty());

    nb::TestResult r;
    QString error;
    QVERIFY2(nb::TestResult::fromJson(doc, &r, &error), qPrintable(error));
    QVERIFY(r.ok());
    QCOMPARE(r.version, QStringLiteral("iperf 3.12"));
    QCOMPARE(r.params.streams, 2);
    QCOMPARE(r.params.duration, 1.0);
    QCOMPARE(r.params.blockSize, 131072u);
    QCOMPARE(r.params.direction, nb::Direction::Upload);
    QCOMPARE(r.params.host, QStringLiteral("127.0.0.1"));
    QCOMPARE(r.cookie, doc.value(QStringLiteral("start")).toObject().value(QStringLiteral("cookie")).toString());
    QCOMPARE(r.connections.size(), 2);

    QCOMPARE(r.streams.size(), 2);
    std::uint64_t sent = 0, received = 0;
    for (int i = 0; i < 2; ++i) {
        const QJsonObject snd = rawStreams[i].toObject().value(QStringLiteral("sender")).toObject();
        const QJsonObject rcv = rawStreams[i].toObject().value(QStringLiteral("receiver")).toObject();
        const nb::StreamSummary &s = r.streams[i];
        QCOMPARE(s.id, snd.value(QStringLiteral("socket")).toInt());
        QVERIFY(s.sender);
        QCOMPARE(double(s.bytesSent), snd.value(QStringLiteral("bytes")).toDouble());
        QCOMPARE(double(s.bytesReceived), rcv.value(QStringLiteral("bytes")).toDouble());
        QCOMPARE(double(s.retransmits), snd.value(QStringLiteral("retransmits")).toDouble());
        QCOMPARE(double(s.maxRttUs), snd.value(QStringLiteral("max_rtt")).toDouble());
        QCOMPARE(double(s.maxCwndBytes), snd.value(QStringLiteral("max_snd_cwnd")).toDouble());
        QCOMPARE(s.seconds, snd.value(QStringLiteral("seconds")).toDouble());
        QVERIFY(s.bytesSent > 0);
        sent += s.bytesSent;
        received += s.bytesReceived;
    }
    // Our per-direction totals equal iperf3's own sums.
    QCOMPARE(double(r.sum(true).bytesSent),
             end.value(QStringLiteral("sum_sent")).toObject().value(QStringLiteral("bytes")).toDouble());
    QCOMPARE(double(r.sum(true).bytesReceived),
             end.value(QStringLiteral("sum_received")).toObject().value(QStringLiteral("bytes")).toDouble());
    QCOMPARE(r.sum(true).bytesSent, sent);
    QCOMPARE(r.sum(true).bytesReceived, received);
    QCOMPARE(double(r.sum(true).retransmits),
             end.value(QStringLiteral("sum_sent")).toObject().value(QStringLiteral("retransmits")).toDouble());
    QVERIFY(!r.hasDirection(false));

    QCOMPARE(r.intervals.size(), rawIntervals.size());
    const QJsonArray firstStreams = rawIntervals[0].toObject().value(QStringLiteral("streams")).toArray();
    QCOMPARE(r.intervals[0].streams.size(), firstStreams.size());
    QCOMPARE(double(r.intervals[0].streams[0].bytes),
             firstStreams[0].toObject().value(QStringLiteral("bytes")).toDouble());
    QCOMPARE(double(r.intervals[0].streams[0].rttUs),
             firstStreams[0].toObject().value(QStringLiteral("rtt")).toDouble());
    QCOMPARE(
        double(r.intervals[0].sum(true).bytes),
        rawIntervals[0].toObject().value(QStringLiteral("sum")).toObject().value(QStringLiteral("bytes")).toDouble());

    const QJsonObject cpu = end.value(QStringLiteral("cpu_utilization_percent")).toObject();
    QCOMPARE(r.cpu.hostTotal, cpu.value(QStringLiteral("host_total")).toDouble());
    QCOMPARE(r.cpu.remoteTotal, cpu.value(QStringLiteral("remote_total")).toDouble());
    QCOMPARE(r.senderCongestion, end.value(QStringLiteral("sender_tcp_congestion")).toString());
}

void TestResults::realIperf3DocumentHasNoNicbenchObject()
{
    // Re-serialising a parsed iperf3 document keeps its figures.
    const QJsonObject doc = loadFixture(QStringLiteral("iperf3-3.12-client.json"));
    QVERIFY(!doc.contains(QStringLiteral("nicbench")));
    nb::TestResult r;
    QString error;
    QVERIFY(nb::TestResult::fromJson(doc, &r, &error));
    const QJsonObject again = r.toJson();
    QCOMPARE(again.value(QStringLiteral("end"))
                 .toObject()
                 .value(QStringLiteral("sum_sent"))
                 .toObject()
                 .value(QStringLiteral("bytes")),
             doc.value(QStringLiteral("end"))
                 .toObject()
                 .value(QStringLiteral("sum_sent"))
                 .toObject()
                 .value(QStringLiteral("bytes")));
}

void TestResults::rejectsWrongTypes_data()
{
    QTest::addColumn<QString>("path"); // where to put the bad value
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("errorContains");

    QTest::newRow("streams not an array")
        << QStringLiteral("end.streams") << QJsonValue(QJsonObject{}) << QStringLiteral("end.streams");
    QTest::newRow("streams a number") << QStringLiteral("end.streams") << QJsonValue(3)
                                      << QStringLiteral("end.streams");
    QTest::newRow("bytes as string") << QStringLiteral("end.streams[0].sender.bytes")
                                     << QJsonValue(QStringLiteral("321126400")) << QStringLiteral("byte");
    QTest::newRow("receiver bytes as string")
        << QStringLiteral("end.streams[0].receiver.bytes") << QJsonValue(QStringLiteral("1")) << QStringLiteral("byte");
    QTest::newRow("negative bytes") << QStringLiteral("end.streams[0].sender.bytes") << QJsonValue(-5)
                                    << QStringLiteral("byte");
    QTest::newRow("negative seconds") << QStringLiteral("end.streams[0].sender.seconds") << QJsonValue(-1)
                                      << QStringLiteral("end.streams");
    QTest::newRow("sender not an object")
        << QStringLiteral("end.streams[0].sender") << QJsonValue(42) << QStringLiteral("sender");
    QTest::newRow("stream entry not an object")
        << QStringLiteral("end.streams[0]") << QJsonValue(QStringLiteral("x")) << QStringLiteral("end.streams[]");
    QTest::newRow("intervals not an array")
        << QStringLiteral("intervals") << QJsonValue(QJsonObject{}) << QStringLiteral("intervals");
    QTest::newRow("interval bytes as string") << QStringLiteral("intervals[0].streams[0].bytes")
                                              << QJsonValue(QStringLiteral("5")) << QStringLiteral("bytes");
    QTest::newRow("interval negative bytes")
        << QStringLiteral("intervals[0].streams[0].bytes") << QJsonValue(-1) << QStringLiteral("bytes");
    QTest::newRow("interval streams not an array")
        << QStringLiteral("intervals[0].streams") << QJsonValue(true) << QStringLiteral("intervals[].streams");
    QTest::newRow("start not an object") << QStringLiteral("start") << QJsonValue(QJsonArray{})
                                         << QStringLiteral("'start'");
    QTest::newRow("end missing") << QStringLiteral("end") << QJsonValue(QJsonValue::Undefined)
                                 << QStringLiteral("'end'");
    QTest::newRow("connected not an array")
        << QStringLiteral("start.connected") << QJsonValue(1) << QStringLiteral("start.connected");
}

namespace {

// Sets a value at a dotted path with [i] array steps; Undefined removes the key.
QJsonValue setAt(const QJsonValue &node, QStringList steps, const QJsonValue &value)
{
    if (steps.isEmpty())
        return value;
    QString step = steps.takeFirst();
    int index = -1;
    const qsizetype bracket = step.indexOf(QLatin1Char('['));
    if (bracket >= 0) {
        index = step.mid(bracket + 1, step.size() - bracket - 2).toInt();
        step = step.left(bracket);
    }
    QJsonObject o = node.toObject();
    if (index < 0) {
        const QJsonValue child = setAt(o.value(step), steps, value);
        if (child.isUndefined())
            o.remove(step);
        else
            o.insert(step, child);
    } else {
        QJsonArray a = o.value(step).toArray();
        a[index] = setAt(a.at(index), steps, value);
        o.insert(step, a);
    }
    return o;
}

} // namespace

void TestResults::rejectsWrongTypes()
{
    QFETCH(QString, path);
    QFETCH(QJsonValue, value);
    QFETCH(QString, errorContains);
    for (const bool ours : {false, true}) {
        const QJsonObject base =
            ours ? sampleResult().toJson() : loadFixture(QStringLiteral("iperf3-3.12-client.json"));
        QVERIFY(!base.isEmpty());
        const QJsonObject bad = setAt(base, path.split(QLatin1Char('.')), value).toObject();
        QVERIFY(bad != base);
        nb::TestResult r;
        QString error;
        QVERIFY2(!nb::TestResult::fromJson(bad, &r, &error),
                 ours ? "our document accepted" : "iperf3 document accepted");
        QVERIFY2(error.contains(errorContains), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    }
}

void TestResults::toleratesOddOptionalFields_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonValue>("value");

    // iperf3 3.12 prints an unknown -1 as 2^64-1; older ones leave fields out or null.
    QTest::newRow("retransmits 2^64-1") << QStringLiteral("intervals[0].streams[0].retransmits")
                                        << QJsonValue(18446744073709551615.0);
    QTest::newRow("rtt null") << QStringLiteral("intervals[0].streams[0].rtt") << QJsonValue();
    QTest::newRow("rtt a string") << QStringLiteral("intervals[0].streams[0].rtt") << QJsonValue(QStringLiteral("12"));
    QTest::newRow("max_rtt missing") << QStringLiteral("end.streams[0].sender.max_rtt")
                                     << QJsonValue(QJsonValue::Undefined);
    QTest::newRow("cpu figure null") << QStringLiteral("end.cpu_utilization_percent.host_total") << QJsonValue();
    QTest::newRow("congestion a number") << QStringLiteral("end.sender_tcp_congestion") << QJsonValue(3);
    QTest::newRow("num_streams a string")
        << QStringLiteral("start.test_start.num_streams") << QJsonValue(QStringLiteral("2"));
    QTest::newRow("connected entry odd") << QStringLiteral("start.connected[0].local_port") << QJsonValue(-3);
}

void TestResults::toleratesOddOptionalFields()
{
    QFETCH(QString, path);
    QFETCH(QJsonValue, value);
    const QJsonObject base = loadFixture(QStringLiteral("iperf3-3.12-client.json"));
    const QJsonObject odd = setAt(base, path.split(QLatin1Char('.')), value).toObject();
    QVERIFY(odd != base);
    nb::TestResult r;
    QString error;
    // The field keeps its "unknown" default; the rest of the document reads as before.
    QVERIFY2(nb::TestResult::fromJson(odd, &r, &error), qPrintable(error));
    nb::TestResult plain;
    QVERIFY(nb::TestResult::fromJson(base, &plain, &error));
    QCOMPARE(r.streams.size(), plain.streams.size());
    QCOMPARE(r.intervals.size(), plain.intervals.size());
    QCOMPARE(r.streams[0].bytesSent, plain.streams[0].bytesSent);
    if (path.endsWith(QLatin1String("retransmits")) || path.endsWith(QLatin1String(".rtt")))
        QCOMPARE(path.endsWith(QLatin1String("rtt")) ? r.intervals[0].streams[0].rttUs
                                                     : r.intervals[0].streams[0].retransmits,
                 std::int64_t(-1));
}

// Bytes per stream as this side counted them: what it sent on its sending streams, what it
// received on its receiving ones; one spread per direction.
void TestResults::streamFairnessPerDirection()
{
    nb::TestResult r;
    r.params.streams = 3;
    r.params.direction = nb::Direction::Bidirectional;
    for (int i = 0; i < 6; ++i) {
        nb::StreamSummary s;
        s.id = i + 1;
        s.sender = i < 3;
        s.bytesSent = s.sender ? 100 * (i + 1) : 7;      // peer's count on receiving streams: not ours
        s.bytesReceived = s.sender ? 5 : 1000 * (i - 2); // peer's count on sending streams
        r.streams.append(s);
    }
    r.computeStreamFairness();
    QVERIFY(r.fairness && r.fairnessBidirReverse);
    // 100, 200, 300: 600^2 / (3 * 140000).
    QCOMPARE(r.fairness->count, 3);
    QCOMPARE(r.fairness->min, 100.0);
    QCOMPARE(r.fairness->median, 200.0);
    QCOMPARE(r.fairness->max, 300.0);
    QVERIFY(std::fabs(r.fairness->jain - 360000.0 / 420000.0) < 1e-12);
    QCOMPARE(r.fairnessBidirReverse->min, 1000.0);
    QCOMPARE(r.fairnessBidirReverse->max, 3000.0);
    QCOMPARE(&r.fairnessOf(true), &r.fairness);
    QCOMPARE(&r.fairnessOf(false), &r.fairnessBidirReverse);

    // The server of a -R test: it sends, and -R makes download the primary direction.
    nb::TestResult server = r;
    server.isServerSide = true;
    server.params.direction = nb::Direction::Download;
    server.streams.resize(3);
    server.computeStreamFairness();
    QVERIFY(server.fairness && !server.fairnessBidirReverse);
    QCOMPARE(server.fairness->max, 300.0);
    QCOMPARE(&server.fairnessOf(false), &server.fairness);

    // Request/response results carry theirs in rr, per connection.
    nb::TestResult rr = r;
    rr.hasRr = true;
    rr.computeStreamFairness();
    QVERIFY(!rr.fairness && !rr.fairnessBidirReverse);
}

void TestResults::fairnessRoundTripAndOlderDocuments()
{
    nb::TestResult in = sampleResult();
    in.computeStreamFairness();
    in.hasRr = true; // both kinds in one document, to check both keys
    in.rr.fairness = nb::FlowSpread::fromSamples({812, 840, 905});
    const QJsonObject json = in.toJson();
    const QJsonObject nbObject = json.value(QStringLiteral("nicbench")).toObject();
    for (const QString &k : {QStringLiteral("fairness"), QStringLiteral("fairness_bidir_reverse")})
        QVERIFY2(nbObject.value(k).toObject().contains(QStringLiteral("jain_index")), qPrintable(k));
    QCOMPARE(nbObject.value(QStringLiteral("rr"))
                 .toObject()
                 .value(QStringLiteral("fairness"))
                 .toObject()
                 .value(QStringLiteral("flows")),
             QJsonValue(3));
    nb::TestResult out;
    QString error;
    QVERIFY2(nb::TestResult::fromJson(json, &out, &error), qPrintable(error));
    QCOMPARE(out.fairness, in.fairness);
    QCOMPARE(out.fairnessBidirReverse, in.fairnessBidirReverse);
    QCOMPARE(out.rr.fairness, in.rr.fairness);

    // A document from before the fairness figures: it loads, and they are unknown.
    QJsonObject old = json;
    QJsonObject oldNb = nbObject;
    oldNb.remove(QStringLiteral("fairness"));
    oldNb.remove(QStringLiteral("fairness_bidir_reverse"));
    QJsonObject oldRr = oldNb.value(QStringLiteral("rr")).toObject();
    oldRr.remove(QStringLiteral("fairness"));
    oldNb.insert(QStringLiteral("rr"), oldRr);
    old.insert(QStringLiteral("nicbench"), oldNb);
    QVERIFY2(nb::TestResult::fromJson(old, &out, &error), qPrintable(error));
    QVERIFY(!out.fairness && !out.fairnessBidirReverse && !out.rr.fairness);
    QCOMPARE(out.toJson(), old);
}

void TestResults::badFairnessRejected()
{
    nb::TestResult in = sampleResult();
    in.computeStreamFairness();
    QJsonObject json = in.toJson();
    QJsonObject nbObject = json.value(QStringLiteral("nicbench")).toObject();
    QJsonObject f = nbObject.value(QStringLiteral("fairness")).toObject();
    f.insert(QStringLiteral("jain_index"), 2);
    nbObject.insert(QStringLiteral("fairness"), f);
    json.insert(QStringLiteral("nicbench"), nbObject);
    nb::TestResult out;
    QString error;
    QVERIFY(!nb::TestResult::fromJson(json, &out, &error));
    QVERIFY2(error.contains(QStringLiteral("jain_index")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestResults)
#include "tst_results.moc"
