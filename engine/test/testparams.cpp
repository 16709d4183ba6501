// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/testparams.h"

#include "protocol/protocol.h"

#include <QJsonValue>

#include <cmath>

namespace nb {

QString directionName(Direction d)
{
    switch (d) {
    case Direction::Upload: return QStringLiteral("upload");
    case Direction::Download: return QStringLiteral("download");
    case Direction::Bidirectional: return QStringLiteral("bidirectional");
    }
    return {};
}

QString testKindName(TestKind k)
{
    switch (k) {
    case TestKind::Stream: return QStringLiteral("stream");
    case TestKind::Rr: return QStringLiteral("rr");
    case TestKind::Crr: return QStringLiteral("crr");
    }
    return {};
}

QJsonObject TestParams::extensionJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("version"), QStringLiteral(NICBENCH_VERSION));
    o.insert(QStringLiteral("test"), testKindName(kind));
    // Whether the receiving side copies data to user space (docs/design.md).
    o.insert(QStringLiteral("rx_copy"), !skipRxCopy);
    if (isRequestResponse()) {
        o.insert(QStringLiteral("request_size"), double(requestSize));
        o.insert(QStringLiteral("response_size"), double(responseSize));
        o.insert(QStringLiteral("in_flight"), inFlight);
    }
    return o;
}

QString TestParams::validate() const
{
    if (isRequestResponse()) {
        if (requestSize < 1 || requestSize > proto::MaxBlockSize || responseSize < 1 || responseSize > proto::MaxBlockSize)
            return QStringLiteral("request and response sizes must be between 1 byte and 1M");
        if (inFlight < 1 || inFlight > 1024)
            return QStringLiteral("transactions in flight must be between 1 and 1024");
        if (kind == TestKind::Crr && inFlight != 1)
            return QStringLiteral("connect/request/response tests have one transaction per connection (--in-flight 1)");
        if (direction != Direction::Upload)
            return QStringLiteral("request/response tests have no direction (-R/--bidir)");
        if (protocol == PeerProtocol::Iperf2)
            return QStringLiteral("request/response tests need a NicBench server, not iperf2");
        if (duration <= 0)
            return QStringLiteral("request/response tests need a duration (-t)");
    }
    if (streams < 1 || streams > proto::MaxStreams)
        return QStringLiteral("number of parallel streams must be between 1 and %1").arg(proto::MaxStreams);
    if (blockSize < 1 || blockSize > proto::MaxBlockSize)
        return QStringLiteral("buffer length (-l) must be between 1 byte and 1M");
    if (window > 1024u * 1024u * 1024u)
        return QStringLiteral("socket buffer (-w) must be at most 1G");
    if (mss < 0 || mss > 9216 * 4)
        return QStringLiteral("MSS (-M) must be between 0 and 36864");
    if (!(duration >= 0) || duration > 86400)
        return QStringLiteral("duration (-t) must be between 0 and 86400 seconds");
    if (duration == 0 && bytes == 0)
        return QStringLiteral("give a duration (-t) or a byte count (-n)");
    if (!(omit >= 0) || omit > 600)
        return QStringLiteral("omit (-O) must be between 0 and 600 seconds");
    if (!(interval >= 0.1) || interval > 60)
        return QStringLiteral("report interval (-i) must be between 0.1 and 60 seconds");
    if (port == 0)
        return QStringLiteral("port must be between 1 and 65535");
    if (protocol == PeerProtocol::Iperf2 && direction != Direction::Upload)
        return QStringLiteral("only upload tests are supported against an iperf2 server");
    return {};
}

QJsonObject TestParams::toIperfParams() const
{
    QJsonObject o;
    o.insert(QStringLiteral("tcp"), true);
    o.insert(QStringLiteral("omit"), omit);
    o.insert(QStringLiteral("time"), isTimed() ? duration : 0.0);
    o.insert(QStringLiteral("num"), double(bytes));
    o.insert(QStringLiteral("blockcount"), 0);
    o.insert(QStringLiteral("parallel"), streams);
    if (direction == Direction::Download)
        o.insert(QStringLiteral("reverse"), true);
    if (direction == Direction::Bidirectional)
        o.insert(QStringLiteral("bidirectional"), true);
    if (mss > 0)
        o.insert(QStringLiteral("MSS"), mss);
    if (noDelay)
        o.insert(QStringLiteral("nodelay"), true);
    if (window > 0)
        o.insert(QStringLiteral("window"), double(window));
    o.insert(QStringLiteral("len"), double(blockSize));
    o.insert(QStringLiteral("pacing_timer"), 1000);
    if (!congestion.isEmpty())
        o.insert(QStringLiteral("congestion"), congestion);
    if (!title.isEmpty())
        o.insert(QStringLiteral("title"), title);
    o.insert(QStringLiteral("client_version"), QStringLiteral("nicbench " NICBENCH_VERSION));
    // Stock iperf3 servers ignore unknown keys; ours answers it (docs/protocol.md).
    o.insert(QStringLiteral("nicbench"), extensionJson());
    return o;
}

