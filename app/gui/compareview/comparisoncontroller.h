// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs one comparison at a time (nb::ComparisonRunner) as a JobTracker job and hands what
// it reports to the GUI thread as queued calls carrying value types. Keeps the
// comparison as it fills up, so the view can redraw after every finished run. Reports of
// a job that was abandoned are dropped.

#include "window/jobtracker.h"

#include <compare/comparison.h>

#include <QObject>
#include <QString>

#include <memory>

namespace nb {
class ComparisonRunner;
}

namespace nb::gui {

class ComparisonController : public QObject {
    Q_OBJECT
public:
    explicit ComparisonController(QObject *parent = nullptr);
    // Stops a running comparison and waits for its thread (at most one run's stop time).
    ~ComparisonController() override;

    // Starts the comparison; false (with *error) when one is running or it is invalid.
    bool start(const nb::Comparison &comparison, QString *error = nullptr);
    // Ends after the current run, which keeps what it measured; finished() follows.
    void stop();
    bool isRunning() const { return m_running; }
    bool stopRequested() const { return m_stopRequested; }

    // The comparison being run, with the runs finished so far (the whole result once
    // finished() has been emitted).
    const nb::Comparison &current() const { return m_current; }
    int totalRuns() const { return m_total; }
    int finishedRuns() const { return int(m_current.runs.size()); }

Q_SIGNALS:
    void runStarted(const nb::Configuration &config, const nb::ScheduledRun &slot, int orderIndex, int total);
    void runFinished(const nb::Run &run, int total);
    void interval(int orderIndex, const nb::IntervalReport &report);
    void message(const QString &text);
    // "Run 4 of 9: E1000E, round 2"; done counts finished runs.
    void progress(int done, int total, const QString &text);
    void finished(const nb::Comparison &comparison);

private:
    class Listener;
    void onRunStarted(const nb::Configuration &config, const nb::ScheduledRun &slot, int orderIndex, int total);
    void onRunFinished(const nb::Run &run, int total);
    void onReturned(const nb::Comparison &result);

    bool m_running = false;
    bool m_stopRequested = false;
    int m_total = 0;
    nb::Comparison m_current;
    std::shared_ptr<Listener> m_listener;
    std::shared_ptr<nb::ComparisonRunner> m_runner;
    JobTracker m_jobs{this}; // last: destroyed (and joined) first
};

} // namespace nb::gui
