// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's side of the adapter lab (docs/lab.md, "In the window"). It runs
// `nicbench-cli lab up --json`, `lab status --json` and `lab down` as QProcesses, never the
// lab's work on the GUI thread, and keeps what they report as one value (LabView) for the
// Adapter Lab dialog, the Target box and New Comparison. The lab lives in its state file as
// the CLI's does, so a lab that `nicbench-cli lab up` started shows here too.
//
// Why processes and not nb::lab::Lab on a thread: `lab up` blocks for up to minutes in loops
// with no cancel point, while killing a process is a stop the lab already survives (`lab down`
// cleans a killed `lab up`); the guests' server must be nicbench-cli, not this program; and a
// crash in the lab cannot take the window with it. What crosses is values: JSON that
// lab/labreport.h writes in the CLI and reads here.

#include "testview/testpanel.h"

#include <compare/comparisonmatrix.h>
#include <lab/labmodel.h>
#include <lab/labreport.h>

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QTimer>

namespace nb::gui {

// What the window knows about the lab at one moment.
struct LabView {
    enum class Phase {
        Idle,     // no lab
        Starting, // `lab up` runs: guests booting
        Up,       // a lab is up (here or from the CLI)
        Stopping, // `lab down` runs
        Failed,   // the last start failed; everything it made is gone again
    };
    Phase phase = Phase::Idle;
    nb::lab::LabState lab; // guests' state: "booting", "up", "failed", "stopped"
    QString message;       // one line: what is going on, or what went wrong
    QString failedGuest;   // the guest that did not come up, when one did not
    QString console;       // its console's last lines (and QEMU's)
    bool startedHere = false;
    // Up guests this window can reach: none in another network namespace.
    QList<nb::lab::GuestState> reachableGuests() const;
};

// "lab: e1000 (198.18.0.10)", "lab: e1000 (127.0.0.1:40123)": a guest in the Target box.
QString labTargetLabel(const nb::lab::GuestState &guest);
// "E1000", "VMXNET3", "virtio", "E1000-2" for a second e1000 guest: a guest in comparisons.
QString labAdapterLabel(const nb::lab::GuestState &guest);
// "198.18.0.10:5201", "127.0.0.1:40123": where the guest's server listens.
QString labServerAddress(const nb::lab::GuestState &guest);
// The reachable guests as Target box entries and as New Comparison endpoints.
QList<NamedTarget> labTargets(const LabView &view);
QList<nb::MatrixEndpoint> labEndpoints(const LabView &view);

class LabController : public QObject {
    Q_OBJECT
public:
    explicit LabController(QObject *parent = nullptr);
    ~LabController() override;

    // The nicbench-cli that runs `lab` (default: beside this program, else on PATH) and the
    // environment it gets (default: this process's).
    void setCliProgram(const QString &path) { m_cli = path; }
    QString cliProgram() const { return m_cli; }
    static QString defaultCliProgram();
    void setEnvironment(const QProcessEnvironment &environment) { m_env = environment; }

    // Why no lab can start here (not Linux, no nicbench-cli, no QEMU, no static busybox), in
    // one line naming the fix; empty when it can.
    QString unavailableReason() const;
    static bool runningAsRoot();

    // Checks the options (refused with one line, nothing started), then `lab up --json`.
    bool start(const nb::lab::UpOptions &options, QString *error);
    // A lab still booting is killed, then `lab down` removes whatever a lab left.
    void stop();
    // `lab status --json`; nothing while another command runs.
    void refresh();
    // refresh() when a lab's state file exists (a lab the CLI or an earlier window started).
    void refreshIfPresent();
    // The dialog is open: refresh every 2 s (else every 10 s while a lab is up).
    void setWatched(bool watched);
    bool isBusy() const;
    const LabView &view() const { return m_view; }

    // The lab's reports as they arrive from nicbench-cli; tests feed them directly.
    void applyEvent(const nb::lab::UpEvent &event);
    void applyStatus(const nb::lab::LabState &state);
    void applyNoLab();
    void applyUpFinished(bool ok, const QString &message);

    // The window closes: a lab being started is killed, and a lab this window started is
    // stopped by a `lab down` that outlives the window.
    void prepareClose();

Q_SIGNALS:
    void changed();

private:
    QProcess *newProcess(const QStringList &args, int watchdogMs);
    void onUpOutput();
    void onUpFinished(int exitCode, QProcess::ExitStatus status);
    void onStatusFinished(int exitCode, QProcess::ExitStatus status);
    void runDown();
    void updatePolling();
    nb::lab::GuestState *guest(const QString &name);

    QString m_cli;
    QProcessEnvironment m_env;
    LabView m_view;
    QPointer<QProcess> m_job;   // lab up or lab down
    QPointer<QProcess> m_query; // lab status
    QByteArray m_upLine;        // a line of lab up's output not yet complete
    QByteArray m_upErrors;      // its stderr's last part
    bool m_stopRequested = false;
    bool m_watched = false;
    QTimer m_poll;
};

} // namespace nb::gui
