// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/testcharts.h"

#include <live/cpuchart.h>
#include <live/livetestchart.h>
#include <live/loadedlatencychart.h>
#include <live/rrchart.h>
#include <live/udpchart.h>

#include <QCoreApplication>

#include <algorithm>

namespace nb::gui {

namespace {

QString trCharts(const char *text)
{
    return QCoreApplication::translate("nb::gui::TestView", text);
}

} // namespace

double TestCharts::plannedSeconds(const QList<nb::TestParams> &plan)
{
    double seconds = 0;
    for (const nb::TestParams &p : plan)
        seconds += p.omit + p.duration;
    return seconds;
}

double TestCharts::nextCpuOffset(double offset, const nb::TestResult &done)
{
    return offset + std::max(done.localCpu.seconds(), done.params.omit + done.params.duration);
}

void TestCharts::prepare(const QList<nb::TestParams> &plan, double planned) const
{
    if (plan.isEmpty())
        return;
    const nb::TestParams &first = plan.constFirst();
    const bool anyStream =
        std::any_of(plan.cbegin(), plan.cend(), [](const nb::TestParams &p) { return !p.isRequestResponse(); });
    const bool anyRr =
        std::any_of(plan.cbegin(), plan.cend(), [](const nb::TestParams &p) { return p.isRequestResponse(); });
    throughput->startTest(anyStream ? (first.isTimed() ? first.duration : 0.0) : 10.0);
    if (!anyStream)
        throughput->setPlaceholderText(trCharts("A request/response test: see its tab"));
    rr->startTest(anyRr ? plan.constLast().duration : 10.0);
    if (!anyRr)
        rr->setPlaceholderText(trCharts("A throughput test: see its tab"));
    const bool udpStream = first.udp && !first.isRequestResponse();
    udp->startTest(udpStream && first.isTimed() ? first.duration : 10.0);
    if (!udpStream)
        udp->setPlaceholderText(trCharts("Not a UDP stream test: see the other tabs"));
    loaded->startTest(first);
    if (!first.isLoadedLatency())
        loaded->setPlaceholderText(trCharts("Not a latency-under-load test: see the other tabs"));
    cpu->startTest(first.isTimed() ? planned : 0.0);
}

QWidget *TestCharts::chartFor(const nb::TestParams &params) const
{
    if (params.isLoadedLatency())
        return loaded;
    if (params.udp && !params.isRequestResponse())
        return udp;
    return params.isRequestResponse() ? static_cast<QWidget *>(rr) : throughput;
}

void TestCharts::addIntervals(const nb::TestParams &params, const QList<nb::IntervalReport> &batch,
                              double cpuOffset) const
{
    for (const nb::IntervalReport &r : batch) {
        if (r.hasCpu)
            cpu->addSample(r.cpu, cpuOffset);
    }
    if (params.isRequestResponse()) {
        rr->addIntervals(batch);
        return;
    }
    throughput->addIntervals(batch);
    if (params.udp)
        udp->addIntervals(batch);
    else if (params.isLoadedLatency())
        loaded->addIntervals(batch);
}

void TestCharts::finish(const nb::TestResult &result, double cpuOffset) const
{
    if (result.remoteCpuKnown)
        cpu->setRemote(result.remoteCpuIntervals, result.remoteCpu, cpuOffset);
    if (result.params.udp && !result.params.isRequestResponse())
        udp->finishTest(result);
}

QWidget *TestCharts::showFinished(const QList<nb::TestResult> &results) const
{
    QList<nb::TestParams> plan;
    for (const nb::TestResult &r : results)
        plan << r.params;
    prepare(plan, plannedSeconds(plan));
    double offset = 0;
    for (const nb::TestResult &r : results) {
        if (!r.intervals.isEmpty())
            addIntervals(r.params, r.intervals, offset);
        finish(r, offset);
        offset = nextCpuOffset(offset, r);
    }
    cpu->setLocalIsAgent(
        std::any_of(results.cbegin(), results.cend(), [](const nb::TestResult &r) { return r.drivenBy.has_value(); }));
    if (results.isEmpty())
        return throughput;
    const auto empty = trCharts("Nothing measured"); // as a failed test leaves them
    if (!results.constLast().ok() && throughput->sampleCount() == 0)
        throughput->setPlaceholderText(empty);
    if (!results.constLast().ok() && rr->sampleCount() == 0)
        rr->setPlaceholderText(empty);
    if (!results.constLast().ok() && cpu->sampleCount() == 0)
        cpu->setPlaceholderText(empty);
    return chartFor(results.constLast().params);
}

} // namespace nb::gui
