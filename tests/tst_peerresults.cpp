// SPDX-License-Identifier: GPL-3.0-or-later
// Results that cannot be right are errors (test/peerresults.h): a peer's results message
// checked against what this side saw, the caps on what is copied from it, and the rule
// that a finished test moved data. Data-driven; no sockets.
#include "model/peerresults.h"
#include "model/results.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

namespace {

QJsonObject parse(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object();
}

// The client of a one-stream upload sent 10 MB on stream 1 in 1 s; of a download it
// received on stream 1.
QList<nb::LocalStreamView> oneStream(bool weSent)
{
    return {{1, weSent, 10'000'000}};
}

nb::TestResult finished(nb::TestKind kind, QList<nb::StreamSummary> streams)
{
    nb::TestResult r;
    r.params.kind = kind;
    r.streams = std::move(streams);
    return r;
}

nb::StreamSummary stream(bool sender, std::uint64_t sent, std::uint64_t received)
{
    nb::StreamSummary s;
    s.id = 1;
    s.sender = sender;
    s.bytesSent = sent;
    s.bytesReceived = received;
    return s;
}

} // namespace

class TestPeerResults : public QObject {
    Q_OBJECT
private slots:
    void peerResults_data();
    void peerResults();
    void figuresTaken();
    void extensionCapped();
    void textCapped();
    void implausible_data();
    void implausible();
    void udpFigures_data();
    void udpFigures();
    void transactionsBeyondPeer_data();
    void transactionsBeyondPeer();
};

void TestPeerResults::peerResults_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("weSent");
    QTest::addColumn<QString>("errorContains"); // empty: accepted

    const QByteArray cpu = R"("cpu_util_total":12.5,"cpu_util_user":2.5,"cpu_util_system":10,)";
    auto doc = [&](const QByteArray &streams, const QByteArray &extra = {}) {
        return "{" + cpu + extra + R"("streams":[)" + streams + "]}";
    };
    const QByteArray good = R"({"id":1,"bytes":9000000,"retransmits":-1,"start_time":0,"end_time":1.01})";
    QTest::newRow("sound upload") << doc(good) << true << QString();
    QTest::newRow("sound download") << doc(R"({"id":1,"bytes":12000000,"retransmits":3,"end_time":1})") << false
                                    << QString();
    QTest::newRow("3.12 unsigned -1 retransmits")
        << doc(R"({"id":1,"bytes":10,"retransmits":18446744073709551615})") << true << QString();
    QTest::newRow("multi-threaded peer above 100% of one core")
        << QByteArray(R"({"cpu_util_total":180,"cpu_util_user":20,"cpu_util_system":160,"streams":[)" + good + "]}")
        << true << QString();
    QTest::newRow("no CPU figures at all") << QByteArray(R"({"streams":[)" + good + "]}") << true << QString();

    QTest::newRow("remote CPU 1e308")
        << QByteArray(R"({"cpu_util_total":1e308,"cpu_util_user":0,"cpu_util_system":0,"streams":[)" + good + "]}")
        << true << QStringLiteral("'cpu_util_total' is 1e+308");
    QTest::newRow("negative CPU")
        << QByteArray(R"({"cpu_util_total":-3,"cpu_util_user":0,"cpu_util_system":0,"streams":[)" + good + "]}") << true
        << QStringLiteral("'cpu_util_total' is -3");
    QTest::newRow("CPU as text") << QByteArray(R"({"cpu_util_total":"12","streams":[)" + good + "]}") << true
                                 << QStringLiteral("not a finite number");
    QTest::newRow("no streams array") << QByteArray(R"({"cpu_util_total":1})") << true
                                      << QStringLiteral("no 'streams' array");
    QTest::newRow("empty streams: ours is missing") << doc("") << true << QStringLiteral("stream 1 is missing");
    QTest::newRow("bytes missing") << doc(R"({"id":1})") << true << QStringLiteral("numeric 'id' and 'bytes'");
    QTest::newRow("negative bytes") << doc(R"({"id":1,"bytes":-5})") << true
                                    << QStringLiteral("numeric 'id' and 'bytes'");
    QTest::newRow("received more than we sent")
        << doc(R"({"id":1,"bytes":1000000000})") << true << QStringLiteral("more than can have moved");
    QTest::newRow("sent 1e18 bytes in a second")
        << doc(R"({"id":1,"bytes":1000000000000000000})") << false << QStringLiteral("more than can have moved");
    QTest::newRow("unknown stream") << doc(good + R"(,{"id":7,"bytes":1})") << true
                                    << QStringLiteral("2 streams reported, this side has 1");
    QTest::newRow("stranger instead of ours")
        << doc(R"({"id":9,"bytes":1})") << true << QStringLiteral("stream 9, which this side does not have");
    QTest::newRow("retransmits -7") << doc(R"({"id":1,"bytes":10,"retransmits":-7})") << true
                                    << QStringLiteral("retransmits -7");
    QTest::newRow("end time a day later")
        << doc(R"({"id":1,"bytes":10,"end_time":86400})") << true << QStringLiteral("'end_time' is 86400");
    QTest::newRow("extension CPU 1e308")
        << doc(good,
               R"("nicbench":{"cpu":{"start":0,"end":1,"cpu_count":4,"system_busy_pct":1e308},"cpu_intervals":[]},)")
        << true << QStringLiteral("'system_busy_pct' is 1e+308");
    QTest::newRow("extension process CPU a little over its cores (sampling)")
        << doc(good, R"("nicbench":{"cpu_intervals":[{"start":0,"end":1,"cpu_count":2,"process_pct":210.5}]},)") << true
        << QString();
    QTest::newRow("extension process CPU beyond its cores")
        << doc(good, R"("nicbench":{"cpu_intervals":[{"start":0,"end":1,"cpu_count":2,"process_pct":900}]},)") << true
        << QStringLiteral("CPU interval 1");
    QTest::newRow("extension process CPU over its cores in a 20 ms interval (scheduling delay)")
        << doc(good, R"("nicbench":{"cpu_intervals":[{"start":4,"end":4.02,"cpu_count":1,"process_pct":826.6}]},)")
        << true << QString();
    QTest::newRow("extension process CPU over its cores in a second")
        << doc(good, R"("nicbench":{"cpu_intervals":[{"start":0,"end":1,"cpu_count":1,"process_pct":826.6}]},)") << true
        << QStringLiteral("CPU interval 1");
    QTest::newRow("extension negative transactions")
        << doc(good, R"("nicbench":{"transactions":-1},)") << true << QStringLiteral("'transactions' is -1");
    QTest::newRow("extension not an object")
        << doc(good, R"("nicbench":7,)") << true << QStringLiteral("'nicbench' is not an object");
}

