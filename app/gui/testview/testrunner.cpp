// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/testrunner.h"

#include <model/testlistener.h>
#include <session/agentcontroller.h>
#include <session/throughputclient.h>

namespace nb::gui {

// Lives on the engine's thread; every report becomes a delivery of the runner's job, and
// intervals are batched: a burst of reports costs the GUI one wake-up.
class TestRunner::Listener : public nb::TestListener {
public:
    Listener(TestRunner *owner, JobTracker::Id job)
        : m_owner(owner)
        , m_job(job)
        , m_intervals(owner->m_jobs.makeBatch<nb::IntervalReport>(
              job, [owner](const QList<nb::IntervalReport> &batch) { Q_EMIT owner->intervalsReady(batch); }))
    {
    }

    void testStarted(const nb::TestResult &header) override
    {
        m_owner->m_jobs.deliver(m_job, [owner = m_owner, header] { Q_EMIT owner->started(header); });
    }
    void intervalReady(const nb::IntervalReport &report) override { m_intervals->append(report); }
    void message(const QString &text) override
    {
        m_owner->m_jobs.deliver(m_job, [owner = m_owner, text] { Q_EMIT owner->message(text); });
    }

private:
    TestRunner *m_owner;
    JobTracker::Id m_job;
    std::shared_ptr<JobTracker::Batch<nb::IntervalReport>> m_intervals;
};

TestRunner::TestRunner(QObject *parent) : QObject(parent) {}

TestRunner::~TestRunner()
{
    stop();
    m_jobs.wait();
}

bool TestRunner::start(const nb::TestParams &params)
{
    if (m_running)
        return false;
    const JobTracker::Id job = m_jobs.prepare();
    m_listener = std::make_shared<Listener>(this, job);
    m_client = std::make_shared<nb::ThroughputClient>(params, m_listener.get());
    m_running = true;
    m_jobs.run([this, client = m_client, listener = m_listener](JobTracker::Id id) {
        // The batch posted the intervals still pending before this, so they come first.
        const nb::TestResult result = client->run();
        m_jobs.deliver(id, [this, result] { onRunReturned(result); });
    });
    return true;
}

bool TestRunner::startThroughAgent(const nb::CommandLine &commandLine)
{
    if (m_running)
        return false;
    const JobTracker::Id job = m_jobs.prepare();
    m_listener = std::make_shared<Listener>(this, job);
    m_agent = std::make_shared<nb::AgentController>(commandLine, m_listener.get());
    m_running = true;
    m_jobs.run([this, agent = m_agent, listener = m_listener](JobTracker::Id id) {
        const nb::TestResult result = agent->run();
        m_jobs.deliver(id, [this, result] { onRunReturned(result); });
    });
    return true;
}

void TestRunner::stop()
{
    if (m_running && m_client)
        m_client->requestStop();
    if (m_running && m_agent)
        m_agent->requestStop();
}

void TestRunner::onRunReturned(const nb::TestResult &result)
{
    // run() has returned; the thread is finishing its last statement.
    m_jobs.wait();
    m_client.reset();
    m_agent.reset();
    m_listener.reset();
    m_running = false;
    Q_EMIT finished(result);
}

} // namespace nb::gui
