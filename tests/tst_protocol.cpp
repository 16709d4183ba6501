// SPDX-License-Identifier: GPL-3.0-or-later
// iperf3 control-protocol pieces: cookie, state bytes, JSON framing (well-formed and
// hostile input), the 3.12 unsigned -1 quirk, and the parameter JSON both ways.
#include "model/testparams.h"
#include "net/connect.h"
#include "net/io.h"
#include "protocol/controlchannel.h"
#include "protocol/protocol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLibrary>
#include <QSet>
#include <QTest>
#include <QtEndian>

#include <chrono>
#include <limits>
#include <utility>

using nb::proto::JsonFrameDecoder;
using Status = JsonFrameDecoder::Status;

namespace {

QByteArray lengthPrefix(quint32 length)
{
    QByteArray h(4, '\0');
    qToBigEndian<quint32>(length, h.data());
    return h;
}

QByteArray rawFrame(const QByteArray &body)
{
    return lengthPrefix(quint32(body.size())) + body;
}

QJsonValue jsonValue(const char *text)
{
    // Parse as iperf3 would put it on the wire, so numbers go through the real parser.
    const QByteArray doc = QByteArray("{\"v\":") + text + "}";
    QJsonParseError err;
    const QJsonDocument d = QJsonDocument::fromJson(doc, &err);
    if (err.error != QJsonParseError::NoError)
        qFatal("bad test JSON %s", doc.constData());
    return d.object().value(QStringLiteral("v"));
}

QSet<QString> keySet(const QJsonObject &o)
{
    const QStringList keys = o.keys();
    return QSet<QString>(keys.begin(), keys.end());
}

// The exact parameter JSON captured from a real iperf3 3.12 client (A.5), `-t 2 -P 2`.
const char RealParams312[] = R"({"tcp":true,"omit":0,"time":2,"num":0,"blockcount":0,"parallel":2,)"
                             R"("len":131072,"pacing_timer":1000,"client_version":"3.12"})";

} // namespace

class TestProtocol : public QObject {
    Q_OBJECT

private slots:
    void resultsLimit_data();
    void resultsLimit();
    void peerResultsLimit();
    void cookieShape();
    void cookieValidation_data();
    void cookieValidation();
    void knownStates();
    void unknownStates_data();
    void unknownStates();

    void frameLayout();
    void roundTripWhole();
    void roundTripByteByByte();
    void trailingBytesAreNotConsumed();
    void truncatedNeverCompletes_data();
    void truncatedNeverCompletes();
    void hugeLengthPrefix_data();
    void hugeLengthPrefix();
    void lengthAtLimitIsAccepted();
    void badBodies_data();
    void badBodies();
    void errorIsSticky();
    void readJsonRejectsHugeFrameOnSocket();

    void toInt64_data();
    void toInt64();
    void toDouble_data();
    void toDouble();
    void iperfErrorText();

    void paramsMatchReal312Client_data();
    void paramsMatchReal312Client();
    void paramsByteCount();
    void paramsSocketOptions();
    void paramsReadRealClient();
    void paramsRoundTrip();
    void paramsRejected_data();
    void paramsRejected();
    void paramsUnknownKeysIgnored();
};

void TestProtocol::cookieShape()
{
    const QByteArray alphabet("abcdefghijklmnopqrstuvwxyz234567");
    QSet<QByteArray> seen;
    for (int n = 0; n < 200; ++n) {
        const QByteArray c = nb::proto::makeCookie();
        QCOMPARE(c.size(), 37);
        QCOMPARE(c.at(36), '\0');
        for (int i = 0; i < 36; ++i)
            QVERIFY2(alphabet.contains(c.at(i)), c.constData());
        QVERIFY(nb::proto::isValidCookie(c));
        seen.insert(c);
    }
    // 36 characters of 5 random bits each: any repeat means the generator is broken.
    QCOMPARE(seen.size(), 200);
}

void TestProtocol::cookieValidation_data()
{
    QTest::addColumn<QByteArray>("cookie");
    QTest::addColumn<bool>("valid");

    const QByteArray good = QByteArray("42h7h5dpjjtfptrz3fxozlm7tv3rfcfij2wh") + '\0';
    QTest::newRow("real 3.12 cookie") << good << true;
    QTest::newRow("36 bytes, no NUL") << good.left(36) << false;
    QTest::newRow("37 bytes, no NUL") << (good.left(36) + 'x') << false;
    QTest::newRow("38 bytes") << (good + '\0') << false;
    QByteArray early = good;
    early[10] = '\0';
    QTest::newRow("NUL inside") << early << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("all NUL") << QByteArray(37, '\0') << false;
}

