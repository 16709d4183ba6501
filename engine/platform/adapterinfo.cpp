// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/adapterinfo.h"

#include "core/jsonfields.h"
#include "platform/platform.h"

#include <QJsonArray>

namespace nb {

namespace {

struct FamilyName {
    AdapterFamily family;
    const char *name;
};
constexpr FamilyName kFamilyNames[] = {
    {AdapterFamily::Other, "other"},   {AdapterFamily::Loopback, "loopback"}, {AdapterFamily::E1000, "e1000"},
    {AdapterFamily::E1000e, "e1000e"}, {AdapterFamily::Vmxnet3, "vmxnet3"},   {AdapterFamily::Virtio, "virtio"},
    {AdapterFamily::Veth, "veth"},     {AdapterFamily::HyperV, "hyper-v"},    {AdapterFamily::Ena, "ena"},
    {AdapterFamily::Mlx, "mlx"},
};

// The plain fields; family, addresses and offloads have shapes of their own. Adapters
// also come from peers' hellos, so a field of the wrong type keeps its default.
using A = AdapterInfo;
constexpr json::Need kT = json::Need::Tolerant;
const json::Field<A> kAdapterFields[] = {
    {"name", &A::name, kT},
    {"index", &A::index, kT},
    {"driver", &A::driver, kT},
    {"driver_version", &A::driverVersion, kT},
    {"bus_info", &A::busInfo, kT},
    {"description", &A::description, kT},
    {"mtu", &A::mtu, kT},
    {"link_speed_bps", &A::linkSpeedBps, kT},
    {"hardware_address", &A::hardwareAddress, kT},
    {"oper_state", &A::operState, kT},
    {"loopback", &A::loopback, kT},
};

} // namespace

QString familyName(AdapterFamily family)
{
    for (const FamilyName &f : kFamilyNames) {
        if (f.family == family)
            return QLatin1String(f.name);
    }
    return QStringLiteral("other");
}

std::optional<AdapterFamily> familyFromName(const QString &name)
{
    for (const FamilyName &f : kFamilyNames) {
        if (name == QLatin1String(f.name))
            return f.family;
    }
    return std::nullopt;
}

AdapterFamily familyFromDriver(const QString &driver, const QString &interfaceName, bool loopback)
{
    const QString d = driver.trimmed().toLower();
    if (d.isEmpty())
        return loopback || interfaceName == QLatin1String("lo") ? AdapterFamily::Loopback : AdapterFamily::Other;

    // Exact Linux driver names first: "e1000" must not swallow "e1000e".
    if (d == QLatin1String("e1000e"))
        return AdapterFamily::E1000e;
    if (d == QLatin1String("e1000"))
        return AdapterFamily::E1000;
    if (d == QLatin1String("ena"))
        return AdapterFamily::Ena;
    if (d == QLatin1String("veth"))
        return AdapterFamily::Veth;
    if (d == QLatin1String("hv_netvsc") || d == QLatin1String("netvsc"))
        return AdapterFamily::HyperV;
    if (d.startsWith(QLatin1String("vmxnet3")))
        return AdapterFamily::Vmxnet3;
    if (d.startsWith(QLatin1String("virtio")))
        return AdapterFamily::Virtio;
    if (d.startsWith(QLatin1String("mlx")))
        return AdapterFamily::Mlx;

    // Windows descriptions. VMware's E1000E is an emulated Intel 82574L; its E1000 is an
    // 82545EM that Windows calls "PRO/1000 MT".
    if (d.contains(QLatin1String("82574")) || d.contains(QLatin1String("e1000e")))
        return AdapterFamily::E1000e;
    if (d.contains(QLatin1String("pro/1000")) || d.contains(QLatin1String("82545")) ||
        d.contains(QLatin1String("82540")))
        return AdapterFamily::E1000;
    if (d.contains(QLatin1String("vmxnet3")))
        return AdapterFamily::Vmxnet3;
    if (d.contains(QLatin1String("virtio")))
        return AdapterFamily::Virtio;
    // Hyper-V's synthetic adapter; Server 2008 R2 guests call it "Microsoft Virtual Machine
    // Bus Network Adapter".
    if (d.contains(QLatin1String("hyper-v")) || d.contains(QLatin1String("virtual machine bus network")))
        return AdapterFamily::HyperV;
    if (d.contains(QLatin1String("elastic network adapter")))
        return AdapterFamily::Ena;
    if (d.contains(QLatin1String("mellanox")) || d.contains(QLatin1String("connectx")))
        return AdapterFamily::Mlx;
    if (d.contains(QLatin1String("loopback")))
        return AdapterFamily::Loopback;
    return loopback ? AdapterFamily::Loopback : AdapterFamily::Other;
}

QJsonObject AdapterInfo::toJson() const
{
    QJsonArray addrs;
    for (const AdapterAddress &a : addresses)
        addrs.append(QJsonObject{{QStringLiteral("address"), a.address.toString()},
                                 {QStringLiteral("prefix_length"), a.prefixLength}});
    QJsonObject offl;
    for (auto it = offloads.cbegin(); it != offloads.cend(); ++it)
        offl.insert(it.key(), it.value());
    QJsonObject o{
        {QStringLiteral("family"), familyName(family)},
        {QStringLiteral("addresses"), addrs},
        {QStringLiteral("offloads"), offl},
    };
    json::writeFields(*this, kAdapterFields, &o);
    return o;
}

bool AdapterInfo::fromJson(const QJsonObject &json, AdapterInfo *out, QString *error)
{
    AdapterInfo a;
    json::readFields(json, &a, kAdapterFields, QString(), nullptr); // tolerant: cannot fail
    if (a.name.isEmpty())
        return json::fail(error, QStringLiteral("adapter"), QStringLiteral("name missing"));
    const QString w = QStringLiteral("adapter %1").arg(a.name);
    const auto family = familyFromName(json::valueOr(json, QStringLiteral("family"), QString()));
    if (!family)
        return json::fail(error, w, QStringLiteral("unknown family"));
    a.family = *family;
    for (const QJsonValue &v : json::valueOr(json, QStringLiteral("addresses"), QJsonArray())) {
        const QJsonObject o = v.toObject();
        const AdapterAddress addr{QHostAddress(json::valueOr(o, QStringLiteral("address"), QString())),
                                  json::valueOr(o, QStringLiteral("prefix_length"), -1)};
        if (addr.address.isNull())
            return json::fail(error, w, QStringLiteral("bad address"));
        a.addresses.append(addr);
    }
    const QJsonObject offl = json::valueOr(json, QStringLiteral("offloads"), QJsonObject());
    for (auto it = offl.begin(); it != offl.end(); ++it) {
        if (!it.value().isBool())
            return json::fail(error, w, QStringLiteral("offload %1 is not a boolean").arg(it.key()));
        a.offloads.insert(it.key(), it.value().toBool());
    }
    *out = a;
    return true;
}

std::optional<AdapterInfo> adapterForLocalAddress(const QHostAddress &local, const QList<AdapterInfo> &adapters)
{
    // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d.
    QHostAddress addr = local;
    bool isV4 = false;
    const quint32 v4 = local.toIPv4Address(&isV4);
    if (isV4)
        addr = QHostAddress(v4);

    for (const AdapterInfo &a : adapters) {
        for (const AdapterAddress &entry : a.addresses) {
            if (entry.address.isEqual(addr, QHostAddress::StrictConversion))
                return a;
        }
    }
    // Linux answers for all of 127/8 on lo even though lo lists only 127.0.0.1/8.
    if (addr.isLoopback()) {
        for (const AdapterInfo &a : adapters) {
            if (a.loopback)
                return a;
        }
    }
    return std::nullopt;
}

std::optional<AdapterInfo> adapterForLocalAddress(const QHostAddress &local)
{
    return adapterForLocalAddress(local, platform::listAdapters());
}

} // namespace nb
