// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/udpaccounting.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace nb::udp {

namespace {

void putU32(unsigned char *p, std::uint32_t v)
{
    p[0] = static_cast<unsigned char>(v >> 24);
    p[1] = static_cast<unsigned char>(v >> 16);
    p[2] = static_cast<unsigned char>(v >> 8);
    p[3] = static_cast<unsigned char>(v);
}

std::uint32_t getU32(const unsigned char *p)
{
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

} // namespace

bool isConnectReply(const unsigned char *bytes, std::size_t size)
{
    if (size != 4)
        return false;
    if (std::memcmp(bytes, ConnectReply, 4) == 0)
        return true;
    // Legacy 987654321 in either byte order (older servers wrote the integer raw).
    const std::uint32_t be = getU32(bytes);
    const std::uint32_t le = std::uint32_t(bytes[0]) | (std::uint32_t(bytes[1]) << 8) |
                             (std::uint32_t(bytes[2]) << 16) | (std::uint32_t(bytes[3]) << 24);
    return be == 987654321u || le == 987654321u;
}

void writeHeader(unsigned char *out, std::int64_t sentNs, std::uint64_t sequence, bool wideCounters)
{
    const std::int64_t sec = sentNs / 1'000'000'000;
    const std::int64_t usec = (sentNs % 1'000'000'000) / 1000;
    putU32(out, std::uint32_t(sec));
    putU32(out + 4, std::uint32_t(usec));
    if (wideCounters) {
        putU32(out + 8, std::uint32_t(sequence >> 32));
        putU32(out + 12, std::uint32_t(sequence));
    } else {
        putU32(out + 8, std::uint32_t(sequence));
    }
}

bool readHeader(const unsigned char *in, std::size_t size, bool wideCounters, Header *out)
{
    if (size < headerSize(wideCounters))
        return false;
    out->sentSecs = getU32(in) + getU32(in + 4) / 1e6;
    out->sequence = wideCounters ? (std::uint64_t(getU32(in + 8)) << 32) | getU32(in + 12) : getU32(in + 8);
    return true;
}

void ReceiveCounter::onDatagram(std::uint64_t sequence, double transitSecs)
{
    if (sequence > m_highest) {
        if (sequence > m_highest + 1)
            m_lost += sequence - 1 - m_highest;
        m_highest = sequence;
    } else {
        ++m_outOfOrder;
        if (m_lost > 0)
            --m_lost;
    }
    // The first datagram has no predecessor to differ from.
    if (!m_first) {
        const double d = std::fabs(transitSecs - m_prevTransit);
        m_jitter += (d - m_jitter) / 16.0;
    }
    m_first = false;
    m_prevTransit = transitSecs;
}

Pacer::Pacer(double bitsPerSecond, std::uint32_t datagramBytes, std::int64_t pacingTimerNs)
    : m_intervalNs(bitsPerSecond > 0 ? datagramBytes * 8.0 * 1e9 / bitsPerSecond : 0)
    , m_timerNs(std::max<std::int64_t>(0, pacingTimerNs))
{
}

void Pacer::start(std::int64_t nowNs)
{
    m_start = nowNs;
    m_sent = 0;
    m_forgiven = 0;
}

std::uint64_t plausibleSequence(double bitsPerSecond, std::uint32_t bytes, std::int64_t elapsedNs)
{
    const double rate =
        bitsPerSecond > 0 ? std::min(bitsPerSecond, MaxPlausibleBitsPerSecond) : MaxPlausibleBitsPerSecond;
    const double seconds = double(std::max<std::int64_t>(0, elapsedNs) + SequenceSkewNs) / 1e9;
    const double datagrams = seconds * rate * 1.25 / (8.0 * double(std::max(bytes, MinDatagram)));
    return std::uint64_t(std::min(datagrams, 1e18)) + SequenceSlack;
}

StreamReceiver::StreamReceiver(double bitsPerSecond, std::uint32_t datagramBytes, bool wideCounters,
                               std::int64_t beginNs)
    : m_bitsPerSecond(bitsPerSecond)
    , m_datagramBytes(datagramBytes)
    , m_wideCounters(wideCounters)
    , m_beginNs(beginNs)
{
}

StreamReceiver::Verdict StreamReceiver::onDatagram(const unsigned char *data, std::size_t size, std::int64_t nowNs)
{
    Header h;
    if (!readHeader(data, size, m_wideCounters, &h))
        return Verdict::NoHeader;
    if (h.sequence > plausibleSequence(m_bitsPerSecond, m_datagramBytes, nowNs - m_beginNs)) {
        ++m_rejected;
        return Verdict::Implausible;
    }
    m_counter.onDatagram(h.sequence, double(nowNs) / 1e9 - h.sentSecs);
    return Verdict::Counted;
}

std::uint64_t Pacer::due(std::int64_t nowNs, std::uint64_t maxBurst, std::int64_t *waitNs)
{
    *waitNs = 0;
    if (unlimited())
        return maxBurst;
    const double elapsed = double(nowNs - m_start);
    // Datagrams the schedule allows by now (the first is due at start).
    auto allowed = std::uint64_t(std::max(0.0, elapsed) / m_intervalNs) + 1;
    const std::uint64_t done = m_sent + m_forgiven;
    const auto debtCap = std::uint64_t(std::max(1.0, MaxDebtNs / m_intervalNs));
    if (allowed > done + debtCap) {
        m_forgiven += allowed - done - debtCap;
        allowed = m_sent + m_forgiven + debtCap;
    }
    const std::uint64_t scheduled = m_sent + m_forgiven;
    if (allowed > scheduled)
        return std::min(allowed - scheduled, maxBurst);
    const double nextAt = double(scheduled) * m_intervalNs;
    *waitNs = std::max<std::int64_t>(std::int64_t(std::ceil(nextAt - elapsed)), std::max<std::int64_t>(1, m_timerNs));
    return 0;
}

} // namespace nb::udp