void TestProtocol::cookieValidation()
{
    QFETCH(QByteArray, cookie);
    QFETCH(bool, valid);
    QCOMPARE(nb::proto::isValidCookie(cookie), valid);
}

void TestProtocol::knownStates()
{
    const struct {
        int value;
        const char *name;
    } states[] = {{1, "TEST_START"},        {2, "TEST_RUNNING"},     {3, "RESULT_REQUEST"},    {4, "TEST_END"},
                  {5, "STREAM_BEGIN"},      {6, "STREAM_RUNNING"},   {7, "STREAM_END"},        {8, "ALL_STREAMS_END"},
                  {9, "PARAM_EXCHANGE"},    {10, "CREATE_STREAMS"},  {11, "SERVER_TERMINATE"}, {12, "CLIENT_TERMINATE"},
                  {13, "EXCHANGE_RESULTS"}, {14, "DISPLAY_RESULTS"}, {15, "IPERF_START"},      {16, "IPERF_DONE"},
                  {-1, "ACCESS_DENIED"},    {-2, "SERVER_ERROR"}};
    for (const auto &s : states) {
        QVERIFY2(nb::proto::isKnownState(std::int8_t(s.value)), s.name);
        QCOMPARE(nb::proto::stateName(std::int8_t(s.value)), QLatin1String(s.name));
    }
    // The wire values are part of the protocol: spot-check the enum against A.1.
    QCOMPARE(int(nb::proto::ParamExchange), 9);
    QCOMPARE(int(nb::proto::CreateStreams), 10);
    QCOMPARE(int(nb::proto::ExchangeResults), 13);
    QCOMPARE(int(nb::proto::AccessDenied), -1);
    QCOMPARE(int(nb::proto::ServerError), -2);
    QCOMPARE(nb::proto::CookieSize, 37);
    QCOMPARE(int(nb::proto::DefaultPort), 5201);
}

void TestProtocol::unknownStates_data()
{
    QTest::addColumn<int>("state");
    for (int s : {0, 17, 42, 99, 101, 127, -3, -100, -128})
        QTest::addRow("%d", s) << s;
}

void TestProtocol::unknownStates()
{
    QFETCH(int, state);
    QVERIFY(!nb::proto::isKnownState(std::int8_t(state)));
    QCOMPARE(nb::proto::stateName(std::int8_t(state)), QStringLiteral("unknown state %1").arg(state));
}

void TestProtocol::frameLayout()
{
    QJsonObject o;
    o.insert(QStringLiteral("tcp"), true);
    o.insert(QStringLiteral("time"), 2);
    const QByteArray frame = nb::proto::frameJson(o);
    const QByteArray body = frame.mid(4);
    QCOMPARE(qFromBigEndian<quint32>(frame.constData()), quint32(body.size()));
    // Unformatted (cJSON_PrintUnformatted), no trailing NUL or newline.
    QVERIFY(!body.contains('\n'));
    QVERIFY(!body.contains(' '));
    QVERIFY(!body.endsWith('\0'));
    QCOMPARE(QJsonDocument::fromJson(body).object(), o);
}

void TestProtocol::roundTripWhole()
{
    QJsonObject o;
    o.insert(QStringLiteral("streams"),
             QJsonArray{QJsonObject{{QStringLiteral("id"), 1}, {QStringLiteral("bytes"), 12345}}});
    o.insert(QStringLiteral("cpu_util_total"), 12.5);
    o.insert(QStringLiteral("congestion_used"), QStringLiteral("cubic"));
    const QByteArray frame = nb::proto::frameJson(o);
    JsonFrameDecoder dec;
    std::size_t used = 0;
    QCOMPARE(dec.feed(frame.constData(), std::size_t(frame.size()), &used), Status::Complete);
    QCOMPARE(used, std::size_t(frame.size()));
    QCOMPARE(dec.object(), o);
    QVERIFY(dec.error().isEmpty());
    QCOMPARE(dec.bytesWanted(), std::size_t(0));
}

void TestProtocol::roundTripByteByByte()
{
    const QJsonObject o = QJsonDocument::fromJson(RealParams312).object();
    const QByteArray frame = nb::proto::frameJson(o);
    JsonFrameDecoder dec;
    QCOMPARE(dec.bytesWanted(), std::size_t(4));
    for (int i = 0; i < frame.size(); ++i) {
        std::size_t used = 0;
        const Status s = dec.feed(frame.constData() + i, 1, &used);
        QCOMPARE(used, std::size_t(1));
        if (i + 1 < frame.size()) {
            QCOMPARE(s, Status::NeedMore);
            const int fed = i + 1;
            QCOMPARE(dec.bytesWanted(), std::size_t(fed < 4 ? 4 - fed : frame.size() - fed));
        } else {
            QCOMPARE(s, Status::Complete);
        }
    }
    QCOMPARE(dec.object(), o);
}