namespace {

// Each helper returns false with *error set when the key exists with the wrong type.
bool readBool(const QJsonObject &o, const char *key, bool *out, QString *error)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return true;
    if (v.isBool()) {
        *out = v.toBool();
        return true;
    }
    if (v.isDouble()) { // old clients send 1
        *out = v.toDouble() != 0;
        return true;
    }
    *error = QStringLiteral("parameter '%1' must be a boolean").arg(QLatin1String(key));
    return false;
}

bool readNumber(const QJsonObject &o, const char *key, double lo, double hi, double *out, QString *error)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return true;
    const auto d = proto::toDouble(v);
    if (!d) {
        *error = QStringLiteral("parameter '%1' must be a number").arg(QLatin1String(key));
        return false;
    }
    if (*d < lo || *d > hi) {
        *error = QStringLiteral("parameter '%1' out of range: %2").arg(QLatin1String(key)).arg(*d);
        return false;
    }
    *out = *d;
    return true;
}

bool readString(const QJsonObject &o, const char *key, QString *out, QString *error)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isString()) {
        *error = QStringLiteral("parameter '%1' must be a string").arg(QLatin1String(key));
        return false;
    }
    *out = v.toString().left(256);
    return true;
}

} // namespace

bool TestParams::fromIperfParams(const QJsonObject &json, TestParams *out, QString *error)
{
    TestParams p;
    bool udp = false, sctp = false;
    if (!readBool(json, "udp", &udp, error) || !readBool(json, "sctp", &sctp, error))
        return false;
    if (udp || sctp) {
        *error = QStringLiteral("only TCP tests are supported");
        return false;
    }
    double omit = 0, time = 10, num = 0, blockcount = 0, parallel = 1, len = proto::DefaultBlockSize,
           window = 0, mss = 0;
    bool reverse = false, bidir = false, nodelay = false;
    if (!readNumber(json, "omit", 0, 600, &omit, error) || !readNumber(json, "time", 0, 86400, &time, error) ||
        !readNumber(json, "num", 0, 1.8e19, &num, error) ||
        !readNumber(json, "blockcount", 0, 1.8e19, &blockcount, error) ||
        !readNumber(json, "parallel", 1, proto::MaxStreams, &parallel, error) ||
        !readNumber(json, "len", 1, proto::MaxBlockSize, &len, error) ||
        !readNumber(json, "window", 0, 1024.0 * 1024 * 1024, &window, error) ||
        !readNumber(json, "MSS", 0, 9216 * 4, &mss, error) || !readBool(json, "reverse", &reverse, error) ||
        !readBool(json, "bidirectional", &bidir, error) || !readBool(json, "nodelay", &nodelay, error) ||
        !readString(json, "congestion", &p.congestion, error) || !readString(json, "title", &p.title, error))
        return false;
    p.omit = omit;
    p.duration = time;
    p.bytes = std::uint64_t(num);
    if (blockcount > 0 && p.bytes == 0)
        p.bytes = std::uint64_t(blockcount * len);
    p.streams = int(parallel);
    p.blockSize = std::uint32_t(len);
    p.window = std::uint32_t(window);
    p.mss = int(mss);
    p.noDelay = nodelay;
    p.direction = bidir ? Direction::Bidirectional : reverse ? Direction::Download : Direction::Upload;
    const QJsonValue ext = json.value(QStringLiteral("nicbench"));
    if (ext.isObject()) {
        const QJsonObject e = ext.toObject();
        QString kind;
        double req = 1, resp = 1, inflight = 1;
        bool rxCopy = false;
        if (!readBool(e, "rx_copy", &rxCopy, error))
            return false;
        p.skipRxCopy = !rxCopy;
        if (!readString(e, "test", &kind, error) || !readNumber(e, "request_size", 1, proto::MaxBlockSize, &req, error) ||
            !readNumber(e, "response_size", 1, proto::MaxBlockSize, &resp, error) ||
            !readNumber(e, "in_flight", 1, 1024, &inflight, error))
            return false;
        if (kind == QLatin1String("rr"))
            p.kind = TestKind::Rr;
        else if (kind == QLatin1String("crr"))
            p.kind = TestKind::Crr;
        else if (!kind.isEmpty() && kind != QLatin1String("stream")) {
            *error = QStringLiteral("unknown NicBench test kind '%1'").arg(kind);
            return false;
        }
        p.requestSize = std::uint32_t(req);
        p.responseSize = std::uint32_t(resp);
        p.inFlight = int(inflight);
    } else if (!ext.isUndefined()) {
        *error = QStringLiteral("parameter 'nicbench' must be an object");
        return false;
    }
    *out = p;
    return true;
}

