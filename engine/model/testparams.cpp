// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/testparams.h"

#include "core/jsonfields.h"
#include "core/udpaccounting.h"
#include "model/parameters.h"
#include "protocol/protocol.h"

#include <QJsonValue>

#include <cmath>
#include <optional>

namespace nb {

QString directionName(Direction d)
{
    switch (d) {
    case Direction::Upload:
        return QStringLiteral("upload");
    case Direction::Download:
        return QStringLiteral("download");
    case Direction::Bidirectional:
        return QStringLiteral("bidirectional");
    }
    return {};
}

QString testKindName(TestKind k)
{
    switch (k) {
    case TestKind::Stream:
        return QStringLiteral("stream");
    case TestKind::Rr:
        return QStringLiteral("rr");
    case TestKind::Crr:
        return QStringLiteral("crr");
    case TestKind::LoadedLatency:
        return QStringLiteral("loaded_latency");
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
    if (isLoadedLatency()) {
        o.insert(QStringLiteral("request_size"), double(requestSize));
        o.insert(QStringLiteral("response_size"), double(responseSize));
        o.insert(QStringLiteral("phases"), phases);
        o.insert(QStringLiteral("phase_seconds"), phaseSeconds);
        o.insert(QStringLiteral("probe_dscp"), probeDscp);
    }
    // This client opens every CRR connection with the token the server's hello gives.
    if (kind == TestKind::Crr)
        o.insert(QStringLiteral("crr_token"), true);
    return o;
}

// Ranges come from the parameter table; the rules between fields are here.
QString TestParams::validate() const
{
    if (isRequestResponse()) {
        if (kind == TestKind::Crr && inFlight != 1)
            return QStringLiteral("connect/request/response tests have one transaction per connection (--in-flight 1)");
        if (direction != Direction::Upload)
            return QStringLiteral("request/response tests have no direction (-R/--bidir)");
        if (protocol == PeerProtocol::Iperf2)
            return QStringLiteral("request/response tests need a NicBench server, not iperf2");
        if (!isTimed())
            return QStringLiteral("request/response tests need a duration (-t)");
    }
    if (isLoadedLatency()) {
        if (direction == Direction::Download)
            return QStringLiteral("latency under load runs download, upload and both directions itself (--phases), "
                                  "not -R");
        if (protocol == PeerProtocol::Iperf2)
            return QStringLiteral("latency under load needs an iperf3 or NicBench server, not iperf2");
        if (endsOnBytes())
            return QStringLiteral(
                "latency under load runs for its phases (--phase-seconds), not for a byte count (-n)");
        if (omit > 0)
            return QStringLiteral("latency under load has no warm-up (-O): its first phase is the idle baseline");
        if (udp)
            return QStringLiteral("latency under load loads TCP streams and probes over TCP (not -u)");
        QString error;
        if (!LoadSchedule::parseOrder(phases, &error))
            return error;
    }
    if (dontFragment && !udp)
        return QStringLiteral("--dont-fragment is for UDP datagrams (-u); TCP segments to the path's MTU itself");
    if (udp) {
        if (kind == TestKind::Crr)
            return QStringLiteral("--crr opens TCP connections; UDP request/response is -u --rr");
        if (kind == TestKind::Rr && (requestSize > udp::MaxDatagram || responseSize > udp::MaxDatagram))
            return QStringLiteral("-u --rr: requests and responses are single datagrams of at most %1 bytes")
                .arg(udp::MaxDatagram);
        if (protocol == PeerProtocol::Iperf2)
            return QStringLiteral("UDP tests need an iperf3 or NicBench server, not iperf2");
        if (kind == TestKind::Stream && !udpDatagramSizeUnset() &&
            (blockSize < udp::MinDatagram || blockSize > udp::MaxDatagram))
            return QStringLiteral("-l: a UDP datagram holds %1 to %2 bytes, not %3")
                .arg(udp::MinDatagram)
                .arg(udp::MaxDatagram)
                .arg(blockSize);
        if (zeroCopy)
            return QStringLiteral("-Z (zero copy) is for TCP tests only");
    }
    const QString range = param::checkRanges(*this);
    if (!range.isEmpty())
        return range;
    if (!isTimed() && !endsOnBytes())
        return QStringLiteral("give a duration (-t) or a byte count (-n)");
    if (protocol == PeerProtocol::Iperf2 && direction != Direction::Upload)
        return QStringLiteral("only upload tests are supported against an iperf2 server");
    return {};
}

LoadSchedule TestParams::loadSchedule() const
{
    QString ignored;
    return LoadSchedule(LoadSchedule::parseOrder(phases, &ignored).value_or(QList<LoadPhase>()), phaseSeconds);
}

TestParams TestParams::normalized() const
{
    TestParams p = *this;
    if (isLoadedLatency()) {
        p.direction = Direction::Bidirectional;
        p.duration = loadSchedule().total();
        p.omit = 0;
        p.bytes = 0;
    }
    return p;
}

QJsonObject TestParams::toIperfParams() const
{
    QJsonObject o;
    o.insert(udp ? QStringLiteral("udp") : QStringLiteral("tcp"), true);
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
    // iperf3 sends the rate only when one is set (absent: unlimited; TCP: not paced).
    if ((udp || pacesTcp()) && bandwidth > 0)
        o.insert(QStringLiteral("bandwidth"), double(bandwidth));
    o.insert(QStringLiteral("pacing_timer"), pacingTimerUs);
    if (udp && udpCounters64)
        o.insert(QStringLiteral("udp_counters_64bit"), 1);
    if (udp && dontFragment)
        o.insert(QStringLiteral("dont_fragment"), true); // iperf3 3.14's key
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

// The iperf3 parameter JSON comes from any client, stock ones included, so this reader is
// more lenient than core/jsonfields.h: null counts as absent and old clients send 1 for
// true. Each returns false with *error set when the key exists with the wrong type.
bool readWireBool(const QJsonObject &o, const QString &key, bool *out, QString *error)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    if (v.isBool() || v.isDouble()) {
        *out = v.isBool() ? v.toBool() : v.toDouble() != 0;
        return true;
    }
    *error = QStringLiteral("parameter '%1' must be a boolean").arg(key);
    return false;
}

bool readWireNumber(const QJsonObject &o, const QString &key, std::optional<double> *out, QString *error)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    *out = proto::toDouble(v);
    if (!*out)
        *error = QStringLiteral("parameter '%1' must be a number").arg(key);
    return bool(*out);
}

bool readWireString(const QJsonObject &o, const QString &key, QString *out, QString *error)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return true;
    if (!v.isString()) {
        *error = QStringLiteral("parameter '%1' must be a string").arg(key);
        return false;
    }
    *out = v.toString().left(256);
    return true;
}

