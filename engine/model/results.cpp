// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/results.h"

#include "core/jsonfields.h"
#include "model/iperf3json.h"
#include "model/udpresults.h"

#include <QJsonArray>

#include <algorithm>

namespace nb {

using json::Need;
using json::valueOr;

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
    if (udp)
        udpresults::addIntervalFields(&o, *this);
    return o;
}

bool StreamInterval::fromJson(const QJsonObject &o, StreamInterval *out, QString *error)
{
    const QString w = QStringLiteral("intervals[].streams[]");
    StreamInterval s;
    std::int64_t bytes = 0;
    // Stock iperf3 names the stream by "socket"; NicBench writes "id" as well.
    const QString idKey = o.contains(QStringLiteral("id")) ? QStringLiteral("id") : QStringLiteral("socket");
    if (!json::readInt(o, idKey, &s.id, w, error, Need::Required, -2147483647 - 1, 2147483647) ||
        !json::readDouble(o, QStringLiteral("start"), &s.start, w, error, Need::Required) ||
        !json::readDouble(o, QStringLiteral("end"), &s.end, w, error, Need::Required) ||
        !json::readInt64(o, QStringLiteral("bytes"), &bytes, w, error, Need::Required))
        return false;
    if (s.end < s.start)
        return json::fail(error, w, QStringLiteral("start %1 is after end %2").arg(s.start).arg(s.end));
    s.bytes = std::uint64_t(bytes);
    s.retransmits = valueOr<std::int64_t>(o, QStringLiteral("retransmits"), -1);
    s.cwndBytes = valueOr<std::int64_t>(o, QStringLiteral("snd_cwnd"), -1);
    s.rttUs = valueOr<std::int64_t>(o, QStringLiteral("rtt"), -1);
    s.rttVarUs = valueOr<std::int64_t>(o, QStringLiteral("rttvar"), -1);
    s.omitted = valueOr(o, QStringLiteral("omitted"), false);
    s.sender = valueOr(o, QStringLiteral("sender"), true);
    if (const QString udp = udpresults::readIntervalFields(o, &s); !udp.isEmpty())
        return json::fail(error, w, udp);
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
    const QString w = QStringLiteral("intervals[].rr");
    RrInterval r;
    std::int64_t tx = 0;
    if (!json::readDouble(o, QStringLiteral("start"), &r.start, w, error, Need::Required) ||
        !json::readDouble(o, QStringLiteral("end"), &r.end, w, error, Need::Required) ||
        !json::readInt64(o, QStringLiteral("transactions"), &tx, w, error, Need::Required) ||
        !LatencySummary::fromJson(valueOr(o, QStringLiteral("latency_us"), QJsonObject()), &r.latencyUs, error))
        return false;
    r.transactions = std::uint64_t(tx);
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
    if (fairness)
        o.insert(QStringLiteral("fairness"), fairness->toJson());
    if (crrStrangers)
        o.insert(QStringLiteral("crr_strangers"), double(*crrStrangers));
    if (udpLost)
        o.insert(QStringLiteral("udp_lost"), double(*udpLost));
    return o;
}

