// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Linux pieces behind platform.h, exposed so tests can feed recorded /proc text and sysfs
// fixture trees instead of the live machine. Only platform_linux.cpp and tests use this.

#include "platform/platform.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <utility>

// Not "linux": GNU mode predefines that as a macro.
namespace nb::platform::linuxsys {

// The aggregate "cpu" line of /proc/stat; cpuCount from the "cpuN" lines. Fields a
// kernel does not report (old kernels lack steal) stay 0.
bool parseProcStat(const QByteArray &text, CpuTimes *out);
// Mean of the "cpu MHz" lines of /proc/cpuinfo (x86 reports the current clock), 0 if none.
double parseCpuInfoMHz(const QByteArray &cpuinfo);
// "model name" (x86), or "Model"/"Hardware"/"cpu model" on ARM and MIPS; empty if none.
QString parseCpuInfoModel(const QByteArray &cpuinfo);

// The sysfs directory holding one entry per interface: "/sys/class/net" on a live system.
QString defaultNetClassDir();
QStringList interfaceNames(const QString &netClassDir);
// Everything sysfs tells about `name` below `netClassDir`: ifindex, mtu, speed, operstate,
// address, flags (loopback), ifalias, and the driver from device/driver or device/uevent.
// Addresses, driver version and offloads need the live system (see listAdapters()).
bool readSysfsAdapter(const QString &netClassDir, const QString &name, AdapterInfo *out);
bool readSysfsCounters(const QString &netClassDir, const QString &name, InterfaceCounters *out);
// /proc/net/dev: every interface's counters in one read (what readCounters() uses).
QMap<QString, InterfaceCounters> parseProcNetDev(const QByteArray &text, std::int64_t timestampNs);

// Lines "feature-name: on|off [fixed]" as `ethtool -k` prints them; indented sub-features
// included, the header line skipped.
QList<std::pair<QString, bool>> parseEthtoolFeatures(const QByteArray &text);
// Kernel feature names (ETH_SS_FEATURES strings, e.g. "tx-tcp-segmentation", "rx-gro")
// or ethtool's legacy umbrella names ("tcp-segmentation-offload") to our short offload
// names. A short name is on when any feature mapping to it is on.
QMap<QString, bool> offloadsFromFeatures(const QList<std::pair<QString, bool>> &features);

struct DriverInfo {
    QString driver;
    QString version;
    QString busInfo;
};
// ETHTOOL_GDRVINFO; false for interfaces with no driver info (lo).
bool ethtoolDriverInfo(const QString &interfaceName, DriverInfo *out);
// ETHTOOL_GFEATURES with the ETH_SS_FEATURES names, falling back to the legacy per-offload
// ioctls on kernels without them. False when neither works.
bool ethtoolFeatures(const QString &interfaceName, QList<std::pair<QString, bool>> *out);

} // namespace nb::platform::linuxsys