// Every table row with an iperf3 key: numbers range-checked by the row, booleans as flags,
// strings as text. "nicbench.x" keys live in our extension object.
bool readIperfRows(const QJsonObject &json, const QJsonObject &ext, TestParams *p, QString *error)
{
    static const QString extPrefix = QStringLiteral("nicbench.");
    for (const param::Parameter &row : param::parameters()) {
        if (!row.iperfKey || row.id == param::Id::Rr || row.id == param::Id::Crr ||
            row.id == param::Id::LatencyUnderLoad) // kind: a string, read apart
            continue;
        if (!param::appliesTo(row, p->kind)) // "parallel": streams or connections, each with its limit
            continue;
        QString key = QLatin1String(row.iperfKey);
        const bool inExt = key.startsWith(extPrefix);
        const QJsonObject &src = inExt ? ext : json;
        if (inExt)
            key = key.mid(extPrefix.size());
        if (param::isNumeric(row)) {
            std::optional<double> v;
            if (!readWireNumber(src, key, &v, error))
                return false;
            if (!v)
                continue;
            if (!param::inRange(row, *v)) {
                *error = QStringLiteral("parameter '%1' out of range: %2").arg(key).arg(*v);
                return false;
            }
            param::setNumericValue(p, row, *v);
        } else if (row.type == param::Type::Flag) {
            bool set = false;
            if (!readWireBool(src, key, &set, error))
                return false;
            if (set)
                param::setFlag(p, row);
        } else if (row.type == param::Type::Text) {
            QString text;
            if (!readWireString(src, key, &text, error))
                return false;
            if (!text.isEmpty())
                param::setText(p, row, text);
        }
    }
    return true;
}

} // namespace

