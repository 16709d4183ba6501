// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/latencyhistogram.h"
#include "net/address.h"
#include "net/socket.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>

namespace nb {

// Shared byte budget for -n: senders take blocks from it until it is spent.
struct ByteBudget {
    std::atomic<std::int64_t> remaining{0};
    bool enabled = false;
};

// One TCP data connection served by its own thread: a sender writes blockSize buffers
// as fast as the socket takes them, a receiver reads and discards. The control thread
// reads the byte counter and TCP_INFO at each interval; nothing here touches Qt's event
// loop. One thread per stream measured faster than one epoll thread per core on a 2-core
// loopback (docs/design.md).
class DataStream {
public:
    // Sender/Receiver: bulk data. RrClient sends requests and times responses on one
    // connection; RrServer answers them. CrrClient opens a connection per transaction to
    // Config::crrTarget; CrrServer accepts them on a shared listening socket.
    enum class Role { Sender, Receiver, RrClient, RrServer, CrrClient, CrrServer };
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
    };
    void start(const Config &config);
    // Asks the thread to stop after its current call; a sender stops sending.
    void requestStop() { m_stop.store(true, std::memory_order_relaxed); }
    // Wakes a thread blocked in the kernel by shutting the socket down, then joins.
    void abort();
    void join();

    int id() const { return m_id; }
    // Roles that put bytes on the wire first (senders and the client side of RR/CRR).
    bool isSender() const { return m_role == Role::Sender || m_role == Role::RrClient || m_role == Role::CrrClient; }
    Role role() const { return m_role; }
    bool isRequestResponse() const { return m_role != Role::Sender && m_role != Role::Receiver; }
    // Completed transactions (request/response roles).
    std::uint64_t transactions() const { return m_transactions.load(std::memory_order_relaxed); }
    // Latencies recorded since the previous call (client roles), then starts a new interval.
    LatencyHistogram takeIntervalLatency();
    // Latencies since start or the last resetTotalLatency() (end of the warm-up).
    LatencyHistogram totalLatency() const;
    void resetTotalLatency();
    const net::Socket &socket() const { return m_socket; }
    std::uint64_t bytes() const { return m_bytes.load(std::memory_order_relaxed); }
    bool finished() const { return m_finished.load(); }
    // Set when the connection failed (reset, closed early by the peer while sending).
    QString error() const;
    bool tcpInfo(net::TcpInfo *out) const { return net::readTcpInfo(m_socket, out); }

private:
    void sendLoop(Config config);
    void receiveLoop(Config config);
    void rrClientLoop(Config config);
    void rrServerLoop(Config config);
    void crrClientLoop(Config config);
    void crrServerLoop(Config config);
    void recordLatency(std::int64_t ns);
    void setError(const QString &e);

    int m_id;
    Role m_role;
    std::atomic<std::uint64_t> m_transactions{0};
    mutable std::mutex m_latencyMutex;
    LatencyHistogram m_intervalLatency;
    LatencyHistogram m_totalLatency;
    net::Socket m_socket;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_finished{false};
    std::atomic<std::uint64_t> m_bytes{0};
    mutable std::mutex m_errorMutex;
    QString m_error;
};

// Stream ids in creation order, as iperf3 numbers them: 1, 3, 4, 5, ...
inline int streamIdForIndex(int index)
{
    return index == 0 ? 1 : index + 2;
}

} // namespace nb
