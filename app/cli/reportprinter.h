// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/testlistener.h"

#include <cstdio>

namespace nb {

// Prints a test as it runs: iperf3-style text lines, or one JSON object per line
// (--json-stream), or nothing until the end (-J).
class ReportPrinter : public TestListener {
public:
    enum class Style { Text, Json, JsonStream };
    ReportPrinter(Style style, bool verbose, bool serverSide) : m_style(style), m_verbose(verbose), m_server(serverSide)
    {
    }
    void testStarted(const TestResult &header) override;
    void intervalReady(const IntervalReport &report) override;
    void testFinished(const TestResult &result) override;
    void message(const QString &text) override;

private:
    void printLine(const QString &line, FILE *to = stdout);
    void printStreamLine(const QString &id, double start, double end, double bytes, std::int64_t retr,
                         std::int64_t cwnd, const QString &tail = QString());
    void printLoadedLatencyHeader(const TestParams &params);
    void printLoadedLatencyInterval(const IntervalReport &report);
    void printLoadedLatencyResult(const TestResult &result);
    // testFinished() per kind of output.
    void printJsonEnd(const TestResult &result);
    void printRrResult(const TestResult &result);
    void printStreamResult(const TestResult &result);
    void printCpuAndWarnings(const TestResult &result);
    void printWarnings(const TestResult &result);
    template <typename Totals> void printEndLines(const QString &id, const Totals &totals, double receiverSeconds);
    Style m_style;
    bool m_verbose;
    bool m_server;
    bool m_bidir = false;
    bool m_udp = false;
    int m_streams = 0;
    LoadSchedule m_schedule; // latency under load: the phases the intervals fall in
};

} // namespace nb
