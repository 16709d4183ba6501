// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "datapath/udpstream.h"
#include "datapath/workerpool.h"
#include "net/address.h"
#include "net/socket.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace nb {

namespace net {
class ZeroCopySource;
}

// Shared byte budget for -n: senders take blocks from it until it is spent.
struct ByteBudget {
    std::atomic<std::int64_t> remaining{0};
    bool enabled = false;
};

// One data connection of a test (or, for CRR, one flow of connections), driven by the
// worker it was given (test/workerpool.h): its socket is non-blocking and every handler
// does what the socket allows now, then returns to the worker's event loop. The control
// thread reads the counters and TCP_INFO at each interval.
class DataStream : public Pollable {
public:
    // Sender/Receiver: bulk data. RrClient sends requests and times responses on one
    // connection; RrServer answers them. CrrClient opens a connection per transaction to
    // Config::crrTarget; CrrServer accepts them on a (shared) listening socket; a
    // CrrServer without a socket is a placeholder that only keeps the stream ids the
    // peer knows (one listener per worker is enough).
    // UdpSender/UdpReceiver: iperf3's UDP mode (test/udpstream.h runs the datagrams).
    // UdpRrClient/UdpRrServer: request/response over UDP (netperf UDP_RR).
    enum class Role {
        Sender,
        Receiver,
        RrClient,
        RrServer,
        CrrClient,
        CrrServer,
        UdpSender,
        UdpReceiver,
        UdpRrClient,
        UdpRrServer
    };
    DataStream(int id, Role role, net::Socket socket);
    ~DataStream();
    DataStream(const DataStream &) = delete;
    DataStream &operator=(const DataStream &) = delete;

    struct Config {
        std::uint32_t blockSize = 128 * 1024;
        bool skipRxCopy = true;
        bool zeroCopy = false;
        ByteBudget *budget = nullptr;
        std::uint32_t requestSize = 1;
        std::uint32_t responseSize = 1;
        int inFlight = 1;
        net::Address crrTarget; // CrrClient: where to connect
        QString crrBindAddress; // CrrClient: local address to bind
        // CRR: the token from the server's hello that opens every connection
        // (docs/protocol.md §2.3); empty with servers that issue none.
        QByteArray crrToken;
        // Latency under load: senders start paused and send only while setPaused(false);
        // they never run blocking (a paused blocking sender would have nothing to wait on).
        bool gated = false;
        // UDP (-u): rate (0 unlimited), --pacing-timer and --udp-counters-64bit.
        double udpBitsPerSecond = 1e6;
        std::int64_t udpPacingTimerNs = 1'000'000;
        bool udpWideCounters = false;
        bool udpDontFragment = false; // --dont-fragment
        std::int64_t udpRrTimeoutNs = 1'000'000'000;
    };
    // Before the pool starts: what the stream will do.
    void prepare(const Config &config) { m_config = config; }

    // The worker's side (its thread only). A worker with this stream alone may drive it
    // with blocking calls (canRunBlocking): begin(w, true), then onReady over and over;
    // every call then returns within a few milliseconds so commands still run.
    // RR qualifies only while what is in flight fits the socket buffers: otherwise both
    // ends would sit in a send that the other, itself sending, does not drain.
    bool canRunBlocking() const;
    void begin(Worker &w, bool blocking = false);
    void onReady(Worker &w, unsigned ready) override;
    void onTick(Worker &w, std::int64_t nowNs);
    // A wake-up this stream asked for (Worker::wakeAt) is due.
    void onTimer(Worker &w);
    // Gated senders (Config::gated): pause or resume sending; other roles ignore it.
    void setPaused(Worker &w, bool paused);
    // Ends the stream (a sender stops sending; connections in progress are dropped).
    void stop(Worker &w);
    // Ends the stream with an error, unless it was stopping anyway.
    void fail(Worker &w, const QString &error);
    // After the pool stopped: wakes the peer (shutdown) and marks the stream finished.
    void abandon();

