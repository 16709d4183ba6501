// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// iperf3's UDP mode without sockets: the datagram header, the receiver's sequence and
// jitter bookkeeping, and the sender's pacing schedule. Pure functions and small classes
// that take the time as an argument, so tests drive them with made-up clocks.
//
// Header (network byte order), as iperf3 3.12 writes it at the start of every datagram:
//   32-bit counters: sec (u32), usec (u32), sequence (u32)     12 bytes
//   --udp-counters-64bit: sec (u32), usec (u32), sequence (u64) 16 bytes
// The time is the sender's monotonic clock (only differences between datagrams matter:
// jitter needs no synchronized clocks, one-way delay would, and is not claimed).

#include <cstddef>
#include <cstdint>

namespace nb::udp {

// Smallest and largest datagram payload iperf3 accepts (-l with -u), and its default when
// the control connection's MSS is unknown.
constexpr std::uint32_t MinDatagram = 16;
constexpr std::uint32_t MaxDatagram = 65507;
constexpr std::uint32_t DefaultDatagram = 1460;
// The 4-byte messages of the UDP "connect": the client's first datagram and the server's
// answer, as 3.12 puts them on the wire (the integers 0x36373839 / 0x39383736 written
// little-endian). The legacy values (123456789 / 987654321) are accepted on reading.
constexpr unsigned char ConnectMessage[4] = {0x39, 0x38, 0x37, 0x36};
constexpr unsigned char ConnectReply[4] = {0x36, 0x37, 0x38, 0x39};
bool isConnectReply(const unsigned char *bytes, std::size_t size);

constexpr std::size_t headerSize(bool wideCounters)
{
    return wideCounters ? 16 : 12;
}
// Writes the header for a datagram sent at sentNs (monotonic nanoseconds).
void writeHeader(unsigned char *out, std::int64_t sentNs, std::uint64_t sequence, bool wideCounters);
struct Header {
    double sentSecs = 0; // sec + usec / 1e6
    std::uint64_t sequence = 0;
};
// False when the datagram is shorter than the header.
bool readHeader(const unsigned char *in, std::size_t size, bool wideCounters, Header *out);

// The highest sequence number the sender of one stream can have reached `elapsedNs` after
// the receiver began, pacing at bitsPerSecond (0: unlimited, taken as
// MaxPlausibleBitsPerSecond) with datagrams of `bytes`: the schedule's count and a quarter
// more, SequenceSkewNs of start skew between the two ends, and SequenceSlack datagrams of
// bursts (docs/protocol.md, "UDP"). A datagram numbered beyond it is not the test's (forged
// or misdirected): the receiver drops it rather than count the gap as loss (issue 30, M3).
constexpr double MaxPlausibleBitsPerSecond = 1e12;
constexpr std::int64_t SequenceSkewNs = 1'000'000'000;
constexpr std::uint64_t SequenceSlack = 1024;
std::uint64_t plausibleSequence(double bitsPerSecond, std::uint32_t bytes, std::int64_t elapsedNs);

// What the receiving side of one stream knows, updated per datagram as iperf3 does:
// the highest sequence number seen is the packet count; a gap counts its missing numbers
// as lost; a datagram older than the highest is out of order and takes one back from the
// lost count (it was counted lost when the gap opened). Jitter is RFC 1889's smoothed
// mean deviation of the transit time: J += (|D| - J) / 16.
class ReceiveCounter {
public:
    void onDatagram(std::uint64_t sequence, double transitSecs);
    std::uint64_t packets() const { return m_highest; }
    std::uint64_t lost() const { return m_lost; }
    std::uint64_t outOfOrder() const { return m_outOfOrder; }
    double jitterSecs() const { return m_jitter; }

private:
    std::uint64_t m_highest = 0;
    std::uint64_t m_lost = 0;
    std::uint64_t m_outOfOrder = 0;
    double m_jitter = 0;
    double m_prevTransit = 0;
    bool m_first = true;
};

// One stream's receiver, datagram by datagram: the header read, the sequence number judged
// (plausibleSequence from `beginNs`, when the receiver began) and the datagram counted, or
// not. What UdpFlow's receiving role does with each datagram it reads, without the socket.
class StreamReceiver {
public:
    enum class Verdict { Counted, NoHeader, Implausible };
    StreamReceiver(double bitsPerSecond, std::uint32_t datagramBytes, bool wideCounters, std::int64_t beginNs);
    // nowNs: the arrival, on the clock of beginNs.
    Verdict onDatagram(const unsigned char *data, std::size_t size, std::int64_t nowNs);
    const ReceiveCounter &counter() const { return m_counter; }
    // Datagrams dropped for an implausible sequence number.
    std::uint64_t rejected() const { return m_rejected; }

private:
    double m_bitsPerSecond;
    std::uint32_t m_datagramBytes;
    bool m_wideCounters;
    std::int64_t m_beginNs;
    ReceiveCounter m_counter;
    std::uint64_t m_rejected = 0;
};

// The sender's schedule for one stream: datagram k (from 0) is due at
// start + k * size * 8 / rate. A sender that falls behind catches up, but by at most
// MaxDebtNs worth of datagrams (a stall is not paid back as a burst that floods the path).
// With a pacing timer the sender sleeps at least that long between bursts, as iperf3's
// timer-driven sender does; datagrams that fell due meanwhile go out together.
class Pacer {
public:
    static constexpr std::int64_t MaxDebtNs = 100'000'000;
    // bitsPerSecond 0: unlimited (every call says "send").
    Pacer(double bitsPerSecond, std::uint32_t datagramBytes, std::int64_t pacingTimerNs);
    void start(std::int64_t nowNs);
    // Datagrams that may go now, at most maxBurst; 0 with *waitNs set to how long to sleep.
    std::uint64_t due(std::int64_t nowNs, std::uint64_t maxBurst, std::int64_t *waitNs);
    void sent(std::uint64_t datagrams) { m_sent += datagrams; }
    std::uint64_t sentCount() const { return m_sent; }
    bool unlimited() const { return m_intervalNs <= 0; }

private:
    double m_intervalNs = 0; // between two datagrams
    std::int64_t m_timerNs = 0;
    std::int64_t m_start = 0;
    std::uint64_t m_sent = 0;
    std::uint64_t m_forgiven = 0; // datagrams of a stall not sent (schedule moved on)
};

} // namespace nb::udp
