// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/loadschedule.h"
#include "net/address.h" // AddressFamily

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace nb {

enum class Direction { Upload, Download, Bidirectional };
// Which server the client talks to: our own / stock iperf3 (same protocol), or a
// stock iperf2 server, which takes plain TCP streams with no control channel.
enum class PeerProtocol { Iperf3, Iperf2 };
// Stream: bulk throughput. Rr: request/response on persistent connections (netperf
// TCP_RR). Crr: a new connection per transaction (netperf TCP_CRR). LoadedLatency: a
// request/response probe on its own connection for the whole test while load phases run
// (test/loadschedule.h); needs a NicBench server for the probe.
enum class TestKind { Stream, Rr, Crr, LoadedLatency };

// Everything that defines a throughput test. Plain value type. Flags, ranges, defaults
// and JSON keys of the fields are in the parameter table (test/parameters.cpp).
struct TestParams {
    QString host;
    quint16 port = 5201;
    QString bindAddress; // -B: local address to bind data and control sockets
    AddressFamily family = AddressFamily::Any;
    Direction direction = Direction::Upload;
    PeerProtocol protocol = PeerProtocol::Iperf3;
    int streams = 1;                      // -P; for RR/CRR the connections (see connections())
    std::uint32_t blockSize = 128 * 1024; // -l
    std::uint32_t window = 0;             // -w, 0 = system default
    int mss = 0;                          // -M, 0 = system default
    bool noDelay = false;                 // -N
    QString congestion;                   // -C
    double duration = 10.0;               // -t seconds (0 with bytes set = run until bytes)
    std::uint64_t bytes = 0;              // -n, 0 = use duration
    double omit = 0.0;                    // -O seconds excluded from the results
    double interval = 1.0;                // -i seconds between reports
    bool skipRxCopy = true;               // receive with MSG_TRUNC (no copy to user space)
    bool zeroCopy = false;                // -Z: send with sendfile() from a memory file
    int connectTimeoutMs = 5000;
    // --rcv-timeout: no data moved in either direction for this long ends a test with an
    // error (client and server alike; iperf3's default and unit). Not sent to the peer.
    int rcvTimeoutMs = 120000;
    int threads = 0; // --threads: data worker threads, 0 = one per core
    QString title;
    // Request/response (streams is the number of connections for these kinds).
    TestKind kind = TestKind::Stream;
    std::uint32_t requestSize = 1;
    std::uint32_t responseSize = 1;
    int inFlight = 1; // transactions outstanding per connection
    // Latency under load: the phases in order, each phaseSeconds long, and the probe's DSCP
    // (0: unmarked). The probe's request and response sizes are requestSize/responseSize.
    QString phases = QString::fromLatin1(LoadSchedule::DefaultOrder);
    double phaseSeconds = 5.0;
    int probeDscp = 0;
    // UDP (-u, iperf3's UDP mode; test/udpstream.h). bandwidth is the target per stream
    // (iperf3's 1 Mbit/s unless -b; 0 unlimited); blockSize is the datagram size, and the
    // TCP default left in it means iperf3's UDP default (udpDatagramSize()).
    bool udp = false;
    std::uint64_t bandwidth = 1000000;
    // A TCP stream test is paced only when a rate was asked (-b, or "bandwidth" from an
    // iperf3 client): each data socket then sends at most bandwidth bit/s (net::CanPaceTcp).
    bool tcpPaced = false;
    bool pacesTcp() const { return !udp && tcpPaced && bandwidth > 0 && kind == TestKind::Stream; }
    int pacingTimerUs = 1000;
    bool udpCounters64 = false;
    bool dontFragment = false; // --dont-fragment: DF set, EMSGSIZE instead of fragments (net/udp.h)
    int udpRrTimeoutMs = 1000; // -u --rr: a request unanswered this long is lost
    // Authentication (--username, --rsa-public-key-path; protocol/auth.h). The password is no
    // table row: it comes from IPERF3_PASSWORD or a prompt and is never written anywhere.
    QString username;
    QString rsaPublicKeyPath;
    QString password;

    // Checks the table's ranges and the rules between fields; returns an empty string when
    // valid, else a one-line message.
    QString validate() const;
    // Parameter JSON as an iperf3 3.12 client sends it (A.5 in the protocol notes).
    QJsonObject toIperfParams() const;
    // Reads a parameter JSON received by a server. Unknown keys are ignored; wrong types
    // and out-of-range values are rejected with *error set.
    static bool fromIperfParams(const QJsonObject &json, TestParams *out, QString *error);

    // Full round-trippable form for results and snapshots.
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, TestParams *out, QString *error);

    // The NicBench extension object sent inside the iperf3 parameter JSON (docs/protocol.md).
    QJsonObject extensionJson() const;
    bool isRequestResponse() const { return kind == TestKind::Rr || kind == TestKind::Crr; }
    bool isLoadedLatency() const { return kind == TestKind::LoadedLatency; }
    // The phases (parsed from `phases`; empty when it does not parse, which validate() reports).
    LoadSchedule loadSchedule() const;
    // A latency-under-load test as it runs: both directions open (the phases gate them), the
    // duration the phases add up to, no warm-up and no byte count. Other kinds unchanged.
    TestParams normalized() const;
    // -u without -l: the block size still holds the TCP default, which the client replaces
    // with iperf3's UDP default (the control connection's MSS) once it is connected.
    bool udpDatagramSizeUnset() const { return udp && blockSize == 128 * 1024; }
    // What ends the test, in one place: each limit that is set can end it, and the first
    // one reached does (-t with -n: the clock or the byte count, whichever comes first).
    bool isTimed() const { return duration > 0; }
    bool endsOnBytes() const { return bytes > 0; }
    // Data connections the client opens: one per stream and direction; CRR opens its own;
    // latency under load adds the probe's connection after the load streams of both directions.
    int dataConnectionCount() const
    {
        return kind == TestKind::Crr ? 0 : isLoadedLatency() ? streams * 2 + 1 : isBidir() ? streams * 2 : streams;
    }
    // Request/response tests keep their connection count in the same field as -P.
    int connections() const { return streams; }
    bool isReverse() const { return direction == Direction::Download; }
    bool isBidir() const { return direction == Direction::Bidirectional; }
};

QString directionName(Direction d);
QString testKindName(TestKind k);

} // namespace nb
