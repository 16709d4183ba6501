// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/peerresults.h"

#include "core/units.h"
#include "model/results.h"
#include "protocol/protocol.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <climits>
#include <cmath>
#include <functional>

namespace nb {

namespace {

// A CPU sample's start and end are seconds since the test began: a year is absurd.
constexpr double MaxSampleSeconds = 365.0 * 24 * 3600;

bool fail(QString *error, const QString &message)
{
    if (error)
        *error = QStringLiteral("the peer's results cannot be right: %1").arg(message);
    return false;
}

// A number field in [min, max]; absent is fine when not required (then *present is false).
bool numberIn(const QJsonObject &o, const QString &key, double min, double max, bool required, double *out,
              bool *present, QString *why)
{
    const QJsonValue v = o.value(key);
    if (present)
        *present = !v.isUndefined() && !v.isNull();
    if (v.isUndefined() || v.isNull()) {
        if (required)
            *why = QStringLiteral("'%1' is missing").arg(key);
        return !required;
    }
    const std::optional<double> d = proto::toDouble(v);
    if (!d) {
        *why = QStringLiteral("'%1' is not a finite number").arg(key);
        return false;
    }
    if (*d < min || *d > max) {
        *why = QStringLiteral("'%1' is %2, outside %3 to %4").arg(key).arg(*d).arg(min).arg(max);
        return false;
    }
    if (out)
        *out = *d;
    return true;
}

// One CPU sample of our extension (platform/cpumonitor.h): system-wide figures are % of
// all cores (0..100), the process's % of one core (0..100 x cores).
bool cpuSampleSound(const QJsonObject &o, QString *why)
{
    double cores = 0;
    if (!numberIn(o, QStringLiteral("cpu_count"), 0, peer::MaxCores, false, &cores, nullptr, why))
        return false;
    // Twice what the cores can give: a process's CPU time and the interval's wall time are
    // read at slightly different moments, so a short interval of a busy process passes
    // cores x 100 (210.5% on 2 cores was seen under ThreadSanitizer). The check is for
    // absurd figures, not imprecise ones.
    double processMax = 100.0 * (cores >= 1 ? cores : peer::MaxCores) * 2;
    // The two readings can also be a host's scheduling delay apart: a TCG guest (docs/lab.md)
    // whose vCPU waits on a loaded host read 826% for a short last interval. So a short interval
    // may carry up to 0.25 CPU-seconds more than its length allows; a second-long one 25%.
    const double wall = o.value(QStringLiteral("end")).toDouble() - o.value(QStringLiteral("start")).toDouble();
    if (wall > 0)
        processMax += 100.0 * 0.25 / wall;
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        if (!it.value().isDouble())
            continue; // the sample's reader refuses what is not a number
        const QString &key = it.key();
        const bool isTime = key == QLatin1String("start") || key == QLatin1String("end");
        const double max = key.startsWith(QLatin1String("process")) ? processMax
                           : key.endsWith(QLatin1String("_pct"))    ? 100.5
                           : isTime                                 ? MaxSampleSeconds
                                                                    : peer::MaxCores;
        if (!numberIn(o, key, 0, max, false, nullptr, nullptr, why))
            return false;
    }
    return true;
}

// A UDP stream's datagram figures against what this side counted: a receiver's loss within
// its packets and its packets within what we sent; a sender's packets within its bytes.
bool udpFiguresSound(const PeerStreamFigures &f, const LocalStreamView &local, QString *why)
{
    if (f.errors > f.packets) {
        *why = QStringLiteral("reports %1 datagrams lost of %2").arg(f.errors).arg(f.packets);
        return false;
    }
    const std::uint64_t maxPackets = local.weSent ? local.datagrams + local.datagrams / 100 + peer::DatagramSlack
                                                  : f.bytes / peer::MinDatagramBytes + peer::DatagramSlack;
    if (f.packets > maxPackets) {
        *why = local.weSent ? QStringLiteral("reports %1 datagrams received or lost; this side sent %2")
                                  .arg(f.packets)
                                  .arg(local.datagrams)
                            : QStringLiteral("reports %1 datagrams sent in %2 bytes").arg(f.packets).arg(f.bytes);
        return false;
    }
    return true;
}

} // namespace

