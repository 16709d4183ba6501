// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/results.h"

#include "protocol/protocol.h"
#include "test/servicedemand.h"
#include "platform/platform.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSysInfo>

#include <algorithm>

namespace nb {

namespace {

QJsonValue optionalInt(std::int64_t v)
{
    return v < 0 ? QJsonValue() : QJsonValue(double(v));
}

std::int64_t intOr(const QJsonObject &o, const char *key, std::int64_t fallback)
{
    const auto v = proto::toInt64(o.value(QLatin1String(key)));
    return v ? *v : fallback;
}

double doubleOr(const QJsonObject &o, const char *key, double fallback)
{
    const auto v = proto::toDouble(o.value(QLatin1String(key)));
    return v ? *v : fallback;
}

bool requireObject(const QJsonValue &v, const QString &what, QJsonObject *out, QString *error)
{
    if (!v.isObject()) {
        *error = QStringLiteral("'%1' must be an object").arg(what);
        return false;
    }
    *out = v.toObject();
    return true;
}

bool requireArray(const QJsonValue &v, const QString &what, QJsonArray *out, QString *error, bool optional = false)
{
    if (optional && v.isUndefined())
        return true;
    if (!v.isArray()) {
        *error = QStringLiteral("'%1' must be an array").arg(what);
        return false;
    }
    *out = v.toArray();
    return true;
}

QJsonObject sumJson(double start, double end, std::uint64_t bytes, std::int64_t retransmits, bool sender,
                    bool omitted, bool withRetransmits)
{
    QJsonObject o;
    const double secs = end - start;
    o.insert(QStringLiteral("start"), start);
    o.insert(QStringLiteral("end"), end);
    o.insert(QStringLiteral("seconds"), secs);
    o.insert(QStringLiteral("bytes"), double(bytes));
    o.insert(QStringLiteral("bits_per_second"), secs > 0 ? bytes * 8.0 / secs : 0.0);
    if (withRetransmits)
        o.insert(QStringLiteral("retransmits"), double(std::max<std::int64_t>(retransmits, 0)));
    if (omitted)
        o.insert(QStringLiteral("omitted"), true);
    o.insert(QStringLiteral("sender"), sender);
    return o;
}

} // namespace

QJsonObject StreamInterval::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("socket"), id);
    o.insert(QStringLiteral("id"), id);
    o.insert(QStringLiteral("start"), start);
    o.insert(QStringLiteral("end"), end);
    o.insert(QStringLiteral("seconds"), seconds());
    o.insert(QStringLiteral("bytes"), double(bytes));
    o.insert(QStringLiteral("bits_per_second"), bitsPerSecond());
    if (sender && retransmits >= 0)
        o.insert(QStringLiteral("retransmits"), double(retransmits));
    if (cwndBytes >= 0)
        o.insert(QStringLiteral("snd_cwnd"), double(cwndBytes));
    if (rttUs >= 0)
        o.insert(QStringLiteral("rtt"), double(rttUs));
    if (rttVarUs >= 0)
        o.insert(QStringLiteral("rttvar"), double(rttVarUs));
    o.insert(QStringLiteral("omitted"), omitted);
    o.insert(QStringLiteral("sender"), sender);
    return o;
}

bool StreamInterval::fromJson(const QJsonObject &o, StreamInterval *out, QString *error)
{
    StreamInterval s;
    const auto id = proto::toInt64(o.value(QStringLiteral("id")).isUndefined() ? o.value(QStringLiteral("socket"))
                                                                                 : o.value(QStringLiteral("id")));
    const auto start = proto::toDouble(o.value(QStringLiteral("start")));
    const auto end = proto::toDouble(o.value(QStringLiteral("end")));
    const auto bytes = proto::toInt64(o.value(QStringLiteral("bytes")));
    if (!id || !start || !end || !bytes || *bytes < 0 || *end < *start) {
        *error = QStringLiteral("interval stream needs numeric id, start <= end and bytes >= 0");
        return false;
    }
    s.id = int(*id);
    s.start = *start;
    s.end = *end;
    s.bytes = std::uint64_t(*bytes);
    s.retransmits = intOr(o, "retransmits", -1);
    s.cwndBytes = intOr(o, "snd_cwnd", -1);
    s.rttUs = intOr(o, "rtt", -1);
    s.rttVarUs = intOr(o, "rttvar", -1);
    s.omitted = o.value(QStringLiteral("omitted")).toBool(false);
    s.sender = o.value(QStringLiteral("sender")).toBool(true);
    *out = s;
    return true;
}