void TestPeerResults::peerResults()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, weSent);
    QFETCH(QString, errorContains);
    const QJsonObject o = parse(json);
    QVERIFY2(!o.isEmpty(), json.constData());
    nb::PeerFigures f;
    QString error;
    const bool ok = nb::checkPeerResults(o, oneStream(weSent), 1.0, &f, &error);
    if (errorContains.isEmpty()) {
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(f.streams.size(), 1);
    } else {
        QVERIFY(!ok);
        QVERIFY2(error.contains(errorContains), qPrintable(error));
        QVERIFY(error.startsWith(QStringLiteral("the peer's results cannot be right")));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    }
}

void TestPeerResults::figuresTaken()
{
    const QJsonObject o = parse(R"({"cpu_util_total":12.5,"cpu_util_user":2.5,"cpu_util_system":10,)"
                                R"("streams":[{"id":3,"bytes":100,"retransmits":2,"end_time":0.9},)"
                                R"({"id":1,"bytes":200,"retransmits":18446744073709551615}]})");
    nb::PeerFigures f;
    QString error;
    QVERIFY2(nb::checkPeerResults(o, {{1, true, 300}, {3, true, 300}}, 1.0, &f, &error), qPrintable(error));
    QVERIFY(f.cpuKnown);
    QCOMPARE(f.cpuTotal, 12.5);
    QCOMPARE(f.cpuSystem, 10.0);
    QCOMPARE(f.streams.size(), 2);
    QCOMPARE(f.streams[0].id, 3);
    QCOMPARE(f.streams[0].bytes, std::uint64_t(100));
    QCOMPARE(f.streams[0].retransmits, std::int64_t(2));
    QCOMPARE(f.streams[0].seconds, 0.9);
    QCOMPARE(f.streams[1].retransmits, std::int64_t(-1));
    // A stream reported twice is not two streams.
    const QJsonObject twice = parse(R"({"streams":[{"id":1,"bytes":1},{"id":1,"bytes":1}]})");
    QVERIFY(!nb::checkPeerResults(twice, {{1, true, 300}, {3, true, 300}}, 1.0, &f, &error));
    QVERIFY2(error.contains(QStringLiteral("twice")), qPrintable(error));
}