bool checkPeerResults(const QJsonObject &json, const QList<LocalStreamView> &local, double localSeconds,
                      PeerFigures *out, QString *error)
{
    PeerFigures figures;
    QString why;
    const double cpuMax = 100.0 * peer::MaxCores;
    bool hasTotal = false;
    if (!numberIn(json, QStringLiteral("cpu_util_total"), 0, cpuMax, false, &figures.cpuTotal, &hasTotal, &why) ||
        !numberIn(json, QStringLiteral("cpu_util_user"), 0, cpuMax, false, &figures.cpuUser, nullptr, &why) ||
        !numberIn(json, QStringLiteral("cpu_util_system"), 0, cpuMax, false, &figures.cpuSystem, nullptr, &why))
        return fail(error, why);
    figures.cpuKnown = hasTotal;
    const QJsonValue sv = json.value(QStringLiteral("streams"));
    if (!sv.isArray())
        return fail(error, QStringLiteral("no 'streams' array"));
    const QJsonArray arr = sv.toArray();
    if (arr.size() > local.size())
        return fail(error, QStringLiteral("%1 streams reported, this side has %2").arg(arr.size()).arg(local.size()));
    const double seconds = std::isfinite(localSeconds) && localSeconds > 0 ? localSeconds : 0;
    const double maxSeconds = seconds + peer::SecondsSlack;
    // By id: 10,000 connections make a quadratic search cost seconds.
    QHash<int, qsizetype> localById;
    localById.reserve(local.size());
    for (qsizetype i = 0; i < local.size(); ++i)
        localById.insert(local.at(i).id, i);
    QSet<int> seen;
    for (const QJsonValue &v : arr) {
        if (!v.isObject())
            return fail(error, QStringLiteral("a stream entry is not an object"));
        const QJsonObject s = v.toObject();
        const auto id = proto::toInt64(s.value(QStringLiteral("id")));
        const auto bytes = proto::toInt64(s.value(QStringLiteral("bytes")));
        if (!id || !bytes || *bytes < 0)
            return fail(error, QStringLiteral("a stream needs numeric 'id' and 'bytes'"));
        const auto found = *id >= INT_MIN && *id <= INT_MAX ? localById.constFind(int(*id)) : localById.constEnd();
        if (found == localById.constEnd())
            return fail(error, QStringLiteral("they name stream %1, which this side does not have").arg(*id));
        if (seen.contains(int(*id)))
            return fail(error, QStringLiteral("stream %1 is reported twice").arg(*id));
        seen.insert(int(*id));
        const LocalStreamView *it = &local.at(*found);
        PeerStreamFigures f;
        f.id = int(*id);
        f.bytes = std::uint64_t(*bytes);
        // What the peer received on a stream we sent on cannot exceed what we sent; what it
        // sent to us is bounded by the fastest link there is.
        const std::uint64_t maxBytes = it->weSent
                                           ? it->totalBytes + it->totalBytes / 100 + peer::ReceiveMargin
                                           : std::uint64_t(peer::MaxBytesPerSecond * maxSeconds) + peer::MaxBytesSlack;
        if (f.bytes > maxBytes)
            return fail(error, QStringLiteral("stream %1 claims %2 %3, more than can have moved (%4 at most)")
                                   .arg(f.id)
                                   .arg(f.bytes)
                                   .arg(it->weSent ? QStringLiteral("received") : QStringLiteral("sent"))
                                   .arg(maxBytes));
        const QJsonValue rv = s.value(QStringLiteral("retransmits"));
        if (!rv.isUndefined() && !rv.isNull()) {
            const auto r = proto::toInt64(rv);
            if (!r || *r < -1)
                return fail(error, QStringLiteral("stream %1 has retransmits %2").arg(f.id).arg(rv.toDouble()));
            f.retransmits = *r;
        }
        if (!numberIn(s, QStringLiteral("start_time"), 0, maxSeconds, false, nullptr, nullptr, &why) ||
            !numberIn(s, QStringLiteral("end_time"), 0, maxSeconds, false, &f.seconds, nullptr, &why))
            return fail(error, QStringLiteral("stream %1: %2").arg(f.id).arg(why));
        // UDP figures: a jitter beyond an hour or more datagrams than bytes is no measurement.
        double errors = 0, packets = 0;
        const double maxPackets = double(std::max<std::uint64_t>(f.bytes, maxBytes)) + 1;
        if (!numberIn(s, QStringLiteral("jitter"), 0, 3600, false, &f.jitterSecs, nullptr, &why) ||
            !numberIn(s, QStringLiteral("errors"), 0, maxPackets, false, &errors, nullptr, &why) ||
            !numberIn(s, QStringLiteral("packets"), 0, maxPackets, false, &packets, nullptr, &why))
            return fail(error, QStringLiteral("stream %1: %2").arg(f.id).arg(why));
        f.errors = std::uint64_t(errors);
        f.packets = std::uint64_t(packets);
        if (it->udp && !udpFiguresSound(f, *it, &why))
            return fail(error, QStringLiteral("stream %1 %2").arg(f.id).arg(why));
        figures.streams.append(f);
    }
    for (const LocalStreamView &l : local) {
        if (!seen.contains(l.id))
            return fail(error, QStringLiteral("stream %1 is missing").arg(l.id));
    }
    if (json.contains(QStringLiteral("nicbench"))) {
        if (!json.value(QStringLiteral("nicbench")).isObject())
            return fail(error, QStringLiteral("'nicbench' is not an object"));
        if (!checkPeerExtension(json.value(QStringLiteral("nicbench")).toObject(), error))
            return false;
    }
    if (out)
        *out = figures;
    return true;
}