QJsonObject RrInterval::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("start"), start);
    o.insert(QStringLiteral("end"), end);
    o.insert(QStringLiteral("transactions"), double(transactions));
    o.insert(QStringLiteral("transactions_per_second"), transactionsPerSecond());
    o.insert(QStringLiteral("latency_us"), latencyUs.toJson());
    return o;
}

bool RrInterval::fromJson(const QJsonObject &o, RrInterval *out, QString *error)
{
    RrInterval r;
    const auto start = proto::toDouble(o.value(QStringLiteral("start")));
    const auto end = proto::toDouble(o.value(QStringLiteral("end")));
    const auto tx = proto::toInt64(o.value(QStringLiteral("transactions")));
    if (!start || !end || !tx || *tx < 0) {
        *error = QStringLiteral("rr interval needs numeric start, end and transactions");
        return false;
    }
    r.start = *start;
    r.end = *end;
    r.transactions = std::uint64_t(*tx);
    if (!LatencySummary::fromJson(o.value(QStringLiteral("latency_us")).toObject(), &r.latencyUs, error))
        return false;
    *out = r;
    return true;
}

QJsonObject RrSummary::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("mode"), testKindName(kind));
    o.insert(QStringLiteral("request_size"), double(requestSize));
    o.insert(QStringLiteral("response_size"), double(responseSize));
    o.insert(QStringLiteral("connections"), connections);
    o.insert(QStringLiteral("in_flight"), inFlight);
    o.insert(QStringLiteral("seconds"), seconds);
    o.insert(QStringLiteral("transactions"), double(transactions));
    o.insert(QStringLiteral("transactions_per_second"), transactionsPerSecond());
    o.insert(QStringLiteral("latency_us"), latencyUs.toJson());
    o.insert(QStringLiteral("histogram_ns"), histogram.toJson());
    return o;
}

bool RrSummary::fromJson(const QJsonObject &o, RrSummary *out, QString *error)
{
    RrSummary r;
    const QString mode = o.value(QStringLiteral("mode")).toString();
    r.kind = mode == QLatin1String("crr") ? TestKind::Crr : TestKind::Rr;
    r.requestSize = std::uint32_t(std::max<std::int64_t>(1, intOr(o, "request_size", 1)));
    r.responseSize = std::uint32_t(std::max<std::int64_t>(1, intOr(o, "response_size", 1)));
    r.connections = int(std::max<std::int64_t>(1, intOr(o, "connections", 1)));
    r.inFlight = int(std::max<std::int64_t>(1, intOr(o, "in_flight", 1)));
    r.seconds = doubleOr(o, "seconds", 0);
    const std::int64_t tx = intOr(o, "transactions", -1);
    if (tx < 0 || r.seconds < 0) {
        *error = QStringLiteral("nicbench.rr needs non-negative transactions and seconds");
        return false;
    }
    r.transactions = std::uint64_t(tx);
    if (!LatencySummary::fromJson(o.value(QStringLiteral("latency_us")).toObject(), &r.latencyUs, error))
        return false;
    if (o.contains(QStringLiteral("histogram_ns")) &&
        !LatencyHistogram::fromJson(o.value(QStringLiteral("histogram_ns")).toObject(), &r.histogram, error))
        return false;
    *out = r;
    return true;
}

QJsonObject IntervalSum::toJson() const
{
    return sumJson(start, end, bytes, retransmits, sender, omitted, sender);
}