// A hostile server's 20 MB of CPU intervals: the client keeps as many as it took itself.
void TestPeerResults::extensionCapped()
{
    QJsonArray intervals;
    for (int i = 0; i < 5000; ++i)
        intervals.append(QJsonObject{{QStringLiteral("start"), i}, {QStringLiteral("end"), i + 1}});
    QJsonObject ext{{QStringLiteral("cpu_intervals"), intervals}, {QStringLiteral("version"), QStringLiteral("0.1")}};
    QString note;
    const QJsonObject kept = nb::capPeerExtension(ext, 12, &note);
    QCOMPARE(kept.value(QStringLiteral("cpu_intervals")).toArray().size(), 12);
    QCOMPARE(kept.value(QStringLiteral("cpu_intervals")).toArray().at(11).toObject().value(QStringLiteral("end")),
             QJsonValue(12));
    QVERIFY2(note.contains(QStringLiteral("kept 12 of its 5000 CPU intervals")), qPrintable(note));
    // Within the limits nothing is cut and nothing is said.
    note = QStringLiteral("stale");
    const QJsonObject same = nb::capPeerExtension(kept, 12, &note);
    QCOMPARE(same, kept);
    QVERIFY(note.isEmpty());
}

void TestPeerResults::textCapped()
{
    QJsonObject o{{QStringLiteral("name"), QString(10000, QLatin1Char('x'))},
                  {QString(300, QLatin1Char('k')), 1},
                  {QStringLiteral("nested"),
                   QJsonObject{{QStringLiteral("list"), QJsonArray{QString(300, QLatin1Char('y')), 2, 3, 4}}}}};
    QVERIFY(nb::capJsonText(&o, 256, 3));
    QCOMPARE(o.value(QStringLiteral("name")).toString().size(), 256);
    QCOMPARE(o.size(), 2); // the 300-character key is gone
    const QJsonArray list = o.value(QStringLiteral("nested")).toObject().value(QStringLiteral("list")).toArray();
    QCOMPARE(list.size(), 3);
    QCOMPARE(list.at(0).toString().size(), 256);
    QJsonObject small{{QStringLiteral("name"), QStringLiteral("eth0")}};
    QVERIFY(!nb::capJsonText(&small, 256, 3));
}

// Review M3/M5: a UDP peer's datagram figures against what this side counted (1,784
// datagrams of 1,400 bytes sent or received on stream 1).
void TestPeerResults::udpFigures_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<bool>("weSent");
    QTest::addColumn<QString>("errorContains"); // empty: accepted
    QTest::newRow("sound receiver") << QByteArray(
                                           R"({"id":1,"bytes":2490000,"packets":1784,"errors":5,"jitter":0.0001})")
                                    << true << QString();
    QTest::newRow("1,000,000 packets, 999,000 lost for 1,784 sent")
        << QByteArray(R"({"id":1,"bytes":1400,"packets":1000000,"errors":999000})") << true
        << QStringLiteral("reports 1000000 datagrams received or lost; this side sent 1784");
    QTest::newRow("1,000 lost of 10") << QByteArray(R"({"id":1,"bytes":14000,"packets":10,"errors":1000})") << true
                                      << QStringLiteral("reports 1000 datagrams lost of 10");
    QTest::newRow("sound sender") << QByteArray(R"({"id":1,"bytes":2497600,"packets":1784})") << false << QString();
    QTest::newRow("a sender's million datagrams in 1,400 bytes")
        << QByteArray(R"({"id":1,"bytes":1400,"packets":1000000})") << false
        << QStringLiteral("reports 1000000 datagrams sent in 1400 bytes");
}

void TestPeerResults::udpFigures()
{
    QFETCH(QByteArray, stream);
    QFETCH(bool, weSent);
    QFETCH(QString, errorContains);
    const QJsonObject o = parse(QByteArray(R"({"streams":[)") + stream + "]}");
    QVERIFY(!o.isEmpty());
    const QList<nb::LocalStreamView> local{{1, weSent, 1784 * 1400, true, 1784}};
    nb::PeerFigures f;
    QString error;
    const bool ok = nb::checkPeerResults(o, local, 1.0, &f, &error);
    if (errorContains.isEmpty()) {
        QVERIFY2(ok, qPrintable(error));
    } else {
        QVERIFY(!ok);
        QVERIFY2(error.contains(errorContains), qPrintable(error));
        QVERIFY(error.startsWith(QStringLiteral("the peer's results cannot be right")));
    }
}

