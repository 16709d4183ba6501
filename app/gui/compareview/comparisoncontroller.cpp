// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/comparisoncontroller.h"

#include <compare/comparisonrunner.h>

namespace nb::gui {

// Lives on the worker thread; every report becomes a delivery of the controller's job.
class ComparisonController::Listener : public nb::ComparisonListener {
public:
    Listener(ComparisonController *owner, JobTracker::Id job) : m_owner(owner), m_job(job) {}
    void runStarted(const nb::Configuration &config, const nb::ScheduledRun &slot, int orderIndex, int total) override
    {
        m_owner->m_jobs.deliver(m_job, [o = m_owner, config, slot, orderIndex, total] {
            o->onRunStarted(config, slot, orderIndex, total);
        });
    }
    void runFinished(const nb::Run &run, int total) override
    {
        m_owner->m_jobs.deliver(m_job, [o = m_owner, run, total] { o->onRunFinished(run, total); });
    }
    void interval(int orderIndex, const nb::IntervalReport &report) override
    {
        m_owner->m_jobs.deliver(m_job, [o = m_owner, orderIndex, report] { Q_EMIT o->interval(orderIndex, report); });
    }
    void message(const QString &text) override
    {
        m_owner->m_jobs.deliver(m_job, [o = m_owner, text] { Q_EMIT o->message(text); });
    }

private:
    ComparisonController *m_owner;
    JobTracker::Id m_job;
};

ComparisonController::ComparisonController(QObject *parent) : QObject(parent) {}

ComparisonController::~ComparisonController()
{
    stop();
    m_jobs.wait();
}

bool ComparisonController::start(const nb::Comparison &comparison, QString *error)
{
    const auto refuse = [error](const QString &text) {
        if (error)
            *error = text;
        return false;
    };
    if (m_running)
        return refuse(tr("A comparison is already running."));
    QString problem = comparison.validate();
    if (problem.isEmpty())
        problem = comparison.checkAgents();
    if (!problem.isEmpty())
        return refuse(problem);
    const JobTracker::Id job = m_jobs.prepare();
    m_current = comparison;
    m_current.runs.clear();
    m_current.createdAt = QDateTime::currentDateTimeUtc();
    m_current.finishedAt = QDateTime();
    m_total = int(comparison.schedule().size());
    m_stopRequested = false;
    m_listener = std::make_shared<Listener>(this, job);
    m_runner = std::make_shared<nb::ComparisonRunner>(comparison, m_listener.get());
    m_running = true;
    m_jobs.run([this, runner = m_runner, listener = m_listener](JobTracker::Id id) {
        const nb::Comparison result = runner->run();
        m_jobs.deliver(id, [this, result] { onReturned(result); });
    });
    Q_EMIT progress(0, m_total, tr("Starting %n run(s)...", nullptr, m_total));
    return true;
}

void ComparisonController::stop()
{
    if (m_running && m_runner) {
        m_stopRequested = true;
        m_runner->requestStop();
    }
}

void ComparisonController::onRunStarted(const nb::Configuration &config, const nb::ScheduledRun &slot, int orderIndex,
                                        int total)
{
    Q_EMIT runStarted(config, slot, orderIndex, total);
    Q_EMIT progress(
        finishedRuns(), total,
        tr("Run %1 of %2: %3, round %4").arg(orderIndex + 1).arg(total).arg(config.label).arg(slot.repeatIndex + 1));
}

void ComparisonController::onRunFinished(const nb::Run &run, int total)
{
    m_current.runs.append(run);
    Q_EMIT runFinished(run, total);
}

void ComparisonController::onReturned(const nb::Comparison &result)
{
    m_jobs.wait(); // run() has returned; the thread is finishing its last statement
    m_runner.reset();
    m_listener.reset();
    m_running = false;
    m_current = result;
    const int done = int(result.runs.size());
    Q_EMIT progress(done, m_total,
                    m_stopRequested ? tr("Stopped after %1 of %2 runs").arg(done).arg(m_total)
                                    : tr("Finished %1 runs").arg(done));
    Q_EMIT finished(result);
}

} // namespace nb::gui
