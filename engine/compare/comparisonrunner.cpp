// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonrunner.h"

#include "session/throughputclient.h"

#include <chrono>
#include <thread>

namespace nb {

namespace {

// Forwards one test's progress to the comparison listener, tagged with the run's position.
class RunForwarder : public TestListener {
public:
    RunForwarder(ComparisonListener *target, int orderIndex) : m_target(target), m_orderIndex(orderIndex) {}
    void intervalReady(const IntervalReport &report) override
    {
        if (m_target)
            m_target->interval(m_orderIndex, report);
    }
    void message(const QString &text) override
    {
        if (m_target)
            m_target->message(text);
    }

private:
    ComparisonListener *m_target;
    int m_orderIndex;
};

bool serverWasBusy(const TestResult &r)
{
    return !r.ok() && r.errorCode == ErrorCode::Busy;
}

} // namespace

ComparisonRunner::ComparisonRunner(Comparison comparison, ComparisonListener *listener)
    : m_comparison(std::move(comparison))
    , m_listener(listener)
{
}

ComparisonRunner::~ComparisonRunner() = default;

void ComparisonRunner::requestStop()
{
    m_stop.store(true);
    std::lock_guard lock(m_clientMutex);
    if (m_client)
        m_client->requestStop();
}

void ComparisonRunner::sleepUnlessStopped(double seconds)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!m_stop.load() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

TestResult ComparisonRunner::runOne(const TestParams &params, int orderIndex)
{
    RunForwarder forwarder(m_listener, orderIndex);
    TestResult result;
    for (int attempt = 0;; ++attempt) {
        ThroughputClient client(params, &forwarder);
        {
            std::lock_guard lock(m_clientMutex);
            m_client = &client;
        }
        if (m_stop.load())
            client.requestStop();
        result = client.run();
        {
            std::lock_guard lock(m_clientMutex);
            m_client = nullptr;
        }
        if (!serverWasBusy(result) || attempt >= m_busyRetries || m_stop.load())
            break;
        if (m_listener)
            m_listener->message(QStringLiteral("server busy, retrying in 1 s"));
        sleepUnlessStopped(1.0);
    }
    // A run that failed before the client learnt anything still says what it tried.
    result.params = params;
    return result;
}

Comparison ComparisonRunner::run()
{
    Comparison &c = m_comparison;
    c.runs.clear();
    c.finishedAt = QDateTime();
    if (!c.createdAt.isValid())
        c.createdAt = QDateTime::currentDateTimeUtc();
    const QString problem = c.validate();
    if (!problem.isEmpty()) {
        c.warnings.append(problem);
        return c;
    }
    for (const Configuration &conf : c.configurations) {
        const QString bad = conf.params.validate();
        if (!bad.isEmpty())
            c.warnings.append(QStringLiteral("configuration \"%1\": %2").arg(conf.label, bad));
    }
    c.environment.local = HostEnvironment::local();
    const QList<ScheduledRun> schedule = c.schedule();
    const int total = int(schedule.size());
    for (int i = 0; i < total && !m_stop.load(); ++i) {
        const ScheduledRun slot = schedule[i];
        const Configuration &conf = c.configurations[slot.configIndex];
        if (i > 0)
            sleepUnlessStopped(c.pauseSeconds);
        if (m_stop.load())
            break;
        if (m_listener)
            m_listener->runStarted(conf, slot, i, total);
        Run run;
        run.configIndex = slot.configIndex;
        run.repeatIndex = slot.repeatIndex;
        run.orderIndex = i;
        run.startedAt = QDateTime::currentDateTimeUtc();
        const QString invalid = conf.params.validate();
        if (!invalid.isEmpty()) {
            run.result.params = conf.params;
            run.result.error = invalid;
        } else {
            run.result = runOne(conf.params, i);
        }
        if (!run.ok())
            c.warnings.append(QStringLiteral("run %1 (%2, repeat %3) failed: %4")
                                  .arg(i + 1)
                                  .arg(conf.label)
                                  .arg(slot.repeatIndex + 1)
                                  .arg(run.result.error));
        c.runs.append(run);
        if (m_listener)
            m_listener->runFinished(c.runs.last(), total);
    }
    QList<TestResult> results;
    for (const Run &r : c.runs)
        results.append(r.result);
    c.environment.remote = remoteHostFromResults(results);
    if (c.runs.size() < total)
        c.warnings.append(QStringLiteral("stopped after %1 of %2 runs").arg(c.runs.size()).arg(total));
    else
        c.finishedAt = QDateTime::currentDateTimeUtc();
    return c;
}

} // namespace nb
