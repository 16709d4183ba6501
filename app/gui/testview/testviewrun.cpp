// SPDX-License-Identifier: GPL-3.0-or-later
// TestView, part two: how the Test tab runs a plan (one test, or throughput then
// request/response for "both"), follows its progress and reports how it ended. The
// layout and the settings are in testview.cpp.
#include "core/format.h"
#include "testview/testview.h"

#include "testview/testcharts.h"
#include "testview/testpanel.h"
#include "testview/testrunner.h"
#include "window/appsettings.h"
#include "window/builtinserver.h"

#include <adapters/adapterlist.h>
#include <adapters/adaptermonitor.h>
#include <common/loadedlatencyformat.h>
#include <common/messagebanner.h>
#include <common/ratescale.h>
#include <common/rrformat.h>
#include <common/udpformat.h>
#include <live/cpuchart.h>
#include <live/livetestchart.h>
#include <live/loadedlatencychart.h>
#include <live/rrchart.h>
#include <live/udpchart.h>
#include <model/resultexport.h>
#include <results/resultssummary.h>
#include <results/streamresultsmodel.h>
#include <session/agentkey.h>
#include <session/testarguments.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QProgressBar>
#include <QSaveFile>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>

#include <algorithm>
#include <cmath>

namespace nb::gui {

namespace {

// The engine's error in words an admin can act on, with a hint at the usual cause.
QString plainError(const nb::TestResult &result)
{
    QString text = nb::ui::MessageBanner::sentence(result.error);
    switch (result.errorCode) {
    case nb::ErrorCode::Refused:
        text += QObject::tr(" Nothing is listening there: start a server on that computer "
                            "(nicbench-cli -s or iperf3 -s) or check the port.");
        break;
    case nb::ErrorCode::Timeout:
    case nb::ErrorCode::Unreachable:
        text += QObject::tr(" Check the address, the network path and any firewall in between.");
        break;
    case nb::ErrorCode::Resolve:
        text += QObject::tr(" Check the host name.");
        break;
    default:
        break;
    }
    if (!result.intervals.isEmpty())
        text += QObject::tr(" What was measured before that is kept below.");
    return text;
}

} // namespace

void TestView::stop()
{
    if (!m_runner->isRunning())
        return;
    m_stopRequested = true; // also cancels the rest of a "both" run
    m_stoppedAt = m_dataFlowing ? elapsedSeconds() : -1;
    m_runner->stop();
}

void TestView::runFromPanel()
{
    if (m_runner->isRunning())
        return;
    if (const QString why = m_startGuard ? m_startGuard() : QString(); !why.isEmpty()) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, why);
        return;
    }
    QList<nb::TestParams> plan;
    QString error;
    if (!m_panel->testPlan(&plan, &error)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, nb::ui::MessageBanner::sentence(error));
        return;
    }
    QList<nb::CommandLine> agentLines;
    const QString agent = m_panel->agentFrom();
    if (!agent.isEmpty() && !agentPlan(agent, plan, &agentLines, &error)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, nb::ui::MessageBanner::sentence(error));
        return;
    }
    m_panel->rememberCurrentTarget();
    QSettings settings;
    m_panel->saveState(settings);
    startPlan(plan, agentLines);
}

bool TestView::agentPlan(const QString &agent, const QList<nb::TestParams> &plan, QList<nb::CommandLine> *out,
                         QString *why) const
{
    const QString keyPath = AppSettings::agentKeyPath();
    if (keyPath.isEmpty()) {
        *why = tr("To run the test from %1, choose the agent key file first (Tools > Hosts > Choose Key File): "
                  "the file the agent was started with (--agent-key)")
                   .arg(agent);
        return false;
    }
    QByteArray secret;
    if (!nb::loadAgentKey(keyPath, &secret, why))
        return false;
    if (m_panel->isLoopbackSelected()) {
        *why = tr("From the agent %1, \"%2\" would be the agent's own loopback: type the address of the "
                  "computer it should test toward as the Target")
                   .arg(agent, TestPanel::loopbackLabel());
        return false;
    }
    out->clear();
    for (const nb::TestParams &p : plan) {
        nb::CommandLine cl;
        if (!nb::agentCommandLine(p, agent, keyPath, &cl, why))
            return false;
        out->append(cl);
    }
    return true;
}

void TestView::runTest(nb::TestParams params)
{
    params = params.normalized(); // latency under load: its length and directions come from the phases
    if (params.host.isEmpty()) {
        m_panel->selectLoopback();
        params.host = BuiltinServer::address();
        params.port = m_server->port();
        nb::TestParams shown = params;
        shown.host.clear();
        m_panel->setParams(shown);
    } else {
        m_panel->setParams(params);
    }
    startPlan({params});
}