    int id() const { return m_id; }
    // Roles that put bytes on the wire first (senders and the client side of RR/CRR).
    bool isSender() const
    {
        return m_role == Role::Sender || m_role == Role::RrClient || m_role == Role::CrrClient ||
               m_role == Role::UdpSender || m_role == Role::UdpRrClient;
    }
    Role role() const { return m_role; }
    bool isRequestResponse() const
    {
        return m_role == Role::RrClient || m_role == Role::RrServer || m_role == Role::CrrClient ||
               m_role == Role::CrrServer || m_role == Role::UdpRrClient || m_role == Role::UdpRrServer;
    }
    // The UDP figures (UDP roles only, after begin()): packets, loss, jitter.
    const UdpFlow *udp() const { return m_udpReady.load() ? m_udp.get() : nullptr; }
    UdpFlow *udp() { return m_udpReady.load() ? m_udp.get() : nullptr; }
    bool isUdp() const
    {
        return m_role == Role::UdpSender || m_role == Role::UdpReceiver || m_role == Role::UdpRrClient ||
               m_role == Role::UdpRrServer;
    }
    // Completed transactions (request/response roles).
    std::uint64_t transactions() const { return m_transactions.load(std::memory_order_relaxed); }
    // CRR server: connections dropped for not showing the token (wrong, late or none).
    std::uint64_t strangers() const { return m_strangers.load(std::memory_order_relaxed); }
    const net::Socket &socket() const { return m_socket; }
    std::uint64_t bytes() const { return m_bytes.load(std::memory_order_relaxed); }
    bool finished() const { return m_finished.load(); }
    // Set when the connection failed (reset, closed early by the peer while sending).
    QString error() const;
    bool tcpInfo(net::TcpInfo *out) const { return net::readTcpInfo(m_socket, out); }
    std::int64_t unreadBytes() const { return net::unreadBytes(m_socket); }

    class Exchange; // one accepted CRR connection (datastream_p.h)

private:
    void finish(Worker &w);
    void setError(const QString &e);
    void setInterest(Worker &w, const net::Socket &s, unsigned interest);
    void prepareSocket();
    // One writer (the worker): plain load and store, no locked instruction.
    static void add(std::atomic<std::uint64_t> &counter, std::uint64_t n)
    {
        counter.store(counter.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }
    void countTransactions(std::uint64_t n);

    void beginSender();
    void onSendable(Worker &w);
    void onReceivable(Worker &w);
    // Request/response on one connection: queue, flush and read.
    void queueRequest(std::int64_t now);
    bool flush(Worker &w, const net::Socket &s);
    void onRrReadable(Worker &w);
    // CRR.
    void startTransaction(Worker &w);
    void crrSend(Worker &w);
    void onCrrClientReady(Worker &w, unsigned ready);
    void connectFailed(Worker &w, const QString &error);
    void onAccept(Worker &w);
    void onUdpReady(Worker &w);
    friend class Exchange;

    int m_id;
    Role m_role;
    Config m_config;
    net::Socket m_socket;
    std::atomic<std::uint64_t> m_transactions{0};
    std::atomic<std::uint64_t> m_bytes{0};
    std::atomic<std::uint64_t> m_strangers{0};
    std::atomic<bool> m_finished{false};
    bool m_blocking = false;
    bool m_stopping = false;
    bool m_paused = false;
    unsigned m_interest = 0;
    mutable std::mutex m_errorMutex;
    QString m_error;

    // Buffers: the payload sent, and where received bytes go.
    std::vector<char> m_txBuffer;
    std::unique_ptr<char[]> m_rxBuffer;
    std::size_t m_rxSize = 0;
    std::unique_ptr<net::ZeroCopySource> m_zeroCopy;
    // Request/response state: bytes still to send, bytes of the current message read,
    // and the send times of the requests in flight (a ring: responses come back in order).
    std::uint64_t m_txPending = 0;
    std::uint64_t m_rxHave = 0;
    std::vector<std::int64_t> m_sentAt;
    std::size_t m_sentHead = 0, m_sentCount = 0;
    // CRR client: the connection of the transaction in progress.
    net::Socket m_crr;
    net::Address m_crrLocal;
    std::int64_t m_crrStart = 0;
    int m_crrFailures = 0;
    int m_acceptBurst = 1; // CRR server: connections accepted per wake-up
    // CRR server: connections accepted and not yet answered.
    std::list<std::unique_ptr<Exchange>> m_exchanges;
    // UDP roles: the datagram path, made by begin() (m_udpReady then says it exists).
    std::unique_ptr<UdpFlow> m_udp;
    std::atomic<bool> m_udpReady{false};
    std::int64_t m_wakeAt = 0; // a wake-up asked of the worker and not yet fired (0: none)
};

inline DataStream::Role udpRole(bool sender)
{
    return sender ? DataStream::Role::UdpSender : DataStream::Role::UdpReceiver;
}

// The role of a request/response connection's end: over TCP or UDP (-u --rr).
inline DataStream::Role rrRole(bool client, bool udp)
{
    return client ? (udp ? DataStream::Role::UdpRrClient : DataStream::Role::RrClient)
                  : (udp ? DataStream::Role::UdpRrServer : DataStream::Role::RrServer);
}

// Stream ids in creation order, as iperf3 numbers them: 1, 3, 4, 5, ...
inline int streamIdForIndex(int index)
{
    return index == 0 ? 1 : index + 2;
}

} // namespace nb
