// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/hostenvironment.h"

#include "core/jsonfields.h"
#include "platform/platform.h"

#include <QJsonArray>
#include <QSysInfo>

namespace nb {

HostEnvironment HostEnvironment::local(bool withAdapters)
{
    HostEnvironment e;
    e.known = true;
    e.hostName = QSysInfo::machineHostName();
    e.os = platform::osName();
    e.kernel = platform::kernelVersion();
    e.cpuModel = platform::cpuModel();
    e.cpuCount = platform::cpuCount();
    e.cpuClockHz = platform::cpuClockHz();
    e.nicbenchVersion = QStringLiteral(NICBENCH_VERSION);
    if (withAdapters)
        e.adapters = platform::listAdapters();
    return e;
}

namespace {

// One list drives both directions; "adapters" is a list of objects and is handled apart.
using E = HostEnvironment;
const json::Field<E> kHostFields[] = {
    {"known", &E::known},
    {"host_name", &E::hostName},
    {"os", &E::os},
    {"kernel", &E::kernel},
    {"cpu_model", &E::cpuModel},
    {"cpu_count", &E::cpuCount, json::Need::Optional, 0, 1 << 20},
    {"cpu_clock_hz", &E::cpuClockHz, json::Need::Optional, 0, 1e13},
    {"nicbench_version", &E::nicbenchVersion},
};

} // namespace

QJsonObject HostEnvironment::toJson() const
{
    QJsonObject o;
    json::writeFields(*this, kHostFields, &o);
    QJsonArray arr;
    for (const AdapterInfo &a : adapters)
        arr.append(a.toJson());
    o.insert(QStringLiteral("adapters"), arr);
    return o;
}

bool HostEnvironment::fromJson(const QJsonObject &o, HostEnvironment *out, QString *error)
{
    HostEnvironment e;
    const QString w = QStringLiteral("environment");
    QJsonArray arr;
    if (!json::readFields(o, &e, kHostFields, w, error) ||
        !json::readArray(o, QStringLiteral("adapters"), &arr, w, error, json::Need::Optional, 4096) ||
        !json::readObjects(arr, &e.adapters, json::path(w, QStringLiteral("adapters")), error, AdapterInfo::fromJson))
        return false;
    *out = e;
    return true;
}

QJsonObject Environment::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("local"), local.toJson());
    o.insert(QStringLiteral("remote"), remote.toJson());
    return o;
}

bool Environment::fromJson(const QJsonObject &o, Environment *out, QString *error)
{
    Environment e;
    QJsonObject l, r;
    const QString w = QStringLiteral("environment");
    if (!json::readObject(o, QStringLiteral("local"), &l, w, error) ||
        !json::readObject(o, QStringLiteral("remote"), &r, w, error))
        return false;
    if (!l.isEmpty() && !HostEnvironment::fromJson(l, &e.local, error))
        return false;
    if (!r.isEmpty() && !HostEnvironment::fromJson(r, &e.remote, error))
        return false;
    *out = e;
    return true;
}

} // namespace nb
