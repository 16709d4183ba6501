// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs one test at a time on a worker thread (a JobTracker job), here or through an agent
// (session/agentcontroller.h, the CLI's --from), and hands its reports to the GUI thread in
// batches. Reports of a job that was abandoned are dropped.

#include "window/jobtracker.h"

#include <model/results.h>

#include <QObject>

#include <memory>

namespace nb {
class AgentController;
class ThroughputClient;
struct CommandLine;
} // namespace nb

namespace nb::gui {

class TestRunner : public QObject {
    Q_OBJECT
public:
    explicit TestRunner(QObject *parent = nullptr);
    // Stops a running test and waits for its thread.
    ~TestRunner() override;

    bool isRunning() const { return m_running; }
    // Starts a test; returns false when one is already running.
    bool start(const nb::TestParams &params);
    // Starts a test an agent runs: a client command line with --from and --agent-key
    // (session/testarguments.h builds it); the reports are the agent's.
    bool startThroughAgent(const nb::CommandLine &commandLine);
    // Asks the engine to end the test early; it keeps what was measured.
    void stop();

Q_SIGNALS:
    void started(const nb::TestResult &header);
    void intervalsReady(const QList<nb::IntervalReport> &batch);
    void message(const QString &text);
    void finished(const nb::TestResult &result);

private:
    class Listener;
    void onRunReturned(const nb::TestResult &result);

    bool m_running = false;
    std::shared_ptr<Listener> m_listener;
    std::shared_ptr<nb::ThroughputClient> m_client;
    std::shared_ptr<nb::AgentController> m_agent;
    JobTracker m_jobs{this}; // last: destroyed (and joined) first
};

} // namespace nb::gui