bool RrSummary::fromJson(const QJsonObject &o, RrSummary *out, QString *error)
{
    RrSummary r;
    r.kind = valueOr(o, QStringLiteral("mode"), QString()) == QLatin1String("crr") ? TestKind::Crr : TestKind::Rr;
    // Sizes and counts below 1 would divide by zero later; 1 is what iperf-style tools mean.
    const auto atLeastOne = [&o](const char *key) {
        return std::max<std::int64_t>(1, valueOr<std::int64_t>(o, QLatin1String(key), 1));
    };
    r.requestSize = std::uint32_t(atLeastOne("request_size"));
    r.responseSize = std::uint32_t(atLeastOne("response_size"));
    r.connections = int(atLeastOne("connections"));
    r.inFlight = int(atLeastOne("in_flight"));
    r.seconds = valueOr(o, QStringLiteral("seconds"), 0.0);
    const std::int64_t tx = valueOr<std::int64_t>(o, QStringLiteral("transactions"), -1);
    if (tx < 0 || r.seconds < 0)
        return json::fail(error, QString(), QStringLiteral("nicbench.rr needs non-negative transactions and seconds"));
    r.transactions = std::uint64_t(tx);
    if (const std::int64_t lost = valueOr<std::int64_t>(o, QStringLiteral("udp_lost"), -1); lost >= 0)
        r.udpLost = std::uint64_t(lost);
    if (const std::int64_t strangers = valueOr<std::int64_t>(o, QStringLiteral("crr_strangers"), -1); strangers >= 0)
        r.crrStrangers = std::uint64_t(strangers);
    if (!LatencySummary::fromJson(valueOr(o, QStringLiteral("latency_us"), QJsonObject()), &r.latencyUs, error))
        return false;
    if (o.contains(QStringLiteral("histogram_ns")) &&
        !LatencyHistogram::fromJson(valueOr(o, QStringLiteral("histogram_ns"), QJsonObject()), &r.histogram, error))
        return false;
    if (o.contains(QStringLiteral("fairness"))) {
        FlowSpread f;
        if (!FlowSpread::fromJson(valueOr(o, QStringLiteral("fairness"), QJsonObject()), &f, error))
            return false;
        r.fairness = f;
    }
    *out = r;
    return true;
}

QJsonObject IntervalSum::toJson() const
{
    QJsonObject o = iperf3json::sumJson(start, end, bytes, retransmits, sender, omitted, sender);
    if (udp)
        udpresults::addSumFields(&o, *this);
    return o;
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
        udpresults::addToSum(&s, st);
    }
    udpresults::finishSum(&s);
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
    const QString w = QStringLiteral("intervals[]");
    QJsonArray arr;
    if (!json::readArray(o, QStringLiteral("streams"), &arr, w, error, Need::Required))
        return false;
    IntervalReport r;
    for (const QJsonValue &v : arr) {
        StreamInterval s;
        if (!v.isObject())
            return json::fail(error, QStringLiteral("intervals[].streams[]"), QStringLiteral("must be an object"));
        if (!StreamInterval::fromJson(v.toObject(), &s, error))
            return false;
        r.streams.append(s);
    }
    if (o.contains(QStringLiteral("rr"))) {
        if (!RrInterval::fromJson(valueOr(o, QStringLiteral("rr"), QJsonObject()), &r.rr, error))
            return false;
        r.hasRr = true;
    }
    if (o.value(QStringLiteral("cpu")).isObject())
        r.hasCpu = CpuSample::fromJson(o.value(QStringLiteral("cpu")).toObject(), &r.cpu, error);
    *out = r;
    return true;
}

namespace {

using U = CpuUtilization;
const json::Field<U> kCpuUtilizationFields[] = {
    {"host_total", &U::hostTotal, Need::Tolerant},   {"host_user", &U::hostUser, Need::Tolerant},
    {"host_system", &U::hostSystem, Need::Tolerant}, {"remote_total", &U::remoteTotal, Need::Tolerant},
    {"remote_user", &U::remoteUser, Need::Tolerant}, {"remote_system", &U::remoteSystem, Need::Tolerant},
};

using C = ConnectionInfo;
const json::Field<C> kConnectionFields[] = {
    {"socket", &C::id, Need::Tolerant},
    {"local_host", &C::localHost, Need::Tolerant},
    {"remote_host", &C::remoteHost, Need::Tolerant},
};

using D = DrivenBy;
const json::Field<D> kDrivenByFields[] = {
    {"controller", &D::controller, Need::Tolerant},
    {"controller_host", &D::controllerHost, Need::Tolerant},
    {"agent", &D::agent, Need::Tolerant},
};

} // namespace

QJsonObject DrivenBy::toJson() const
{
    QJsonObject o;
    json::writeFields(*this, kDrivenByFields, &o);
    return o;
}

