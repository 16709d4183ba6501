// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Starts, lists, drives and stops the lab's QEMU guests (docs/lab.md). Everything the lab
// creates (namespace, bridge, taps, QEMU processes) is written to the state folder before it
// is created, so `down` removes it after a crash, a killed controller or a half-started lab.
// Linux only: QEMU, iproute2 and /proc. The parts: labstatefile (the state), labnetwork
// (bridge and taps), qemuguest (QEMU's command line and process), guestagent (what host and
// guest exchange through the guest's folder), initramfs (what a guest boots).

#include "lab/guestagent.h"
#include "lab/initramfs.h"
#include "lab/labmodel.h"
#include "lab/labreport.h"
#include "lab/labstatefile.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

namespace nb::lab {

class Lab {
public:
    // What up() reports while it works, in order (lab/labreport.h).
    using Progress = std::function<void(const UpEvent &event)>;

    explicit Lab(QString stateDirectory = defaultStateDirectory());

    // Boots one guest per adapter and waits until each has its address and its
    // `nicbench-cli -s` listening. On failure everything started is removed again and *error
    // says why (for a guest that did not come up: its console's last lines, which a Failed
    // event also carries).
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
    // The steps of up(), in order; each false with *error.
    bool checkHost(const UpOptions &options, KernelChoice *kernel, bool *user, QString *error) const;
    bool clearDeadLab(QString *error);
    bool planGuests(const UpOptions &options, bool user, LabState *state, QStringList *modules, QString *error) const;
    bool makeNetwork(LabState *state, QString *error) const;
    bool startGuests(LabState *state, const UpOptions &options, const KernelChoice &kernel, const QString &initrd,
                     const Progress &progress, QString *error) const;
    bool waitForGuests(const LabState &state, const UpOptions &options, const Progress &progress, QString *error) const;

    QString m_dir;
};

} // namespace nb::lab