bool checkPeerExtension(const QJsonObject &extension, QString *error)
{
    QString why;
    if (!numberIn(extension, QStringLiteral("transactions"), 0, 1e15, false, nullptr, nullptr, &why))
        return fail(error, why);
    const QJsonValue cpu = extension.value(QStringLiteral("cpu"));
    if (cpu.isObject() && !cpuSampleSound(cpu.toObject(), &why))
        return fail(error, QStringLiteral("its CPU figures: %1").arg(why));
    const QJsonValue intervals = extension.value(QStringLiteral("cpu_intervals"));
    if (!intervals.isUndefined() && !intervals.isArray())
        return fail(error, QStringLiteral("'cpu_intervals' is not a list"));
    const QJsonArray list = intervals.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (list.at(i).isObject() && !cpuSampleSound(list.at(i).toObject(), &why))
            return fail(error, QStringLiteral("its CPU interval %1: %2").arg(i + 1).arg(why));
    }
    return true;
}

bool capJsonText(QJsonObject *object, int maxLength, int maxItems)
{
    bool cut = false;
    std::function<QJsonValue(const QJsonValue &)> capValue = [&](const QJsonValue &v) -> QJsonValue {
        if (v.isString()) {
            const QString s = v.toString();
            if (s.size() <= maxLength)
                return v;
            cut = true;
            return s.left(maxLength);
        }
        if (v.isArray()) {
            QJsonArray a = v.toArray();
            if (a.size() > maxItems) {
                cut = true;
                while (a.size() > maxItems)
                    a.removeLast();
            }
            for (qsizetype i = 0; i < a.size(); ++i)
                a[i] = capValue(a.at(i));
            return a;
        }
        if (v.isObject()) {
            QJsonObject o = v.toObject();
            for (auto it = o.begin(); it != o.end(); ++it)
                it.value() = capValue(it.value());
            return o;
        }
        return v;
    };
    // Keys are text too: a key longer than the cap is dropped with its value.
    QJsonObject capped;
    for (auto it = object->constBegin(); it != object->constEnd(); ++it) {
        if (it.key().size() > maxLength) {
            cut = true;
            continue;
        }
        capped.insert(it.key(), capValue(it.value()));
    }
    *object = capped;
    return cut;
}