void TestProtocol::trailingBytesAreNotConsumed()
{
    const QByteArray frame = nb::proto::frameJson(QJsonObject{{QStringLiteral("a"), 1}});
    // A state byte (DISPLAY_RESULTS) right behind the results JSON must stay unread.
    const QByteArray wire = frame + char(nb::proto::DisplayResults);
    JsonFrameDecoder dec;
    std::size_t used = 0;
    QCOMPARE(dec.feed(wire.constData(), std::size_t(wire.size()), &used), Status::Complete);
    QCOMPARE(used, std::size_t(frame.size()));
}

void TestProtocol::truncatedNeverCompletes_data()
{
    QTest::addColumn<QByteArray>("wire");
    const QByteArray frame = nb::proto::frameJson(QJsonDocument::fromJson(RealParams312).object());
    QTest::newRow("nothing") << QByteArray();
    QTest::newRow("1 header byte") << frame.left(1);
    QTest::newRow("3 header bytes") << frame.left(3);
    QTest::newRow("header only") << frame.left(4);
    QTest::newRow("half body") << frame.left(4 + (frame.size() - 4) / 2);
    QTest::newRow("all but last byte") << frame.left(frame.size() - 1);
    // The length says more than the JSON text: a complete-looking object is not enough.
    const QByteArray body("{\"a\":1}");
    QTest::newRow("length larger than object") << (lengthPrefix(quint32(body.size() + 5)) + body);
}

void TestProtocol::truncatedNeverCompletes()
{
    QFETCH(QByteArray, wire);
    JsonFrameDecoder dec;
    std::size_t used = 0;
    QCOMPARE(dec.feed(wire.constData(), std::size_t(wire.size()), &used), Status::NeedMore);
    QCOMPARE(used, std::size_t(wire.size()));
    QVERIFY(dec.bytesWanted() > 0);
    QVERIFY(dec.error().isEmpty());
    // Feeding nothing more changes nothing.
    QCOMPARE(dec.feed(nullptr, 0, &used), Status::NeedMore);
    QCOMPARE(used, std::size_t(0));
}

void TestProtocol::hugeLengthPrefix_data()
{
    QTest::addColumn<quint32>("length");
    QTest::newRow("0xFFFFFFFF") << quint32(0xFFFFFFFFu);
    QTest::newRow("2 GiB") << quint32(0x80000000u);
    QTest::newRow("limit + 1") << quint32(nb::proto::MaxJsonSize + 1);
    // "HTTP" read as a big-endian length: a web server on the port.
    QTest::newRow("HTTP") << qFromBigEndian<quint32>("HTTP");
}

void TestProtocol::hugeLengthPrefix()
{
    QFETCH(quint32, length);
    JsonFrameDecoder dec;
    const QByteArray header = lengthPrefix(length);
    std::size_t used = 0;
    // The verdict comes from the 4 header bytes alone: the decoder neither waits for nor
    // reserves the announced body.
    QCOMPARE(dec.feed(header.constData(), 4, &used), Status::Error);
    QCOMPARE(used, std::size_t(4));
    QVERIFY(dec.error().contains(QStringLiteral("exceeds")));
    QVERIFY(!dec.error().contains(QLatin1Char('\n')));
}

void TestProtocol::lengthAtLimitIsAccepted()
{
    // A small decoder limit keeps the test cheap; the boundary is what matters.
    JsonFrameDecoder dec(16);
    const QByteArray body("{\"abcdefghij\":1}"); // 16 bytes
    QCOMPARE(body.size(), 16);
    const QByteArray wire = rawFrame(body);
    std::size_t used = 0;
    QCOMPARE(dec.feed(wire.constData(), std::size_t(wire.size()), &used), Status::Complete);

    JsonFrameDecoder over(15);
    QCOMPARE(over.feed(wire.constData(), std::size_t(wire.size()), &used), Status::Error);
    QCOMPARE(used, std::size_t(4));
}

