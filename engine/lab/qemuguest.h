// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A lab guest as a QEMU process: its command line (the host's kernel, the lab's initramfs,
// the host's root and the guest's folder over virtio-9p, one emulated adapter), starting it
// detached, recognising it later from its pid, and stopping it.

#include "lab/labmodel.h"

#include <QString>
#include <QStringList>

namespace nb::lab {

// qemu-system-x86_64 on PATH; empty when QEMU is not installed.
QString qemuProgram();
// The one line to show when qemuProgram() is empty: the package to install.
QString qemuMissingMessage();

// True when /dev/kvm is a device this user may open (it is never created).
bool kvmUsable();

// QEMU's arguments for guest `g` of `state` (accel, CPUs, memory, user or tap networking).
QStringList qemuArguments(const GuestState &g, const LabState &state, const QString &kernelImage,
                          const QString &initrd);

// Starts QEMU detached (in the lab's namespace through `ip netns exec` when it has one), its
// output into the guest's qemu.log; sets g->pid and g->startedMs.
bool startQemu(GuestState *g, const LabState &state, const QString &qemu, const QStringList &arguments, QString *error);

// A QEMU of ours: the process exists, is not a zombie, and its command line names the
// guest's folder (a pid reused by another program after a crash is left alone).
bool guestProcessAlive(const GuestState &g);

// QEMU's resident memory in KiB; -1 when unknown.
qint64 residentKb(qint64 pid);

// SIGTERM, then SIGKILL after 5 s; true when the guest's QEMU no longer runs.
bool stopQemu(const GuestState &g);

} // namespace nb::lab