QJsonObject TestParams::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("host"), host);
    o.insert(QStringLiteral("port"), port);
    o.insert(QStringLiteral("bind_address"), bindAddress);
    o.insert(QStringLiteral("family"), family == AddressFamily::IPv4   ? QStringLiteral("ipv4")
                                       : family == AddressFamily::IPv6 ? QStringLiteral("ipv6")
                                                                        : QStringLiteral("any"));
    o.insert(QStringLiteral("direction"), directionName(direction));
    o.insert(QStringLiteral("peer_protocol"),
             protocol == PeerProtocol::Iperf2 ? QStringLiteral("iperf2") : QStringLiteral("iperf3"));
    o.insert(QStringLiteral("streams"), streams);
    o.insert(QStringLiteral("block_size"), double(blockSize));
    o.insert(QStringLiteral("window"), double(window));
    o.insert(QStringLiteral("mss"), mss);
    o.insert(QStringLiteral("no_delay"), noDelay);
    o.insert(QStringLiteral("congestion"), congestion);
    o.insert(QStringLiteral("duration"), duration);
    o.insert(QStringLiteral("bytes"), double(bytes));
    o.insert(QStringLiteral("omit"), omit);
    o.insert(QStringLiteral("interval"), interval);
    o.insert(QStringLiteral("skip_rx_copy"), skipRxCopy);
    o.insert(QStringLiteral("zerocopy"), zeroCopy);
    if (!title.isEmpty())
        o.insert(QStringLiteral("title"), title);
    o.insert(QStringLiteral("kind"), testKindName(kind));
    if (isRequestResponse()) {
        o.insert(QStringLiteral("request_size"), double(requestSize));
        o.insert(QStringLiteral("response_size"), double(responseSize));
        o.insert(QStringLiteral("in_flight"), inFlight);
    }
    return o;
}

bool TestParams::fromJson(const QJsonObject &o, TestParams *out, QString *error)
{
    TestParams p;
    double port = p.port, streams = p.streams, block = p.blockSize, window = 0, mss = 0, bytes = 0;
    QString family, direction, protocol;
    if (!readString(o, "host", &p.host, error) || !readString(o, "bind_address", &p.bindAddress, error) ||
        !readString(o, "family", &family, error) || !readString(o, "direction", &direction, error) ||
        !readString(o, "peer_protocol", &protocol, error) ||
        !readNumber(o, "port", 1, 65535, &port, error) ||
        !readNumber(o, "streams", 1, proto::MaxStreams, &streams, error) ||
        !readNumber(o, "block_size", 1, proto::MaxBlockSize, &block, error) ||
        !readNumber(o, "window", 0, 1024.0 * 1024 * 1024, &window, error) ||
        !readNumber(o, "mss", 0, 9216 * 4, &mss, error) || !readBool(o, "no_delay", &p.noDelay, error) ||
        !readString(o, "congestion", &p.congestion, error) ||
        !readNumber(o, "duration", 0, 86400, &p.duration, error) ||
        !readNumber(o, "bytes", 0, 1.8e19, &bytes, error) || !readNumber(o, "omit", 0, 600, &p.omit, error) ||
        !readNumber(o, "interval", 0.1, 60, &p.interval, error) ||
        !readBool(o, "skip_rx_copy", &p.skipRxCopy, error) || !readBool(o, "zerocopy", &p.zeroCopy, error) ||
        !readString(o, "title", &p.title, error))
        return false;
    p.port = quint16(port);
    p.streams = int(streams);
    p.blockSize = std::uint32_t(block);
    p.window = std::uint32_t(window);
    p.mss = int(mss);
    p.bytes = std::uint64_t(bytes);
    p.family = family == QLatin1String("ipv4")   ? AddressFamily::IPv4
               : family == QLatin1String("ipv6") ? AddressFamily::IPv6
                                                  : AddressFamily::Any;
    p.direction = direction == QLatin1String("download")        ? Direction::Download
                  : direction == QLatin1String("bidirectional") ? Direction::Bidirectional
                                                                 : Direction::Upload;
    p.protocol = protocol == QLatin1String("iperf2") ? PeerProtocol::Iperf2 : PeerProtocol::Iperf3;
    QString kind;
    double req = 1, resp = 1, inflight = 1;
    if (!readString(o, "kind", &kind, error) || !readNumber(o, "request_size", 1, proto::MaxBlockSize, &req, error) ||
        !readNumber(o, "response_size", 1, proto::MaxBlockSize, &resp, error) ||
        !readNumber(o, "in_flight", 1, 1024, &inflight, error))
        return false;
    p.kind = kind == QLatin1String("rr") ? TestKind::Rr : kind == QLatin1String("crr") ? TestKind::Crr : TestKind::Stream;
    p.requestSize = std::uint32_t(req);
    p.responseSize = std::uint32_t(resp);
    p.inFlight = int(inflight);
    *out = p;
    return true;
}

} // namespace nb
