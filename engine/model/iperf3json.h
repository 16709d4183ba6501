// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The iperf3 -J document: what `nicbench -J` prints, what a NicBench server sends back in
// EXCHANGE_RESULTS' place, and what snapshots keep per run. The layout is iperf3's (start,
// intervals, end) plus a top-level "nicbench" object (docs/json-output.md); documents from
// stock iperf3 read too, taking the test parameters from their start block.

#include <QJsonObject>
#include <QString>

#include <cstdint>

namespace nb {

struct TestResult;

namespace iperf3json {

QJsonObject toJson(const TestResult &result);
// Structure that makes the document unreadable is an error; fields a stock iperf3 leaves
// out or prints oddly keep their defaults (json::Need::Tolerant).
bool fromJson(const QJsonObject &root, TestResult *out, QString *error);

// The nicbench.cpu object: CPU figures and derived costs (docs/cpu-cost.md).
QJsonObject cpuCostJson(const TestResult &result);

// iperf3's sum object, shared by per-interval sums and the end block.
QJsonObject sumJson(double start, double end, std::uint64_t bytes, std::int64_t retransmits, bool sender, bool omitted,
                    bool withRetransmits);

} // namespace iperf3json
} // namespace nb