void TestProtocol::badBodies_data()
{
    QTest::addColumn<QByteArray>("wire");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("zero length") << lengthPrefix(0) << QStringLiteral("empty");
    QTest::newRow("not JSON") << rawFrame("hello world") << QStringLiteral("malformed");
    QTest::newRow("cut-off JSON") << rawFrame("{\"a\":") << QStringLiteral("malformed");
    QTest::newRow("array") << rawFrame("[1,2,3]") << QStringLiteral("not an object");
    QTest::newRow("array of objects") << rawFrame("[{\"tcp\":true}]") << QStringLiteral("not an object");
    QTest::newRow("string") << rawFrame("\"tcp\"") << QStringLiteral("");
    QTest::newRow("number") << rawFrame("42") << QStringLiteral("");
    QTest::newRow("NUL-terminated") << rawFrame(QByteArray("{\"a\":1}") + '\0') << QStringLiteral("");
    QTest::newRow("binary") << rawFrame(QByteArray("\xff\xfe\x00\x01", 4)) << QStringLiteral("");
}

void TestProtocol::badBodies()
{
    QFETCH(QByteArray, wire);
    QFETCH(QString, errorContains);
    JsonFrameDecoder dec;
    std::size_t used = 0;
    QCOMPARE(dec.feed(wire.constData(), std::size_t(wire.size()), &used), Status::Error);
    QVERIFY(!dec.error().isEmpty());
    QVERIFY2(dec.error().contains(errorContains), qPrintable(dec.error()));
    QVERIFY(!dec.error().contains(QLatin1Char('\n')));
    QVERIFY(dec.object().isEmpty());
}

void TestProtocol::errorIsSticky()
{
    JsonFrameDecoder dec;
    const QByteArray bad = lengthPrefix(0xFFFFFFFFu);
    std::size_t used = 0;
    QCOMPARE(dec.feed(bad.constData(), 4, &used), Status::Error);
    const QByteArray good = nb::proto::frameJson(QJsonObject{{QStringLiteral("a"), 1}});
    QCOMPARE(dec.feed(good.constData(), std::size_t(good.size()), &used), Status::Error);
    QCOMPARE(used, std::size_t(0));
}

// Two connected TCP sockets on loopback, from the net layer, so the test runs on every OS.
static std::pair<nb::net::Socket, nb::net::Socket> connectedPair()
{
    QString error;
    const nb::net::Socket listener =
        nb::net::listenTcp(QStringLiteral("127.0.0.1"), 0, nb::AddressFamily::IPv4, {}, &error);
    if (!listener.valid())
        qFatal("cannot listen on loopback: %s", qPrintable(error));
    nb::net::Socket client = nb::net::connectTcp(QStringLiteral("127.0.0.1"), nb::net::localPort(listener),
                                                 nb::AddressFamily::IPv4, QString(), {}, 5000, &error);
    if (!client.valid())
        qFatal("cannot connect on loopback: %s", qPrintable(error));
    nb::net::Socket server = nb::net::acceptTcp(listener, 5000);
    if (!server.valid())
        qFatal("no connection accepted on loopback");
    return {std::move(client), std::move(server)};
}

void TestProtocol::readJsonRejectsHugeFrameOnSocket()
{
    auto [sa, b] = connectedPair();
    nb::proto::ControlChannel a{std::move(sa)};
    // Only the header is sent; a reader that trusted it would wait (or allocate 4 GiB).
    const QByteArray header = lengthPrefix(0xFFFFFFF0u);
    QString error;
    QCOMPARE(nb::net::writeAll(b, header.constData(), 4, nb::net::deadlineIn(5), &error), nb::net::IoStatus::Ok);
    QJsonObject out;
    const auto t0 = std::chrono::steady_clock::now();
    const auto s = a.readJson(&out, nb::net::deadlineIn(5), &error);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    QCOMPARE(s, nb::net::IoStatus::Error);
    QVERIFY2(error.contains(QStringLiteral("exceeds")), qPrintable(error));
    QVERIFY2(ms < 1000, "a hostile length must be refused at once, not after the deadline");

    // A truncated frame followed by EOF is reported as closed, never as a message.
    auto [sc, d] = connectedPair();
    nb::proto::ControlChannel c{std::move(sc)};
    const QByteArray frame = nb::proto::frameJson(QJsonObject{{QStringLiteral("a"), 1}});
    QCOMPARE(nb::net::writeAll(d, frame.constData(), std::size_t(frame.size() - 1), nb::net::deadlineIn(5), &error),
             nb::net::IoStatus::Ok);
    d.reset();
    QCOMPARE(c.readJson(&out, nb::net::deadlineIn(5), &error), nb::net::IoStatus::Closed);
}

