// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonrunner.h"

#include "session/agentcontroller.h"
#include "session/throughputclient.h"

#include <QSet>

#include <chrono>
#include <thread>
#include <vector>

namespace nb {

namespace {

// Forwards one test's progress to the comparison listener, tagged with the run's position.
// Forwards one test's progress to the comparison listener, tagged with the run's position;
// one call at a time when runs go side by side.
class RunForwarder : public TestListener {
public:
    RunForwarder(ComparisonListener *target, int orderIndex, std::mutex *mutex)
        : m_target(target)
        , m_orderIndex(orderIndex)
        , m_mutex(mutex)
    {
    }
    void intervalReady(const IntervalReport &report) override
    {
        std::lock_guard lock(*m_mutex);
        if (m_target)
            m_target->interval(m_orderIndex, report);
    }
    void message(const QString &text) override
    {
        std::lock_guard lock(*m_mutex);
        if (m_target)
            m_target->message(text);
    }

private:
    ComparisonListener *m_target;
    int m_orderIndex;
    std::mutex *m_mutex;
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
    for (ThroughputClient *client : m_clients)
        client->requestStop();
    for (AgentController *agent : m_agents)
        agent->requestStop();
}

void ComparisonRunner::sleepUnlessStopped(double seconds)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!m_stop.load() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// Registers a running test for requestStop() while it runs; stops it at once when a stop
// came first.
template <typename Test> class Registered {
public:
    Registered(std::mutex &mutex, QList<Test *> &list, Test *test, const std::atomic<bool> &stop)
        : m_mutex(mutex)
        , m_list(list)
        , m_test(test)
    {
        std::lock_guard lock(m_mutex);
        m_list.append(m_test);
        if (stop.load())
            m_test->requestStop();
    }
    ~Registered()
    {
        std::lock_guard lock(m_mutex);
        m_list.removeOne(m_test);
    }
    Registered(const Registered &) = delete;
    Registered &operator=(const Registered &) = delete;

private:
    std::mutex &m_mutex;
    QList<Test *> &m_list;
    Test *m_test;
};

TestResult ComparisonRunner::attempt(const Configuration &conf, TestListener *forwarder)
{
    if (!conf.from.isSet()) {
        ThroughputClient client(conf.params, forwarder);
        Registered registered(m_clientMutex, m_clients, &client, m_stop);
        return client.run();
    }
    CommandLine cl;
    cl.mode = CommandLine::Mode::Client;
    cl.params = conf.params;
    cl.given = conf.from.given;
    cl.fromHost = conf.from.host;
    cl.fromPort = conf.from.port;
    cl.agentKeyPath = conf.from.keyPath.isEmpty() ? m_comparison.agentKeyPath : conf.from.keyPath;
    AgentController agent(cl, forwarder);
    Registered registered(m_clientMutex, m_agents, &agent, m_stop);
    return agent.run();
}

TestResult ComparisonRunner::runOne(const Configuration &conf, int orderIndex)
{
    RunForwarder forwarder(m_listener, orderIndex, &m_listenerMutex);
    TestResult result;
    for (int attemptIndex = 0;; ++attemptIndex) {
        result = attempt(conf, &forwarder);
        if (!serverWasBusy(result) || attemptIndex >= m_busyRetries || m_stop.load())
            break;
        forwarder.message(QStringLiteral("server busy, retrying in 1 s"));
        sleepUnlessStopped(1.0);
    }
    // A run that failed before the client learnt anything still says what it tried.
    result.params = conf.params;
    return result;
}

Run ComparisonRunner::runSlot(const ScheduledRun &slot, int orderIndex)
{
    const Configuration &conf = m_comparison.configurations[slot.configIndex];
    Run run;
    run.configIndex = slot.configIndex;
    run.repeatIndex = slot.repeatIndex;
    run.orderIndex = orderIndex;
    run.startedAt = QDateTime::currentDateTimeUtc();
    const QString invalid = conf.params.validate();
    if (!invalid.isEmpty()) {
        run.result.params = conf.params;
        run.result.error = invalid;
    } else {
        run.result = runOne(conf, orderIndex);
    }
    return run;
}

QList<QList<ScheduledRun>> ComparisonRunner::batchesOf(const Comparison &c) const
{
    QList<QList<ScheduledRun>> batches;
    if (m_groups.isEmpty()) {
        for (const ScheduledRun &slot : c.schedule())
            batches.append({slot});
        return batches;
    }
    for (int round = 0; round < c.repeats; ++round) {
        for (const QList<int> &group : m_groups) {
            QList<ScheduledRun> batch;
            for (int config : group)
                batch.append(ScheduledRun{config, round});
            batches.append(batch);
        }
    }
    return batches;
}

QString ComparisonRunner::checkGroups() const
{
    if (m_groups.isEmpty())
        return {};
    QSet<int> seen;
    for (const QList<int> &group : m_groups) {
        for (int config : group) {
            if (config < 0 || config >= m_comparison.configurations.size() || seen.contains(config))
                return QStringLiteral("the concurrent groups must hold each configuration once");
            seen.insert(config);
        }
        if (group.isEmpty())
            return QStringLiteral("a concurrent group is empty");
    }
    if (seen.size() != m_comparison.configurations.size())
        return QStringLiteral("the concurrent groups must hold each configuration once");
    return {};
}

Comparison ComparisonRunner::run()
{
    Comparison &c = m_comparison;
    c.runs.clear();
    c.finishedAt = QDateTime();
    if (!c.createdAt.isValid())
        c.createdAt = QDateTime::currentDateTimeUtc();
    QString problem = c.validate();
    if (problem.isEmpty())
        problem = c.checkAgents();
    if (problem.isEmpty())
        problem = checkGroups();
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
    const QList<QList<ScheduledRun>> batches = batchesOf(c);
    int total = 0;
    for (const QList<ScheduledRun> &batch : batches)
        total += int(batch.size());
    for (qsizetype b = 0; b < batches.size() && !m_stop.load(); ++b) {
        if (b > 0)
            sleepUnlessStopped(c.pauseSeconds);
        if (m_stop.load())
            break;
        const QList<ScheduledRun> &batch = batches[b];
        const int first = int(c.runs.size());
        std::vector<Run> runs(std::size_t(batch.size()));
        for (qsizetype k = 0; k < batch.size(); ++k)
            if (m_listener)
                m_listener->runStarted(c.configurations[batch[k].configIndex], batch[k], first + int(k), total);
        // The batch's runs at once (a mesh's pairs that share no host); one is a plain run.
        std::vector<std::thread> others;
        for (qsizetype k = 1; k < batch.size(); ++k)
            others.emplace_back([&, k] { runs[std::size_t(k)] = runSlot(batch[k], first + int(k)); });
        runs[0] = runSlot(batch[0], first);
        for (std::thread &t : others)
            t.join();
        for (const Run &run : runs) {
            const Configuration &conf = c.configurations[run.configIndex];
            if (!run.ok())
                c.warnings.append(QStringLiteral("run %1 (%2, repeat %3) failed: %4")
                                      .arg(run.orderIndex + 1)
                                      .arg(conf.label)
                                      .arg(run.repeatIndex + 1)
                                      .arg(run.result.error));
            c.runs.append(run);
            if (m_listener)
                m_listener->runFinished(c.runs.last(), total);
        }
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