void TestView::startPlan(const QList<nb::TestParams> &plan, const QList<nb::CommandLine> &agentLines)
{
    if (m_runner->isRunning() || plan.isEmpty()) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("A test is already running."));
        return;
    }
    if (const QString why = m_startGuard ? m_startGuard() : QString(); !why.isEmpty()) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, why);
        return;
    }
    m_plan = plan;
    m_agentLines = agentLines;
    m_agentFrom = agentLines.isEmpty() ? QString() : m_panel->agentFrom();
    m_planIndex = 0;
    m_stopRequested = false;
    m_stoppedAt = -1;
    m_planResults.clear();
    m_planSeconds = TestCharts::plannedSeconds(plan);
    m_doneSeconds = 0;
    m_timeOffset = 0;
    m_banner->dismiss();
    m_summary->clear();
    m_summary->showLive(0, 0);
    m_streamModel->clear();
    const nb::TestParams &first = plan.constFirst();
    charts().prepare(plan, m_planSeconds);
    m_cpuChart->setLocalIsAgent(!m_agentFrom.isEmpty());
    // Request/response has no streams to list; the summary gets the room.
    m_streamTable->setVisible(
        std::any_of(plan.cbegin(), plan.cend(), [](const nb::TestParams &p) { return !p.isRequestResponse(); }));
    m_chartTabs->setCurrentWidget(chartFor(first));
    m_reopenedAt = QDateTime();
    m_reopenedLabel.clear();
    m_progressLabel->setToolTip(QString());
    m_host.reset();
    m_current = first;
    setRunning(true);
    startNext();
}

void TestView::startNext()
{
    const nb::TestParams &params = m_plan.at(m_planIndex);
    const bool agent = m_planIndex < m_agentLines.size();
    if (!(agent ? m_runner->startThroughAgent(m_agentLines.at(m_planIndex)) : m_runner->start(params)))
        return;
    m_current = params;
    m_dataFlowing = false;
    m_lastIntervalEnd = 0;
    if (m_planIndex > 0)
        m_chartTabs->setCurrentWidget(chartFor(params));
    const QString step = m_plan.size() > 1 ? tr(" (test %1 of %2)").arg(m_planIndex + 1).arg(m_plan.size()) : QString();
    m_progressLabel->setText(agent ? tr("Connecting to the agent %1 to test toward %2 port %3...%4")
                                         .arg(m_agentFrom, params.host)
                                         .arg(params.port)
                                         .arg(step)
                                   : tr("Connecting to %1 port %2...%3").arg(params.host).arg(params.port).arg(step));
    if (m_planIndex == 0)
        m_progress->setValue(0);
    Q_EMIT runningChanged(true); // the description changed
}

void TestView::onStarted(const nb::TestResult &header)
{
    m_dataFlowing = true;
    m_clock.start();
    m_progressTimer.start();
    updateProgress();
    selectTestAdapter(header);
}

void TestView::selectTestAdapter(const nb::TestResult &header)
{
    if (header.drivenBy)
        return; // the agent's adapters, not this computer's
    // Show the adapter the test actually leaves through, so its graph fills up.
    std::optional<nb::AdapterInfo> adapter = header.localAdapter;
    if (!adapter && !header.connections.isEmpty())
        adapter =
            nb::adapterForLocalAddress(QHostAddress(header.connections.constFirst().localHost), m_monitor->adapters());
    if (!adapter) {
        const QHostAddress target(m_current.host);
        if (!target.isNull() && target.isLoopback())
            adapter = nb::adapterForLocalAddress(target, m_monitor->adapters());
    }
    if (adapter)
        m_adapterList->selectAdapter(adapter->name);
}

void TestView::onIntervals(const QList<nb::IntervalReport> &batch)
{
    charts().addIntervals(m_current, batch, m_timeOffset);
    for (auto it = batch.crbegin(); it != batch.crend(); ++it) {
        if (it->hasCpu) {
            m_summary->showLiveCpu(it->cpu);
            break;
        }
    }
    if (m_current.isRequestResponse()) {
        const nb::IntervalReport &last = batch.constLast();
        if (last.hasRr)
            m_summary->showLiveText(tr("Transactions %1, p99 %2")
                                        .arg(nb::formatTransactionsPerSecond(last.rr.transactionsPerSecond()),
                                             nb::formatMicroseconds(last.rr.latencyUs.p99)));
        return;
    }
    if (m_current.udp) {
        showUdpLive(batch);
        return;
    }
    if (m_current.isLoadedLatency()) {
        showLoadedLatencyLive(batch);
        return;
    }
    for (auto it = batch.crbegin(); it != batch.crend(); ++it) {
        const bool hasSend = it->hasDirection(true);
        const bool hasReceive = it->hasDirection(false);
        const nb::IntervalSum send = hasSend ? it->sum(true) : nb::IntervalSum();
        const nb::IntervalSum receive = hasReceive ? it->sum(false) : nb::IntervalSum();
        if ((hasSend && send.omitted) || (hasReceive && receive.omitted))
            continue;
        m_summary->showLive(hasSend ? send.bitsPerSecond() : 0, hasReceive ? receive.bitsPerSecond() : 0);
        m_lastIntervalEnd = std::max(send.end, receive.end);
        break;
    }
}

