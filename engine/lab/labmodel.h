// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The adapter lab (docs/lab.md): QEMU guests with emulated E1000, E1000E, VMXNET3 and
// virtio-net adapters, driven by the guest kernel's real drivers. This file holds what the
// lab knows without starting anything: the adapter models, the options of `lab up` and
// their checks, and the state that `lab status` and `lab down` read back.

#include "platform/adapterinfo.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace nb::lab {

struct AdapterModel {
    QString name;       // what `--adapters` takes: "e1000", "e1000e", "vmxnet3", "virtio"
    QString qemuDevice; // QEMU's -device name
    QString driver;     // the Linux guest driver that binds it
    QString module;     // the kernel module holding that driver
    AdapterFamily family = AdapterFamily::Other;
    int maxMtu = 1500; // the largest MTU the guest driver accepts for QEMU's device
};

// Every model the lab can start, in the order the articles compare them.
const QList<AdapterModel> &adapterModels();
// By name or alias ("virtio-net", "virtio_net"); nullopt when unknown.
std::optional<AdapterModel> adapterModel(const QString &name);

constexpr int kMinMtu = 68; // IPv4's minimum; every model accepts it

// The lab's addresses: 198.18.0.0/15 (RFC 2544's benchmarking range), the host's bridge
// first, the guests from .10 on. No route leads out of it.
QString hostAddress();
QString guestAddress(int index);
constexpr int kPrefixLength = 15;

struct UpOptions {
    QStringList adapters; // one guest per entry, in this order
    int mtu = 1500;
    int cpus = 1;
    int memoryMb = 256;
    QString kernel; // empty: the newest /boot/vmlinuz-* with its modules
    QString netns;  // empty: the host's own network namespace
    // QEMU's user-mode networking instead of taps on a bridge: no root needed, each guest's
    // server reached at 127.0.0.1:<port> through a port forward. Chosen without root.
    bool userNetworking = false;
    int timeoutSeconds = 0; // for every guest to come up; 0: 60 with KVM, 90 + 30 per guest without
    QString serverProgram;  // the nicbench-cli that guests run with -s (this program)
};

// Checks everything that can be checked before anything starts: adapter names, MTU against
// each model, CPU and memory counts, the namespace name. One line in *error when refused.
bool validateOptions(const UpOptions &options, QString *error);

struct GuestState {
    QString name;    // "e1000", or "e1000-2" for a second guest of a model
    QString adapter; // model name
    QString device;  // QEMU device
    QString driver;  // as the guest reported it once up, else the expected one
    QString address; // 198.18.0.x
    QString tap;
    int port = 5201; // where its server is reached: 5201 at its address, a forwarded port with user networking
    QString mac;
    QString directory; // its state folder (console.log, agent, commands)
    qint64 pid = 0;    // QEMU's
    qint64 startedMs = 0;
    // Filled in by Lab::status(), not stored:
    QString state; // "booting", "up", "stopped"
    int mtu = 0;
    qint64 speedMbps = -1;
    double bootSeconds = -1;
    qint64 rssKb = -1;

    QJsonObject toJson() const;
    static GuestState fromJson(const QJsonObject &json);
};

struct LabState {
    QString netns;
    bool createdNetns = false;
    bool userNetworking = false;
    QString bridge;
    bool createdBridge = false;
    QString accel; // "kvm" or "tcg"
    QString kernel;
    int mtu = 1500;
    int cpus = 1;
    int memoryMb = 256;
    QList<GuestState> guests;

    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, LabState *out, QString *error);
};

} // namespace nb::lab
