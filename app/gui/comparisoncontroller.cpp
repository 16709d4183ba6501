// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisoncontroller.h"

#include <compare/comparisonrunner.h>

#include <QMetaObject>
#include <QThread>

namespace nb::gui {

// Lives on the worker thread; every report becomes a queued call into the controller.
// The controller joins the worker before it is destroyed and Qt drops queued calls to a
// deleted context, so the raw pointer is safe.
class ComparisonController::Listener : public nb::ComparisonListener {
public:
    Listener(ComparisonController *owner, quint64 job) : m_owner(owner), m_job(job) {}
    void runStarted(const nb::Configuration &config, const nb::ScheduledRun &slot, int orderIndex, int total) override
    {
        post([o = m_owner, j = m_job, config, slot, orderIndex, total] {
            o->onRunStarted(j, config, slot, orderIndex, total);
        });
    }
    void runFinished(const nb::Run &run, int total) override
    {
        post([o = m_owner, j = m_job, run, total] { o->onRunFinished(j, run, total); });
    }
    void interval(int orderIndex, const nb::IntervalReport &report) override
    {
        post([o = m_owner, j = m_job, orderIndex, report] { o->onInterval(j, orderIndex, report); });
    }
    void message(const QString &text) override
    {
        post([o = m_owner, j = m_job, text] { o->onMessage(j, text); });
    }
    template <typename F> void post(F &&f)
    {
        QMetaObject::invokeMethod(m_owner, std::forward<F>(f), Qt::QueuedConnection);
    }

private:
    ComparisonController *m_owner;
    quint64 m_job;
};

ComparisonController::ComparisonController(QObject *parent) : QObject(parent) {}

ComparisonController::~ComparisonController()
{
    stop();
    joinWorker();
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
    const QString problem = comparison.validate();
    if (!problem.isEmpty())
        return refuse(problem);
    joinWorker();
    const quint64 job = ++m_job;
    m_current = comparison;
    m_current.runs.clear();
    m_current.createdAt = QDateTime::currentDateTimeUtc();
    m_current.finishedAt = QDateTime();
    m_total = int(comparison.schedule().size());
    m_stopRequested = false;
    m_listener = std::make_shared<Listener>(this, job);
    m_runner = std::make_shared<nb::ComparisonRunner>(comparison, m_listener.get());
    m_running = true;
    m_thread.reset(QThread::create([this, job, runner = m_runner, listener = m_listener] {
        const nb::Comparison result = runner->run();
        listener->post([self = this, job, result] { self->onReturned(job, result); });
    }));
    m_thread->setObjectName(QStringLiteral("comparison"));
    m_thread->start();
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

void ComparisonController::joinWorker()
{
    if (m_thread) {
        m_thread->wait();
        m_thread.reset();
    }
}

void ComparisonController::onRunStarted(quint64 job, const nb::Configuration &config, const nb::ScheduledRun &slot,
                                        int orderIndex, int total)
{
    if (job != m_job)
        return;
    Q_EMIT runStarted(config, slot, orderIndex, total);
    Q_EMIT progress(
        finishedRuns(), total,
        tr("Run %1 of %2: %3, round %4").arg(orderIndex + 1).arg(total).arg(config.label).arg(slot.repeatIndex + 1));
}

void ComparisonController::onRunFinished(quint64 job, const nb::Run &run, int total)
{
    if (job != m_job)
        return;
    m_current.runs.append(run);
    Q_EMIT runFinished(run, total);
}

void ComparisonController::onInterval(quint64 job, int orderIndex, const nb::IntervalReport &report)
{
    if (job == m_job)
        Q_EMIT interval(orderIndex, report);
}

void ComparisonController::onMessage(quint64 job, const QString &text)
{
    if (job == m_job)
        Q_EMIT message(text);
}

void ComparisonController::onReturned(quint64 job, const nb::Comparison &result)
{
    if (job != m_job)
        return;
    joinWorker();
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
