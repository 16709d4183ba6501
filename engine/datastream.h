// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "platform/tcpinfo.h"
#include "socketio.h"

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
    DataStream(int id, bool sender, net::Fd fd);
    ~DataStream();
    DataStream(const DataStream &) = delete;
    DataStream &operator=(const DataStream &) = delete;

    struct Config {
        std::uint32_t blockSize = 128 * 1024;
        bool skipRxCopy = true;
        bool zeroCopy = false;
        ByteBudget *budget = nullptr;
    };
    void start(const Config &config);
    // Asks the thread to stop after its current call; a sender stops sending.
    void requestStop() { m_stop.store(true, std::memory_order_relaxed); }
    // Wakes a thread blocked in the kernel by shutting the socket down, then joins.
    void abort();
    void join();

    int id() const { return m_id; }
    bool isSender() const { return m_sender; }
    int fd() const { return m_fd.get(); }
    std::uint64_t bytes() const { return m_bytes.load(std::memory_order_relaxed); }
    bool finished() const { return m_finished.load(); }
    // Set when the connection failed (reset, closed early by the peer while sending).
    QString error() const;
    bool tcpInfo(platform::TcpInfo *out) const { return platform::readTcpInfo(m_fd.get(), out); }

private:
    void sendLoop(Config config);
    void receiveLoop(Config config);
    void setError(const QString &e);

    int m_id;
    bool m_sender;
    net::Fd m_fd;
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