QWidget *TestView::chartFor(const nb::TestParams &params) const
{
    return charts().chartFor(params);
}

TestCharts TestView::charts() const
{
    return TestCharts{m_chart, m_rrChart, m_loadedChart, m_udpChart, m_cpuChart};
}

void TestView::showLoadedLatencyLive(const QList<nb::IntervalReport> &batch)
{
    // "Download: probe p99 1.20 ms, up 1.1 Mbit/s, down 940 Mbit/s" for the latest interval.
    const nb::IntervalReport &last = batch.constLast();
    const nb::LoadSchedule schedule = m_current.loadSchedule();
    double mid = -1;
    QStringList parts;
    if (last.hasRr && last.rr.latencyUs.count > 0) {
        mid = (last.rr.start + last.rr.end) / 2;
        parts.append(tr("probe p99 %1").arg(nb::formatMicroseconds(last.rr.latencyUs.p99)));
    }
    for (bool clientSent : {true, false}) {
        if (!last.hasDirection(clientSent))
            continue;
        const nb::IntervalSum sum = last.sum(clientSent);
        if (mid < 0)
            mid = (sum.start + sum.end) / 2;
        parts.append((clientSent ? tr("up %1") : tr("down %1")).arg(nb::formatBitrate(sum.bitsPerSecond())));
        m_lastIntervalEnd = std::max(m_lastIntervalEnd, sum.end);
    }
    if (parts.isEmpty() || schedule.size() == 0)
        return;
    const QString phase = nb::ui::loadPhaseTitle(schedule.phases().at(schedule.phaseAt(mid)));
    m_summary->showLiveText(tr("%1: %2").arg(phase, parts.join(QStringLiteral(", "))));
}

void TestView::showUdpLive(const QList<nb::IntervalReport> &batch)
{
    // "Sending 100 Mbit/s" and "Receiving 98.2 Mbit/s, 1.8% lost": what this side measures
    // (jitter is in the chart; the headline stays on one line each at 1280x720); the
    // server's loss and jitter of an upload come with the results.
    const nb::IntervalReport &last = batch.constLast();
    QStringList parts;
    for (bool sent : {true, false}) {
        if (!last.hasDirection(sent))
            continue;
        const nb::IntervalSum sum = last.sum(sent);
        if (sum.omitted)
            continue;
        parts.append(sent ? tr("Sending %1").arg(nb::formatBitrate(sum.bitsPerSecond()))
                          : tr("Receiving %1, %2 lost")
                                .arg(nb::formatBitrate(sum.bitsPerSecond()), nb::formatLossPercent(sum.lostPercent())));
        m_lastIntervalEnd = std::max(m_lastIntervalEnd, sum.end);
    }
    if (!parts.isEmpty())
        m_summary->showLiveText(parts.join(QLatin1Char('\n')));
}

double TestView::elapsedSeconds() const
{
    return m_doneSeconds + m_clock.elapsed() / 1000.0;
}

QString TestView::secondsText(double seconds)
{
    const double tenths = std::round(seconds * 10) / 10;
    return nb::formatFixed(tenths, tenths == std::floor(tenths) ? 0 : 1);
}

QString TestView::progressText(double elapsedSeconds, double totalSeconds)
{
    // Whole seconds shown, and the rest of the total after them: 1 s of 6 s, 5 s left.
    const double shown = std::clamp(std::floor(elapsedSeconds), 0.0, totalSeconds);
    const double left = std::max(0.0, totalSeconds - shown);
    if (left <= 0)
        return tr("%1 s of %1 s").arg(secondsText(totalSeconds));
    return tr("%1 s of %2 s, %3 s left").arg(secondsText(shown), secondsText(totalSeconds), secondsText(left));
}

void TestView::updateProgress()
{
    if (!m_dataFlowing)
        return;
    const double elapsed = elapsedSeconds();
    const double total = m_planSeconds;
    if (!m_current.isTimed()) {
        m_progress->setRange(0, 0); // a byte count has no known end time
        m_progressLabel->setText(tr("%1 s").arg(nb::formatFixed(std::floor(elapsed), 0)));
        return;
    }
    m_progress->setRange(0, 1000);
    const double fraction = total > 0 ? std::clamp(elapsed / total, 0.0, 1.0) : 0.0;
    m_progress->setValue(int(fraction * 1000));
    m_progressLabel->setText(progressText(elapsed, total));
}

