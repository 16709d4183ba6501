// SPDX-License-Identifier: GPL-3.0-or-later
// Windows implementation of platform.h on documented APIs: GetSystemTimes and
// GetProcessTimes for CPU, GetAdaptersAddresses for adapters and addresses, GetIfEntry2
// (MIB_IF_ROW2) for link speed and counters, the registry for the CPU's name and clock and
// the adapters' driver keys. Every raw value goes through windowsvalues.h, whose mapping
// the unit tests check on recorded Windows values.
#include "platform/platform.h"
#include "platform/windowsvalues.h"

#include <QSysInfo>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

// winsock2.h before windows.h; iphlpapi.h brings netioapi.h (MIB_IF_ROW2, GetIfEntry2).
#include <winsock2.h>
#include <ws2tcpip.h>

#include <iphlpapi.h>
#include <windows.h>

namespace nb::platform {

namespace {

std::uint64_t fromFileTime(const FILETIME &ft)
{
    return (std::uint64_t(ft.dwHighDateTime) << 32) | ft.dwLowDateTime;
}

std::int64_t monotonicNs()
{
    LARGE_INTEGER count{}, frequency{};
    ::QueryPerformanceCounter(&count);
    ::QueryPerformanceFrequency(&frequency);
    return winsys::performanceCounterToNs(count.QuadPart, frequency.QuadPart);
}

// A REG_SZ value as text, a REG_DWORD as its decimal number (drivers store INF keywords
// either way); nothing when the key or value is missing or unreadable.
std::optional<QString> registryText(HKEY key, const wchar_t *subKey, const wchar_t *value)
{
    std::vector<wchar_t> buf(64);
    DWORD type = 0;
    // Twice at most: the first answer may only say how large the value is.
    for (int attempt = 0; attempt < 2; ++attempt) {
        DWORD bytes = DWORD(buf.size() * sizeof(wchar_t));
        const LONG rc = ::RegGetValueW(key, subKey, value, RRF_RT_REG_SZ | RRF_RT_REG_DWORD, &type, buf.data(), &bytes);
        if (rc == ERROR_MORE_DATA) {
            buf.resize(bytes / sizeof(wchar_t) + 2);
            continue;
        }
        if (rc != ERROR_SUCCESS)
            return std::nullopt;
        if (type == REG_DWORD) {
            DWORD number = 0;
            std::memcpy(&number, buf.data(), sizeof number);
            return QString::number(number);
        }
        return QString::fromWCharArray(buf.data()).trimmed(); // RegGetValueW terminates REG_SZ
    }
    return std::nullopt;
}

// What the network adapter class key of one adapter says about its driver.
struct DriverKey {
    QString service;
    QString desc;
    QString version;
    QMap<QString, QString> keywords;
};

// Every subkey NNNN of the network adapter class, by its NetCfgInstanceId (upper case).
// Read once per listAdapters(); "Properties" and keys a user may not read are skipped.
QMap<QString, DriverKey> driverKeysByGuid()
{
    static const wchar_t kNetClass[] =
        L"SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e972-e325-11ce-bfc1-08002be10318}";
    QMap<QString, DriverKey> keys;
    HKEY cls = nullptr;
    if (::RegOpenKeyExW(HKEY_LOCAL_MACHINE, kNetClass, 0, KEY_READ, &cls) != ERROR_SUCCESS)
        return keys;
    const QList<QString> keywordNames = winsys::offloadInfKeywordNames();
    // Bounded: a class holds tens of adapters (every WAN miniport and filter counts).
    for (DWORD i = 0; i < 4096; ++i) {
        wchar_t name[256];
        DWORD length = DWORD(std::size(name));
        const LONG rc = ::RegEnumKeyExW(cls, i, name, &length, nullptr, nullptr, nullptr, nullptr);
        if (rc == ERROR_NO_MORE_ITEMS)
            break;
        if (rc != ERROR_SUCCESS)
            continue;
        HKEY sub = nullptr;
        if (::RegOpenKeyExW(cls, name, 0, KEY_QUERY_VALUE, &sub) != ERROR_SUCCESS)
            continue;
        if (const auto id = registryText(sub, nullptr, L"NetCfgInstanceId")) {
            DriverKey d;
            d.service = registryText(sub, L"Ndi", L"Service").value_or(QString());
            d.desc = registryText(sub, nullptr, L"DriverDesc").value_or(QString());
            d.version = registryText(sub, nullptr, L"DriverVersion").value_or(QString());
            for (const QString &keyword : keywordNames) {
                if (const auto v = registryText(sub, nullptr, reinterpret_cast<const wchar_t *>(keyword.utf16())))
                    d.keywords.insert(keyword, *v);
            }
            keys.insert(id->toUpper(), d);
        }
        ::RegCloseKey(sub);
    }
    ::RegCloseKey(cls);
    return keys;
}

// One adapter of GetAdaptersAddresses' list: the fields both the adapter list and the
// counters need.
struct Listed {
    winsys::AdapterRecord record;
    NET_LUID luid{};
};

// GetAdaptersAddresses for IPv4 and IPv6; empty when it fails.
QList<Listed> listedAdapters(bool withAddresses)
{
    ULONG flags = GAA_FLAG_SKIP_ANYCAST | GAA_FLAG_SKIP_MULTICAST | GAA_FLAG_SKIP_DNS_SERVER;
    if (!withAddresses)
        flags |= GAA_FLAG_SKIP_UNICAST;
    // 15 KB is Microsoft's suggested start; the list can grow between two calls, so retry
    // with the size the call asked for, a few times at most.
    ULONG bytes = 15 * 1024;
    std::vector<std::uint64_t> buf; // 8-byte aligned, as the structures need
    ULONG rc = ERROR_BUFFER_OVERFLOW;
    for (int attempt = 0; attempt < 4 && rc == ERROR_BUFFER_OVERFLOW; ++attempt) {
        buf.assign(bytes / sizeof(std::uint64_t) + 1, 0);
        bytes = ULONG(buf.size() * sizeof(std::uint64_t));
        rc = ::GetAdaptersAddresses(AF_UNSPEC, flags, nullptr, reinterpret_cast<IP_ADAPTER_ADDRESSES *>(buf.data()),
                                    &bytes);
    }
    QList<Listed> list;
    if (rc != NO_ERROR)
        return list; // ERROR_NO_DATA: no adapters at all
    for (auto *a = reinterpret_cast<const IP_ADAPTER_ADDRESSES *>(buf.data()); a; a = a->Next) {
        Listed l;
        winsys::AdapterRecord &r = l.record;
        r.friendlyName = a->FriendlyName ? QString::fromWCharArray(a->FriendlyName) : QString();
        r.description = a->Description ? QString::fromWCharArray(a->Description) : QString();
        r.guidName = a->AdapterName ? QString::fromLatin1(a->AdapterName) : QString();
        // IfIndex is the IPv4 index and 0 when IPv4 is off on the adapter.
        r.ifIndex = a->IfIndex ? a->IfIndex : a->Ipv6IfIndex;
        r.ifType = a->IfType;
        r.mtu = a->Mtu;
        r.physicalAddress = QByteArray(reinterpret_cast<const char *>(a->PhysicalAddress),
                                       int(std::min<ULONG>(a->PhysicalAddressLength, MAX_ADAPTER_ADDRESS_LENGTH)));
        r.operStatus = int(a->OperStatus);
        r.transmitLinkSpeed = a->TransmitLinkSpeed;
        r.receiveLinkSpeed = a->ReceiveLinkSpeed;
        for (auto *u = a->FirstUnicastAddress; u; u = u->Next) {
            const QHostAddress address(u->Address.lpSockaddr);
            if (!address.isNull())
                r.addresses.append({address, int(u->OnLinkPrefixLength)});
        }
        l.luid = a->Luid;
        list.append(l);
    }
    return list;
}

bool ifRow(const NET_LUID &luid, MIB_IF_ROW2 *row)
{
    *row = MIB_IF_ROW2{};
    row->InterfaceLuid = luid;
    return ::GetIfEntry2(row) == NO_ERROR;
}

InterfaceCounters countersOf(const MIB_IF_ROW2 &row, std::int64_t timestampNs)
{
    winsys::IfRowCounters c;
    c.inOctets = row.InOctets;
    c.outOctets = row.OutOctets;
    c.inUcastPkts = row.InUcastPkts;
    c.inNUcastPkts = row.InNUcastPkts;
    c.outUcastPkts = row.OutUcastPkts;
    c.outNUcastPkts = row.OutNUcastPkts;
    c.inDiscards = row.InDiscards;
    c.outDiscards = row.OutDiscards;
    c.inErrors = row.InErrors;
    c.outErrors = row.OutErrors;
    return winsys::countersFromIfRow(c, timestampNs);
}

// The CPUs GetSystemTimes covers: the calling thread's processor group (all of them on a
// machine with 64 or fewer).
int groupCpuCount()
{
    GROUP_AFFINITY affinity{};
    if (::GetThreadGroupAffinity(::GetCurrentThread(), &affinity)) {
        const DWORD n = ::GetActiveProcessorCount(affinity.Group);
        if (n > 0)
            return int(n);
    }
    return cpuCount();
}

const wchar_t kCpu0[] = L"HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0";

} // namespace

bool readSystemCpuTimes(CpuTimes *out)
{
    FILETIME idle{}, kernel{}, user{};
    if (!::GetSystemTimes(&idle, &kernel, &user))
        return false;
    *out = winsys::cpuTimesFromSystemTimes({fromFileTime(idle), fromFileTime(kernel), fromFileTime(user)},
                                           groupCpuCount());
    return true;
}

bool readProcessCpuTimes(ProcessCpuTimes *out)
{
    FILETIME created{}, exited{}, kernel{}, user{};
    if (!::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &kernel, &user))
        return false;
    *out = winsys::processTimesFromFileTimes(fromFileTime(user), fromFileTime(kernel));
    return true;
}