bool IntervalReport::hasDirection(bool senderSide) const
{
    return std::any_of(streams.begin(), streams.end(), [&](const StreamInterval &s) { return s.sender == senderSide; });
}

IntervalSum IntervalReport::sum(bool senderSide) const
{
    IntervalSum s;
    s.sender = senderSide;
    bool first = true;
    for (const StreamInterval &st : streams) {
        if (st.sender != senderSide)
            continue;
        if (first) {
            s.start = st.start;
            s.end = st.end;
            s.omitted = st.omitted;
            first = false;
        }
        s.bytes += st.bytes;
        if (st.retransmits >= 0)
            s.retransmits = std::max<std::int64_t>(s.retransmits, 0) + st.retransmits;
    }
    return s;
}

QJsonObject IntervalReport::toJson() const
{
    QJsonObject o;
    QJsonArray arr;
    for (const StreamInterval &s : streams)
        arr.append(s.toJson());
    o.insert(QStringLiteral("streams"), arr);
    // iperf3 puts the first direction in "sum" and, in bidir tests, the other in
    // "sum_bidir_reverse". The first direction is whatever the first stream does.
    if (!streams.isEmpty()) {
        const bool primary = streams.first().sender;
        o.insert(QStringLiteral("sum"), sum(primary).toJson());
        if (hasDirection(!primary))
            o.insert(QStringLiteral("sum_bidir_reverse"), sum(!primary).toJson());
    }
    if (hasRr)
        o.insert(QStringLiteral("rr"), rr.toJson());
    if (hasCpu)
        o.insert(QStringLiteral("cpu"), cpu.toJson());
    return o;
}

bool IntervalReport::fromJson(const QJsonObject &o, IntervalReport *out, QString *error)
{
    QJsonArray arr;
    if (!requireArray(o.value(QStringLiteral("streams")), QStringLiteral("intervals[].streams"), &arr, error))
        return false;
    IntervalReport r;
    for (const QJsonValue &v : arr) {
        QJsonObject so;
        StreamInterval s;
        if (!requireObject(v, QStringLiteral("intervals[].streams[]"), &so, error) ||
            !StreamInterval::fromJson(so, &s, error))
            return false;
        r.streams.append(s);
    }
    if (o.contains(QStringLiteral("rr"))) {
        if (!RrInterval::fromJson(o.value(QStringLiteral("rr")).toObject(), &r.rr, error))
            return false;
        r.hasRr = true;
    }
    if (o.value(QStringLiteral("cpu")).isObject())
        r.hasCpu = CpuSample::fromJson(o.value(QStringLiteral("cpu")).toObject(), &r.cpu, error);
    *out = r;
    return true;
}

QJsonObject CpuUtilization::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("host_total"), hostTotal);
    o.insert(QStringLiteral("host_user"), hostUser);
    o.insert(QStringLiteral("host_system"), hostSystem);
    o.insert(QStringLiteral("remote_total"), remoteTotal);
    o.insert(QStringLiteral("remote_user"), remoteUser);
    o.insert(QStringLiteral("remote_system"), remoteSystem);
    return o;
}

bool TestResult::hasDirection(bool clientSent) const
{
    const bool localSent = isServerSide ? !clientSent : clientSent;
    return std::any_of(streams.begin(), streams.end(), [&](const StreamSummary &s) { return s.sender == localSent; });
}

DirectionSum TestResult::sum(bool clientSent) const
{
    const bool localSent = isServerSide ? !clientSent : clientSent;
    DirectionSum d;
    for (const StreamSummary &s : streams) {
        if (s.sender != localSent)
            continue;
        d.seconds = std::max(d.seconds, s.seconds);
        d.receiverSeconds = std::max(d.receiverSeconds, s.receiverSeconds > 0 ? s.receiverSeconds : s.seconds);
        d.bytesSent += s.bytesSent;
        d.bytesReceived += s.bytesReceived;
        if (s.retransmits >= 0)
            d.retransmits = std::max<std::int64_t>(d.retransmits, 0) + s.retransmits;
    }
    return d;
}

