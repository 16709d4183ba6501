// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CPU cost per unit of work (docs/cpu-cost.md) as a value: computed once, where the test
// ran, with the clock of the machine that did the work, then carried in the result, the -J
// document and snapshots. Readers (the window, the CLI, comparisons) take the figures from
// here and never recompute them with a clock of their own.

#include <QJsonObject>
#include <QString>

#include <optional>

namespace nb {

struct CpuSample;
struct TestResult;

// One side's figures; each is nullopt where its denominator is zero or unknown.
struct CpuCost {
    bool requestResponse = false;           // RR/CRR: per transaction; else per byte
    std::optional<double> usPerKB;          // stream: CPU microseconds per 1024 bytes
    std::optional<double> usPerTransaction; // RR/CRR: CPU microseconds per transaction
    std::optional<double> cpuPctPerGbps;    // stream: system busy % (all cores) per Gbit/s
    std::optional<double> cyclesPerByte;    // stream: needs the clock of the side that worked

    bool operator==(const CpuCost &) const = default;

    // One side's cost from its whole-machine CPU sample and the work the result counts;
    // `clockHz` is that machine's clock (0 or nullopt: cycles per byte unknown).
    static CpuCost measure(const TestResult &result, const CpuSample &cpu, std::optional<double> clockHz);
    // Writes the side's keys into the nicbench.cpu object ("local_us_per_kb", ...).
    void insertInto(QJsonObject *cpuObject, const QString &side) const;
    // Reads them back; nullopt when the document has none for this side.
    static std::optional<CpuCost> fromJson(const QJsonObject &cpuObject, const QString &side);
};

// Both sides' costs: local is this side's machine, remote the peer's (a NicBench server).
struct CpuCosts {
    std::optional<CpuCost> local, remote;
    bool operator==(const CpuCosts &) const = default;
};

// Fills result->costs from its CPU samples, once, when the test has ended: the local side
// with `localClockHz` (this machine's, read at measurement time), the remote side with the
// clock the server's hello reported (nicbench.remote_host.cpu_clock_hz).
void measureCpuCosts(TestResult *result, double localClockHz);

} // namespace nb
