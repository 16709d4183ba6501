// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Probes agents off the GUI thread (a JobTracker job): for each "HOST[:PORT]", the info query
// and the key handshake of session/agentprobe.h, several hosts at once, each step with its
// deadline. Results arrive one host at a time on the GUI thread. A probe() while a round runs
// queues its hosts for the next round, so the window never waits for a running round.

#include "window/jobtracker.h"

#include <session/agentprobe.h>

#include <QObject>
#include <QStringList>

#include <atomic>
#include <memory>

namespace nb::gui {

class HostProber : public QObject {
    Q_OBJECT
public:
    // Each step's deadline (connect included): a host that does not answer is given up after it.
    static constexpr double DefaultStepSeconds = 5;
    // At most this many hosts are probed at once.
    static constexpr int MaxParallel = 8;

    explicit HostProber(QObject *parent = nullptr);
    // Cancels the round (connects and info queries end at once; a handshake in progress within
    // its deadline) and waits for its thread.
    ~HostProber() override;

    void setStepSeconds(double seconds) { m_stepSeconds = seconds; }
    // Probes `hosts` with the key file `keyPath` (empty: the key is not checked).
    void probe(const QStringList &hosts, const QString &keyPath);
    bool isBusy() const { return m_running; }

Q_SIGNALS:
    void probed(const QString &host, const nb::AgentStatus &status);
    // The last queued round has ended.
    void idle();

private:
    void startRound();
    void onRoundEnded();

    double m_stepSeconds = DefaultStepSeconds;
    bool m_running = false;
    QStringList m_queued;
    QString m_keyPath;
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
    JobTracker m_jobs{this}; // last: destroyed (and joined) first
};

} // namespace nb::gui

Q_DECLARE_METATYPE(nb::AgentStatus)