void TestProtocol::toInt64_data()
{
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<qint64>("expected");

    QTest::newRow("3.12 unsigned -1") << jsonValue("18446744073709551615") << true << qint64(-1);
    QTest::newRow("3.14 signed -1") << jsonValue("-1") << true << qint64(-1);
    QTest::newRow("2^64-2 prints the same double") << jsonValue("18446744073709551614") << true << qint64(-1);
    QTest::newRow("2^63 is negative") << jsonValue("9223372036854775808") << true << std::numeric_limits<qint64>::min();
    QTest::newRow("zero") << jsonValue("0") << true << qint64(0);
    QTest::newRow("bytes") << jsonValue("1286340608") << true << qint64(1286340608);
    QTest::newRow("large bytes (2^53)") << jsonValue("9007199254740992") << true << qint64(9007199254740992);
    QTest::newRow("fraction truncates") << jsonValue("3.7") << true << qint64(3);
    QTest::newRow("exponent") << jsonValue("1e3") << true << qint64(1000);
    QTest::newRow("string") << jsonValue("\"42\"") << false << qint64(0);
    QTest::newRow("bool") << jsonValue("true") << false << qint64(0);
    QTest::newRow("null") << jsonValue("null") << false << qint64(0);
    QTest::newRow("array") << jsonValue("[1]") << false << qint64(0);
    QTest::newRow("object") << jsonValue("{\"bytes\":1}") << false << qint64(0);
    QTest::newRow("undefined") << QJsonValue(QJsonValue::Undefined) << false << qint64(0);
    QTest::newRow("below int64") << jsonValue("-1e30") << false << qint64(0);
}

void TestProtocol::toInt64()
{
    QFETCH(QJsonValue, value);
    QFETCH(bool, valid);
    QFETCH(qint64, expected);
    const auto v = nb::proto::toInt64(value);
    QCOMPARE(v.has_value(), valid);
    if (valid)
        QCOMPARE(qint64(*v), expected);
}

void TestProtocol::toDouble_data()
{
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<double>("expected");
    QTest::newRow("cpu") << jsonValue("46.25") << true << 46.25;
    QTest::newRow("end_time") << jsonValue("2.000909") << true << 2.000909;
    QTest::newRow("int") << jsonValue("2") << true << 2.0;
    QTest::newRow("string") << jsonValue("\"46.25\"") << false << 0.0;
    QTest::newRow("bool") << jsonValue("false") << false << 0.0;
    QTest::newRow("null") << jsonValue("null") << false << 0.0;
}

void TestProtocol::toDouble()
{
    QFETCH(QJsonValue, value);
    QFETCH(bool, valid);
    QFETCH(double, expected);
    const auto v = nb::proto::toDouble(value);
    QCOMPARE(v.has_value(), valid);
    if (valid)
        QCOMPARE(*v, expected);
}

void TestProtocol::iperfErrorText()
{
    QVERIFY(nb::proto::iperfErrorText(121).contains(QStringLiteral("busy")));
    QCOMPARE(nb::proto::iperfErrorText(99999), QStringLiteral("iperf3 error 99999"));
    // Every number we name means what libiperf 3.12 (Debian 12's iperf3) says it means:
    // our text and iperf_strerror's share their start (ours leave out the errno iperf3
    // appends, and name this server's limit rather than iperf3's own maximum).
#ifdef Q_OS_LINUX
    QLibrary libiperf(QStringLiteral("iperf"), 0);
    using StrError = const char *(*)(int);
    const auto strerror = reinterpret_cast<StrError>(libiperf.resolve("iperf_strerror"));
    if (!strerror)
        QSKIP("libiperf.so.0 (Debian's libiperf0, installed with iperf3) is not here");
    int compared = 0;
    for (int e = 1; e < 300; ++e) {
        const QString ours = nb::proto::iperfErrorText(e);
        if (ours.startsWith(QStringLiteral("iperf3 error")))
            continue;
        const QString theirs = QString::fromLocal8Bit(strerror(e));
        qsizetype common = 0;
        while (common < ours.size() && common < theirs.size() && ours[common] == theirs[common])
            ++common;
        QVERIFY2(common == ours.size() || common >= 20,
                 qPrintable(QStringLiteral("%1: ours \"%2\", libiperf \"%3\"").arg(e).arg(ours, theirs)));
        ++compared;
    }
    QVERIFY(compared > 30);
#endif
}

void TestProtocol::paramsMatchReal312Client_data()
{
    QTest::addColumn<int>("direction");
    QTest::addColumn<QString>("extraKey");
    QTest::newRow("forward") << int(nb::Direction::Upload) << QString();
    QTest::newRow("reverse") << int(nb::Direction::Download) << QStringLiteral("reverse");
    QTest::newRow("bidir") << int(nb::Direction::Bidirectional) << QStringLiteral("bidirectional");
}