int cpuCount()
{
    const DWORD n = ::GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return n > 0 ? int(n) : std::max(1, QThread::idealThreadCount());
}

double cpuClockHz()
{
    // "~MHz" is the nominal clock Windows measured at boot.
    bool ok = false;
    const double mhz = registryText(HKEY_LOCAL_MACHINE, kCpu0, L"~MHz").value_or(QString()).toDouble(&ok);
    return ok && mhz > 0 ? mhz * 1e6 : 0.0;
}

QString cpuModel()
{
    // Intel pads the name with leading spaces; registryText trims.
    return registryText(HKEY_LOCAL_MACHINE, kCpu0, L"ProcessorNameString").value_or(QString());
}

QString osName()
{
    return QSysInfo::prettyProductName();
}

QString kernelVersion()
{
    return QSysInfo::kernelVersion();
}

QList<AdapterInfo> listAdapters()
{
    const QMap<QString, DriverKey> drivers = driverKeysByGuid();
    QList<AdapterInfo> adapters;
    for (Listed &l : listedAdapters(true)) {
        winsys::AdapterRecord &r = l.record;
        MIB_IF_ROW2 row;
        if (ifRow(l.luid, &row)) {
            r.transmitLinkSpeed = row.TransmitLinkSpeed;
            r.receiveLinkSpeed = row.ReceiveLinkSpeed;
        }
        const auto d = drivers.constFind(r.guidName.toUpper());
        if (d != drivers.cend()) {
            r.driverService = d->service;
            r.driverDesc = d->desc;
            r.driverVersion = d->version;
            r.infKeywords = d->keywords;
        }
        adapters.append(winsys::adapterFromRecord(r));
    }
    return adapters;
}