void TestView::onFinished(const nb::TestResult &result)
{
    m_progressTimer.stop();
    m_dataFlowing = false;
    nb::TestResult shown = result;
    if (m_server->isListening() && result.params.host == BuiltinServer::address() &&
        result.params.port == m_server->port() && !result.intervals.isEmpty())
        shown.warnings.append(tr("The built-in server runs in this process, so both CPU figures cover "
                                 "client and server together."));
    m_planResults.append(shown);
    charts().finish(result, m_timeOffset);
    if (!result.isServerSide && !result.hasRr)
        m_streamModel->setResult(result);
    // "Both": the request/response test follows a throughput test that worked.
    if (result.ok() && !m_stopRequested && m_planIndex + 1 < m_plan.size()) {
        const nb::TestParams &done = m_plan.at(m_planIndex);
        m_doneSeconds += done.omit + done.duration;
        m_timeOffset = TestCharts::nextCpuOffset(m_timeOffset, result);
        m_summary->showResults(m_planResults);
        ++m_planIndex;
        startNext();
        return;
    }
    finishPlan();
}

void TestView::finishPlan()
{
    setRunning(false);
    m_progress->setRange(0, 1000);
    const nb::TestResult &result = m_planResults.constLast();
    // A user's Stop after data flowed keeps the data, and says how far the run got.
    const bool stoppedByUser = m_stopRequested && m_stoppedAt >= 0 && result.errorCode != nb::ErrorCode::Stopped &&
                               (result.ok() || !result.intervals.isEmpty());
    if (stoppedByUser) {
        const nb::TestParams &p = m_plan.at(m_planIndex);
        const double inTest = std::clamp(m_stoppedAt - m_doneSeconds, 0.0, p.omit + p.duration);
        m_summary->showResults(m_planResults, p.isTimed() ? inTest : -1);
    } else {
        m_summary->showResults(m_planResults);
    }
    if (stoppedByUser && m_current.isTimed()) {
        const QString text = tr("Stopped after %1 s of %2 s")
                                 .arg(secondsText(std::min(m_stoppedAt, m_planSeconds)), secondsText(m_planSeconds));
        m_progress->setValue(int(std::clamp(m_stoppedAt / m_planSeconds, 0.0, 1.0) * 1000));
        m_progressLabel->setText(text);
        Q_EMIT statusMessage(tr("Test stopped after %1 s of %2 s: %3")
                                 .arg(secondsText(std::min(m_stoppedAt, m_planSeconds)), secondsText(m_planSeconds),
                                      m_summary->toText().section(QLatin1Char('\n'), 0, 0)),
                             10000);
    } else if (stoppedByUser) {
        m_progressLabel->setText(tr("Stopped after %1 s").arg(secondsText(m_stoppedAt)));
        Q_EMIT statusMessage(tr("Test stopped after %1 s").arg(secondsText(m_stoppedAt)), 10000);
    } else if (result.ok()) {
        m_progress->setValue(1000);
        m_progressLabel->setText(
            m_current.isTimed() ? tr("Finished: %1").arg(progressText(m_planSeconds, m_planSeconds)) : tr("Finished"));
        Q_EMIT statusMessage(tr("Test finished: %1").arg(m_summary->toText().section(QLatin1Char('\n'), 0, 0)), 10000);
    } else if (result.errorCode == nb::ErrorCode::Stopped) {
        m_progressLabel->setText(tr("Stopped"));
        if (m_chart->sampleCount() == 0)
            m_chart->setPlaceholderText(tr("Nothing measured"));
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("The test was stopped before data flowed."));
    } else {
        m_progressLabel->setText(tr("Failed"));
        if (m_chart->sampleCount() == 0)
            m_chart->setPlaceholderText(tr("Nothing measured"));
        if (m_rrChart->sampleCount() == 0)
            m_rrChart->setPlaceholderText(tr("Nothing measured"));
        if (m_cpuChart->sampleCount() == 0)
            m_cpuChart->setPlaceholderText(tr("Nothing measured"));
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, plainError(result));
    }
    writeJsonOutput();
    Q_EMIT testFinished(result);
}

void TestView::writeJsonOutput() const
{
    if (m_jsonOutputPath.isEmpty() || m_planResults.isEmpty())
        return;
    const QJsonDocument doc(nb::resultsDocument(m_planResults)); // {"results": [...]} for "both"
    QSaveFile file(m_jsonOutputPath);
    if (!file.open(QIODevice::WriteOnly) || file.write(doc.toJson()) < 0 || !file.commit())
        qWarning("nicbench: cannot write %s: %s", qPrintable(m_jsonOutputPath), qPrintable(file.errorString()));
}

} // namespace nb::gui
