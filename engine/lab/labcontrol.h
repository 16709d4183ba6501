// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Starts, lists, drives and stops the lab's QEMU guests (docs/lab.md). Everything the lab
// creates (namespace, bridge, taps, QEMU processes) is written to the state folder before it
// is created, so `down` removes it after a crash, a killed controller or a half-started lab.
// Linux only: QEMU, iproute2 and /proc.

#include "lab/labmodel.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

namespace nb::lab {

// $XDG_RUNTIME_DIR/nicbench-lab, else /run/nicbench-lab for root, else /tmp/nicbench-lab-<user>.
QString defaultStateDirectory();

struct ExecResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

class Lab {
public:
    using Progress = std::function<void(const QString &line)>;

    explicit Lab(QString stateDirectory = defaultStateDirectory());

    // Boots one guest per adapter and waits until each has its address and its
    // `nicbench-cli -s` listening. On failure everything started is removed again and *error
    // says why (for a guest that did not come up: its console's last lines).
    bool up(const UpOptions &options, const Progress &progress, QString *error);

    // False when no lab is up (no state). Guests' states are refreshed from their processes
    // and what each guest reported.
    bool status(LabState *out, QString *error) const;

    // Runs `command` (argv) inside guest `guest` (its name, adapter or address) through the
    // guest's shared state folder, so it works whatever the command does to the network.
    bool exec(const QString &guest, const QStringList &command, int timeoutSeconds, ExecResult *result,
              QString *error) const;

    // Stops every guest and removes taps, bridge, namespace (when the lab made it) and the
    // state. *removed lists what was there. True when nothing is left.
    bool down(QStringList *removed, QString *error);

    QString stateDirectory() const { return m_dir; }
    QString stateFile() const;

private:
    bool save(const LabState &state, QString *error) const;
    bool load(LabState *state, QString *error) const;
    QString m_dir;
};

} // namespace nb::lab
