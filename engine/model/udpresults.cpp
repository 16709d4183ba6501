// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/udpresults.h"

#include "core/jsonfields.h"

#include <algorithm>
#include <cmath>

namespace nb::udpresults {

namespace {

void insertLoss(QJsonObject *o, double jitterMs, std::uint64_t lost, std::uint64_t packets, double lostPercent)
{
    o->insert(QStringLiteral("jitter_ms"), jitterMs);
    o->insert(QStringLiteral("lost_packets"), double(lost));
    o->insert(QStringLiteral("packets"), double(packets));
    o->insert(QStringLiteral("lost_percent"), lostPercent);
}

std::uint64_t count(const QJsonObject &o, const char *k)
{
    const double v = json::valueOr(o, QLatin1String(k), 0.0);
    return v > 0 && v < 1.8e19 ? std::uint64_t(v) : 0;
}

// A jitter beyond an hour (1e308 showed as "0 us") is no measurement.
constexpr double MaxJitterMs = 3600.0 * 1000;

QString jitterProblem(const QJsonObject &o, double *jitterMs)
{
    const QJsonValue v = o.value(QStringLiteral("jitter_ms"));
    const double j = v.isDouble() ? v.toDouble() : 0;
    if (!std::isfinite(j) || j < 0 || j > MaxJitterMs)
        return QStringLiteral("a UDP jitter of %1 ms cannot be right").arg(j);
    *jitterMs = j;
    return {};
}

} // namespace

void addIntervalFields(QJsonObject *o, const StreamInterval &s)
{
    if (s.sender)
        o->insert(QStringLiteral("packets"), double(s.packets));
    else
        insertLoss(o, s.jitterMs, s.lostPackets, s.packets, s.lostPercent());
    o->insert(QStringLiteral("out_of_order"), double(s.outOfOrder));
}

QString readIntervalFields(const QJsonObject &o, StreamInterval *s)
{
    if (!o.contains(QStringLiteral("packets")))
        return {};
    s->udp = true;
    s->packets = count(o, "packets");
    s->lostPackets = count(o, "lost_packets");
    s->outOfOrder = count(o, "out_of_order");
    return jitterProblem(o, &s->jitterMs);
}

void addSumFields(QJsonObject *o, const IntervalSum &s)
{
    if (s.sender)
        o->insert(QStringLiteral("packets"), double(s.packets));
    else
        insertLoss(o, s.jitterMs, s.lostPackets, s.packets, s.lostPercent());
}

void addToSum(IntervalSum *sum, const StreamInterval &s)
{
    if (!s.udp)
        return;
    sum->udp = true;
    sum->packets += s.packets;
    sum->lostPackets += s.lostPackets;
    sum->outOfOrder += s.outOfOrder;
    sum->jitterMs += s.jitterMs;
    ++sum->udpStreams;
}

void finishSum(IntervalSum *sum)
{
    if (sum->udpStreams > 0)
        sum->jitterMs /= sum->udpStreams;
}

void addToSum(DirectionSum *sum, const StreamSummary &s)
{
    if (!s.udp)
        return;
    sum->udp = true;
    sum->packetsSent += s.packetsSent;
    sum->packetsReceived += s.packetsReceived;
    sum->lostPackets += s.lostPackets;
    sum->outOfOrder += s.outOfOrder;
    sum->jitterMs += s.jitterMs;
    ++sum->udpStreams;
}

void finishSum(DirectionSum *sum)
{
    if (sum->udpStreams > 0)
        sum->jitterMs /= sum->udpStreams;
}

QJsonObject endStreamJson(const StreamSummary &s)
{
    QJsonObject o;
    const double secs = s.sender ? s.seconds : (s.receiverSeconds > 0 ? s.receiverSeconds : s.seconds);
    const std::uint64_t bytes = s.sender ? s.bytesSent : s.bytesReceived;
    o.insert(QStringLiteral("socket"), s.id);
    o.insert(QStringLiteral("start"), 0);
    o.insert(QStringLiteral("end"), secs);
    o.insert(QStringLiteral("seconds"), secs);
    o.insert(QStringLiteral("bytes"), double(bytes));
    o.insert(QStringLiteral("bits_per_second"), secs > 0 ? bytes * 8.0 / secs : 0.0);
    insertLoss(&o, s.jitterMs, s.lostPackets, s.packetsReceived, s.lostPercent());
    o.insert(QStringLiteral("packets_sent"), double(s.packetsSent));
    o.insert(QStringLiteral("out_of_order"), double(s.outOfOrder));
    o.insert(QStringLiteral("sender"), s.sender);
    return o;
}

QString readEndStream(const QJsonObject &entry, StreamSummary *s)
{
    const QJsonValue v = entry.value(QStringLiteral("udp"));
    if (!v.isObject())
        return {};
    const QJsonObject o = v.toObject();
    s->udp = true;
    s->packetsReceived = count(o, "packets");
    s->packetsSent = o.contains(QStringLiteral("packets_sent")) ? count(o, "packets_sent") : s->packetsReceived;
    s->lostPackets = count(o, "lost_packets");
    s->outOfOrder = count(o, "out_of_order");
    // Lost datagrams were sent: more than were sent ("UDP loss 10,000,000,000,000 %") or
    // more than the datagrams the loss is a share of cannot be right.
    if (s->lostPackets > std::max(s->packetsSent, s->packetsReceived) + 64)
        return QStringLiteral("%1 UDP datagrams lost of %2 sent cannot be right")
            .arg(s->lostPackets)
            .arg(s->packetsSent);
    return jitterProblem(o, &s->jitterMs);
}

void addDirectionFields(QJsonObject *sent, QJsonObject *received, const DirectionSum &d)
{
    insertLoss(sent, 0, 0, d.packetsSent, 0);
    insertLoss(received, d.jitterMs, d.lostPackets, d.packetsReceived, d.lostPercent());
    received->insert(QStringLiteral("out_of_order"), double(d.outOfOrder));
    sent->insert(QStringLiteral("sender"), true);
    received->insert(QStringLiteral("sender"), false);
}

QJsonObject endSumJson(const DirectionSum &d, bool sender)
{
    QJsonObject o;
    o.insert(QStringLiteral("start"), 0);
    o.insert(QStringLiteral("end"), d.seconds);
    o.insert(QStringLiteral("seconds"), d.seconds);
    o.insert(QStringLiteral("bytes"), double(d.bytesSent));
    o.insert(QStringLiteral("bits_per_second"), d.sentBitsPerSecond());
    insertLoss(&o, d.jitterMs, d.lostPackets, d.packetsReceived, d.lostPercent());
    o.insert(QStringLiteral("sender"), sender);
    return o;
}

} // namespace nb::udpresults
