// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/iperf3json.h"
#include "model/udpresults.h"

#include "model/parameters.h"

#include "core/jsonfields.h"
#include "model/cpucost.h"
#include "model/results.h"
#include "protocol/protocol.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSysInfo>

#include <algorithm>
#include <optional>

namespace nb::iperf3json {

namespace {

using json::valueOr;

QString key(const char *k)
{
    return QLatin1String(k);
}

QJsonValue optionalInt(std::int64_t v)
{
    return v < 0 ? QJsonValue() : QJsonValue(double(v));
}

// ---- writing ----

QJsonObject testStartJson(const TestParams &p)
{
    QJsonObject ts;
    ts.insert(key("protocol"), p.udp ? QStringLiteral("UDP") : QStringLiteral("TCP"));
    if (p.udp || p.pacesTcp())
        ts.insert(key("target_bitrate"), double(p.bandwidth));
    ts.insert(key("num_streams"), p.streams);
    ts.insert(key("blksize"), double(p.blockSize));
    ts.insert(key("omit"), p.omit);
    ts.insert(key("duration"), p.duration);
    ts.insert(key("bytes"), double(p.bytes));
    ts.insert(key("blocks"), 0);
    ts.insert(key("reverse"), p.isReverse() ? 1 : 0);
    ts.insert(key("bidir"), p.isBidir() ? 1 : 0);
    ts.insert(key("tos"), 0);
    return ts;
}

QJsonObject startJson(const TestResult &r)
{
    QJsonObject start;
    QJsonArray connected;
    for (const ConnectionInfo &c : r.connections)
        connected.append(c.toJson());
    start.insert(key("connected"), connected);
    start.insert(key("version"), QStringLiteral("nicbench %1").arg(r.version));
    start.insert(key("system_info"),
                 !r.systemInfo.isEmpty()
                     ? r.systemInfo
                     : QStringLiteral("%1 %2 %3")
                           .arg(QSysInfo::kernelType(), QSysInfo::machineHostName(), QSysInfo::kernelVersion()));
    const QJsonObject ts{
        {key("time"), QDateTime::fromSecsSinceEpoch(r.timestampSecs, Qt::UTC).toString(Qt::RFC2822Date)},
        {key("timesecs"), double(r.timestampSecs)},
    };
    start.insert(key("timestamp"), ts);
    if (!r.isServerSide)
        start.insert(key("connecting_to"), QJsonObject{{key("host"), r.params.host}, {key("port"), r.params.port}});
    start.insert(key("cookie"), r.cookie);
    start.insert(key("test_start"), testStartJson(r.params));
    return start;
}

QJsonObject endStreamJson(const StreamSummary &s)
{
    QJsonObject snd = sumJson(0, s.seconds, s.bytesSent, s.retransmits, s.sender, false, s.sender);
    snd.insert(key("socket"), s.id);
    snd.insert(key("id"), s.id);
    if (s.maxCwndBytes >= 0)
        snd.insert(key("max_snd_cwnd"), double(s.maxCwndBytes));
    if (s.maxRttUs >= 0) {
        snd.insert(key("max_rtt"), double(s.maxRttUs));
        snd.insert(key("min_rtt"), optionalInt(s.minRttUs));
        snd.insert(key("mean_rtt"), optionalInt(s.meanRttUs));
    }
    const double rsecs = s.receiverSeconds > 0 ? s.receiverSeconds : s.seconds;
    QJsonObject rcv = sumJson(0, rsecs, s.bytesReceived, -1, s.sender, false, false);
    rcv.insert(key("socket"), s.id);
    rcv.insert(key("id"), s.id);
    QJsonObject entry{{key("sender"), snd}, {key("receiver"), rcv}};
    if (s.udp)
        entry.insert(key("udp"), udpresults::endStreamJson(s));
    return entry;
}

// sum_sent/sum_received for the primary direction (client->server unless reverse) and,
// in bidir tests, the *_bidir_reverse pair for the other.
void insertSums(const TestResult &r, QJsonObject *end)
{
    if (r.streams.isEmpty())
        return;
    const auto insertDirection = [&](bool clientSent, const QString &suffix) {
        const DirectionSum d = r.sum(clientSent);
        const bool localSent = r.isServerSide ? !clientSent : clientSent;
        QJsonObject sent = sumJson(0, d.seconds, d.bytesSent, d.retransmits, localSent, false, true);
        QJsonObject received = sumJson(0, d.receiverSeconds, d.bytesReceived, -1, localSent, false, false);
        if (d.udp) {
            udpresults::addDirectionFields(&sent, &received, d);
            end->insert(key("sum") + suffix, udpresults::endSumJson(d, localSent));
        }
        end->insert(key("sum_sent") + suffix, sent);
        end->insert(key("sum_received") + suffix, received);
    };
    const bool primaryClientSent = !r.params.isReverse();
    insertDirection(primaryClientSent, QString());
    if (r.params.isBidir())
        insertDirection(!primaryClientSent, QStringLiteral("_bidir_reverse"));
}

QJsonObject endJson(const TestResult &r)
{
    QJsonObject end;
    QJsonArray streams;
    for (const StreamSummary &s : r.streams)
        streams.append(endStreamJson(s));
    end.insert(key("streams"), streams);
    insertSums(r, &end);
    end.insert(key("cpu_utilization_percent"), r.cpu.toJson());
    if (!r.senderCongestion.isEmpty())
        end.insert(key("sender_tcp_congestion"), r.senderCongestion);
    if (!r.receiverCongestion.isEmpty())
        end.insert(key("receiver_tcp_congestion"), r.receiverCongestion);
    return end;
}

QJsonObject adaptersJson(const TestResult &r)
{
    QJsonObject ad;
    if (r.localAdapter)
        ad.insert(key("local"), r.localAdapter->toJson());
    if (r.remoteAdapter)
        ad.insert(key("remote"), r.remoteAdapter->toJson());
    if (r.localAdapterTxBytes >= 0) {
        ad.insert(key("local_tx_bytes"), double(r.localAdapterTxBytes));
        ad.insert(key("local_rx_bytes"), double(r.localAdapterRxBytes));
    }
    return ad;
}

QJsonObject nicbenchJson(const TestResult &r)
{
    QJsonObject nb;
    nb.insert(key("format_version"), 1);
    nb.insert(key("version"), r.version);
    if (!r.remoteVersion.isEmpty())
        nb.insert(key("remote_version"), r.remoteVersion);
    nb.insert(key("role"), r.isServerSide ? QStringLiteral("server") : QStringLiteral("client"));
    nb.insert(key("params"), r.params.toJson());
    nb.insert(key("remote_cpu_known"), r.cpu.remoteKnown);
    nb.insert(key("warnings"), QJsonArray::fromStringList(r.warnings));
    if (r.hasRr)
        nb.insert(key("rr"), r.rr.toJson());
    if (r.loadedLatency)
        nb.insert(key("loaded_latency"), r.loadedLatency->toJson());
    if (r.fairness)
        nb.insert(key("fairness"), r.fairness->toJson());
    if (r.fairnessBidirReverse)
        nb.insert(key("fairness_bidir_reverse"), r.fairnessBidirReverse->toJson());
    nb.insert(key("peer_is_nicbench"), r.peerIsNicbench);
    nb.insert(key("cpu"), cpuCostJson(r));
    nb.insert(key("adapters"), adaptersJson(r));
    QJsonArray rci;
    for (const CpuSample &c : r.remoteCpuIntervals)
        rci.append(c.toJson());
    if (!rci.isEmpty())
        nb.insert(key("remote_cpu_intervals"), rci);
    if (!r.peerExtension.isEmpty())
        nb.insert(key("peer"), r.peerExtension);
    if (r.remoteHost)
        nb.insert(key("remote_host"), r.remoteHost->toJson());
    if (r.drivenBy)
        nb.insert(key("driven_by"), r.drivenBy->toJson());
    if (r.errorCode != ErrorCode::None)
        nb.insert(key("error_code"), errorCodeName(r.errorCode));
    return nb;
}

// ---- reading ----

// The two sections every -J document has; the message is the one the CLI always printed.
bool readSection(const QJsonObject &root, const char *name, QJsonObject *out, QString *error)
{
    if (json::readObject(root, key(name), out, QString(), nullptr, json::Need::Required))
        return true;
    return json::fail(error, QString(), QStringLiteral("'%1' must be an object").arg(key(name)));
}

// Part of the nicbench object describing the far side's machine; each piece is optional
// and a bad one costs only itself.
void readNicbenchCpuAndAdapters(const QJsonObject &nb, TestResult *r)
{
    QString ignored;
    const QJsonObject cpu = valueOr(nb, key("cpu"), QJsonObject());
    const QJsonObject localCpu = valueOr(cpu, key("local"), QJsonObject());
    if (!localCpu.isEmpty())
        r->localCpuKnown = CpuSample::fromJson(localCpu, &r->localCpu, &ignored);
    const QJsonObject remoteCpu = valueOr(cpu, key("remote"), QJsonObject());
    if (!valueOr(remoteCpu, key("process_only"), false) && !remoteCpu.isEmpty())
        r->remoteCpuKnown = CpuSample::fromJson(remoteCpu, &r->remoteCpu, &ignored);
    r->costs.local = CpuCost::fromJson(cpu, key("local"));
    r->costs.remote = CpuCost::fromJson(cpu, key("remote"));
    for (const QJsonValue &v : valueOr(nb, key("remote_cpu_intervals"), QJsonArray())) {
        CpuSample c;
        if (CpuSample::fromJson(v.toObject(), &c, &ignored))
            r->remoteCpuIntervals.append(c);
    }
    const QJsonObject ad = valueOr(nb, key("adapters"), QJsonObject());
    AdapterInfo ai;
    if (ad.value(key("local")).isObject() && AdapterInfo::fromJson(ad.value(key("local")).toObject(), &ai, &ignored))
        r->localAdapter = ai;
    if (ad.value(key("remote")).isObject() && AdapterInfo::fromJson(ad.value(key("remote")).toObject(), &ai, &ignored))
        r->remoteAdapter = ai;
    r->localAdapterTxBytes = valueOr<std::int64_t>(ad, key("local_tx_bytes"), -1);
    r->localAdapterRxBytes = valueOr<std::int64_t>(ad, key("local_rx_bytes"), -1);
    // Absent in documents from before the info query.
    HostEnvironment host;
    if (nb.value(key("remote_host")).isObject() &&
        HostEnvironment::fromJson(nb.value(key("remote_host")).toObject(), &host, &ignored))
        r->remoteHost = host;
    if (nb.value(key("driven_by")).isObject())
        r->drivenBy = DrivenBy::fromJson(nb.value(key("driven_by")).toObject());
}

bool readNicbench(const QJsonObject &nb, TestResult *r, QString *error)
{
    QJsonObject params;
    if (!json::readObject(nb, key("params"), &params, key("nicbench"), error, json::Need::Required) ||
        !TestParams::fromJson(params, &r->params, error))
        return false;
    r->version = valueOr(nb, key("version"), QString());
    r->remoteVersion = valueOr(nb, key("remote_version"), QString());
    r->isServerSide = valueOr(nb, key("role"), QString()) == QLatin1String("server");
    r->cpu.remoteKnown = valueOr(nb, key("remote_cpu_known"), false);
    for (const QJsonValue &w : valueOr(nb, key("warnings"), QJsonArray()))
        r->warnings.append(w.toString());
    if (nb.contains(key("rr"))) {
        if (!RrSummary::fromJson(valueOr(nb, key("rr"), QJsonObject()), &r->rr, error))
            return false;
        r->hasRr = true;
    }
    if (nb.contains(key("loaded_latency"))) {
        LoadedLatencyResult l;
        if (!LoadedLatencyResult::fromJson(valueOr(nb, key("loaded_latency"), QJsonObject()), &l, error))
            return false;
        r->loadedLatency = l;
    }
    // Both absent in documents from before the fairness figures.
    for (auto [name, spread] :
         {std::pair{"fairness", &r->fairness}, std::pair{"fairness_bidir_reverse", &r->fairnessBidirReverse}}) {
        if (!nb.contains(key(name)))
            continue;
        FlowSpread f;
        if (!FlowSpread::fromJson(valueOr(nb, key(name), QJsonObject()), &f, error))
            return false;
        *spread = f;
    }
    r->peerIsNicbench = valueOr(nb, key("peer_is_nicbench"), false);
    r->peerExtension = valueOr(nb, key("peer"), QJsonObject());
    readNicbenchCpuAndAdapters(nb, r);
    return true;
}

// A stock iperf3 document: take what its start block says about the test.
void readStockParams(const QJsonObject &start, TestResult *r)
{
    TestParams &p = r->params;
    const QJsonObject ts = valueOr(start, key("test_start"), QJsonObject());
    const auto maxStreams = std::int64_t(param::parameter(param::Id::Streams).max);
    p.streams = int(std::clamp<std::int64_t>(valueOr<std::int64_t>(ts, key("num_streams"), 1), 1, maxStreams));
    p.blockSize = std::uint32_t(
        std::clamp<std::int64_t>(valueOr<std::int64_t>(ts, key("blksize"), 131072), 1, proto::MaxBlockSize));
    p.duration = valueOr(ts, key("duration"), 10.0);
    p.omit = valueOr(ts, key("omit"), 0.0);
    if (valueOr<std::int64_t>(ts, key("reverse"), 0))
        p.direction = Direction::Download;
    if (valueOr<std::int64_t>(ts, key("bidir"), 0))
        p.direction = Direction::Bidirectional;
    const QJsonObject ct = valueOr(start, key("connecting_to"), QJsonObject());
    p.host = valueOr(ct, key("host"), QString());
    p.port = quint16(std::clamp<std::int64_t>(valueOr<std::int64_t>(ct, key("port"), 5201), 1, 65535));
    r->version = valueOr(start, key("version"), QString());
}

bool readStart(const QJsonObject &start, TestResult *r, QString *error)
{
    r->cookie = valueOr(start, key("cookie"), QString());
    r->systemInfo = valueOr(start, key("system_info"), QString());
    r->timestampSecs = valueOr<std::int64_t>(valueOr(start, key("timestamp"), QJsonObject()), key("timesecs"), 0);
    QJsonArray connected;
    if (!json::readArray(start, key("connected"), &connected, key("start"), error))
        return false;
    for (const QJsonValue &v : connected)
        r->connections.append(ConnectionInfo::fromJson(v.toObject()));
    return true;
}

bool readIntervals(const QJsonObject &root, TestResult *r, QString *error)
{
    QJsonArray intervals;
    if (!json::readArray(root, key("intervals"), &intervals, QString(), error))
        return false;
    for (const QJsonValue &v : intervals) {
        IntervalReport ir;
        if (!v.isObject())
            return json::fail(error, key("intervals[]"), QStringLiteral("must be an object"));
        if (!IntervalReport::fromJson(v.toObject(), &ir, error))
            return false;
        r->intervals.append(ir);
    }
    return true;
}

bool readEndStream(const QJsonValue &v, StreamSummary *s, QString *error)
{
    const QString w = QStringLiteral("end.streams[]");
    QJsonObject snd, rcv;
    if (!v.isObject())
        return json::fail(error, w, QStringLiteral("must be an object"));
    const QJsonObject pair = v.toObject();
    std::int64_t sent = 0, received = 0;
    if (!json::readObject(pair, key("sender"), &snd, w, error, json::Need::Required) ||
        !json::readObject(pair, key("receiver"), &rcv, w, error, json::Need::Required) ||
        !json::readInt64(snd, key("bytes"), &sent, json::path(w, key("sender")), error, json::Need::Required) ||
        !json::readInt64(rcv, key("bytes"), &received, json::path(w, key("receiver")), error, json::Need::Required))
        return false;
    s->seconds = valueOr(snd, key("seconds"), 0.0);
    if (s->seconds < 0)
        return json::fail(error, w + QStringLiteral(".sender.seconds"), QStringLiteral("must not be negative"));
    s->id = valueOr(snd, key("socket"), 0);
    s->sender = valueOr(snd, key("sender"), true);
    s->receiverSeconds = valueOr(rcv, key("seconds"), 0.0);
    s->bytesSent = std::uint64_t(sent);
    s->bytesReceived = std::uint64_t(received);
    s->retransmits = s->sender ? valueOr<std::int64_t>(snd, key("retransmits"), -1) : -1;
    s->maxCwndBytes = valueOr<std::int64_t>(snd, key("max_snd_cwnd"), -1);
    s->maxRttUs = valueOr<std::int64_t>(snd, key("max_rtt"), -1);
    s->minRttUs = valueOr<std::int64_t>(snd, key("min_rtt"), -1);
    s->meanRttUs = valueOr<std::int64_t>(snd, key("mean_rtt"), -1);
    return true;
}

bool readEnd(const QJsonObject &end, TestResult *r, QString *error)
{
    QJsonArray streams;
    if (!json::readArray(end, key("streams"), &streams, key("end"), error))
        return false;
    for (const QJsonValue &v : streams) {
        StreamSummary s;
        if (!readEndStream(v, &s, error))
            return false;
        if (const QString udp = udpresults::readEndStream(v.toObject(), &s); !udp.isEmpty())
            return json::fail(error, key("end"), udp);
        r->streams.append(s);
    }
    const bool remoteKnown = r->cpu.remoteKnown; // from the nicbench object, not this block
    r->cpu = CpuUtilization::fromJson(valueOr(end, key("cpu_utilization_percent"), QJsonObject()));
    r->cpu.remoteKnown = remoteKnown;
    r->senderCongestion = valueOr(end, key("sender_tcp_congestion"), QString());
    r->receiverCongestion = valueOr(end, key("receiver_tcp_congestion"), QString());
    return true;
}

} // namespace

QJsonObject sumJson(double start, double end, std::uint64_t bytes, std::int64_t retransmits, bool sender, bool omitted,
                    bool withRetransmits)
{
    QJsonObject o;
    const double secs = end - start;
    o.insert(key("start"), start);
    o.insert(key("end"), end);
    o.insert(key("seconds"), secs);
    o.insert(key("bytes"), double(bytes));
    o.insert(key("bits_per_second"), secs > 0 ? bytes * 8.0 / secs : 0.0);
    // Unknown (no TCP_INFO: Windows before 10 1703, wine) is left out, as iperf3 does.
    if (withRetransmits && retransmits >= 0)
        o.insert(key("retransmits"), double(retransmits));
    if (omitted)
        o.insert(key("omitted"), true);
    o.insert(key("sender"), sender);
    return o;
}

QJsonObject toJson(const TestResult &r)
{
    QJsonObject root;
    root.insert(key("start"), startJson(r));
    QJsonArray intervals;
    for (const IntervalReport &ir : r.intervals)
        intervals.append(ir.toJson());
    root.insert(key("intervals"), intervals);
    root.insert(key("end"), endJson(r));
    root.insert(key("nicbench"), nicbenchJson(r));
    if (!r.error.isEmpty())
        root.insert(key("error"), r.error);
    return root;
}

bool fromJson(const QJsonObject &root, TestResult *out, QString *error)
{
    TestResult r;
    QJsonObject start, end, nb;
    if (!readSection(root, "start", &start, error) || !readSection(root, "end", &end, error))
        return false;
    if (root.contains(key("nicbench"))) {
        if (!json::readObject(root, key("nicbench"), &nb, QString(), error) || !readNicbench(nb, &r, error))
            return false;
    } else {
        readStockParams(start, &r);
    }
    if (!readStart(start, &r, error) || !readIntervals(root, &r, error) || !readEnd(end, &r, error))
        return false;
    r.error = valueOr(root, key("error"), QString());
    r.errorCode =
        errorCodeFromName(valueOr(valueOr(root, key("nicbench"), QJsonObject()), key("error_code"), QString()));
    *out = r;
    return true;
}

QJsonObject cpuCostJson(const TestResult &r)
{
    QJsonObject o;
    if (r.localCpuKnown)
        o.insert(key("local"), r.localCpu.toJson());
    if (r.remoteCpuKnown) {
        o.insert(key("remote"), r.remoteCpu.toJson());
    } else if (r.cpu.remoteKnown) {
        // A stock iperf3 peer reports its own process only.
        o.insert(key("remote"), QJsonObject{{key("process_only"), true},
                                            {key("process_pct"), r.cpu.remoteTotal},
                                            {key("process_user_pct"), r.cpu.remoteUser},
                                            {key("process_system_pct"), r.cpu.remoteSystem}});
    }
    // The figures as measured (measureCpuCosts), with the clock of the machine that did the
    // work: writing the document elsewhere (a snapshot saved again) asks no clock.
    if (r.costs.local)
        r.costs.local->insertInto(&o, QStringLiteral("local"));
    if (r.costs.remote)
        r.costs.remote->insertInto(&o, QStringLiteral("remote"));
    o.insert(key("units"), QStringLiteral("*_pct: percent of all cores (system) or of one core (process); us_per_kb: "
                                          "CPU microseconds per 1024 bytes; see docs/cpu-cost.md"));
    return o;
}

} // namespace nb::iperf3json
