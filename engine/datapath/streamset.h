// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "datapath/datastream.h"
#include "datapath/workerpool.h"
#include "model/peerresults.h"
#include "model/results.h"

#include <QJsonObject>

#include <memory>
#include <vector>

namespace nb {

// The data streams of one test on one side, and the bookkeeping both the client and the
// server need: interval deltas, omit baseline, the final freeze, TCP_INFO statistics and
// the iperf3 results exchange.
// One UDP stream's counters at one moment (test/udpstream.h).
struct UdpCounts {
    std::uint64_t packets = 0, lost = 0, outOfOrder = 0;
    double jitterSecs = 0;
};

class StreamSet {
public:
    StreamSet() = default;
    ~StreamSet();
    StreamSet(const StreamSet &) = delete;
    StreamSet &operator=(const StreamSet &) = delete;

    void add(std::unique_ptr<DataStream> stream);
    int size() const { return int(m_streams.size()); }
    bool empty() const { return m_streams.empty(); }
    DataStream &at(int i) { return *m_streams[std::size_t(i)].stream; }

    // Hands the streams to a pool of `threads` workers (0: one per core) and starts them.
    // Empty on success, else why the workers could not start.
    QString startAll(const DataStream::Config &config, int threads);
    // Time zero of the test (seconds on the caller's clock).
    void markStart(double now);
    // End of the warm-up: bytes before this point are not counted.
    void markOmitEnd(double now);
    // Deltas since the previous call; samples TCP_INFO. For request/response streams the
    // interval's latency histogram also goes to *latency when given.
    IntervalReport takeInterval(double now, bool omitted, LatencyHistogram *latency = nullptr);
    // Snapshots the final counts; later bytes (drained after the end) do not count.
    void freeze(double now);
    // Before freeze() at the peer's TEST_END: gives the TCP receivers up to maxMs to read
    // what the kernel already holds for them. The peer sent those bytes before it ended the
    // test; a receiver that had not been scheduled yet (a 64 KB -n test with 15 tests at once
    // on 2 cores) would otherwise count none of them. Returns the bytes still unread.
    std::int64_t settleReceivers(int maxMs) const;
    // UDP receivers stop counting now, before stopSenders() waits for the workers: a
    // datagram read after the end does not count (iperf3's receiver stops at the end too).
    void stopUdpCounting();
    // Every sender (and RR/CRR client) has stopped when this returns.
    void stopSenders();
    // Gated senders (latency under load) pause or resume; done when this returns.
    void setSendersPaused(bool paused) { m_pool.setSendersPaused(paused); }
    // Stops the workers, then wakes every peer by shutting the connections down.
    void abortAll();

    bool anySender() const;
    // Bytes our receiving streams have taken in so far (for -n when only the peer sends).
    std::uint64_t receivedBytes() const;
    // Bytes moved in either direction plus transactions, all streams: grows while data
    // moves (the --rcv-timeout watchdogs watch it).
    std::uint64_t progress() const;
    bool allSendersFinished() const;
    // CRR server: connections dropped for not showing the test's token.
    std::uint64_t crrStrangers() const;
    // UDP receivers: datagrams dropped as not the test's (UdpFlow::rejected).
    std::uint64_t udpRejected() const;
    // True when every stream's thread has ended (all connections gone).
    bool allFinished() const;
    QString firstError() const;

    // The JSON this side sends in EXCHANGE_RESULTS.
    QJsonObject resultsJson(double cpuTotal, double cpuUser, double cpuSystem, bool receiverOnly,
                            const QString &congestion) const;
    // Reads the peer's results once checkPeerResults (test/peerresults.h) found them sound;
    // matches streams by id (unknown ids are an error, like iperf3's IESTREAMID). The
    // checked top-level figures (CPU) go to *figures when given.
    bool applyPeerResults(const QJsonObject &json, QString *error, PeerFigures *figures = nullptr);
    QList<StreamSummary> summaries() const;
    // Request/response totals after freeze(); only meaningful when the streams are RR roles.
    bool isRequestResponse() const;
    RrSummary rrSummary() const;

private:
    struct Entry {
        std::unique_ptr<DataStream> stream;
        std::uint64_t lastBytes = 0;
        std::uint64_t omitBaseline = 0;
        std::uint64_t finalBytes = 0;
        bool frozen = false;
        std::int64_t lastRetrans = 0;
        std::int64_t retransBaseline = 0;
        std::int64_t finalRetrans = -1;
        std::int64_t maxCwnd = -1, minRtt = -1, maxRtt = -1;
        std::uint64_t lastTransactions = 0, transactionBaseline = 0, finalTransactions = 0;
        double rttSum = 0;
        int rttCount = 0;
        // Peer's figures
        std::uint64_t peerBytes = 0;
        std::int64_t peerRetrans = -1;
        double peerSeconds = 0;
        bool peerKnown = false;
        // UDP (streamset_udp.cpp): counts at the last tick, at the end of the warm-up and
        // frozen at the end, and the peer's figures from the results exchange.
        UdpCounts udpLast, udpBaseline, udpFinal;
        PeerStreamFigures peerUdp;
    };
    // UDP counts of one stream now (or frozen), into the interval / summary / results.
    static UdpCounts udpCounts(const Entry &e);
    static void fillUdpInterval(Entry &e, StreamInterval *s);
    static void fillUdpSummary(const Entry &e, StreamSummary *s);
    static void addUdpResults(const Entry &e, QJsonObject *s);
    std::vector<Entry> m_streams;
    LatencyHistogram m_finalLatency; // frozen with the counts
    double m_start = 0;
    double m_countStart = 0;
    double m_lastTick = 0;
    double m_end = 0;
    bool m_frozen = false;
    // Last member: destroyed (threads joined) before the streams it drives.
    WorkerPool m_pool;
};

} // namespace nb