void TestProtocol::paramsMatchReal312Client()
{
    QFETCH(int, direction);
    QFETCH(QString, extraKey);

    nb::TestParams p;
    p.duration = 2;
    p.streams = 2;
    p.direction = nb::Direction(direction);
    const QJsonObject ours = p.toIperfParams();
    QJsonObject real = QJsonDocument::fromJson(RealParams312).object();
    if (!extraKey.isEmpty())
        real.insert(extraKey, true);

    // Same keys as the real client, plus only our documented extension object, which
    // stock servers ignore.
    QSet<QString> expected = keySet(real);
    expected.insert(QStringLiteral("nicbench"));
    QCOMPARE(keySet(ours), expected);
    QVERIFY(ours.value(QStringLiteral("nicbench")).isObject());

    // Same JSON types as the real client (3.18+ servers check them), same values.
    for (auto it = real.constBegin(); it != real.constEnd(); ++it) {
        const QJsonValue mine = ours.value(it.key());
        QVERIFY2(mine.type() == it.value().type(), qPrintable(it.key()));
        if (it.key() != QLatin1String("client_version"))
            QVERIFY2(mine == it.value(), qPrintable(it.key()));
    }
    // Integers must be printed as integers: "time":2, not 2.0 (cJSON valueint).
    const QByteArray text = QJsonDocument(ours).toJson(QJsonDocument::Compact);
    QVERIFY2(text.contains("\"time\":2,") || text.contains("\"time\":2}"), text.constData());
    QVERIFY2(text.contains("\"len\":131072"), text.constData());
}

void TestProtocol::paramsByteCount()
{
    nb::TestParams p;
    p.duration = 0;
    p.bytes = 10 * 1024 * 1024;
    const QJsonObject o = p.toIperfParams();
    // -n without -t: the client sends time 0 and the byte count in num.
    QCOMPARE(o.value(QStringLiteral("time")).toDouble(-1), 0.0);
    QCOMPARE(o.value(QStringLiteral("num")).toDouble(), 10485760.0);
    QCOMPARE(o.value(QStringLiteral("blockcount")).toDouble(-1), 0.0);
}

void TestProtocol::paramsSocketOptions()
{
    nb::TestParams p;
    p.window = 65536;
    p.mss = 1400;
    p.noDelay = true;
    p.omit = 1;
    p.congestion = QStringLiteral("cubic");
    p.blockSize = 16384;
    const QJsonObject o = p.toIperfParams();
    QCOMPARE(o.value(QStringLiteral("window")).toDouble(), 65536.0);
    QCOMPARE(o.value(QStringLiteral("MSS")).toDouble(), 1400.0);
    QCOMPARE(o.value(QStringLiteral("nodelay")), QJsonValue(true));
    QCOMPARE(o.value(QStringLiteral("omit")).toDouble(), 1.0);
    QCOMPARE(o.value(QStringLiteral("congestion")).toString(), QStringLiteral("cubic"));
    QCOMPARE(o.value(QStringLiteral("len")).toDouble(), 16384.0);
    // Options that are off are absent, as with iperf3.
    const QJsonObject plain = nb::TestParams().toIperfParams();
    for (const char *k :
         {"window", "MSS", "nodelay", "reverse", "bidirectional", "congestion", "udp", "sctp", "dont_fragment"})
        QVERIFY2(!plain.contains(QLatin1String(k)), k);
    // --dont-fragment travels as iperf3 3.14's key, and a server reads it back.
    nb::TestParams df;
    df.udp = true;
    df.blockSize = 1400; // a UDP client sends its datagram size (128K is refused for UDP)
    df.dontFragment = true;
    const QJsonObject dfJson = df.toIperfParams();
    QCOMPARE(dfJson.value(QStringLiteral("dont_fragment")), QJsonValue(true));
    nb::TestParams back;
    QString error;
    QVERIFY2(nb::TestParams::fromIperfParams(dfJson, &back, &error), qPrintable(error));
    QVERIFY(back.dontFragment);
}

