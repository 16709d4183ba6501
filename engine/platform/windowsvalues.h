// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What Windows reports, mapped to the platform types: plain structs that platform_windows.cpp
// fills from GetAdaptersAddresses, MIB_IF_ROW2, the registry and GetSystemTimes, and pure
// functions that turn them into AdapterInfo, offloads and CpuTimes. No Windows header here,
// so the mapping is tested natively and under wine on recorded Windows values
// (tests/tst_windowsplatform.cpp).

#include "platform/platform.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <cstdint>

namespace nb::platform::winsys {

// GetSystemTimes: FILETIMEs in 100 ns units, summed over the processors of the calling
// thread's processor group. The kernel time INCLUDES the idle time.
struct SystemTimes {
    std::uint64_t idle = 0;
    std::uint64_t kernel = 0;
    std::uint64_t user = 0;
};
// CpuTimes in 100 ns units (the "ticks" of Windows; CpuMonitor only divides ticks by
// ticks): user, system = kernel - idle (interrupt and DPC time included, Windows does not
// split them out here), idle; the Linux-only fields stay 0.
CpuTimes cpuTimesFromSystemTimes(const SystemTimes &t, int cpuCount);
// GetProcessTimes' user and kernel FILETIMEs (100 ns units) in seconds.
ProcessCpuTimes processTimesFromFileTimes(std::uint64_t user100ns, std::uint64_t kernel100ns);

// A QueryPerformanceCounter reading in nanoseconds, without the overflow of count * 1e9.
std::int64_t performanceCounterToNs(std::int64_t count, std::int64_t frequency);

// IF_OPER_STATUS (1 up ... 7 lowerLayerDown) as the RFC 2863 word Linux's operstate uses.
QString operStatusName(int operStatus);
// MIB_IF_ROW2 / IP_ADAPTER_ADDRESSES link speeds in bit/s to one figure: -1 when Windows
// does not know (0, or ~0ULL, which both APIs use for "unknown").
std::int64_t linkSpeedFromWindows(std::uint64_t transmitBps, std::uint64_t receiveBps);
// "aa:bb:cc:dd:ee:ff" (lower case, as Linux writes it); empty for no or an all-zero address.
QString physicalAddressText(const QByteArray &bytes);

// The standardized INF keywords (the driver's registry key values, "0", "1", ...) to our
// short offload names: *LsoV1IPv4 / *LsoV2IPv4 / *LsoV2IPv6 -> tso, *RscIPv4 / *RscIPv6 ->
// rsc, *TCPChecksumOffloadIPv4/6, *UDPChecksumOffloadIPv4/6, *IPChecksumOffloadIPv4 (0 off,
// 1 Tx, 2 Rx, 3 both) -> tx-checksum / rx-checksum, *RSS -> rxhash. A short name is on when
// any keyword mapping to it is on; a keyword that is absent or not a number in its range
// leaves the name out (not readable), never guessed.
QMap<QString, bool> offloadsFromInfKeywords(const QMap<QString, QString> &keywords);
// The keyword names offloadsFromInfKeywords() reads, for the registry reader.
QList<QString> offloadInfKeywordNames();

// One adapter as the Windows APIs describe it.
struct AdapterRecord {
    // IP_ADAPTER_ADDRESSES
    QString friendlyName; // "Ethernet0", "Local Area Connection 2"
    QString description;  // "vmxnet3 Ethernet Adapter"
    QString guidName;     // AdapterName: "{8D2A...}", the NetCfgInstanceId in the registry
    std::uint32_t ifIndex = 0;
    std::uint32_t ifType = 0; // IANA ifType: 6 ethernet, 24 software loopback, 71 wifi
    std::uint32_t mtu = 0;    // ~0U on the software loopback
    QByteArray physicalAddress;
    int operStatus = 0;
    QList<AdapterAddress> addresses;
    // MIB_IF_ROW2 (or IP_ADAPTER_ADDRESSES when the row is not readable)
    std::uint64_t transmitLinkSpeed = 0;
    std::uint64_t receiveLinkSpeed = 0;
    // The network adapter class key whose NetCfgInstanceId equals guidName; empty when
    // there is none (the software loopback, wine).
    QString driverService; // Ndi\Service: "vmxnet3ndis6", "e1iexpress", "netvsc"
    QString driverDesc;
    QString driverVersion;
    QMap<QString, QString> infKeywords; // "*LsoV2IPv4" -> "1"; only those present
};

constexpr std::uint32_t IfTypeSoftwareLoopback = 24;

// The name platform.h's functions key adapters by: the friendly name (the GUID name when
// there is none).
QString adapterName(const AdapterRecord &record);
// name = adapterName(), description = Description (the
// class key's DriverDesc when that is empty), family from the description, driver = the
// driver's service name, link speed -1 for the loopback (Windows gives it a nominal 1 Gbit/s
// that is no link) and where unknown, MTU 0 where Windows reports none (~0U).
AdapterInfo adapterFromRecord(const AdapterRecord &record);

// Counters from MIB_IF_ROW2: octets, unicast + non-unicast packets, discards and errors.
struct IfRowCounters {
    std::uint64_t inOctets = 0;
    std::uint64_t outOctets = 0;
    std::uint64_t inUcastPkts = 0;
    std::uint64_t inNUcastPkts = 0;
    std::uint64_t outUcastPkts = 0;
    std::uint64_t outNUcastPkts = 0;
    std::uint64_t inDiscards = 0;
    std::uint64_t outDiscards = 0;
    std::uint64_t inErrors = 0;
    std::uint64_t outErrors = 0;
};
InterfaceCounters countersFromIfRow(const IfRowCounters &row, std::int64_t timestampNs);

} // namespace nb::platform::winsys
