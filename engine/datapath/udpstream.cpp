// SPDX-License-Identifier: GPL-3.0-or-later
#include "datapath/udpstream.h"

#include "datapath/datastream.h"
#include "net/connect.h"
#include "net/io.h"
#include "net/udp.h"

#include <QRandomGenerator>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

namespace nb {

namespace {

// Datagrams one call sends or takes before it returns to the worker.
constexpr std::uint64_t UdpBurst = 64;
// The longest a receiving call keeps taking datagrams before it returns to the worker. A
// count alone is not enough: at a low rate 64 datagrams take long (0.32 s at 200/s), and the
// worker's commands (the end of the test, the interval's hand-over) would wait that long while
// datagrams that arrive after the test's end are still counted (issue 17).
constexpr std::int64_t UdpReceiveSliceNs = 5'000'000;
// A request/response client whose request did not go (a full socket) tries again after this.
constexpr std::int64_t RrRetryNs = 1'000'000;
// Largest datagram a receiver takes whole (a larger one is cut, and still counted once).
constexpr std::size_t UdpReceiveBuffer = 65536;

unsigned char *receiveBuffer(Worker &w)
{
    return reinterpret_cast<unsigned char *>(w.scratch(UdpReceiveBuffer));
}

std::int64_t monotonicNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The receive loop every UDP receiver shares: up to UdpBurst datagrams within
// UdpReceiveSliceNs. next() gives the length of the next datagram in rx, or nothing when the
// burst is over: nothing waiting, the slice used up, or an error (put in *error; a timeout
// and an ICMP port unreachable are none). An empty datagram is skipped.
class ReceiveBurst {
public:
    ReceiveBurst(const net::Socket &s, unsigned char *rx) : m_socket(s), m_rx(rx) {}
    std::optional<std::size_t> next(QString *error)
    {
        while (m_count < UdpBurst && monotonicNs() < m_sliceEnd) {
            ++m_count;
            const net::Transfer t = net::receiveSome(m_socket, m_rx, UdpReceiveBuffer);
            if (t.status == net::IoStatus::Closed)
                continue; // an empty datagram
            if (t.status == net::IoStatus::Ok)
                return std::size_t(t.bytes);
            if (t.status != net::IoStatus::Timeout && !net::isPortUnreachable(t.systemError))
                *error = net::systemErrorText(t.systemError);
            break;
        }
        m_count = UdpBurst;
        return std::nullopt;
    }

private:
    const net::Socket &m_socket;
    unsigned char *m_rx;
    const std::int64_t m_sliceEnd = monotonicNs() + UdpReceiveSliceNs;
    std::uint64_t m_count = 0;
};

bool isConnectMessage(const unsigned char *b, std::size_t n)
{
    if (n != 4)
        return false;
    if (std::memcmp(b, udp::ConnectMessage, 4) == 0)
        return true;
    // Legacy 123456789 in either byte order.
    const std::uint32_t be =
        (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) | (std::uint32_t(b[2]) << 8) | b[3];
    const std::uint32_t le =
        (std::uint32_t(b[3]) << 24) | (std::uint32_t(b[2]) << 16) | (std::uint32_t(b[1]) << 8) | b[0];
    return be == 123456789u || le == 123456789u;
}

} // namespace

UdpFlow::UdpFlow(const Settings &settings)
    : m_settings(settings)
    , m_pacer(settings.bitsPerSecond, settings.datagramBytes, settings.pacingTimerNs)
{
    if (m_settings.rr) {
        const std::uint32_t out = m_settings.sender ? m_settings.requestSize : m_settings.responseSize;
        m_buffer.assign(std::max(out, RrHeader), 'q');
        m_slots.resize(std::size_t(std::max(1, m_settings.inFlight)));
    } else if (m_settings.sender) {
        // Random payload after the header, as iperf3 sends.
        m_buffer.resize(std::max<std::size_t>(m_settings.datagramBytes, udp::headerSize(m_settings.wideCounters)));
        // Four bytes per call: 1,024 streams of 32 KB datagrams start on one worker.
        QRandomGenerator rng(0x5eed1234u);
        for (std::size_t i = 0; i < m_buffer.size(); i += 4) {
            const quint32 v = rng.generate();
            std::memcpy(m_buffer.data() + i, &v, std::min<std::size_t>(4, m_buffer.size() - i));
        }
    }
    // Receiving roles read into their worker's scratch buffer (a 64 KiB buffer per stream
    // cost 38 MB of zeroing at the start of a 600-connection test on one worker).
}

void UdpFlow::begin(std::int64_t nowNs)
{
    m_receiver =
        udp::StreamReceiver(m_settings.bitsPerSecond, m_settings.datagramBytes, m_settings.wideCounters, nowNs);
    m_pacer.start(nowNs);
}

UdpFlow::Step UdpFlow::run(const net::Socket &s, bool blocking, Worker &w)
{
    if (!m_socketReady) {
        m_socketReady = true;
        Step step;
        if (m_settings.dontFragment && !net::setDontFragment(s, &step.error))
            return step;
    }
    if (m_settings.rr)
        return m_settings.sender ? rrClient(s, w) : rrServer(s, w);
    return m_settings.sender ? send(s, blocking) : receive(s, w);
}

bool UdpFlow::sendRequest(const net::Socket &s, std::size_t i, Step *step)
{
    Slot &slot = m_slots[i];
    slot.sequence = ++m_sequence;
    slot.sentNs = monotonicNs();
    udp::writeHeader(m_buffer.data(), slot.sentNs, slot.sequence, true); // 16 bytes
    const net::Transfer t = net::sendSome(s, m_buffer.data(), m_buffer.size());
    if (t.status == net::IoStatus::Ok) {
        step->bytes += std::uint64_t(t.bytes);
        return true;
    }
    slot.sequence = 0;
    if (t.status != net::IoStatus::Timeout && !net::isPortUnreachable(t.systemError) &&
        !net::isNoBufferSpace(t.systemError))
        step->error = net::isDatagramTooLarge(t.systemError)
                          ? QStringLiteral("requests of %1 bytes do not fit the path (%2)")
                                .arg(m_buffer.size())
                                .arg(net::systemErrorText(t.systemError))
                          : net::systemErrorText(t.systemError);
    return false;
}

UdpFlow::Step UdpFlow::rrClient(const net::Socket &s, Worker &w)
{
    Step step;
    unsigned char *rx = receiveBuffer(w);
    // Requests that timed out are lost; every free slot gets a new request.
    const std::int64_t now = monotonicNs();
    std::int64_t oldest = now;
    for (std::size_t i = 0; i < m_slots.size(); ++i) {
        if (m_slots[i].sequence != 0 && now - m_slots[i].sentNs > m_settings.rrTimeoutNs) {
            m_slots[i].sequence = 0;
            m_lost.store(m_lost.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        }
        if (m_slots[i].sequence == 0 && !sendRequest(s, i, &step)) {
            step.wakeNs = now + RrRetryNs; // the slot stays free: try again soon
            return step;
        }
        oldest = std::min(oldest, m_slots[i].sentNs);
    }
    step.wakeNs = oldest + m_settings.rrTimeoutNs + 1;
    ReceiveBurst burst(s, rx);
    while (const std::optional<std::size_t> received = burst.next(&step.error)) {
        const std::size_t length = *received;
        step.bytes += std::uint64_t(length);
        udp::Header h;
        if (!udp::readHeader(rx, length, true, &h))
            continue;
        // A response to a request still out completes it; a late one (its request timed
        // out and was counted lost) is dropped.
        for (std::size_t i = 0; i < m_slots.size(); ++i) {
            if (m_slots[i].sequence != h.sequence)
                continue;
            // One answered after the timeout (between two checks) is lost all the same.
            const std::int64_t latency = monotonicNs() - m_slots[i].sentNs;
            if (latency > m_settings.rrTimeoutNs) {
                m_lost.store(m_lost.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
            } else {
                w.recordLatency(latency);
                ++step.transactions;
            }
            if (!sendRequest(s, i, &step)) {
                step.wakeNs = monotonicNs() + RrRetryNs;
                return step;
            }
            break;
        }
    }
    return step;
}

UdpFlow::Step UdpFlow::rrServer(const net::Socket &s, Worker &w)
{
    Step step;
    unsigned char *rx = receiveBuffer(w);
    ReceiveBurst burst(s, rx);
    while (const std::optional<std::size_t> received = burst.next(&step.error)) {
        const std::size_t length = *received;
        step.bytes += std::uint64_t(length);
        if (length < RrHeader)
            continue;
        // The response carries the request's sequence number and time back.
        std::memcpy(m_buffer.data(), rx, RrHeader);
        const net::Transfer sent = net::sendSome(s, m_buffer.data(), m_buffer.size());
        if (sent.status == net::IoStatus::Ok) {
            step.bytes += std::uint64_t(sent.bytes);
            ++step.transactions;
        }
    }
    return step;
}

UdpFlow::Step UdpFlow::send(const net::Socket &s, bool blocking)
{
    Step step;
    ByteBudget *budget = m_settings.budget && m_settings.budget->enabled ? m_settings.budget : nullptr;
    std::int64_t now = monotonicNs();
    std::int64_t wait = 0;
    const std::uint64_t due = m_pacer.due(now, UdpBurst, &wait);
    if (due == 0) {
        if (blocking)
            std::this_thread::sleep_for(std::chrono::nanoseconds(std::min(wait, MaxSleepNs)));
        step.wakeNs = now + std::max<std::int64_t>(wait, 1);
        step.idle = true;
        return step;
    }
    const std::size_t len = m_buffer.size();
    for (std::uint64_t i = 0; i < due; ++i) {
        if (budget) {
            // A datagram goes whole or not at all: -n rounds up to whole datagrams, as iperf3.
            if (budget->remaining.fetch_sub(std::int64_t(len)) <= 0) {
                budget->remaining.store(0);
                step.done = true;
                return step;
            }
        }
        now = monotonicNs();
        udp::writeHeader(m_buffer.data(), now, m_sequence + 1, m_settings.wideCounters);
        const net::Transfer t = net::sendSome(s, m_buffer.data(), len);
        if (t.status != net::IoStatus::Ok) {
            if (budget)
                budget->remaining.fetch_add(std::int64_t(len));
            if (t.status == net::IoStatus::Timeout || net::isPortUnreachable(t.systemError) ||
                net::isNoBufferSpace(t.systemError))
                return step; // full for now, or an ICMP report of a datagram before: try again
            if (net::isDatagramTooLarge(t.systemError))
                step.error = QStringLiteral("datagrams of %1 bytes do not fit the path (%2): use a smaller -l")
                                 .arg(len)
                                 .arg(net::systemErrorText(t.systemError));
            else
                step.error = net::systemErrorText(t.systemError);
            return step;
        }
        ++m_sequence;
        m_pacer.sent(1);
        m_packets.store(m_sequence, std::memory_order_relaxed);
        step.bytes += std::uint64_t(t.bytes);
    }
    return step;
}

UdpFlow::Step UdpFlow::receive(const net::Socket &s, Worker &w)
{
    Step step;
    unsigned char *rx = receiveBuffer(w);
    ReceiveBurst burst(s, rx);
    while (const std::optional<std::size_t> received = burst.next(&step.error)) {
        const std::size_t length = *received;
        if (!m_counting.load(std::memory_order_relaxed))
            continue; // after the end: drained, not counted
        const udp::StreamReceiver::Verdict v = m_receiver.onDatagram(rx, length, monotonicNs());
        if (v == udp::StreamReceiver::Verdict::Implausible) {
            m_rejected.store(m_receiver.rejected(), std::memory_order_relaxed);
            continue; // not the test's: no figure counts it
        }
        step.bytes += std::uint64_t(length);
        if (v == udp::StreamReceiver::Verdict::NoHeader)
            continue;
        const udp::ReceiveCounter &c = m_receiver.counter();
        m_packets.store(c.packets(), std::memory_order_relaxed);
        m_lost.store(c.lost(), std::memory_order_relaxed);
        m_outOfOrder.store(c.outOfOrder(), std::memory_order_relaxed);
        m_jitter.store(c.jitterSecs(), std::memory_order_relaxed);
    }
    return step;
}

std::uint32_t udpDefaultDatagram(int controlMss)
{
    return controlMss >= int(udp::MinDatagram) && controlMss <= int(udp::MaxDatagram) ? std::uint32_t(controlMss)
                                                                                      : udp::DefaultDatagram;
}

net::Socket connectUdpStream(const QString &host, quint16 port, AddressFamily family, const QString &bindAddress,
                             std::uint32_t window, double timeoutSecs, const std::atomic<bool> *stop, QString *error,
                             bool resend)
{
    net::Socket s = net::connectUdp(host, port, family, bindAddress, window, error);
    if (!s.valid())
        return s;
    const net::Transfer sent = net::sendSome(s, udp::ConnectMessage, sizeof udp::ConnectMessage);
    if (sent.status != net::IoStatus::Ok) {
        *error = QStringLiteral("cannot send the UDP connect: %1").arg(net::systemErrorText(sent.systemError));
        return {};
    }
    const net::Deadline deadline = net::deadlineIn(timeoutSecs);
    net::Deadline again = net::deadlineIn(1.0);
    unsigned char reply[16];
    while (net::Clock::now() < deadline) {
        if (stop && stop->load())
            return *error = QStringLiteral("stopped"), net::Socket();
        if (resend && net::Clock::now() >= again) {
            net::sendSome(s, udp::ConnectMessage, sizeof udp::ConnectMessage); // a loss is retried next second
            again = net::deadlineIn(1.0);
        }
        if (net::waitReadable(s, 100) <= 0)
            continue;
        const net::Transfer t = net::receiveSome(s, reply, sizeof reply);
        if (t.status == net::IoStatus::Error) {
            *error = net::isPortUnreachable(t.systemError)
                         ? QStringLiteral("nothing listens on UDP port %1 of %2").arg(port).arg(host)
                         : net::systemErrorText(t.systemError);
            return {};
        }
        if (t.status == net::IoStatus::Ok && udp::isConnectReply(reply, std::size_t(t.bytes)))
            return s;
    }
    *error = QStringLiteral("the server did not answer the UDP connect within %1 s (UDP blocked on the path?)")
                 .arg(timeoutSecs);
    return {};
}

UdpStreamAcceptor::UdpStreamAcceptor(const net::Address &local, std::uint32_t window, int replyCopies)
    : m_local(local)
    , m_window(window)
    , m_replyCopies(std::max(1, replyCopies))
{
    m_next = net::bindUdp(m_local, m_window, &m_error);
}

bool UdpStreamAcceptor::valid(QString *error) const
{
    if (!m_next.valid() && error)
        *error = m_error;
    return m_next.valid();
}

QString UdpStreamAcceptor::acceptAll(int count, double timeoutSecs, const net::Socket &control,
                                     const net::Address &client, const std::atomic<bool> &stop,
                                     const std::function<void(net::Socket, const net::Address &)> &add)
{
    const QString clientHost = client.host();
    const net::Deadline deadline = net::deadlineIn(timeoutSecs);
    int accepted = 0;
    unsigned char hello[16];
    while (accepted < count) {
        if (stop.load())
            return QStringLiteral("server stopped");
        if (net::Clock::now() > deadline)
            return QStringLiteral("the client opened %1 of %2 UDP streams").arg(accepted).arg(count);
        if (!m_next.valid())
            return m_error;
        const int ready = net::waitEither(m_next, control, 100);
        if (ready < 0)
            return QStringLiteral("cannot wait for the UDP streams");
        if (ready & 2)
            return QStringLiteral("the client closed the control connection while opening streams");
        if (!(ready & 1))
            continue;
        net::Address from;
        const net::Transfer t = net::receiveFrom(m_next, hello, sizeof hello, &from);
        if (t.status != net::IoStatus::Ok || !isConnectMessage(hello, std::size_t(t.bytes)))
            continue; // not a stream's hello: a stray datagram is dropped
        if (from.host() != clientHost) {
            ++m_strangers; // never answered: the stream waits for the client's own hello
            continue;
        }
        net::Socket stream = std::move(m_next);
        QString err;
        if (!net::connectTo(stream, from, &err))
            return QStringLiteral("cannot connect the UDP stream to %1: %2").arg(from.toString(), err);
        // The next stream's socket exists before this one's answer lets the client go on.
        if (accepted + 1 < count)
            m_next = net::bindUdp(m_local, m_window, &m_error);
        for (int copy = 0; copy < m_replyCopies; ++copy)
            net::sendSome(stream, udp::ConnectReply, sizeof udp::ConnectReply);
        add(std::move(stream), from);
        ++accepted;
    }
    return {};
}

} // namespace nb