QJsonObject capPeerExtension(const QJsonObject &extension, int maxIntervals, QString *note)
{
    QJsonObject o = extension;
    QStringList cut;
    const QJsonArray intervals = o.value(QStringLiteral("cpu_intervals")).toArray();
    if (intervals.size() > std::max(0, maxIntervals)) {
        QJsonArray kept;
        for (qsizetype i = 0; i < maxIntervals; ++i)
            kept.append(intervals.at(i));
        o.insert(QStringLiteral("cpu_intervals"), kept);
        cut.append(QStringLiteral("kept %1 of its %2 CPU intervals (this side took %1)")
                       .arg(maxIntervals)
                       .arg(intervals.size()));
    }
    // The CPU intervals were counted above; every other list and text is capped here.
    const QJsonValue keptIntervals = o.take(QStringLiteral("cpu_intervals"));
    if (capJsonText(&o, peer::MaxTextLength, peer::MaxListItems))
        cut.append(QStringLiteral("cut texts to %1 characters and lists to %2 items")
                       .arg(peer::MaxTextLength)
                       .arg(peer::MaxListItems));
    if (!keptIntervals.isUndefined())
        o.insert(QStringLiteral("cpu_intervals"), keptIntervals);
    if (note)
        *note = cut.isEmpty() ? QString()
                              : QStringLiteral("The peer's results were larger than this test can have made: %1.")
                                    .arg(cut.join(QStringLiteral("; ")));
    return o;
}

QString transactionsBeyondPeer(const TestResult &r, const QJsonObject &peerExtension)
{
    const QJsonValue v = peerExtension.value(QStringLiteral("transactions"));
    const std::optional<double> theirs = proto::toDouble(v);
    if (!r.hasRr || !theirs || *theirs < 0)
        return {};
    const std::uint64_t inFlight =
        std::uint64_t(std::max(1, r.params.connections())) * std::uint64_t(std::max(1, r.params.inFlight));
    const double most = *theirs + double(inFlight + peer::TransactionSlack);
    if (double(r.rr.transactions) <= most)
        return {};
    return QStringLiteral("the peer's results cannot be right: this side completed %1 transactions, but the server "
                          "answered %2 (responses nobody asked for?)")
        .arg(r.rr.transactions)
        .arg(std::uint64_t(*theirs));
}

QString implausibleResult(const TestResult &r)
{
    if (!r.error.isEmpty())
        return {};
    if (r.params.isRequestResponse()) {
        if (!r.hasRr || r.rr.transactions == 0)
            return QStringLiteral("no transaction completed: the %1 test has no result")
                .arg(r.params.kind == TestKind::Crr ? QStringLiteral("connect/request/response")
                                                    : QStringLiteral("request/response"));
        return {};
    }
    if (r.streams.isEmpty())
        return QStringLiteral("no data stream ran: the test has no result");
    // Each direction the test ran must have delivered something (iperf2 servers report
    // nothing back: there only what was sent is known).
    const bool iperf2 = r.params.protocol == PeerProtocol::Iperf2;
    // Latency under load loads only the directions its phases name ("idle,upload" never
    // downloads); its probe is checked with the phases (test/loadphasetracker.h).
    const QList<LoadPhase> phases = r.params.loadSchedule().phases();
    const auto loaded = [&](bool clientSends) {
        return !r.params.isLoadedLatency() || std::any_of(phases.begin(), phases.end(), [&](LoadPhase p) {
            return clientSends ? clientSendsIn(p) : serverSendsIn(p);
        });
    };
    for (const bool localSent : {true, false}) {
        if (!loaded(localSent != r.isServerSide))
            continue;
        std::uint64_t delivered = 0;
        bool any = false;
        for (const StreamSummary &s : r.streams) {
            if (s.sender != localSent)
                continue;
            any = true;
            delivered += iperf2 ? s.bytesSent : s.bytesReceived;
        }
        if (any && delivered == 0)
            return QStringLiteral("no data arrived %1: 0 bytes received, so the test has no result")
                .arg(localSent == !r.isServerSide ? QStringLiteral("from the client to the server")
                                                  : QStringLiteral("from the server to the client"));
    }
    return {};
}

} // namespace nb
