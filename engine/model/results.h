// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Value types for throughput results, with JSON (de)serialisation. The JSON layout is a
// superset of iperf3's -J output (see docs/json-output.md).

#include "core/errorcode.h"
#include "core/flowspread.h"
#include "core/latencyhistogram.h"
#include "model/cpucost.h"
#include "model/loadedlatency.h"
#include "model/testparams.h"
#include "platform/adapterinfo.h"
#include "platform/cpumonitor.h"
#include "platform/hostenvironment.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace nb {

// One stream in one reporting interval.
struct StreamInterval {
    int id = 0;
    bool sender = true; // this side sent on this stream
    double start = 0;   // seconds since the test started (after omit)
    double end = 0;
    std::uint64_t bytes = 0;
    std::int64_t retransmits = -1; // -1: not known (receiver, or no TCP_INFO)
    std::int64_t cwndBytes = -1;
    std::int64_t rttUs = -1;
    std::int64_t rttVarUs = -1;
    bool omitted = false;
    // UDP (-u; udp false: TCP): datagrams (this side's count: sent, or the highest sequence
    // number received), those lost and out of order, and the receiver's jitter.
    bool udp = false;
    std::uint64_t packets = 0, lostPackets = 0, outOfOrder = 0;
    double jitterMs = 0;
    double lostPercent() const { return packets > 0 ? 100.0 * double(lostPackets) / double(packets) : 0.0; }

    double seconds() const { return end - start; }
    double bitsPerSecond() const { return seconds() > 0 ? bytes * 8.0 / seconds() : 0.0; }
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, StreamInterval *out, QString *error);
};

struct IntervalSum {
    double start = 0;
    double end = 0;
    std::uint64_t bytes = 0;
    std::int64_t retransmits = -1;
    bool sender = true;
    bool omitted = false;
    // UDP: the streams' datagrams summed (as iperf3 sums them), jitter their mean.
    bool udp = false;
    std::uint64_t packets = 0, lostPackets = 0, outOfOrder = 0;
    double jitterMs = 0;
    int udpStreams = 0; // streams summed, for the mean jitter
    double lostPercent() const { return packets > 0 ? 100.0 * double(lostPackets) / double(packets) : 0.0; }
    double seconds() const { return end - start; }
    double bitsPerSecond() const { return seconds() > 0 ? bytes * 8.0 / seconds() : 0.0; }
    QJsonObject toJson() const;
};

// Request/response figures for one interval, over all connections.
struct RrInterval {
    double start = 0, end = 0;
    std::uint64_t transactions = 0;
    LatencySummary latencyUs;
    double transactionsPerSecond() const { return end > start ? transactions / (end - start) : 0.0; }
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, RrInterval *out, QString *error);
};

struct IntervalReport {
    QList<StreamInterval> streams;
    bool hasCpu = false;
    CpuSample cpu; // this side, system-wide and process
    bool hasRr = false;
    RrInterval rr;
    // Totals for one direction: sender==true sums streams this side sent on.
    IntervalSum sum(bool senderSide) const;
    bool hasDirection(bool senderSide) const;
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, IntervalReport *out, QString *error);
};

// Whole-test totals of one direction, as both sides saw them: for one stream
// (StreamSummary) or the streams of one direction summed (DirectionSum).
struct EndTotals {
    double seconds = 0;              // the sender's test time
    double receiverSeconds = 0;      // the receiver's, as iperf3 uses for sum_received
    std::uint64_t bytesSent = 0;     // sender's count (excluding omit)
    std::uint64_t bytesReceived = 0; // receiver's count
    std::int64_t retransmits = -1;
    // UDP (-u): datagrams the sender sent, the receiver's count (the highest sequence number
    // it saw, iperf3's "total"), lost and out of order, and the receiver's jitter. In a
    // DirectionSum: the streams' counts summed and their mean jitter.
    bool udp = false;
    std::uint64_t packetsSent = 0, packetsReceived = 0, lostPackets = 0, outOfOrder = 0;
    double jitterMs = 0;
    double lostPercent() const
    {
        return packetsReceived > 0 ? 100.0 * double(lostPackets) / double(packetsReceived) : 0.0;
    }
    double sentBitsPerSecond() const { return seconds > 0 ? bytesSent * 8.0 / seconds : 0.0; }
    double receivedBitsPerSecond() const
    {
        const double s = receiverSeconds > 0 ? receiverSeconds : seconds;
        return s > 0 ? bytesReceived * 8.0 / s : 0.0;
    }
};

// Whole-test figures for one stream.
struct StreamSummary : EndTotals {
    int id = 0;
    bool sender = true; // this side sent on this stream
    std::int64_t maxRttUs = -1, minRttUs = -1, meanRttUs = -1;
    std::int64_t maxCwndBytes = -1;
};

// One direction's streams summed.
struct DirectionSum : EndTotals {
    int udpStreams = 0; // streams summed, for the mean jitter
};

// iperf3-style process CPU figures, percent of one core over the test.
struct CpuUtilization {
    double hostTotal = 0, hostUser = 0, hostSystem = 0;
    double remoteTotal = 0, remoteUser = 0, remoteSystem = 0;
    bool remoteKnown = false;
    QJsonObject toJson() const;
    // iperf3's end.cpu_utilization_percent; absent or odd figures read as 0.
    static CpuUtilization fromJson(const QJsonObject &json);
};

struct ConnectionInfo {
    int id = 0;
    QString localHost;
    quint16 localPort = 0;
    QString remoteHost;
    quint16 remotePort = 0;
    QJsonObject toJson() const;
    // start.connected[] entry; absent or odd fields read as 0 or empty.
    static ConnectionInfo fromJson(const QJsonObject &json);
};