// Review M5: a server that answers more than was asked inflates the client's transactions;
// its own count (5) gives it away. Within the requests in flight, nothing is said.
void TestPeerResults::transactionsBeyondPeer_data()
{
    QTest::addColumn<int>("connections");
    QTest::addColumn<int>("inFlight");
    QTest::addColumn<std::uint64_t>("ours");
    QTest::addColumn<double>("theirs"); // negative: the peer gave no count
    QTest::addColumn<bool>("refused");
    QTest::newRow("as many") << 1 << 1 << std::uint64_t(25000) << 25000.0 << false;
    QTest::newRow("server counted more (it stops later)") << 1 << 1 << std::uint64_t(25000) << 25001.0 << false;
    QTest::newRow("requests in flight") << 4 << 8 << std::uint64_t(1034) << 1000.0 << false;
    QTest::newRow("255,000 for the server's 5") << 1 << 1 << std::uint64_t(255000) << 5.0 << true;
    QTest::newRow("one beyond the requests in flight") << 4 << 8 << std::uint64_t(1035) << 1000.0 << true;
    QTest::newRow("no count from the peer") << 1 << 1 << std::uint64_t(255000) << -1.0 << false;
}

void TestPeerResults::transactionsBeyondPeer()
{
    QFETCH(int, connections);
    QFETCH(int, inFlight);
    QFETCH(std::uint64_t, ours);
    QFETCH(double, theirs);
    QFETCH(bool, refused);
    nb::TestResult r = finished(nb::TestKind::Rr, {});
    r.params.streams = connections;
    r.params.inFlight = inFlight;
    r.hasRr = true;
    r.rr.transactions = ours;
    QJsonObject extension;
    if (theirs >= 0)
        extension.insert(QStringLiteral("transactions"), theirs);
    const QString why = nb::transactionsBeyondPeer(r, extension);
    QCOMPARE(!why.isEmpty(), refused);
    if (refused)
        QVERIFY2(why.contains(QStringLiteral("completed %1 transactions").arg(ours)), qPrintable(why));
}

void TestPeerResults::implausible_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QList<nb::StreamSummary>>("streams");
    QTest::addColumn<std::uint64_t>("transactions");
    QTest::addColumn<QString>("errorContains");

    using K = nb::TestKind;
    QTest::newRow("upload moved data") << int(K::Stream) << QList<nb::StreamSummary>{stream(true, 100, 90)}
                                       << std::uint64_t(0) << QString();
    QTest::newRow("upload: nothing received")
        << int(K::Stream) << QList<nb::StreamSummary>{stream(true, 100, 0)} << std::uint64_t(0)
        << QStringLiteral("from the client to the server: 0 bytes");
    QTest::newRow("-R: nothing received") << int(K::Stream) << QList<nb::StreamSummary>{stream(false, 0, 0)}
                                          << std::uint64_t(0) << QStringLiteral("from the server to the client");
    QTest::newRow("bidir: one direction empty")
        << int(K::Stream) << QList<nb::StreamSummary>{stream(true, 100, 100), stream(false, 50, 0)} << std::uint64_t(0)
        << QStringLiteral("from the server to the client");
    QTest::newRow("no streams") << int(K::Stream) << QList<nb::StreamSummary>{} << std::uint64_t(0)
                                << QStringLiteral("no data stream");
    QTest::newRow("RR with transactions")
        << int(K::Rr) << QList<nb::StreamSummary>{stream(true, 10, 10)} << std::uint64_t(5) << QString();
    QTest::newRow("RR with zero transactions") << int(K::Rr) << QList<nb::StreamSummary>{stream(true, 0, 0)}
                                               << std::uint64_t(0) << QStringLiteral("no transaction completed");
    QTest::newRow("CRR with zero transactions")
        << int(K::Crr) << QList<nb::StreamSummary>{} << std::uint64_t(0) << QStringLiteral("connect/request/response");
}

void TestPeerResults::implausible()
{
    QFETCH(int, kind);
    QFETCH(QList<nb::StreamSummary>, streams);
    QFETCH(std::uint64_t, transactions);
    QFETCH(QString, errorContains);
    nb::TestResult r = finished(nb::TestKind(kind), streams);
    if (r.params.isRequestResponse()) {
        r.hasRr = true;
        r.rr.transactions = transactions;
    }
    const QString why = nb::implausibleResult(r);
    if (errorContains.isEmpty())
        QVERIFY2(why.isEmpty(), qPrintable(why));
    else
        QVERIFY2(why.contains(errorContains), qPrintable(why));
    // A result that failed already keeps its own error.
    r.error = QStringLiteral("the server closed the connection");
    QVERIFY(nb::implausibleResult(r).isEmpty());
    // iperf2 servers report nothing back: what was sent is what is judged.
    if (nb::TestKind(kind) == nb::TestKind::Stream && !streams.isEmpty() && streams.front().sender) {
        r.error.clear();
        r.params.protocol = nb::PeerProtocol::Iperf2;
        r.streams = {stream(true, 100, 0)};
        QVERIFY(nb::implausibleResult(r).isEmpty());
    }
}

QTEST_GUILESS_MAIN(TestPeerResults)
#include "tst_peerresults.moc"
