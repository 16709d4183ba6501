// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What we know about one network interface: identity, driver, family label, link and
// offload settings. Filled in by the platform layer (platform/platform.h); results and
// snapshots carry it so a comparison says which adapter really carried each test.

#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>

#include <cstdint>
#include <optional>

namespace nb {

// The labels users compare by. The enum order carries no meaning.
enum class AdapterFamily { Other, Loopback, E1000, E1000e, Vmxnet3, Virtio, Veth, HyperV, Ena, Mlx };

// "e1000", "e1000e", "vmxnet3", "virtio", "veth", "loopback", "hyper-v", "ena", "mlx", "other".
QString familyName(AdapterFamily family);
std::optional<AdapterFamily> familyFromName(const QString &name);

// Maps a Linux driver name (ethtool's "driver", e.g. "virtio_net", "hv_netvsc",
// "mlx5_core") or a Windows adapter description (e.g. "Intel(R) 82574L Gigabit Network
// Connection", "vmxnet3 Ethernet Adapter") to a family. `loopback` is the interface's
// loopback flag; lo has no driver at all, so the flag (or the name "lo") decides.
AdapterFamily familyFromDriver(const QString &driver, const QString &interfaceName = {}, bool loopback = false);

struct AdapterAddress {
    QHostAddress address;
    int prefixLength = -1;
    bool operator==(const AdapterAddress &) const = default;
};

struct AdapterInfo {
    QString name;   // kernel name ("eth0"), or the friendly name on Windows
    int index = -1; // ifindex
    QString driver; // "virtio_net", "e1000e", "veth"; empty when none (lo)
    QString driverVersion;
    QString busInfo;     // "0000:00:03.0" when the device has one
    QString description; // ifalias on Linux, the adapter description on Windows
    AdapterFamily family = AdapterFamily::Other;
    int mtu = 0;
    std::int64_t linkSpeedBps = -1; // -1: unknown (lo, veth, tun and down links report none)
    QList<AdapterAddress> addresses;
    QString hardwareAddress; // "52:54:00:12:34:56"; empty when the link has none
    QString operState;       // RFC 2863 words as Linux reports them: "up", "down", "unknown", ...
    bool loopback = false;
    // Offloads that could be read, by short name: tso, gso, gro, lro, rx-checksum,
    // tx-checksum, sg, rxhash, rx-vlan, tx-vlan; rsc (receive segment coalescing) on
    // Windows. Missing key: not readable.
    QMap<QString, bool> offloads;

    bool isUp() const { return operState == QLatin1String("up") || (loopback && operState != QLatin1String("down")); }
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &json, AdapterInfo *out, QString *error);
    bool operator==(const AdapterInfo &) const = default;
};

// Byte and packet counters of one interface at one moment (CLOCK_MONOTONIC ns), as the
// kernel counts them on that interface (both directions, all traffic, not just ours).
struct InterfaceCounters {
    std::uint64_t rxBytes = 0;
    std::uint64_t txBytes = 0;
    std::uint64_t rxPackets = 0;
    std::uint64_t txPackets = 0;
    std::int64_t timestampNs = 0;
    // Packets the adapter or its driver dropped (no buffer, queue full) and packets with
    // errors (bad checksum or frame, carrier lost); 0 where the system does not count them.
    std::uint64_t rxDropped = 0;
    std::uint64_t txDropped = 0;
    std::uint64_t rxErrors = 0;
    std::uint64_t txErrors = 0;
};

// The adapter in `adapters` that owns `local` (a socket's local address). Any 127/8 or ::1
// address belongs to the loopback adapter; IPv4-mapped IPv6 addresses count as IPv4.
std::optional<AdapterInfo> adapterForLocalAddress(const QHostAddress &local, const QList<AdapterInfo> &adapters);
// Same against the live list (platform::listAdapters()).
std::optional<AdapterInfo> adapterForLocalAddress(const QHostAddress &local);

} // namespace nb

Q_DECLARE_METATYPE(nb::AdapterInfo)
Q_DECLARE_METATYPE(nb::InterfaceCounters)
