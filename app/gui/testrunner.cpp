// SPDX-License-Identifier: GPL-3.0-or-later
#include "testrunner.h"

#include <test/testlistener.h>
#include <test/throughputclient.h>

#include <QMetaObject>

#include <mutex>

namespace nb::gui {

// Lives on the engine's thread. Intervals are collected and posted as one batch per
// event-loop turn, so a burst of reports costs the GUI one wake-up.
class TestRunner::Listener : public nb::TestListener, public std::enable_shared_from_this<Listener> {
public:
    Listener(TestRunner *owner, quint64 job) : m_owner(owner), m_job(job) {}

    void testStarted(const nb::TestResult &header) override
    {
        post([owner = m_owner, job = m_job, header] { owner->onStarted(job, header); });
    }

    void intervalReady(const nb::IntervalReport &report) override
    {
        std::lock_guard lock(m_mutex);
        m_pending.append(report);
        if (m_flushPosted)
            return;
        m_flushPosted = true;
        post([self = shared_from_this()] { self->flush(); });
    }

    void message(const QString &text) override
    {
        post([owner = m_owner, job = m_job, text] { owner->onMessage(job, text); });
    }

    // Runs on the GUI thread.
    void flush()
    {
        QList<nb::IntervalReport> batch;
        {
            std::lock_guard lock(m_mutex);
            batch.swap(m_pending);
            m_flushPosted = false;
        }
        if (!batch.isEmpty())
            m_owner->onIntervals(m_job, batch);
    }

    template <typename F> void post(F &&f)
    {
        // The owner joins this thread before it is destroyed, and Qt drops queued calls
        // to a deleted context, so the raw pointer is safe here.
        QMetaObject::invokeMethod(m_owner, std::forward<F>(f), Qt::QueuedConnection);
    }

private:
    TestRunner *m_owner;
    quint64 m_job;
    std::mutex m_mutex;
    QList<nb::IntervalReport> m_pending;
    bool m_flushPosted = false;
};

TestRunner::TestRunner(QObject *parent) : QObject(parent) {}

TestRunner::~TestRunner()
{
    stop();
    joinWorker();
}

bool TestRunner::start(const nb::TestParams &params)
{
    if (m_running)
        return false;
    joinWorker();
    const quint64 job = ++m_job;
    m_listener = std::make_shared<Listener>(this, job);
    m_client = std::make_shared<nb::ThroughputClient>(params, m_listener.get());
    m_running = true;
    m_worker = std::thread([this, job, client = m_client, listener = m_listener] {
        nb::TestResult result = client->run();
        listener->post([self = this, job, result, listener] {
            listener->flush(); // intervals still pending come before the end
            self->onRunReturned(job, result);
        });
    });
    return true;
}

void TestRunner::stop()
{
    if (m_running && m_client)
        m_client->requestStop();
}

void TestRunner::joinWorker()
{
    if (m_worker.joinable())
        m_worker.join();
}

void TestRunner::onStarted(quint64 job, const nb::TestResult &header)
{
    if (job == m_job)
        Q_EMIT started(header);
}

void TestRunner::onIntervals(quint64 job, const QList<nb::IntervalReport> &batch)
{
    if (job == m_job)
        Q_EMIT intervalsReady(batch);
}

void TestRunner::onMessage(quint64 job, const QString &text)
{
    if (job == m_job)
        Q_EMIT message(text);
}

void TestRunner::onRunReturned(quint64 job, const nb::TestResult &result)
{
    if (job != m_job)
        return;
    // run() has returned; the thread is finishing its last statement.
    joinWorker();
    m_client.reset();
    m_listener.reset();
    m_running = false;
    Q_EMIT finished(result);
}

} // namespace nb::gui
