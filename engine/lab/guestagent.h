// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What host and guest say to each other through the guest's folder (shared over virtio-9p
// at /run/nblab, docs/lab.md): the agent script that is the guest's PID 1 after the
// initramfs, the `ready` note it writes once its server listens, the console it leaves, and
// `lab exec`'s command files. None of it uses the network, so it works whatever a test or a
// command does to the guest's adapter.

#include "lab/labmodel.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

namespace nb::lab {

struct ExecResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// The guest's PID 1 after the initramfs: network (MTU, address, link), `server -s`, the ready
// note, then the command loop that `lab exec` feeds. `user`: QEMU's user-mode network.
QByteArray agentScript(const GuestState &g, int mtu, const QString &server, bool user);

// "key=value" lines of a file (the ready note: driver, mtu, speed, uptime); empty when none.
QMap<QString, QString> readKeyValues(const QString &path);
QMap<QString, QString> readReadyNote(const GuestState &g);
bool hasReadyNote(const GuestState &g);

// The last `count` non-empty-ended lines of a text file (a console log), read from its last
// 64 KiB; a note saying there is none when it cannot be read.
QString lastLines(const QString &path, int count);
// The console's last lines and, when QEMU wrote anything itself, its last lines too.
QString consoleTail(const GuestState &g);

// Runs `command` (argv) in guest `g` through its folder and waits for its status, at most
// `timeoutSeconds` and no longer than the guest's QEMU runs.
bool runInGuest(const GuestState &g, const QStringList &command, int timeoutSeconds, ExecResult *result,
                QString *error);

} // namespace nb::lab
