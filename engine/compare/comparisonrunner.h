// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs a comparison: every configuration `repeats` times in the comparison's order
// (interleaved A B C A B C ..., or shuffled rounds), one test at a time, recording each
// run's result, start time and position. A failed run is recorded with its error and the
// comparison goes on. A configuration with an agent (Configuration::from) runs on that
// agent, driven from here (session/agentcontroller.h). run() blocks the calling thread (use a worker thread in a GUI);
// requestStop() may be called from any thread.

#include "compare/comparison.h"

#include <QString>

#include <atomic>
#include <mutex>

namespace nb {

class AgentController;
class ThroughputClient;

// Called on the thread that runs the comparison; a GUI hands the values over with a
// queued call. Every value passed is a copy-able value type.
class ComparisonListener {
public:
    virtual ~ComparisonListener() = default;
    // `orderIndex` counts from 0 up to `total` - 1.
    virtual void runStarted(const Configuration & /*config*/, const ScheduledRun & /*slot*/, int /*orderIndex*/,
                            int /*total*/)
    {
    }
    virtual void runFinished(const Run & /*run*/, int /*total*/) {}
    // Live interval of the run at `orderIndex`.
    virtual void interval(int /*orderIndex*/, const IntervalReport & /*report*/) {}
    virtual void message(const QString & /*text*/) {}
};

class ComparisonRunner {
public:
    explicit ComparisonRunner(Comparison comparison, ComparisonListener *listener = nullptr);
    ~ComparisonRunner();

    // Executes the schedule and returns the comparison with its runs, environment and
    // warnings filled in. Runs already present are discarded. When stopped early the runs
    // done so far are kept and finishedAt stays invalid.
    Comparison run();
    void requestStop();
    bool stopRequested() const { return m_stop.load(); }

    // A run that meets a busy server ("the server is busy running a test") is retried
    // this many times, one second apart, before it counts as failed.
    void setBusyRetries(int retries) { m_busyRetries = retries; }
    // Configurations that run at once: each round runs the groups one after the other and
    // the configurations of a group side by side (a mesh's pairs that share no host,
    // `--parallel disjoint`). Every configuration in exactly one group; the comparison's
    // order is then the groups'. Empty (the default): one run at a time. While groups run,
    // the listener's interval() and message() come from the runs' threads.
    void setConcurrentGroups(QList<QList<int>> groups) { m_groups = std::move(groups); }

private:
    QString checkGroups() const;
    QList<QList<ScheduledRun>> batchesOf(const Comparison &c) const;
    Run runSlot(const ScheduledRun &slot, int orderIndex);
    TestResult runOne(const Configuration &conf, int orderIndex);
    // One attempt: here, or on the configuration's agent.
    TestResult attempt(const Configuration &conf, TestListener *forwarder);
    void sleepUnlessStopped(double seconds);

    Comparison m_comparison;
    ComparisonListener *m_listener;
    std::atomic<bool> m_stop{false};
    std::mutex m_clientMutex;
    std::mutex m_listenerMutex;          // interval() and message() of runs side by side
    QList<ThroughputClient *> m_clients; // the tests running now, for requestStop()
    QList<AgentController *> m_agents;
    QList<QList<int>> m_groups;
    int m_busyRetries = 3;
};

} // namespace nb