QJsonObject TestResult::toJson() const
{
    QJsonObject root;

    // --- start ---
    QJsonObject start;
    QJsonArray connected;
    for (const ConnectionInfo &c : connections) {
        QJsonObject o;
        o.insert(QStringLiteral("socket"), c.id);
        o.insert(QStringLiteral("local_host"), c.localHost);
        o.insert(QStringLiteral("local_port"), c.localPort);
        o.insert(QStringLiteral("remote_host"), c.remoteHost);
        o.insert(QStringLiteral("remote_port"), c.remotePort);
        connected.append(o);
    }
    start.insert(QStringLiteral("connected"), connected);
    start.insert(QStringLiteral("version"), QStringLiteral("nicbench %1").arg(version));
    start.insert(QStringLiteral("system_info"),
                 QStringLiteral("%1 %2 %3").arg(QSysInfo::kernelType(), QSysInfo::machineHostName(),
                                                QSysInfo::kernelVersion()));
    QJsonObject ts;
    ts.insert(QStringLiteral("time"),
              QDateTime::fromSecsSinceEpoch(timestampSecs, Qt::UTC).toString(Qt::RFC2822Date));
    ts.insert(QStringLiteral("timesecs"), double(timestampSecs));
    start.insert(QStringLiteral("timestamp"), ts);
    if (!isServerSide) {
        QJsonObject ct;
        ct.insert(QStringLiteral("host"), params.host);
        ct.insert(QStringLiteral("port"), params.port);
        start.insert(QStringLiteral("connecting_to"), ct);
    }
    start.insert(QStringLiteral("cookie"), cookie);
    QJsonObject ts2;
    ts2.insert(QStringLiteral("protocol"), QStringLiteral("TCP"));
    ts2.insert(QStringLiteral("num_streams"), params.streams);
    ts2.insert(QStringLiteral("blksize"), double(params.blockSize));
    ts2.insert(QStringLiteral("omit"), params.omit);
    ts2.insert(QStringLiteral("duration"), params.duration);
    ts2.insert(QStringLiteral("bytes"), double(params.bytes));
    ts2.insert(QStringLiteral("blocks"), 0);
    ts2.insert(QStringLiteral("reverse"), params.isReverse() ? 1 : 0);
    ts2.insert(QStringLiteral("bidir"), params.isBidir() ? 1 : 0);
    ts2.insert(QStringLiteral("tos"), 0);
    start.insert(QStringLiteral("test_start"), ts2);
    root.insert(QStringLiteral("start"), start);

    // --- intervals ---
    QJsonArray intervalArr;
    for (const IntervalReport &r : intervals)
        intervalArr.append(r.toJson());
    root.insert(QStringLiteral("intervals"), intervalArr);

    // --- end ---
    QJsonObject end;
    QJsonArray streamArr;
    for (const StreamSummary &s : streams) {
        QJsonObject snd = sumJson(0, s.seconds, s.bytesSent, s.retransmits, s.sender, false, s.sender);
        snd.insert(QStringLiteral("socket"), s.id);
        snd.insert(QStringLiteral("id"), s.id);
        if (s.maxCwndBytes >= 0)
            snd.insert(QStringLiteral("max_snd_cwnd"), double(s.maxCwndBytes));
        if (s.maxRttUs >= 0) {
            snd.insert(QStringLiteral("max_rtt"), double(s.maxRttUs));
            snd.insert(QStringLiteral("min_rtt"), optionalInt(s.minRttUs));
            snd.insert(QStringLiteral("mean_rtt"), optionalInt(s.meanRttUs));
        }
        const double rsecs = s.receiverSeconds > 0 ? s.receiverSeconds : s.seconds;
        QJsonObject rcv = sumJson(0, rsecs, s.bytesReceived, -1, s.sender, false, false);
        rcv.insert(QStringLiteral("socket"), s.id);
        rcv.insert(QStringLiteral("id"), s.id);
        QJsonObject pair;
        pair.insert(QStringLiteral("sender"), snd);
        pair.insert(QStringLiteral("receiver"), rcv);
        streamArr.append(pair);
    }
    end.insert(QStringLiteral("streams"), streamArr);
    // The primary direction: client->server unless reverse.
    const bool primaryClientSent = !params.isReverse();
    auto addSums = [&](bool clientSent, const QString &suffix) {
        const DirectionSum d = sum(clientSent);
        const bool localSent = isServerSide ? !clientSent : clientSent;
        end.insert(QStringLiteral("sum_sent") + suffix,
                   sumJson(0, d.seconds, d.bytesSent, d.retransmits, localSent, false, true));
        end.insert(QStringLiteral("sum_received") + suffix,
                   sumJson(0, d.receiverSeconds, d.bytesReceived, -1, localSent, false, false));
    };
    if (!streams.isEmpty()) {
        addSums(primaryClientSent, QString());
        if (params.isBidir())
            addSums(!primaryClientSent, QStringLiteral("_bidir_reverse"));
    }
    end.insert(QStringLiteral("cpu_utilization_percent"), cpu.toJson());
    if (!senderCongestion.isEmpty())
        end.insert(QStringLiteral("sender_tcp_congestion"), senderCongestion);
    if (!receiverCongestion.isEmpty())
        end.insert(QStringLiteral("receiver_tcp_congestion"), receiverCongestion);
    root.insert(QStringLiteral("end"), end);

    // --- NicBench's own figures ---
    QJsonObject nb;
    nb.insert(QStringLiteral("format_version"), 1);
    nb.insert(QStringLiteral("version"), version);
    if (!remoteVersion.isEmpty())
        nb.insert(QStringLiteral("remote_version"), remoteVersion);
    nb.insert(QStringLiteral("role"), isServerSide ? QStringLiteral("server") : QStringLiteral("client"));
    nb.insert(QStringLiteral("params"), params.toJson());
    nb.insert(QStringLiteral("remote_cpu_known"), cpu.remoteKnown);
    nb.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(warnings));
    if (hasRr)
        nb.insert(QStringLiteral("rr"), rr.toJson());
    nb.insert(QStringLiteral("peer_is_nicbench"), peerIsNicbench);
    nb.insert(QStringLiteral("cpu"), cpuCostJson());
    {
        QJsonObject ad;
        if (localAdapter)
            ad.insert(QStringLiteral("local"), localAdapter->toJson());
        if (remoteAdapter)
            ad.insert(QStringLiteral("remote"), remoteAdapter->toJson());
        if (localAdapterTxBytes >= 0) {
            ad.insert(QStringLiteral("local_tx_bytes"), double(localAdapterTxBytes));
            ad.insert(QStringLiteral("local_rx_bytes"), double(localAdapterRxBytes));
        }
        nb.insert(QStringLiteral("adapters"), ad);
        QJsonArray rci;
        for (const CpuSample &c : remoteCpuIntervals)
            rci.append(c.toJson());
        if (!rci.isEmpty())
            nb.insert(QStringLiteral("remote_cpu_intervals"), rci);
    }
    if (!peerExtension.isEmpty())
        nb.insert(QStringLiteral("peer"), peerExtension);
    if (remoteHost)
        nb.insert(QStringLiteral("remote_host"), remoteHost->toJson());
    if (errorCode != ErrorCode::None)
        nb.insert(QStringLiteral("error_code"), errorCodeName(errorCode));
    root.insert(QStringLiteral("nicbench"), nb);

    if (!error.isEmpty())
        root.insert(QStringLiteral("error"), error);
    return root;
}

