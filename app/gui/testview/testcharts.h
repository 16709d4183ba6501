// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Test view's charts (throughput, request/response, latency under load, UDP, CPU) and how
// the tests of a run fill them: each chart prepared for the plan, each test's intervals
// routed to the chart of its kind, its end added (the server's CPU, UDP's whole-test
// figures). The Test view uses it live; a run reopened from the history and the one-page
// PDF (testreport.h) draw finished results through the same steps, so they look the same.

#include <model/results.h>

#include <QList>

class QWidget;

namespace nb::ui {
class CpuChart;
class LiveTestChart;
class LoadedLatencyChart;
class RrChart;
class UdpChart;
} // namespace nb::ui

namespace nb::gui {

struct TestCharts {
    nb::ui::LiveTestChart *throughput = nullptr;
    nb::ui::RrChart *rr = nullptr;
    nb::ui::LoadedLatencyChart *loaded = nullptr;
    nb::ui::UdpChart *udp = nullptr;
    nb::ui::CpuChart *cpu = nullptr;

    // Clears every chart for a run of these tests (plannedSeconds: the whole run, for the
    // CPU chart); a chart the run does not use says which tab to look at.
    void prepare(const QList<nb::TestParams> &plan, double plannedSeconds) const;
    // The chart that shows a test of these parameters.
    QWidget *chartFor(const nb::TestParams &params) const;
    // A batch of one test's intervals; cpuOffset: where the test starts on the CPU chart.
    void addIntervals(const nb::TestParams &params, const QList<nb::IntervalReport> &batch, double cpuOffset) const;
    // What the test's result adds when it ends.
    void finish(const nb::TestResult &result, double cpuOffset) const;
    // A finished run drawn whole: prepare, then every test's intervals and end. Returns the
    // chart of its last test.
    QWidget *showFinished(const QList<nb::TestResult> &results) const;

    // Where the next test of a run starts on the CPU chart, after `done` ended.
    static double nextCpuOffset(double offset, const nb::TestResult &done);
    // The planned length of a run (warm-up and duration of each test).
    static double plannedSeconds(const QList<nb::TestParams> &plan);
};

} // namespace nb::gui
