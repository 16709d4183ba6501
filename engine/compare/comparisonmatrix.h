// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Builds comparison configurations from adapters x variants: every adapter (a local bind
// address and the target reached through it) crossed with every variant of the test (1, 4,
// 16 streams; throughput against request/response; ...). Labels default to
// "<family> <name>, <variant>", e.g. "vmxnet3 ens192, P=4", and are plain strings the
// user may edit afterwards.

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

    // The adapter is looked up in the live adapter list from the bind address.
    static MatrixEndpoint fromBindAddress(const QString &bindAddress, const QString &target);
    // "<family> <name>" from the adapter, else the bind address, else the target.
    QString defaultLabel() const;
};

// A change applied on top of the base parameters. Unset fields keep the base value.
struct MatrixVariant {
    QString name;               // "P=4", "TCP_RR": appended to the endpoint's label
    std::optional<int> streams; // -P; for RR/CRR the connections (TestParams::connections())
    std::optional<TestKind> kind;
    std::optional<Direction> direction;
    std::optional<std::uint32_t> blockSize;
    std::optional<std::uint32_t> window;
    std::optional<int> inFlight;
    std::optional<std::uint32_t> requestSize, responseSize;

    void apply(TestParams *params) const;

    static MatrixVariant withStreams(int streams); // "P=<n>"
    static MatrixVariant throughput();             // "TCP_STREAM"
    static MatrixVariant requestResponse();        // "TCP_RR"
};

// Endpoints outer, variants inner: A/P=1, A/P=4, B/P=1, B/P=4. No variants: one
// configuration per endpoint with the base parameters.
QList<Configuration> buildMatrix(const TestParams &base, const QList<MatrixEndpoint> &endpoints,
                                 const QList<MatrixVariant> &variants);

} // namespace nb