void TestProtocol::paramsReadRealClient()
{
    nb::TestParams p;
    QString error;
    QVERIFY2(nb::TestParams::fromIperfParams(QJsonDocument::fromJson(RealParams312).object(), &p, &error),
             qPrintable(error));
    QCOMPARE(p.streams, 2);
    QCOMPARE(p.duration, 2.0);
    QCOMPARE(p.blockSize, 131072u);
    QCOMPARE(p.bytes, std::uint64_t(0));
    QCOMPARE(p.direction, nb::Direction::Upload);

    QJsonObject rev = QJsonDocument::fromJson(RealParams312).object();
    rev.insert(QStringLiteral("reverse"), true);
    QVERIFY(nb::TestParams::fromIperfParams(rev, &p, &error));
    QCOMPARE(p.direction, nb::Direction::Download);
    rev.insert(QStringLiteral("bidirectional"), true);
    QVERIFY(nb::TestParams::fromIperfParams(rev, &p, &error));
    QCOMPARE(p.direction, nb::Direction::Bidirectional);

    // Absent keys keep iperf3's defaults (1 stream, 10 s, 128 KiB).
    QVERIFY(nb::TestParams::fromIperfParams(QJsonObject{{QStringLiteral("tcp"), true}}, &p, &error));
    QCOMPARE(p.streams, 1);
    QCOMPARE(p.duration, 10.0);
    QCOMPARE(p.blockSize, 131072u);

    // blockcount without num turns into a byte count.
    QJsonObject blocks = QJsonDocument::fromJson(RealParams312).object();
    blocks.insert(QStringLiteral("blockcount"), 10);
    blocks.insert(QStringLiteral("time"), 0);
    QVERIFY(nb::TestParams::fromIperfParams(blocks, &p, &error));
    QCOMPARE(p.bytes, std::uint64_t(10) * 131072);
}

void TestProtocol::paramsRoundTrip()
{
    nb::TestParams p;
    p.duration = 3;
    p.streams = 7;
    p.blockSize = 65536;
    p.window = 262144;
    p.mss = 1200;
    p.noDelay = true;
    p.omit = 2;
    p.direction = nb::Direction::Bidirectional;
    p.congestion = QStringLiteral("reno");
    p.title = QStringLiteral("lab run");
    nb::TestParams back;
    QString error;
    QVERIFY2(nb::TestParams::fromIperfParams(p.toIperfParams(), &back, &error), qPrintable(error));
    QCOMPARE(back.duration, p.duration);
    QCOMPARE(back.streams, p.streams);
    QCOMPARE(back.blockSize, p.blockSize);
    QCOMPARE(back.window, p.window);
    QCOMPARE(back.mss, p.mss);
    QCOMPARE(back.noDelay, p.noDelay);
    QCOMPARE(back.omit, p.omit);
    QCOMPARE(back.direction, p.direction);
    QCOMPARE(back.congestion, p.congestion);
    QCOMPARE(back.title, p.title);
}

void TestProtocol::paramsRejected_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("errorContains");

    QTest::newRow("parallel as string") << QStringLiteral("parallel") << QJsonValue(QStringLiteral("4"))
                                        << QStringLiteral("'parallel' must be a number");
    QTest::newRow("time as string") << QStringLiteral("time") << QJsonValue(QStringLiteral("10"))
                                    << QStringLiteral("'time' must be a number");
    QTest::newRow("len as bool") << QStringLiteral("len") << QJsonValue(true)
                                 << QStringLiteral("'len' must be a number");
    QTest::newRow("window as array") << QStringLiteral("window") << QJsonValue(QJsonArray{1})
                                     << QStringLiteral("'window' must be a number");
    QTest::newRow("reverse as string") << QStringLiteral("reverse") << QJsonValue(QStringLiteral("yes"))
                                       << QStringLiteral("'reverse' must be a boolean");
    QTest::newRow("bidirectional as object") << QStringLiteral("bidirectional") << QJsonValue(QJsonObject{})
                                             << QStringLiteral("'bidirectional' must be a boolean");
    QTest::newRow("congestion as number")
        << QStringLiteral("congestion") << QJsonValue(5) << QStringLiteral("'congestion' must be a string");
    QTest::newRow("parallel 0") << QStringLiteral("parallel") << QJsonValue(0)
                                << QStringLiteral("'parallel' out of range");
    QTest::newRow("parallel 1025") << QStringLiteral("parallel") << QJsonValue(1025)
                                   << QStringLiteral("'parallel' out of range");
    QTest::newRow("parallel -1 (unsigned)")
        << QStringLiteral("parallel") << QJsonValue(1.8446744073709552e19) << QStringLiteral("'parallel' out of range");
    QTest::newRow("negative time") << QStringLiteral("time") << QJsonValue(-1) << QStringLiteral("'time' out of range");
    QTest::newRow("len 0") << QStringLiteral("len") << QJsonValue(0) << QStringLiteral("'len' out of range");
    QTest::newRow("len over 1M") << QStringLiteral("len") << QJsonValue(1024 * 1024 + 1)
                                 << QStringLiteral("'len' out of range");
    QTest::newRow("window over 1G") << QStringLiteral("window") << QJsonValue(4e9)
                                    << QStringLiteral("'window' out of range");
    // Found by fuzz_server_control: the product overflowed the 64-bit byte count.
    QTest::newRow("blockcount x len past 2^64")
        << QStringLiteral("blockcount") << QJsonValue(1e18) << QStringLiteral("'blockcount' times 'len'");
    QTest::newRow("negative omit") << QStringLiteral("omit") << QJsonValue(-5) << QStringLiteral("'omit' out of range");
    // UDP is taken (tst_udpinterop); a TCP-sized datagram is not.
    QTest::newRow("udp with len 128K") << QStringLiteral("udp") << QJsonValue(true)
                                       << QStringLiteral("'len' out of range for UDP");
    QTest::newRow("sctp") << QStringLiteral("sctp") << QJsonValue(true)
                          << QStringLiteral("SCTP tests are not supported");
    QTest::newRow("nicbench not an object")
        << QStringLiteral("nicbench") << QJsonValue(1) << QStringLiteral("'nicbench' must be an object");
}

