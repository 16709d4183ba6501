// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Builds comparison configurations from adapters x variants: every adapter (a local bind
// address and the target reached through it) crossed with every variant of the test (1, 4,
// 16 streams; throughput against request/response; ...). Each configuration's adapter is
// the endpoint's label (short by default: "VMXNET3", "E1000", or the interface name) and
// its variant the variant's name; its label is "<adapter>, <variant>".

#include "compare/comparison.h"
#include "platform/adapterinfo.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace nb {

// One side of the matrix: where the traffic leaves and where it goes.
struct MatrixEndpoint {
    QString bindAddress;                // -B; empty lets the routing table choose
    QString target;                     // -c HOST
    std::optional<AdapterInfo> adapter; // the local adapter owning bindAddress, when known
    QString label;                      // overrides the "<family> <name>" default
    quint16 port = 0;                   // -p for this target; 0: the base parameters' port
    QString from = {};                  // the agent that runs the tests ("HOST[:PORT]"); empty: here

    // The adapter is looked up in the live adapter list from the bind address.
    static MatrixEndpoint fromBindAddress(const QString &bindAddress, const QString &target);
    // The label, else a short name from the adapter: the virtual NIC model when the family
    // names one ("E1000", "E1000E", "VMXNET3", "virtio", "Hyper-V", "ENA"), else the
    // interface name ("ens192", "lo"); else the bind address, else the target. From an agent:
    // "FROM -> TARGET" (the adapters are the agent's, not known here).
    QString defaultLabel() const;
};

// A change applied on top of the base parameters. Unset fields keep the base value.
struct MatrixVariant {
    QString name;               // "P=4", "TCP_RR": the configuration's variant
    std::optional<int> streams; // -P; for RR/CRR the connections (TestParams::connections())
    std::optional<TestKind> kind;
    std::optional<Direction> direction;
    std::optional<std::uint32_t> blockSize;
    std::optional<std::uint32_t> window;
    std::optional<int> inFlight;
    std::optional<std::uint32_t> requestSize, responseSize;
    std::optional<double> phaseSeconds;     // latency under load: each phase's length
    std::optional<bool> udp;                // -u
    std::optional<std::uint64_t> bandwidth; // -b: UDP bit/s per stream, 0 unlimited

    void apply(TestParams *params) const;

    static MatrixVariant withStreams(int streams); // "P=<n>"
    static MatrixVariant throughput();             // "TCP_STREAM"
    // "TCP_RR" on one connection (netperf's TCP_RR), "TCP_RR (4 conn.)" on several: the
    // connection count is the variant's own, never the throughput variants' streams.
    static MatrixVariant requestResponse(int connections = 1);
    // "Latency under load": the probe with the load phases (the base's --phases), each
    // `phaseSeconds` long, `streams` load streams each way. The base's warm-up (-O), byte
    // count (-n) and direction do not apply to it and are cleared.
    static MatrixVariant latencyUnderLoad(int streams, double phaseSeconds);
    // "UDP 100M": a UDP stream (-u) at `bitsPerSecond` per stream (0: unlimited, "UDP
    // unlimited"), `datagramSize` bytes per datagram (0: iperf3's default, the path's MSS;
    // else " 1400B" in the name) on `streams` streams (" P=4" in the name when more than
    // one).
    static MatrixVariant udpStream(std::uint64_t bitsPerSecond, std::uint32_t datagramSize = 0, int streams = 1);
    // "UDP_RR": UDP request/response (-u --rr, netperf's UDP_RR) on one socket.
    static MatrixVariant udpRequestResponse();
    // "100M", "1.5G", "64K", "unlimited": a rate as -b takes it, for variant names.
    static QString rateText(std::uint64_t bitsPerSecond);
};

// "100M, 500M" (commas, semicolons or spaces; -b's notation, 0 unlimited): the rates of UDP
// variants, each once, in order. On failure *error is one line naming the bad entry.
bool udpRatesFromText(const QString &text, QList<std::uint64_t> *out, QString *error);

// The model name users know a virtual NIC by ("E1000", "E1000E", "VMXNET3", "virtio",
// "Hyper-V", "ENA"); empty for families that do not name one.
QString adapterModelName(AdapterFamily family);

// Every endpoint's defaultLabel(), made unique: endpoints whose short names collide get
// the interface name appended ("VMXNET3 ens192", "VMXNET3 ens224"), then the target.
QStringList defaultLabels(const QList<MatrixEndpoint> &endpoints);

// Endpoints outer, variants inner: A/P=1, A/P=4, B/P=1, B/P=4. No variants: one
// configuration per endpoint with the base parameters. An endpoint's `from` becomes the
// configurations' AgentFrom with the options that travel (session/testarguments.h); a
// configuration whose `from` or options cannot be read keeps them empty, which
// Comparison::checkAgents() and agentProblem() report.
QList<Configuration> buildMatrix(const TestParams &base, const QList<MatrixEndpoint> &endpoints,
                                 const QList<MatrixVariant> &variants);
// Why a configuration built from an endpoint with `from` cannot run through that agent (its
// address does not read, or a setting no flag can say); empty when it can.
QString agentProblem(const Configuration &configuration, const QString &from);

} // namespace nb
