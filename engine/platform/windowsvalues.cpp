// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/windowsvalues.h"

#include <limits>

namespace nb::platform::winsys {

namespace {

// Each offload keyword, the short name it feeds, and how its value reads.
enum class KeywordKind {
    OnOff,    // 0 disabled, 1 enabled
    TxRxBoth, // 0 disabled, 1 Tx enabled, 2 Rx enabled, 3 Rx and Tx enabled
};
struct OffloadKeyword {
    const char *keyword;
    const char *shortName; // for TxRxBoth the Tx name; the Rx name is rx-checksum
    KeywordKind kind;
};
constexpr OffloadKeyword kOffloadKeywords[] = {
    {"*LsoV1IPv4", "tso", KeywordKind::OnOff},
    {"*LsoV2IPv4", "tso", KeywordKind::OnOff},
    {"*LsoV2IPv6", "tso", KeywordKind::OnOff},
    // Receive segment coalescing: Windows' LRO, new in Server 2012; it changes what a
    // VMXNET3 receiver costs, so it has a name of its own.
    {"*RscIPv4", "rsc", KeywordKind::OnOff},
    {"*RscIPv6", "rsc", KeywordKind::OnOff},
    {"*IPChecksumOffloadIPv4", "tx-checksum", KeywordKind::TxRxBoth},
    {"*TCPChecksumOffloadIPv4", "tx-checksum", KeywordKind::TxRxBoth},
    {"*TCPChecksumOffloadIPv6", "tx-checksum", KeywordKind::TxRxBoth},
    {"*UDPChecksumOffloadIPv4", "tx-checksum", KeywordKind::TxRxBoth},
    {"*UDPChecksumOffloadIPv6", "tx-checksum", KeywordKind::TxRxBoth},
    {"*RSS", "rxhash", KeywordKind::OnOff},
};

} // namespace

CpuTimes cpuTimesFromSystemTimes(const SystemTimes &t, int cpuCount)
{
    CpuTimes c;
    c.user = t.user;
    // Kernel time counts the idle loop too; a reading where it does not (never seen, but
    // two separate counters) must not wrap around.
    c.system = t.kernel > t.idle ? t.kernel - t.idle : 0;
    c.idle = t.idle;
    c.cpuCount = cpuCount > 0 ? cpuCount : 1;
    return c;
}

ProcessCpuTimes processTimesFromFileTimes(std::uint64_t user100ns, std::uint64_t kernel100ns)
{
    ProcessCpuTimes p;
    p.userSeconds = double(user100ns) / 1e7;
    p.systemSeconds = double(kernel100ns) / 1e7;
    // Windows keeps no separate precise total: both come from the same accounting.
    p.totalSeconds = double(user100ns + kernel100ns) / 1e7;
    return p;
}

std::int64_t performanceCounterToNs(std::int64_t count, std::int64_t frequency)
{
    if (frequency <= 0 || count < 0)
        return 0;
    const std::int64_t seconds = count / frequency;
    const std::int64_t rest = count % frequency; // < frequency (a few GHz at most): no overflow
    return seconds * 1'000'000'000 + rest * 1'000'000'000 / frequency;
}

QString operStatusName(int operStatus)
{
    // IF_OPER_STATUS follows RFC 2863's ifOperStatus numbering.
    switch (operStatus) {
    case 1:
        return QStringLiteral("up");
    case 2:
        return QStringLiteral("down");
    case 3:
        return QStringLiteral("testing");
    case 5:
        return QStringLiteral("dormant");
    case 6:
        return QStringLiteral("notpresent");
    case 7:
        return QStringLiteral("lowerlayerdown");
    default: // 4 is "unknown" too
        return QStringLiteral("unknown");
    }
}

std::int64_t linkSpeedFromWindows(std::uint64_t transmitBps, std::uint64_t receiveBps)
{
    const auto known = [](std::uint64_t v) {
        // ~0ULL is "unknown"; anything past int64 is not a speed either.
        return v > 0 && v <= std::uint64_t(std::numeric_limits<std::int64_t>::max());
    };
    // One figure per link, as Linux reports it; the two differ only on asymmetric links
    // (some wifi, DSL), where the transmit side is the one our sender fills.
    if (known(transmitBps))
        return std::int64_t(transmitBps);
    if (known(receiveBps))
        return std::int64_t(receiveBps);
    return -1;
}

QString physicalAddressText(const QByteArray &bytes)
{
    if (bytes.count('\0') == bytes.size())
        return {};
    return QString::fromLatin1(bytes.toHex(':'));
}

QMap<QString, bool> offloadsFromInfKeywords(const QMap<QString, QString> &keywords)
{
    QMap<QString, bool> offloads;
    const auto merge = [&offloads](const char *name, bool on) {
        bool &slot = offloads[QLatin1String(name)];
        slot = slot || on;
    };
    for (const OffloadKeyword &k : kOffloadKeywords) {
        const auto it = keywords.constFind(QLatin1String(k.keyword));
        if (it == keywords.cend())
            continue;
        bool ok = false;
        const int v = it->trimmed().toInt(&ok);
        if (!ok || v < 0)
            continue;
        if (k.kind == KeywordKind::OnOff) {
            if (v <= 1)
                merge(k.shortName, v == 1);
        } else if (v <= 3) {
            merge(k.shortName, v == 1 || v == 3);
            merge("rx-checksum", v == 2 || v == 3);
        }
    }
    return offloads;
}

QList<QString> offloadInfKeywordNames()
{
    QList<QString> names;
    for (const OffloadKeyword &k : kOffloadKeywords)
        names.append(QLatin1String(k.keyword));
    return names;
}

QString adapterName(const AdapterRecord &r)
{
    return r.friendlyName.isEmpty() ? r.guidName : r.friendlyName;
}

AdapterInfo adapterFromRecord(const AdapterRecord &r)
{
    AdapterInfo a;
    a.name = adapterName(r);
    a.index = int(r.ifIndex);
    a.description = r.description.isEmpty() ? r.driverDesc : r.description;
    a.driver = r.driverService;
    a.driverVersion = r.driverVersion;
    a.loopback = r.ifType == IfTypeSoftwareLoopback;
    a.family = familyFromDriver(a.description, a.name, a.loopback);
    a.mtu = r.mtu <= std::uint32_t(std::numeric_limits<int>::max()) ? int(r.mtu) : 0;
    a.linkSpeedBps = a.loopback ? -1 : linkSpeedFromWindows(r.transmitLinkSpeed, r.receiveLinkSpeed);
    a.addresses = r.addresses;
    a.hardwareAddress = physicalAddressText(r.physicalAddress);
    a.operState = operStatusName(r.operStatus);
    a.offloads = offloadsFromInfKeywords(r.infKeywords);
    return a;
}

InterfaceCounters countersFromIfRow(const IfRowCounters &row, std::int64_t timestampNs)
{
    InterfaceCounters c;
    c.rxBytes = row.inOctets;
    c.txBytes = row.outOctets;
    c.rxPackets = row.inUcastPkts + row.inNUcastPkts;
    c.txPackets = row.outUcastPkts + row.outNUcastPkts;
    c.rxDropped = row.inDiscards;
    c.txDropped = row.outDiscards;
    c.rxErrors = row.inErrors;
    c.txErrors = row.outErrors;
    c.timestampNs = timestampNs;
    return c;
}

} // namespace nb::platform::winsys
