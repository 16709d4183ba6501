// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The machine a comparison ran on (and, as far as the peer tells us, the machine at the
// other end), kept with the results so a snapshot says what was measured where.

#include "platform/adapterinfo.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace nb {

struct HostEnvironment {
    bool known = false; // false: nothing was learnt about this side
    QString hostName;
    QString os; // "Debian GNU/Linux 12 (bookworm)"
    QString kernel;
    QString cpuModel;
    int cpuCount = 0;
    double cpuClockHz = 0;
    QString nicbenchVersion;
    QList<AdapterInfo> adapters;

    // This machine, now (reads the platform layer: cheap, but not free). Without adapters
    // it skips listing them, the dearest part (the run history stores each test's own).
    static HostEnvironment local(bool withAdapters = true);
    // The far side as results describe it: remoteHostFromResults() in test/results.h.

    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, HostEnvironment *out, QString *error);
    bool operator==(const HostEnvironment &) const = default;
};

struct Environment {
    HostEnvironment local;
    HostEnvironment remote;
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, Environment *out, QString *error);
    bool operator==(const Environment &) const = default;
};

} // namespace nb
