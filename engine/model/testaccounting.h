// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/results.h"
#include "net/socket.h"
#include "platform/adapterinfo.h"
#include "platform/cpumonitor.h"

#include <optional>

namespace nb {

// What is measured around the data path of one test on one side: system-wide and process
// CPU (per interval and whole test), the adapter that carried the traffic (found from a
// data socket's local address) and its byte counters over the test. Used by the client
// and the server alike; one owner thread.
class TestAccounting {
public:
    // socket: a connected data socket (the control socket when there is none); an invalid
    // one means no adapter is looked up.
    void begin(const net::Socket &socket);
    CpuSample sampleInterval();
    // End of the warm-up: CPU and counters restart from here.
    void restart();
    void end();

    const CpuSample &cpu() const { return m_total; }
    const QList<CpuSample> &cpuIntervals() const { return m_monitor.intervals(); }
    const std::optional<AdapterInfo> &adapter() const { return m_adapter; }
    // Empty when the interface saw the test's bytes (or when it cannot be checked).
    QString wrongPathWarning(std::uint64_t bytesSent, std::uint64_t bytesReceived) const;
    InterfaceCounters countersBefore() const { return m_before; }
    InterfaceCounters countersAfter() const { return m_after; }
    bool countersValid() const { return m_countersValid; }

private:
    CpuMonitor m_monitor;
    CpuSample m_total;
    std::optional<AdapterInfo> m_adapter;
    InterfaceCounters m_before, m_after;
    bool m_countersValid = false;
};

// Fills result.localCpu/costs and the adapter fields from the accounting, and adds the
// wrong-path warning.
void applyAccounting(const TestAccounting &acc, TestResult *result);

// The side's figures as the server sends them to a NicBench client ("nicbench" key of the
// results JSON), and reading them back on the client.
QJsonObject accountingJson(const TestAccounting &acc);
void applyRemoteAccounting(const QJsonObject &json, TestResult *result);

} // namespace nb
