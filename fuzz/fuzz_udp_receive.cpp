// SPDX-License-Identifier: GPL-3.0-or-later
// The UDP receive path: what a UDP stream's receiver (engine/datapath/udpstream.cpp,
// UdpFlow's receiving role) does with each datagram it reads, through udp::StreamReceiver:
// the header read (32- or 64-bit counters), the sequence number judged against what the
// sender can have sent by then (udp::plausibleSequence), loss, out-of-order and jitter
// counted. The input: one byte picking the test (counters, rate, datagram size), then
// datagrams, each as a 2-byte big-endian length, a 2-byte arrival step in milliseconds and
// the datagram's bytes. The counts must stay consistent whatever arrives.

#include "core/udpaccounting.h"

#include <QtEndian>

#include <cstdlib>

using namespace nb;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 1)
        return 0;
    const std::uint8_t shape = data[0];
    const bool wide = shape & 1;
    static constexpr double Rates[4] = {0, 1e6, 1e8, 1e10}; // -b 0 (unlimited), 1M, 100M, 10G
    static constexpr std::uint32_t Sizes[4] = {udp::MinDatagram, 1400, udp::DefaultDatagram, udp::MaxDatagram};
    const double rate = Rates[(shape >> 1) & 3];
    const std::uint32_t len = Sizes[(shape >> 3) & 3];
    const std::int64_t begin = 1'000'000'000;
    udp::StreamReceiver receiver(rate, len, wide, begin);
    std::int64_t now = begin;
    std::size_t pos = 1;
    std::uint64_t counted = 0;
    while (size - pos >= 4) {
        const std::size_t n = qFromBigEndian<quint16>(data + pos);
        now += std::int64_t(qFromBigEndian<quint16>(data + pos + 2)) * 1'000'000;
        pos += 4;
        const std::size_t take = std::min(n, size - pos);
        const std::uint64_t before = receiver.counter().packets();
        const udp::StreamReceiver::Verdict v = receiver.onDatagram(data + pos, take, now);
        pos += take;
        if (v == udp::StreamReceiver::Verdict::Counted)
            ++counted;
        const udp::ReceiveCounter &c = receiver.counter();
        // The packet count never passes what the sender can have sent, loss never passes the
        // numbers skipped, and a datagram not counted changes nothing.
        if (c.packets() > udp::plausibleSequence(rate, len, now - begin) || c.lost() > c.packets() ||
            c.outOfOrder() > counted || (v != udp::StreamReceiver::Verdict::Counted && c.packets() != before) ||
            !(c.jitterSecs() >= 0))
            std::abort();
    }
    return 0;
}
