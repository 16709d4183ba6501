// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Results that cannot be right are errors, not figures. One place for the checks: a peer's
// results message (the iperf3 results exchange, either side) before any figure is taken
// from it, the caps on what is copied from it into our own output, and the test-wide rule
// that a test which should have moved data did.

#include <QJsonObject>
#include <QList>
#include <QString>

#include <cstdint>

namespace nb {

struct TestResult;

// What this side knows about one of its streams when the peer's results arrive.
struct LocalStreamView {
    int id = 0;
    bool weSent = false;          // bulk data this side sent (the peer only received)
    std::uint64_t totalBytes = 0; // everything this side moved on it, warm-up included
    bool udp = false;             // an iperf3 UDP stream (not UDP request/response)
    std::uint64_t datagrams = 0;  // UDP: datagrams this side sent or received, warm-up included
};

// One stream's figures as the peer reported them, once checked.
struct PeerStreamFigures {
    int id = 0;
    std::uint64_t bytes = 0;
    std::int64_t retransmits = -1; // -1: unknown
    double seconds = 0; // the peer's end_time; 0: not given    // UDP (iperf3's jitter, errors, packets): the peer's
                        // receiver figures, or its sender's count.
    double jitterSecs = 0;
    std::uint64_t errors = 0, packets = 0;
};

// The peer's top-level figures, once checked (CPU in iperf3's unit: % of one core).
struct PeerFigures {
    QList<PeerStreamFigures> streams;
    bool cpuKnown = false;
    double cpuTotal = 0, cpuUser = 0, cpuSystem = 0;
};

namespace peer {

// iperf3's cpu_util_* is the process's CPU time over wall time, in % of one core, so a
// multi-threaded peer may pass 100%: the bound is 100% of this many cores.
constexpr double MaxCores = 4096;
// Faster than any link that exists (1 TB/s, 8 Tbit/s): a byte count beyond this rate over
// the test, plus MaxBytesSlack, is absurd, not a measurement.
constexpr double MaxBytesPerSecond = 1e12;
constexpr std::uint64_t MaxBytesSlack = std::uint64_t(1) << 30;
// A receiver may count what the sender handed to its socket just before it froze its own
// count (one burst of blocks); beyond this margin it claims bytes nobody sent.
constexpr std::uint64_t ReceiveMargin = 16 * 1024 * 1024;
// The peer's times may run a little past ours (it stops later); not by this much.
constexpr double SecondsSlack = 60;
// UDP: a receiver's "packets" (iperf3: the highest sequence number it saw, so received plus
// lost) may pass what this side counted as sent by a datagram or two sent while the count
// froze; 1% plus this many is the margin. A sender's datagram carries at least this many
// bytes (iperf3's header: 32-bit seconds, microseconds and sequence number).
constexpr std::uint64_t DatagramSlack = 64;
constexpr std::uint64_t MinDatagramBytes = 12;
// Request/response: the transactions this side completed cannot pass the peer's own count
// (each response answers a request it read) by more than the requests in flight.
constexpr std::uint64_t TransactionSlack = 2;
// Text taken from a peer (names, drivers, versions) is cut to this many characters.
constexpr int MaxTextLength = 256;
// Lists taken from a peer besides the CPU intervals (addresses, offloads) keep this many.
constexpr int MaxListItems = 256;

} // namespace peer

// Checks the results message a peer sent (docs/protocol.md, results exchange) against
// what this side saw: every local stream reported once, no stranger; numbers finite and
// in range (bytes not beyond what can have moved, CPU within 0..100% of peer::MaxCores
// cores, times within the test). Returns the figures, or false with a one-line reason.
// `localSeconds` is this side's data phase in seconds.
bool checkPeerResults(const QJsonObject &json, const QList<LocalStreamView> &local, double localSeconds,
                      PeerFigures *out, QString *error);

// Checks our NicBench extension object from a peer ("nicbench" in its results): CPU
// samples within range, transactions a finite count. False with a reason.
bool checkPeerExtension(const QJsonObject &extension, QString *error);

// A copy of the peer's extension with at most `maxIntervals` CPU intervals, every text at
// most peer::MaxTextLength characters and other lists at most peer::MaxListItems long.
// `note` (when anything was cut) says what, for the result's warnings.
QJsonObject capPeerExtension(const QJsonObject &extension, int maxIntervals, QString *note);

// Cuts every string in the object (recursively) to maxLength characters and every array to
// maxItems; true when something was cut.
bool capJsonText(QJsonObject *object, int maxLength, int maxItems);

// A NicBench peer's count of transactions (our extension's "transactions") against the
// result's: a client that completed more than the server answered, beyond the requests in
// flight (connections x --in-flight, plus peer::TransactionSlack), counted responses nobody
// sent for its requests. The reason, or empty when plausible (or the peer gave no count).
QString transactionsBeyondPeer(const TestResult &result, const QJsonObject &peerExtension);

// A test that ran to its end but shows no data moved (a throughput direction with zero
// bytes received) or no transaction completed cannot be reported as a figure: the reason,
// or empty when the result is plausible. Results already failed are not judged again.
QString implausibleResult(const TestResult &result);

} // namespace nb