QMap<QString, InterfaceCounters> readAllCounters()
{
    QMap<QString, InterfaceCounters> all;
    for (const Listed &l : listedAdapters(false)) {
        MIB_IF_ROW2 row;
        if (ifRow(l.luid, &row))
            all.insert(winsys::adapterName(l.record), countersOf(row, monotonicNs()));
    }
    return all;
}

bool readCounters(const QString &interfaceName, InterfaceCounters *out)
{
    for (const Listed &l : listedAdapters(false)) {
        if (winsys::adapterName(l.record) != interfaceName)
            continue;
        MIB_IF_ROW2 row;
        if (!ifRow(l.luid, &row))
            return false;
        *out = countersOf(row, monotonicNs());
        return true;
    }
    return false;
}

// Windows has no per-process descriptor limit like RLIMIT_NOFILE: sockets are kernel
// handles bounded by memory (and the per-process handle table, about 16 million). Unknown
// (-1) makes checkDescriptorLimit() skip its check.
FileLimit raiseFileLimit()
{
    return {};
}

FileLimit fileLimit()
{
    return {};
}

// Counts every kernel handle of the process (threads, events, registry keys, files), not
// only sockets: an upper bound of what Linux's /proc/self/fd would show. A running process
// always holds some; wine 8 answers 0, which is "not counted", so unknown.
bool isReadableByEveryone(const QString &)
{
    return false; // ACLs are not read (platform.h)
}

int openFileCount()
{
    DWORD n = 0;
    return ::GetProcessHandleCount(::GetCurrentProcess(), &n) && n > 0 ? int(n) : -1;
}

void attachParentConsole()
{
    // A stream the parent handed over (a file, a pipe, wine's terminal) stays as it is.
    const auto handedOver = [](DWORD which) {
        const HANDLE h = ::GetStdHandle(which);
        return h != nullptr && h != INVALID_HANDLE_VALUE && ::GetFileType(h) != FILE_TYPE_UNKNOWN;
    };
    const bool haveOut = handedOver(STD_OUTPUT_HANDLE);
    const bool haveErr = handedOver(STD_ERROR_HANDLE);
    if ((haveOut && haveErr) || !::AttachConsole(ATTACH_PARENT_PROCESS))
        return; // started from Explorer: no console to borrow, nothing to print to
    if (!haveOut && !std::freopen("CONOUT$", "w", stdout))
        return;
    if (!haveErr && !std::freopen("CONOUT$", "w", stderr))
        return;
}

} // namespace nb::platform
