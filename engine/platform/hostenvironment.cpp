// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/hostenvironment.h"

#include "core/jsonfields.h"
#include "platform/platform.h"
#include "test/results.h"

#include <QJsonArray>
#include <QSysInfo>

namespace nb {

HostEnvironment HostEnvironment::local()
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
    e.adapters = platform::listAdapters();
    return e;
}

HostEnvironment HostEnvironment::remoteFromResults(const QList<TestResult> &results)
{
    HostEnvironment e;
    for (const TestResult &r : results) {
        if (!r.peerIsNicbench && !r.remoteAdapter && !r.remoteCpuKnown && !r.remoteHost)
            continue;
        e.known = true;
        if (r.remoteHost) {
            const HostEnvironment &h = *r.remoteHost;
            auto take = [](QString *to, const QString &from) {
                if (!from.isEmpty())
                    *to = from;
            };
            take(&e.hostName, h.hostName);
            take(&e.os, h.os);
            take(&e.kernel, h.kernel);
            take(&e.cpuModel, h.cpuModel);
            take(&e.nicbenchVersion, h.nicbenchVersion);
            if (h.cpuCount > 0)
                e.cpuCount = h.cpuCount;
            if (h.cpuClockHz > 0)
                e.cpuClockHz = h.cpuClockHz;
        }
        if (!r.remoteVersion.isEmpty())
            e.nicbenchVersion = r.remoteVersion;
        if (r.remoteCpuKnown && r.remoteCpu.cpuCount > 0)
            e.cpuCount = r.remoteCpu.cpuCount;
        if (r.remoteAdapter) {
            bool seen = false;
            for (const AdapterInfo &a : e.adapters)
                seen = seen || a.name == r.remoteAdapter->name;
            if (!seen)
                e.adapters.append(*r.remoteAdapter);
        }
    }
    return e;
}

QJsonObject HostEnvironment::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("known"), known);
    o.insert(QStringLiteral("host_name"), hostName);
    o.insert(QStringLiteral("os"), os);
    o.insert(QStringLiteral("kernel"), kernel);
    o.insert(QStringLiteral("cpu_model"), cpuModel);
    o.insert(QStringLiteral("cpu_count"), cpuCount);
    o.insert(QStringLiteral("cpu_clock_hz"), cpuClockHz);
    o.insert(QStringLiteral("nicbench_version"), nicbenchVersion);
    QJsonArray arr;
    for (const AdapterInfo &a : adapters)
        arr.append(a.toJson());
    o.insert(QStringLiteral("adapters"), arr);
    return o;
}

bool HostEnvironment::fromJson(const QJsonObject &o, HostEnvironment *out, QString *error)
{
    using namespace json;
    HostEnvironment e;
    const QString w = QStringLiteral("environment");
    QJsonArray arr;
    if (!readBool(o, QStringLiteral("known"), &e.known, w, error) ||
        !readString(o, QStringLiteral("host_name"), &e.hostName, w, error) ||
        !readString(o, QStringLiteral("os"), &e.os, w, error) ||
        !readString(o, QStringLiteral("kernel"), &e.kernel, w, error) ||
        !readString(o, QStringLiteral("cpu_model"), &e.cpuModel, w, error) ||
        !readInt(o, QStringLiteral("cpu_count"), &e.cpuCount, w, error, Need::Optional, 0, 1 << 20) ||
        !readDouble(o, QStringLiteral("cpu_clock_hz"), &e.cpuClockHz, w, error, Need::Optional, 0, 1e13) ||
        !readString(o, QStringLiteral("nicbench_version"), &e.nicbenchVersion, w, error) ||
        !readArray(o, QStringLiteral("adapters"), &arr, w, error, Need::Optional, 4096))
        return false;
    for (const QJsonValue &v : arr) {
        AdapterInfo a;
        if (!v.isObject())
            return fail(error, w, QStringLiteral("adapters[] must be objects"));
        if (!AdapterInfo::fromJson(v.toObject(), &a, error))
            return false;
        e.adapters.append(a);
    }
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
