// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labmodel.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

namespace nb::lab {

const QList<AdapterModel> &adapterModels()
{
    // Largest MTUs as the guest drivers compute them for QEMU's devices: e1000 (82540EM) 16128-byte
    // frames, e1000e (82574L) 9234-byte frames less VLAN header and FCS, vmxnet3 9000, virtio-net
    // 65535 when QEMU sets no host_mtu.
    static const QList<AdapterModel> models{
        {QStringLiteral("e1000"), QStringLiteral("e1000"), QStringLiteral("e1000"), QStringLiteral("e1000"),
         AdapterFamily::E1000, 16110},
        {QStringLiteral("e1000e"), QStringLiteral("e1000e"), QStringLiteral("e1000e"), QStringLiteral("e1000e"),
         AdapterFamily::E1000e, 9212},
        {QStringLiteral("vmxnet3"), QStringLiteral("vmxnet3"), QStringLiteral("vmxnet3"), QStringLiteral("vmxnet3"),
         AdapterFamily::Vmxnet3, 9000},
        {QStringLiteral("virtio"), QStringLiteral("virtio-net-pci"), QStringLiteral("virtio_net"),
         QStringLiteral("virtio_net"), AdapterFamily::Virtio, 65535},
    };
    return models;
}

std::optional<AdapterModel> adapterModel(const QString &name)
{
    QString n = name.trimmed().toLower();
    if (n == QLatin1String("virtio-net") || n == QLatin1String("virtio_net") || n == QLatin1String("virtio-net-pci"))
        n = QStringLiteral("virtio");
    for (const AdapterModel &m : adapterModels()) {
        if (m.name == n)
            return m;
    }
    return std::nullopt;
}

QString hostAddress()
{
    return QStringLiteral("198.18.0.1");
}

QString guestAddress(int index)
{
    return QStringLiteral("198.18.0.%1").arg(10 + index);
}

bool validateOptions(const UpOptions &options, QString *error)
{
    QStringList names;
    for (const AdapterModel &m : adapterModels())
        names << m.name;
    if (options.adapters.isEmpty()) {
        *error = QStringLiteral("give the guests' adapters with --adapters, e.g. --adapters %1")
                     .arg(names.join(QLatin1Char(',')));
        return false;
    }
    if (options.adapters.size() > 16) {
        *error = QStringLiteral("at most 16 guests, not %1").arg(options.adapters.size());
        return false;
    }
    for (const QString &a : options.adapters) {
        const auto m = adapterModel(a);
        if (!m) {
            *error = QStringLiteral("unknown adapter '%1': the lab has %2").arg(a, names.join(QStringLiteral(", ")));
            return false;
        }
        if (options.mtu < kMinMtu || options.mtu > m->maxMtu) {
            *error = QStringLiteral("MTU %1 is impossible for %2: it takes %3 to %4")
                         .arg(options.mtu)
                         .arg(m->name)
                         .arg(kMinMtu)
                         .arg(m->maxMtu);
            return false;
        }
    }
    if (options.cpus < 1 || options.cpus > 64) {
        *error = QStringLiteral("--cpus takes 1 to 64, not %1").arg(options.cpus);
        return false;
    }
    if (options.memoryMb < 128 || options.memoryMb > 65536) {
        *error = QStringLiteral("--memory takes 128 to 65536 MB, not %1").arg(options.memoryMb);
        return false;
    }
    static const QRegularExpression netnsName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$"));
    if (!options.netns.isEmpty() && !netnsName.match(options.netns).hasMatch()) {
        *error =
            QStringLiteral("--netns takes a name of letters, digits, '.', '_' and '-', not '%1'").arg(options.netns);
        return false;
    }
    if (options.userNetworking && !options.netns.isEmpty()) {
        *error = QStringLiteral("--netns needs the bridge and taps; user-mode networking has neither");
        return false;
    }
    if (options.userNetworking && options.mtu != 1500) {
        *error = QStringLiteral("user-mode networking carries MTU 1500 only, not %1").arg(options.mtu);
        return false;
    }
    if (options.timeoutSeconds < 0 || options.timeoutSeconds > 3600) {
        *error = QStringLiteral("--timeout takes 1 to 3600 seconds, not %1").arg(options.timeoutSeconds);
        return false;
    }
    return true;
}

QJsonObject GuestState::toJson() const
{
    return QJsonObject{
        {QStringLiteral("name"), name},
        {QStringLiteral("adapter"), adapter},
        {QStringLiteral("device"), device},
        {QStringLiteral("driver"), driver},
        {QStringLiteral("address"), address},
        {QStringLiteral("tap"), tap},
        {QStringLiteral("port"), port},
        {QStringLiteral("mac"), mac},
        {QStringLiteral("directory"), directory},
        {QStringLiteral("pid"), pid},
        {QStringLiteral("started_ms"), startedMs},
    };
}

GuestState GuestState::fromJson(const QJsonObject &json)
{
    GuestState g;
    g.name = json.value(QStringLiteral("name")).toString();
    g.adapter = json.value(QStringLiteral("adapter")).toString();
    g.device = json.value(QStringLiteral("device")).toString();
    g.driver = json.value(QStringLiteral("driver")).toString();
    g.address = json.value(QStringLiteral("address")).toString();
    g.tap = json.value(QStringLiteral("tap")).toString();
    g.port = json.value(QStringLiteral("port")).toInt(5201);
    g.mac = json.value(QStringLiteral("mac")).toString();
    g.directory = json.value(QStringLiteral("directory")).toString();
    g.pid = json.value(QStringLiteral("pid")).toInteger();
    g.startedMs = json.value(QStringLiteral("started_ms")).toInteger();
    return g;
}

QJsonObject LabState::toJson() const
{
    QJsonArray list;
    for (const GuestState &g : guests)
        list.append(g.toJson());
    return QJsonObject{
        {QStringLiteral("netns"), netns},
        {QStringLiteral("user_networking"), userNetworking},
        {QStringLiteral("created_netns"), createdNetns},
        {QStringLiteral("bridge"), bridge},
        {QStringLiteral("created_bridge"), createdBridge},
        {QStringLiteral("accel"), accel},
        {QStringLiteral("kernel"), kernel},
        {QStringLiteral("mtu"), mtu},
        {QStringLiteral("cpus"), cpus},
        {QStringLiteral("memory_mb"), memoryMb},
        {QStringLiteral("guests"), list},
    };
}

bool LabState::fromJson(const QJsonObject &json, LabState *out, QString *error)
{
    if (!json.value(QStringLiteral("guests")).isArray()) {
        *error = QStringLiteral("the lab's state has no guest list");
        return false;
    }
    LabState s;
    s.netns = json.value(QStringLiteral("netns")).toString();
    s.createdNetns = json.value(QStringLiteral("created_netns")).toBool();
    s.userNetworking = json.value(QStringLiteral("user_networking")).toBool();
    s.bridge = json.value(QStringLiteral("bridge")).toString();
    s.createdBridge = json.value(QStringLiteral("created_bridge")).toBool();
    s.accel = json.value(QStringLiteral("accel")).toString();
    s.kernel = json.value(QStringLiteral("kernel")).toString();
    s.mtu = json.value(QStringLiteral("mtu")).toInt(1500);
    s.cpus = json.value(QStringLiteral("cpus")).toInt(1);
    s.memoryMb = json.value(QStringLiteral("memory_mb")).toInt(256);
    for (const QJsonValue &v : json.value(QStringLiteral("guests")).toArray())
        s.guests.append(GuestState::fromJson(v.toObject()));
    *out = s;
    return true;
}

} // namespace nb::lab
