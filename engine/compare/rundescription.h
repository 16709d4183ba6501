// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One finished run of the window (one test, or throughput then request/response) in the
// few words a list of past runs shows: what kind of test, its headline figure, the adapter
// that carried it, where it went. Pixel-free; the run history (runhistory.h) stores them.

#include "model/results.h"

#include <QList>
#include <QString>

namespace nb {

// "TCP upload P=4", "TCP both ways P=1", "UDP download 100M", "TCP_RR", "TCP_RR (4 conn.)",
// "UDP_RR", "TCP_CRR", "Latency under load": the test as a comparison variant names it.
QString runKindLabel(const TestParams &params);
// The run's kinds joined with " + " ("TCP upload P=1 + TCP_RR").
QString runKindLabel(const QList<TestResult> &results);

// The figure a user looks for first, per test joined with " · ": "9.41 Gbit/s",
// "up 9.41 Gbit/s, down 9.38 Gbit/s", "97.5 Mbit/s, 1.12% lost", "24,100/s, p99 95.0 µs",
// "p99 +1.20 ms under load"; "failed: <reason>" for a test that failed.
QString runHeadline(const TestResult &result);
QString runHeadline(const QList<TestResult> &results);

// The adapter that carried the test on this side: "ens192 (vmxnet3)", "lo"; "" when unknown.
QString runAdapterLabel(const QList<TestResult> &results);

// "198.18.1.2:5201"; "[fd00::1]:5201" for IPv6.
QString runTargetLabel(const QList<TestResult> &results);

} // namespace nb
