// SPDX-License-Identifier: GPL-3.0-or-later
// StreamSet's UDP bookkeeping: datagram counts per interval, after the warm-up, in the
// results exchange (iperf3's "jitter", "errors", "packets") and in the summaries.
#include "datapath/streamset.h"

#include <QJsonObject>

namespace nb {

UdpCounts StreamSet::udpCounts(const Entry &e)
{
    UdpCounts c;
    if (const UdpFlow *u = e.stream->udp()) {
        c.packets = u->packets();
        c.lost = u->lost();
        c.outOfOrder = u->outOfOrder();
        c.jitterSecs = u->jitterSecs();
    }
    return c;
}

std::uint64_t StreamSet::udpRejected() const
{
    std::uint64_t total = 0;
    for (const Entry &e : m_streams)
        if (const UdpFlow *u = e.stream->udp())
            total += u->rejected();
    return total;
}

void StreamSet::stopUdpCounting()
{
    for (Entry &e : m_streams) {
        if (e.stream->role() != DataStream::Role::UdpReceiver)
            continue;
        if (UdpFlow *u = e.stream->udp())
            u->stopCounting();
    }
}

void StreamSet::fillUdpInterval(Entry &e, StreamInterval *s)
{
    if (!e.stream->isUdp())
        return;
    const UdpCounts now = e.frozen ? e.udpFinal : udpCounts(e);
    s->udp = true;
    // Counts only grow, except the lost count, which an out-of-order arrival takes back.
    s->packets = now.packets - e.udpLast.packets;
    s->lostPackets = now.lost > e.udpLast.lost ? now.lost - e.udpLast.lost : 0;
    s->outOfOrder = now.outOfOrder - e.udpLast.outOfOrder;
    s->jitterMs = s->sender ? 0 : now.jitterSecs * 1000;
    e.udpLast = now;
}

void StreamSet::addUdpResults(const Entry &e, QJsonObject *s)
{
    if (!e.stream->isUdp())
        return;
    const UdpCounts &f = e.udpFinal, &b = e.udpBaseline;
    s->insert(QStringLiteral("packets"), double(f.packets - b.packets));
    if (!e.stream->isSender()) {
        s->insert(QStringLiteral("jitter"), f.jitterSecs);
        s->insert(QStringLiteral("errors"), double(f.lost > b.lost ? f.lost - b.lost : 0));
    }
}

void StreamSet::fillUdpSummary(const Entry &e, StreamSummary *s)
{
    if (!e.stream->isUdp())
        return;
    const UdpCounts &f = e.udpFinal, &b = e.udpBaseline;
    const std::uint64_t packets = f.packets - b.packets;
    s->udp = true;
    if (s->sender) {
        s->packetsSent = packets;
        s->packetsReceived = e.peerKnown ? e.peerUdp.packets : 0;
        s->lostPackets = e.peerKnown ? e.peerUdp.errors : 0;
        s->jitterMs = e.peerKnown ? e.peerUdp.jitterSecs * 1000 : 0;
    } else {
        s->packetsReceived = packets;
        s->packetsSent = e.peerKnown ? e.peerUdp.packets : packets;
        s->lostPackets = f.lost > b.lost ? f.lost - b.lost : 0;
        s->outOfOrder = f.outOfOrder - b.outOfOrder;
        s->jitterMs = f.jitterSecs * 1000;
    }
}

} // namespace nb
