// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// UDP results with known figures for the comparison and snapshot tests: a UDP stream with
// its datagram counts, loss and jitter per stream and per interval, as the engine writes
// them, and UDP request/response with its lost requests.

#include <model/results.h>

#include <cmath>
#include <cstdint>

namespace udpdata {

using namespace nb;

struct StreamLevels {
    double offeredBps = 100e6; // -b
    double lossPct = 0.5;      // of the datagrams sent
    double jitterMs = 0.02;
    std::uint32_t datagram = 1448;
    int seconds = 4;
    double cpuPct = 12;
    bool reverse = false; // -R: this side receives, its intervals carry loss and jitter
};

// One UDP stream: the receiver counts `total` datagrams (the highest sequence number),
// `lost` of them never arrived; the goodput is the rest. As in the engine's results, the
// sender's intervals count datagrams only, the receiver's also loss and jitter.
inline TestResult streamResult(const StreamLevels &l, int seed)
{
    TestResult r;
    r.params.udp = true;
    r.params.bandwidth = std::uint64_t(l.offeredBps);
    r.params.blockSize = l.datagram;
    r.params.duration = l.seconds;
    r.params.streams = 1;
    r.params.direction = l.reverse ? Direction::Download : Direction::Upload;
    const double wobble = 1 + 0.01 * std::sin(seed * 1.3);
    const std::uint64_t perSecond = std::uint64_t(l.offeredBps / 8 / l.datagram);
    StreamSummary s;
    s.id = 5;
    s.udp = true;
    s.sender = !l.reverse;
    s.seconds = s.receiverSeconds = l.seconds;
    for (int i = 0; i < l.seconds; ++i) {
        IntervalReport ir;
        StreamInterval si;
        si.id = 5;
        si.start = i;
        si.end = i + 1;
        si.udp = true;
        si.sender = !l.reverse;
        si.packets = perSecond;
        const std::uint64_t lost = std::uint64_t(double(perSecond) * l.lossPct / 100 * wobble * (1 + 0.1 * (i % 2)));
        const std::uint64_t outOfOrder = std::uint64_t(i % 2);
        si.bytes = perSecond * l.datagram;
        if (l.reverse) {
            si.lostPackets = lost;
            si.outOfOrder = outOfOrder;
            si.jitterMs = l.jitterMs * wobble * (1 + 0.05 * i);
            si.bytes -= lost * l.datagram;
        }
        ir.streams.append(si);
        r.intervals.append(ir);
        s.packetsSent += si.packets;
        s.packetsReceived += si.packets;
        s.lostPackets += lost;
        s.outOfOrder += outOfOrder;
    }
    s.jitterMs = l.jitterMs * wobble;
    s.bytesSent = s.packetsSent * l.datagram;
    s.bytesReceived = (s.packetsReceived - s.lostPackets) * l.datagram;
    r.streams.append(s);
    r.localCpuKnown = true;
    r.localCpu.end = l.seconds;
    r.localCpu.cpuCount = 4;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = l.cpuPct * wobble;
    return r;
}

// UDP request/response: `transactions` answered in `seconds`, `lost` requests timed out.
inline TestResult rrResult(std::uint64_t transactions, std::uint64_t lost, double p50Us, int seed)
{
    TestResult r;
    r.params.udp = true;
    r.params.kind = TestKind::Rr;
    r.params.duration = 4;
    r.hasRr = true;
    r.rr.seconds = 4;
    r.rr.transactions = transactions + std::uint64_t(seed % 3) * 100;
    r.rr.udpLost = lost;
    for (int i = 0; i < 1000; ++i)
        r.rr.histogram.record(
            std::int64_t(p50Us * 1000 * (0.8 + 0.4 * ((i * 37 + seed) % 100) / 100.0) * (i % 100 == 99 ? 3 : 1)));
    r.rr.latencyUs = r.rr.histogram.summary();
    for (int i = 0; i < 4; ++i) {
        IntervalReport ir;
        ir.hasRr = true;
        ir.rr.start = i;
        ir.rr.end = i + 1;
        ir.rr.transactions = r.rr.transactions / 4;
        ir.rr.latencyUs = r.rr.latencyUs;
        r.intervals.append(ir);
    }
    r.localCpuKnown = true;
    r.localCpu.end = 4;
    r.localCpu.cpuCount = 4;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = 20 + seed % 3;
    return r;
}

} // namespace udpdata