bool TestResult::fromJson(const QJsonObject &root, TestResult *out, QString *error)
{
    TestResult r;
    QJsonObject start, end, nb;
    if (!requireObject(root.value(QStringLiteral("start")), QStringLiteral("start"), &start, error) ||
        !requireObject(root.value(QStringLiteral("end")), QStringLiteral("end"), &end, error))
        return false;
    if (root.contains(QStringLiteral("nicbench"))) {
        if (!requireObject(root.value(QStringLiteral("nicbench")), QStringLiteral("nicbench"), &nb, error))
            return false;
        QJsonObject params;
        if (!requireObject(nb.value(QStringLiteral("params")), QStringLiteral("nicbench.params"), &params, error) ||
            !TestParams::fromJson(params, &r.params, error))
            return false;
        r.version = nb.value(QStringLiteral("version")).toString();
        r.remoteVersion = nb.value(QStringLiteral("remote_version")).toString();
        r.isServerSide = nb.value(QStringLiteral("role")).toString() == QLatin1String("server");
        r.cpu.remoteKnown = nb.value(QStringLiteral("remote_cpu_known")).toBool();
        for (const QJsonValue &w : nb.value(QStringLiteral("warnings")).toArray())
            r.warnings.append(w.toString());
        if (nb.contains(QStringLiteral("rr"))) {
            if (!RrSummary::fromJson(nb.value(QStringLiteral("rr")).toObject(), &r.rr, error))
                return false;
            r.hasRr = true;
        }
        r.peerIsNicbench = nb.value(QStringLiteral("peer_is_nicbench")).toBool();
        const QJsonObject cpuObj = nb.value(QStringLiteral("cpu")).toObject();
        QString ignored;
        if (cpuObj.value(QStringLiteral("local")).isObject())
            r.localCpuKnown = CpuSample::fromJson(cpuObj.value(QStringLiteral("local")).toObject(), &r.localCpu, &ignored);
        const QJsonObject remoteCpu = cpuObj.value(QStringLiteral("remote")).toObject();
        if (!remoteCpu.value(QStringLiteral("process_only")).toBool() && !remoteCpu.isEmpty())
            r.remoteCpuKnown = CpuSample::fromJson(remoteCpu, &r.remoteCpu, &ignored);
        for (const QJsonValue &v : nb.value(QStringLiteral("remote_cpu_intervals")).toArray()) {
            CpuSample c;
            if (CpuSample::fromJson(v.toObject(), &c, &ignored))
                r.remoteCpuIntervals.append(c);
        }
        const QJsonObject ad = nb.value(QStringLiteral("adapters")).toObject();
        AdapterInfo ai;
        if (ad.value(QStringLiteral("local")).isObject() && AdapterInfo::fromJson(ad.value(QStringLiteral("local")).toObject(), &ai, &ignored))
            r.localAdapter = ai;
        if (ad.value(QStringLiteral("remote")).isObject() && AdapterInfo::fromJson(ad.value(QStringLiteral("remote")).toObject(), &ai, &ignored))
            r.remoteAdapter = ai;
        r.localAdapterTxBytes = intOr(ad, "local_tx_bytes", -1);
        r.localAdapterRxBytes = intOr(ad, "local_rx_bytes", -1);
        r.peerExtension = nb.value(QStringLiteral("peer")).toObject();
        // Absent in documents from before the info query; a bad one costs only itself.
        HostEnvironment host;
        if (nb.value(QStringLiteral("remote_host")).isObject() &&
            HostEnvironment::fromJson(nb.value(QStringLiteral("remote_host")).toObject(), &host, &ignored))
            r.remoteHost = host;
    } else {
        // A stock iperf3 document: take what its start block says.
        const QJsonObject ts = start.value(QStringLiteral("test_start")).toObject();
        r.params.streams = int(std::clamp<std::int64_t>(intOr(ts, "num_streams", 1), 1, proto::MaxStreams));
        r.params.blockSize = std::uint32_t(std::clamp<std::int64_t>(intOr(ts, "blksize", 131072), 1, proto::MaxBlockSize));
        r.params.duration = doubleOr(ts, "duration", 10);
        r.params.omit = doubleOr(ts, "omit", 0);
        if (intOr(ts, "reverse", 0))
            r.params.direction = Direction::Download;
        if (intOr(ts, "bidir", 0))
            r.params.direction = Direction::Bidirectional;
        const QJsonObject ct = start.value(QStringLiteral("connecting_to")).toObject();
        r.params.host = ct.value(QStringLiteral("host")).toString();
        r.params.port = quint16(std::clamp<std::int64_t>(intOr(ct, "port", 5201), 1, 65535));
        r.version = start.value(QStringLiteral("version")).toString();
    }
    r.cookie = start.value(QStringLiteral("cookie")).toString();
    r.timestampSecs = intOr(start.value(QStringLiteral("timestamp")).toObject(), "timesecs", 0);
    QJsonArray connected;
    if (!requireArray(start.value(QStringLiteral("connected")), QStringLiteral("start.connected"), &connected, error, true))
        return false;
    for (const QJsonValue &v : connected) {
        const QJsonObject o = v.toObject();
        ConnectionInfo c;
        c.id = int(intOr(o, "socket", 0));
        c.localHost = o.value(QStringLiteral("local_host")).toString();
        c.localPort = quint16(intOr(o, "local_port", 0));
        c.remoteHost = o.value(QStringLiteral("remote_host")).toString();
        c.remotePort = quint16(intOr(o, "remote_port", 0));
        r.connections.append(c);
    }
    QJsonArray intervalArr;
    if (!requireArray(root.value(QStringLiteral("intervals")), QStringLiteral("intervals"), &intervalArr, error, true))
        return false;
    for (const QJsonValue &v : intervalArr) {
        QJsonObject io;
        IntervalReport ir;
        if (!requireObject(v, QStringLiteral("intervals[]"), &io, error) || !IntervalReport::fromJson(io, &ir, error))
            return false;
        r.intervals.append(ir);
    }
    QJsonArray streamArr;
    if (!requireArray(end.value(QStringLiteral("streams")), QStringLiteral("end.streams"), &streamArr, error, true))
        return false;
    for (const QJsonValue &v : streamArr) {
        QJsonObject pair, snd, rcv;
        if (!requireObject(v, QStringLiteral("end.streams[]"), &pair, error) ||
            !requireObject(pair.value(QStringLiteral("sender")), QStringLiteral("end.streams[].sender"), &snd, error) ||
            !requireObject(pair.value(QStringLiteral("receiver")), QStringLiteral("end.streams[].receiver"), &rcv, error))
            return false;
        StreamSummary s;
        s.id = int(intOr(snd, "socket", 0));
        s.sender = snd.value(QStringLiteral("sender")).toBool(true);
        s.seconds = doubleOr(snd, "seconds", 0);
        s.receiverSeconds = doubleOr(rcv, "seconds", 0);
        const std::int64_t sent = intOr(snd, "bytes", -1), recv = intOr(rcv, "bytes", -1);
        if (sent < 0 || recv < 0 || s.seconds < 0) {
            *error = QStringLiteral("end.streams[] needs non-negative byte counts");
            return false;
        }
        s.bytesSent = std::uint64_t(sent);
        s.bytesReceived = std::uint64_t(recv);
        s.retransmits = s.sender ? intOr(snd, "retransmits", -1) : -1;
        s.maxCwndBytes = intOr(snd, "max_snd_cwnd", -1);
        s.maxRttUs = intOr(snd, "max_rtt", -1);
        s.minRttUs = intOr(snd, "min_rtt", -1);
        s.meanRttUs = intOr(snd, "mean_rtt", -1);
        r.streams.append(s);
    }
    const QJsonObject cpu = end.value(QStringLiteral("cpu_utilization_percent")).toObject();
    r.cpu.hostTotal = doubleOr(cpu, "host_total", 0);
    r.cpu.hostUser = doubleOr(cpu, "host_user", 0);
    r.cpu.hostSystem = doubleOr(cpu, "host_system", 0);
    r.cpu.remoteTotal = doubleOr(cpu, "remote_total", 0);
    r.cpu.remoteUser = doubleOr(cpu, "remote_user", 0);
    r.cpu.remoteSystem = doubleOr(cpu, "remote_system", 0);
    r.senderCongestion = end.value(QStringLiteral("sender_tcp_congestion")).toString();
    r.receiverCongestion = end.value(QStringLiteral("receiver_tcp_congestion")).toString();
    r.error = root.value(QStringLiteral("error")).toString();
    r.errorCode = errorCodeFromName(root.value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("error_code")).toString());
    *out = r;
    return true;
}

} // namespace nb