bool TestParams::fromIperfParams(const QJsonObject &json, TestParams *out, QString *error)
{
    TestParams p;
    bool sctp = false;
    if (!readWireBool(json, QStringLiteral("sctp"), &sctp, error))
        return false;
    if (sctp) {
        *error = QStringLiteral("SCTP tests are not supported");
        return false;
    }
    const QJsonValue ext = json.value(QStringLiteral("nicbench"));
    if (!ext.isUndefined() && !ext.isObject()) {
        *error = QStringLiteral("parameter 'nicbench' must be an object");
        return false;
    }
    // The kind first: the limits of the rows below depend on it.
    if (ext.isObject()) {
        QString kind;
        if (!readWireString(ext.toObject(), QStringLiteral("test"), &kind, error))
            return false;
        if (kind == QLatin1String("rr"))
            p.kind = TestKind::Rr;
        else if (kind == QLatin1String("crr"))
            p.kind = TestKind::Crr;
        else if (kind == QLatin1String("loaded_latency"))
            p.kind = TestKind::LoadedLatency;
        else if (!kind.isEmpty() && kind != QLatin1String("stream")) {
            *error = QStringLiteral("unknown NicBench test kind '%1'").arg(kind);
            return false;
        }
    }
    std::optional<double> blockcount;
    if (!readIperfRows(json, ext.toObject(), &p, error) ||
        !readWireNumber(json, QStringLiteral("blockcount"), &blockcount, error))
        return false;
    if (blockcount && (*blockcount < 0 || *blockcount > 1.8e19)) {
        *error = QStringLiteral("parameter 'blockcount' out of range: %1").arg(*blockcount);
        return false;
    }
    // A TCP client that sends a rate asks for paced streams (iperf3 -b); without one, none.
    p.tcpPaced = !p.udp && json.contains(QStringLiteral("bandwidth"));
    if (p.udp) {
        // A stock client leaves the rate out for -b 0 (unlimited).
        if (!json.contains(QStringLiteral("bandwidth")))
            p.bandwidth = 0;
        if (p.kind == TestKind::Stream && (p.blockSize < udp::MinDatagram || p.blockSize > udp::MaxDatagram)) {
            *error = QStringLiteral("parameter 'len' out of range for UDP: %1").arg(p.blockSize);
            return false;
        }
        if (p.kind == TestKind::Crr || p.requestSize > udp::MaxDatagram || p.responseSize > udp::MaxDatagram) {
            *error =
                QStringLiteral("UDP request/response takes --rr with datagrams up to %1 bytes").arg(udp::MaxDatagram);
            return false;
        }
    }
    if (blockcount && *blockcount > 0 && p.bytes == 0) {
        // blockcount x len must fit the byte count (a double past 2^64 has no integer value).
        const double bytes = *blockcount * double(p.blockSize);
        if (bytes > 1.8e19) {
            *error = QStringLiteral("parameter 'blockcount' times 'len' is out of range: %1 bytes").arg(bytes);
            return false;
        }
        p.bytes = std::uint64_t(bytes);
    }
    if (p.isLoadedLatency()) {
        if (!LoadSchedule::parseOrder(p.phases, error))
            return false;
        if (!p.isBidir()) {
            *error = QStringLiteral("a latency-under-load test opens both directions (bidirectional)");
            return false;
        }
        // Its phases gate TCP senders only: a UDP one would run ungated (issue 30).
        if (p.udp) {
            *error = QStringLiteral("latency under load loads TCP streams and probes over TCP (not 'udp')");
            return false;
        }
    }
    *out = p;
    return true;
}

QJsonObject TestParams::toJson() const
{
    return param::paramsJson(*this);
}

bool TestParams::fromJson(const QJsonObject &o, TestParams *out, QString *error)
{
    using namespace json;
    TestParams p;
    QString family, direction, protocol, kind;
    // The kind first: which rows apply (and so the limits) depend on it.
    if (!readString(o, QStringLiteral("kind"), &kind, QString(), error))
        return false;
    p.kind = kind == QLatin1String("rr")               ? TestKind::Rr
             : kind == QLatin1String("crr")            ? TestKind::Crr
             : kind == QLatin1String("loaded_latency") ? TestKind::LoadedLatency
                                                       : TestKind::Stream;
    // Every table row with a JSON key: numbers in the row's range, booleans and text as
    // they are; the enumerations are named strings, read after the loop.
    for (const param::Parameter &row : param::parameters()) {
        if (!row.jsonKey || !param::appliesTo(row, p.kind))
            continue;
        const QString key = QLatin1String(row.jsonKey);
        if (param::isNumeric(row)) {
            double v = param::numericValue(p, row);
            if (!readDouble(o, key, &v, QString(), error))
                return false;
            if (!param::inRange(row, v))
                return fail(error, key, QStringLiteral("%1 is out of range (%2)").arg(v).arg(param::rangeText(row)));
            param::setNumericValue(&p, row, v);
        } else if (auto flag = std::get_if<bool TestParams::*>(&row.field)) {
            if (!readBool(o, key, &(p.**flag), QString(), error))
                return false;
        } else if (auto text = std::get_if<QString TestParams::*>(&row.field)) {
            if (!readString(o, key, &(p.**text), QString(), error))
                return false;
            p.**text = (p.**text).left(256);
        }
    }
    // -u --rr: the UDP row is a stream option on the command line, but UDP request/response
    // keeps it too.
    if (p.kind == TestKind::Rr && !readBool(o, QStringLiteral("udp"), &p.udp, QString(), error))
        return false;
    if (!readString(o, QStringLiteral("family"), &family, QString(), error) ||
        !readString(o, QStringLiteral("direction"), &direction, QString(), error) ||
        !readString(o, QStringLiteral("peer_protocol"), &protocol, QString(), error))
        return false;
    p.family = family == QLatin1String("ipv4")   ? AddressFamily::IPv4
               : family == QLatin1String("ipv6") ? AddressFamily::IPv6
                                                 : AddressFamily::Any;
    p.direction = direction == QLatin1String("download")        ? Direction::Download
                  : direction == QLatin1String("bidirectional") ? Direction::Bidirectional
                                                                : Direction::Upload;
    p.protocol = protocol == QLatin1String("iperf2") ? PeerProtocol::Iperf2 : PeerProtocol::Iperf3;
    p.tcpPaced = !p.udp && p.kind == TestKind::Stream && o.contains(QStringLiteral("bitrate"));
    *out = p;
    return true;
}

} // namespace nb