// A test an agent ran for a controller (docs/protocol.md §6): who drove it. JSON
// nicbench.driven_by; peers' text, so readers cut it to 255 characters.
struct DrivenBy {
    QString controller;     // the controller's address as the agent saw it
    QString controllerHost; // the host name the controller gave
    QString agent;          // the agent as the controller named it (--from HOST:PORT)
    bool operator==(const DrivenBy &) const = default;
    QJsonObject toJson() const;
    static DrivenBy fromJson(const QJsonObject &json);
};

// Request/response result of the whole test (client side measures it).
struct RrSummary {
    TestKind kind = TestKind::Rr;
    std::uint32_t requestSize = 1, responseSize = 1;
    int connections = 1, inFlight = 1;
    double seconds = 0;
    std::uint64_t transactions = 0;
    LatencySummary latencyUs;
    LatencyHistogram histogram; // nanoseconds
    // Transactions per connection (JSON "fairness"); absent in results from before it.
    std::optional<FlowSpread> fairness;
    // CRR: connections the server dropped for not showing the test's token (JSON
    // "crr_strangers"); absent where the server does not say.
    std::optional<std::uint64_t> crrStrangers;
    // UDP request/response (-u --rr): requests that got no response within the timeout
    // (JSON "udp_lost"; absent for TCP).
    std::optional<std::uint64_t> udpLost;
    double transactionsPerSecond() const { return seconds > 0 ? transactions / seconds : 0.0; }
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, RrSummary *out, QString *error);
};

struct TestResult {
    TestParams params;
    QString version;          // our version
    QString remoteVersion;    // peer's, when known
    qint64 timestampSecs = 0; // start, Unix time
    // start.system_info as the machine that ran the test wrote it (an agent's, a snapshot's
    // run); empty: this machine's, taken when the document is written.
    QString systemInfo;
    QString cookie;
    QList<ConnectionInfo> connections;
    QList<IntervalReport> intervals;
    QList<StreamSummary> streams;
    CpuUtilization cpu;
    QString senderCongestion, receiverCongestion;
    QString error;                         // empty on success
    ErrorCode errorCode = ErrorCode::None; // what kind of failure, for callers to branch on
    QStringList warnings;
    bool isServerSide = false;
    bool hasRr = false;
    RrSummary rr;
    // Latency under load (TestKind::LoadedLatency): the phases; intervals carry the probe's
    // figures in their rr member. JSON nicbench.loaded_latency.
    std::optional<LoadedLatencyResult> loadedLatency;
    // Stream tests: bytes per stream as this side counted them, for the test's direction
    // (the one iperf3 sums in "sum_sent") and, with --bidir, the other one. JSON
    // nicbench.fairness and nicbench.fairness_bidir_reverse; absent in older results.
    std::optional<FlowSpread> fairness, fairnessBidirReverse;
    bool peerIsNicbench = false;
    QJsonObject peerExtension; // what our server added to its results ("nicbench")
    // The server's machine as its hello described it (NicBench servers that know the info
    // query, docs/protocol.md §2.2); JSON nicbench.remote_host.
    std::optional<HostEnvironment> remoteHost;
    // Run by an agent for a controller (nicbench-cli --from); JSON nicbench.driven_by.
    std::optional<DrivenBy> drivenBy;
    // System-wide CPU: local always, remote when the peer is a NicBench server.
    bool localCpuKnown = false;
    CpuSample localCpu;
    bool remoteCpuKnown = false;
    CpuSample remoteCpu;
    QList<CpuSample> remoteCpuIntervals;
    // CPU cost per unit of work, measured once when the test ended (measureCpuCosts) with
    // the clock of the machine that did the work; JSON nicbench.cpu.*_us_per_kb etc.
    CpuCosts costs;
    // Adapters that carried the test.
    std::optional<AdapterInfo> localAdapter;
    std::optional<AdapterInfo> remoteAdapter;
    // Interface counter deltas over the test on the local adapter (-1 unknown).
    std::int64_t localAdapterTxBytes = -1, localAdapterRxBytes = -1;

    // Bytes this side sent and received over the counted part of the test.
    std::uint64_t localBytesSent() const;
    std::uint64_t localBytesReceived() const;
    // Work done: bytes delivered to receivers (both directions in bidir tests).
    std::uint64_t bytesDelivered() const;

    bool ok() const { return error.isEmpty(); }
    // Totals over streams in one direction: forward == the client sent.
    DirectionSum sum(bool clientSent) const;
    bool hasDirection(bool clientSent) const;
    // The spread of one direction (forward == the client sent), when known.
    const std::optional<FlowSpread> &fairnessOf(bool clientSent) const;
    // Fills fairness and fairnessBidirReverse from the streams' counts.
    void computeStreamFairness();

    // iperf3-compatible -J document plus a top-level "nicbench" object (test/iperf3json.h).
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, TestResult *out, QString *error);
};

// What results obtained from a NicBench server say about its machine: its version, core
// count and the adapters that carried the tests, plus host name, OS, kernel and CPU from the
// machine description in the hello (TestResult::remoteHost). Results from servers older
// than that description leave those empty. The adapters stay the ones that carried tests,
// not every adapter the server has (queryServerInfo() lists those).
HostEnvironment remoteHostFromResults(const QList<TestResult> &results);

} // namespace nb

Q_DECLARE_METATYPE(nb::IntervalReport)
Q_DECLARE_METATYPE(nb::TestResult)