DrivenBy DrivenBy::fromJson(const QJsonObject &json)
{
    DrivenBy d;
    json::readFields(json, &d, kDrivenByFields, QString(), nullptr);
    for (QString *s : {&d.controller, &d.controllerHost, &d.agent})
        *s = s->left(255);
    return d;
}

QJsonObject CpuUtilization::toJson() const
{
    QJsonObject o;
    json::writeFields(*this, kCpuUtilizationFields, &o);
    return o;
}

CpuUtilization CpuUtilization::fromJson(const QJsonObject &json)
{
    CpuUtilization c;
    json::readFields(json, &c, kCpuUtilizationFields, QString(), nullptr);
    return c;
}

QJsonObject ConnectionInfo::toJson() const
{
    QJsonObject o;
    json::writeFields(*this, kConnectionFields, &o);
    o.insert(QStringLiteral("local_port"), localPort);
    o.insert(QStringLiteral("remote_port"), remotePort);
    return o;
}

ConnectionInfo ConnectionInfo::fromJson(const QJsonObject &json)
{
    ConnectionInfo c;
    json::readFields(json, &c, kConnectionFields, QString(), nullptr);
    c.localPort = quint16(valueOr(json, QStringLiteral("local_port"), 0));
    c.remotePort = quint16(valueOr(json, QStringLiteral("remote_port"), 0));
    return c;
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
        udpresults::addToSum(&d, s);
    }
    udpresults::finishSum(&d);
    return d;
}

const std::optional<FlowSpread> &TestResult::fairnessOf(bool clientSent) const
{
    return clientSent == !params.isReverse() ? fairness : fairnessBidirReverse;
}

void TestResult::computeStreamFairness()
{
    const auto spread = [this](bool clientSent) -> std::optional<FlowSpread> {
        const bool localSent = isServerSide ? !clientSent : clientSent;
        QList<double> perStream;
        for (const StreamSummary &s : std::as_const(streams)) {
            if (s.sender == localSent)
                perStream.append(double(localSent ? s.bytesSent : s.bytesReceived));
        }
        if (hasRr || perStream.isEmpty())
            return std::nullopt;
        return FlowSpread::fromSamples(perStream);
    };
    const bool primaryClientSent = !params.isReverse();
    fairness = spread(primaryClientSent);
    fairnessBidirReverse = spread(!primaryClientSent);
}

QJsonObject TestResult::toJson() const
{
    return iperf3json::toJson(*this);
}

bool TestResult::fromJson(const QJsonObject &json, TestResult *out, QString *error)
{
    return iperf3json::fromJson(json, out, error);
}

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

HostEnvironment remoteHostFromResults(const QList<TestResult> &results)
{
    HostEnvironment e;
    for (const TestResult &r : results) {
        if (!r.peerIsNicbench && !r.remoteAdapter && !r.remoteCpuKnown && !r.remoteHost)
            continue;
        e.known = true;
        if (r.remoteHost) {
            const HostEnvironment &h = *r.remoteHost;
            auto take = [](QString *to, const QString &from) {
                if (!from.isEmpty())
                    *to = from;
            };
            take(&e.hostName, h.hostName);
            take(&e.os, h.os);
            take(&e.kernel, h.kernel);
            take(&e.cpuModel, h.cpuModel);
            take(&e.nicbenchVersion, h.nicbenchVersion);
            if (h.cpuCount > 0)
                e.cpuCount = h.cpuCount;
            if (h.cpuClockHz > 0)
                e.cpuClockHz = h.cpuClockHz;
        }
        if (!r.remoteVersion.isEmpty())
            e.nicbenchVersion = r.remoteVersion;
        if (r.remoteCpuKnown && r.remoteCpu.cpuCount > 0)
            e.cpuCount = r.remoteCpu.cpuCount;
        if (r.remoteAdapter) {
            bool seen = false;
            for (const AdapterInfo &a : e.adapters)
                seen = seen || a.name == r.remoteAdapter->name;
            if (!seen)
                e.adapters.append(*r.remoteAdapter);
        }
    }
    return e;
}

} // namespace nb
