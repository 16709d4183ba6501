// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CPU use during a test, per interval and for the whole test.
//
// Two kinds of percentage, on purpose on different scales (docs/cpu-cost.md):
// - system-wide figures (systemBusyPct, userPct, systemPct, irqPct, ...) are percent of
//   ALL cores: 100% means every core busy. They come from /proc/stat deltas, so they have
//   a resolution of one clock tick (10 ms) per core; over a 100 ms interval on 2 cores
//   that is +/-5 points, over a 10 s test +/-0.05.
// - process figures (processPct, ...) are percent of ONE core, as iperf3 reports its
//   cpu_util: a process keeping two cores busy shows 200%. They come from
//   CLOCK_PROCESS_CPUTIME_ID (total) and getrusage (user/system split).

#include "platform/platform.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>

#include <chrono>

namespace nb {

struct CpuSample {
    double start = 0; // seconds since CpuMonitor::start()
    double end = 0;
    int cpuCount = 0;

    bool systemValid = false; // /proc/stat (or the OS equivalent) was readable
    double systemBusyPct = 0; // user + nice + system + irq + softirq, % of all cores
    double userPct = 0;       // user + nice
    double systemPct = 0;     // kernel, excluding interrupt handling
    double irqPct = 0;        // irq + softirq: where network receive processing shows up
    double iowaitPct = 0;
    double stealPct = 0; // taken by the hypervisor for other guests

    bool processValid = false;
    double processPct = 0; // this process, % of one core
    double processUserPct = 0;
    double processSystemPct = 0;

    double seconds() const { return end - start; }
    // CPU-seconds the whole machine spent busy: what service demand divides by the work.
    double systemBusyCpuSeconds() const { return systemBusyPct / 100.0 * cpuCount * seconds(); }
    double processCpuSeconds() const { return processPct / 100.0 * seconds(); }

    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, CpuSample *out, QString *error);
};

// Raw counters at one instant; CpuSample is the difference of two.
struct CpuReading {
    double wallSeconds = 0; // steady clock
    bool systemValid = false;
    platform::CpuTimes system;
    bool processValid = false;
    platform::ProcessCpuTimes process;

    static CpuReading now();
};

// The figures between two readings; `originSeconds` is the wall time that counts as 0.
CpuSample cpuSampleBetween(const CpuReading &from, const CpuReading &to, double originSeconds);

// Not thread-safe: one owner (the test's controlling thread) calls start, sample, finish.
class CpuMonitor {
public:
    void start();
    // The interval since the previous sample() (or start()); also kept in intervals().
    CpuSample sample();
    // Closes the last interval (when it has any length) and returns the whole test.
    CpuSample finish();

    const QList<CpuSample> &intervals() const { return m_intervals; }
    // Whole test so far (up to the latest sample() or finish()).
    CpuSample total() const { return cpuSampleBetween(m_first, m_last, m_first.wallSeconds); }

private:
    CpuReading m_first;
    CpuReading m_last;
    QList<CpuSample> m_intervals;
};

} // namespace nb

Q_DECLARE_METATYPE(nb::CpuSample)