void TestProtocol::paramsRejected()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, errorContains);
    QJsonObject o = QJsonDocument::fromJson(RealParams312).object();
    o.insert(key, value);
    nb::TestParams p;
    p.streams = 77; // must stay untouched on failure
    QString error;
    QVERIFY(!nb::TestParams::fromIperfParams(o, &p, &error));
    QVERIFY2(error.contains(errorContains), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
    QCOMPARE(p.streams, 77);
}

void TestProtocol::paramsUnknownKeysIgnored()
{
    // Keys newer clients send (A.5) must not make us refuse the test.
    QJsonObject o = QJsonDocument::fromJson(RealParams312).object();
    o.insert(QStringLiteral("mptcp"), true);
    o.insert(QStringLiteral("skip_rx_copy"), true);
    o.insert(QStringLiteral("gso"), 1);
    o.insert(QStringLiteral("gso_dg_size"), 1472);
    o.insert(QStringLiteral("repeating_payload"), true);
    o.insert(QStringLiteral("client_version"), QStringLiteral("3.21"));
    nb::TestParams p;
    QString error;
    QVERIFY2(nb::TestParams::fromIperfParams(o, &p, &error), qPrintable(error));
    QCOMPARE(p.streams, 2);
}

// How large a client's results may be for the streams the server set up: 64 KiB plus
// 1 KiB per stream, never above MaxJsonSize.
void TestProtocol::resultsLimit_data()
{
    QTest::addColumn<int>("streams");
    QTest::addColumn<quint32>("limit");
    QTest::newRow("none") << 0 << quint32(65536);
    QTest::newRow("negative") << -5 << quint32(65536);
    QTest::newRow("one") << 1 << quint32(65536 + 1024);
    QTest::newRow("128") << 128 << quint32(65536 + 131072);
    QTest::newRow("10000") << 10000 << quint32(65536 + 10240000);
    QTest::newRow("capped") << 100000 << nb::proto::MaxJsonSize;
}

void TestProtocol::resultsLimit()
{
    QFETCH(int, streams);
    QFETCH(quint32, limit);
    QCOMPARE(nb::proto::resultsJsonLimit(streams), limit);
}

// A server's results as the client reads them: the client's allowance, 64 KiB for the
// extension's machine and 1 KiB per CPU interval the client took itself; never above
// MaxJsonSize. Parameters are capped at 8 KiB like iperf3 3.18's.
void TestProtocol::peerResultsLimit()
{
    QCOMPARE(nb::proto::MaxParamsJsonSize, 8u * 1024);
    QCOMPARE(nb::proto::peerResultsJsonLimit(1, 0), quint32(65536 + 1024 + 65536));
    QCOMPARE(nb::proto::peerResultsJsonLimit(1, 12), quint32(65536 + 1024 + 65536 + 12 * 1024));
    QCOMPARE(nb::proto::peerResultsJsonLimit(1, -3), nb::proto::peerResultsJsonLimit(1, 0));
    QCOMPARE(nb::proto::peerResultsJsonLimit(10000, 100000), nb::proto::MaxJsonSize);
    QVERIFY(nb::proto::MaxHelloJsonSize < nb::proto::MaxJsonSize);
}

QTEST_GUILESS_MAIN(TestProtocol)
#include "tst_protocol.moc"