namespace nb {

std::uint64_t TestResult::localBytesSent() const
{
    std::uint64_t b = 0;
    for (const StreamSummary &s : streams)
        if (s.sender)
            b += s.bytesSent;
    if (hasRr)
        b = 0;
    return b;
}

std::uint64_t TestResult::localBytesReceived() const
{
    std::uint64_t b = 0;
    for (const StreamSummary &s : streams)
        if (!s.sender)
            b += s.bytesReceived;
    return b;
}

std::uint64_t TestResult::bytesDelivered() const
{
    std::uint64_t b = 0;
    for (const StreamSummary &s : streams)
        b += s.bytesReceived;
    return b;
}

QJsonObject TestResult::cpuCostJson() const
{
    QJsonObject o;
    auto put = [&](const char *key, std::optional<double> v) {
        o.insert(QLatin1String(key), v ? QJsonValue(*v) : QJsonValue());
    };
    if (localCpuKnown)
        o.insert(QStringLiteral("local"), localCpu.toJson());
    if (remoteCpuKnown) {
        o.insert(QStringLiteral("remote"), remoteCpu.toJson());
    } else if (cpu.remoteKnown) {
        // A stock iperf3 peer reports its own process only.
        QJsonObject r;
        r.insert(QStringLiteral("process_only"), true);
        r.insert(QStringLiteral("process_pct"), cpu.remoteTotal);
        r.insert(QStringLiteral("process_user_pct"), cpu.remoteUser);
        r.insert(QStringLiteral("process_system_pct"), cpu.remoteSystem);
        o.insert(QStringLiteral("remote"), r);
    }
    const double seconds = localCpu.seconds();
    const double bytes = double(bytesDelivered());
    const double bps = seconds > 0 ? bytes * 8 / seconds : 0;
    if (localCpuKnown && localCpu.systemValid) {
        if (hasRr) {
            put("local_us_per_transaction",
                serviceDemandUsPerTransaction(localCpu.systemBusyPct, localCpu.cpuCount, seconds, double(rr.transactions)));
        } else {
            put("local_us_per_kb", serviceDemandUsPerKB(localCpu.systemBusyPct, localCpu.cpuCount, seconds, bytes));
            put("local_cpu_pct_per_gbps", cpuPctPerGbps(localCpu.systemBusyPct, bps));
            put("local_cycles_per_byte",
                cyclesPerByte(localCpu.systemBusyCpuSeconds(), platform::cpuClockHz(), bytes));
        }
    }
    if (remoteCpuKnown && remoteCpu.systemValid) {
        const double rs = remoteCpu.seconds();
        if (hasRr)
            put("remote_us_per_transaction",
                serviceDemandUsPerTransaction(remoteCpu.systemBusyPct, remoteCpu.cpuCount, rs, double(rr.transactions)));
        else {
            put("remote_us_per_kb", serviceDemandUsPerKB(remoteCpu.systemBusyPct, remoteCpu.cpuCount, rs, bytes));
            put("remote_cpu_pct_per_gbps", cpuPctPerGbps(remoteCpu.systemBusyPct, rs > 0 ? bytes * 8 / rs : 0));
        }
    }
    o.insert(QStringLiteral("units"), QStringLiteral("*_pct: percent of all cores (system) or of one core "
                                                     "(process); us_per_kb: CPU microseconds per 1024 bytes; "
                                                     "see docs/cpu-cost.md"));
    return o;
}

} // namespace nb
