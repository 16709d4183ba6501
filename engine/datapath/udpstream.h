// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// iperf3's UDP mode on one side of a test: the data path of one UDP stream (DataStream's
// UdpSender and UdpReceiver roles run it), and the UDP "connect" by which each stream's
// socket pair finds the other (docs/protocol.md, "UDP").

#include "core/udpaccounting.h"
#include "datapath/workerpool.h"
#include "net/address.h"
#include "net/socket.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace nb {

struct ByteBudget;

class UdpFlow {
public:
    struct Settings {
        bool sender = true;
        std::uint32_t datagramBytes = udp::DefaultDatagram;
        double bitsPerSecond = 1e6; // 0: unlimited
        std::int64_t pacingTimerNs = 1'000'000;
        bool wideCounters = false;
        bool dontFragment = false;    // set on the socket before its first datagram (net/udp.h)
        ByteBudget *budget = nullptr; // -n: datagrams are taken from it whole
        // Request/response (-u --rr, netperf UDP_RR): the client keeps inFlight requests
        // out; one not answered within rrTimeoutNs is lost (counted, and sent anew).
        bool rr = false;
        std::uint32_t requestSize = 16, responseSize = 16;
        int inFlight = 1;
        std::int64_t rrTimeoutNs = 1'000'000'000;
    };
    // Request and response datagrams carry at least the sequence number and send time.
    static constexpr std::uint32_t RrHeader = 16;
    explicit UdpFlow(const Settings &settings);

    // What one call did: bytes moved, and an error or the end of the stream's work.
    struct Step {
        std::uint64_t bytes = 0;
        std::uint64_t transactions = 0; // request/response
        QString error;
        bool done = false;
        // Sharing a worker (not blocking): call again no later than this (monotonic ns; 0:
        // when the socket is ready). A paced sender ahead of its schedule sets it and wants
        // no writable wake-up meanwhile (idle); a request/response client sets it to when
        // its oldest request times out.
        std::int64_t wakeNs = 0;
        bool idle = false;
    };
    void begin(std::int64_t nowNs);
    // Sends what the schedule says is due, or receives what is waiting. With blocking, a
    // sender ahead of its schedule sleeps until the next datagram is due (at most
    // MaxSleepNs, so its worker still runs commands), and a receiver waits in the socket's
    // receive timeout; without, nothing waits.
    Step run(const net::Socket &s, bool blocking, Worker &w);
    static constexpr std::int64_t MaxSleepNs = 10'000'000;

    // Read by the control thread at any time (one writer: the worker).
    // Sender: datagrams sent. Receiver: the highest sequence number seen (iperf3's count).
    // Request/response client: lost() is the requests that timed out.
    std::uint64_t packets() const { return m_packets.load(std::memory_order_relaxed); }
    std::uint64_t lost() const { return m_lost.load(std::memory_order_relaxed); }
    std::uint64_t outOfOrder() const { return m_outOfOrder.load(std::memory_order_relaxed); }
    double jitterSecs() const { return m_jitter.load(std::memory_order_relaxed); }
    // Receiver: datagrams dropped for a sequence number the sender cannot have reached yet
    // (udp::plausibleSequence): not the test's, and not counted in any figure.
    std::uint64_t rejected() const { return m_rejected.load(std::memory_order_relaxed); }
    bool isSender() const { return m_settings.sender; }
    // Receiver: datagrams read from now on are drained but not counted (bytes, packets,
    // loss, jitter), as iperf3's receiver stops counting at the end of the test. Any thread.
    void stopCounting() { m_counting.store(false, std::memory_order_relaxed); }

private:
    Step send(const net::Socket &s, bool blocking);
    Step receive(const net::Socket &s, Worker &w);
    Step rrClient(const net::Socket &s, Worker &w);
    Step rrServer(const net::Socket &s, Worker &w);
    // Sends a new request in slot i; false when the socket is full (slot stays free).
    bool sendRequest(const net::Socket &s, std::size_t i, Step *step);
    struct Slot {
        std::uint64_t sequence = 0; // 0: free
        std::int64_t sentNs = 0;
    };
    std::vector<Slot> m_slots;
    bool m_socketReady = false; // --dont-fragment applied

    Settings m_settings;
    udp::Pacer m_pacer;
    udp::StreamReceiver m_receiver{0, udp::DefaultDatagram, false, 0}; // set by begin()
    std::vector<unsigned char> m_buffer;
    std::uint64_t m_sequence = 0;
    std::atomic<std::uint64_t> m_packets{0}, m_lost{0}, m_outOfOrder{0}, m_rejected{0};
    std::atomic<double> m_jitter{0};
    std::atomic<bool> m_counting{true};
};

// iperf3's UDP datagram size when -l is not given: the control connection's MSS when the
// system reports one in range, else 1460 bytes.
std::uint32_t udpDefaultDatagram(int controlMss);

// Client: the stream's socket says hello to the server's and waits for the answer (a
// server that never answers: false after the deadline, with *error). With resend (UDP
// request/response, NicBench servers only) the hello goes again every second until answered,
// so a lossy path does not fail the test before it starts; a stock iperf3 server would read a
// repeated hello as a datagram with a garbage sequence number, so stream tests send it once.
net::Socket connectUdpStream(const QString &host, quint16 port, AddressFamily family, const QString &bindAddress,
                             std::uint32_t window, double timeoutSecs, const std::atomic<bool> *stop, QString *error,
                             bool resend = false);

// Server: one socket bound to the test's port waits for the next stream's hello. The first
// is bound before CREATE_STREAMS is sent and each next one before the hello is answered, so
// a client's hello never finds the port closed.
class UdpStreamAcceptor {
public:
    // replyCopies: how many times each hello is answered. UDP request/response (NicBench
    // clients only, which skip a datagram shorter than their header) answers 3 times, so one
    // lost answer on a lossy path does not fail the test; a stock iperf3 client would read
    // an extra answer as a datagram, so stream tests answer once, as iperf3 does.
    UdpStreamAcceptor(const net::Address &local, std::uint32_t window, int replyCopies = 1);
    bool valid(QString *error) const;
    // Takes `count` streams before the deadline, each handed to add(socket, peer). Gives up
    // when the control connection turns readable (the client left or gave up) or on stop.
    // A hello counts only from the control connection's address (`client`, its host); one
    // from anywhere else is dropped and counted (strangers()): the server would otherwise
    // send a stream's datagrams to whoever spoofed it (issue 30, M2).
    // Empty on success, else why not.
    QString acceptAll(int count, double timeoutSecs, const net::Socket &control, const net::Address &client,
                      const std::atomic<bool> &stop, const std::function<void(net::Socket, const net::Address &)> &add);
    // Hellos dropped because they came from another address than the client's.
    int strangers() const { return m_strangers; }

private:
    net::Address m_local;
    std::uint32_t m_window;
    int m_replyCopies;
    net::Socket m_next;
    QString m_error;
    int m_strangers = 0;
};

} // namespace nb
