// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one interface to the operating system for CPU accounting, machine facts and network
// adapters. Each OS implements it in its own file (platform_linux.cpp, platform_windows.cpp), so a port
// adds a file instead of #ifdefs throughout the engine.

#include "platform/adapterinfo.h"

#include <QList>
#include <QMap>
#include <QString>

#include <cstdint>

namespace nb::platform {

// System-wide CPU time since boot, summed over all online CPUs, in clock ticks: USER_HZ
// (10 ms) on Linux, 100 ns on Windows. Only ratios of ticks mean anything (CpuMonitor
// divides by total()). guest time is already inside user. Windows fills user, system
// (interrupt and DPC time included: it does not split them out) and idle only.
struct CpuTimes {
    std::uint64_t user = 0;
    std::uint64_t nice = 0;
    std::uint64_t system = 0;
    std::uint64_t idle = 0;
    std::uint64_t iowait = 0;
    std::uint64_t irq = 0;
    std::uint64_t softirq = 0;
    std::uint64_t steal = 0;
    int cpuCount = 0; // CPUs the totals cover

    std::uint64_t total() const { return user + nice + system + idle + iowait + irq + softirq + steal; }
    // Work done on this machine's behalf: not idle, not waiting on disk, not stolen by the
    // hypervisor for other guests.
    std::uint64_t busy() const { return user + nice + system + irq + softirq; }
};

// CPU time used by this process (all threads) since it started.
struct ProcessCpuTimes {
    double userSeconds = 0;
    double systemSeconds = 0;
    double totalSeconds = 0; // from a precise clock; may differ slightly from user + system
};

bool readSystemCpuTimes(CpuTimes *out);
bool readProcessCpuTimes(ProcessCpuTimes *out);

int cpuCount();      // online CPUs
double cpuClockHz(); // current nominal clock of CPU 0's package, 0 when not readable
QString cpuModel();  // "Intel(R) Xeon(R) ...", empty when unknown
QString osName();    // "Debian GNU/Linux 12 (bookworm)"
QString kernelVersion();

// Every interface with what could be read about it; never fails, fields stay at their
// "unknown" defaults when unreadable.
QList<AdapterInfo> listAdapters();
// Cheap enough for 10+ Hz polling; false when the interface does not exist.
bool readCounters(const QString &interfaceName, InterfaceCounters *out);
// Every interface at once, for a view that polls them all (same cost as one).
QMap<QString, InterfaceCounters> readAllCounters();

// Opens the console of the process that started this one, when there is one and stdout or
// stderr lead nowhere: on Windows a GUI program (nicbench.exe) started from cmd.exe or
// PowerShell has no console of its own, so `nicbench --report-pdf ...` could not print its
// errors. A no-op on Linux.
void attachParentConsole();

// --- Open descriptors ----------------------------------------------------------------------
// Every data connection is a descriptor (a socket); a test with thousands of flows needs a
// limit above the usual 1024.
struct FileLimit {
    std::int64_t soft = -1; // what this process may open now; -1 unknown
    std::int64_t hard = -1; // how far it may raise soft without privileges
};
// Raises the soft limit to the hard one (RLIMIT_NOFILE on Linux); returns the limits after.
// Windows has no such limit (sockets are handles bounded by memory): both stay -1 there,
// and checkDescriptorLimit() skips its check.
FileLimit raiseFileLimit();
FileLimit fileLimit();
// Descriptors this process has open now; -1 when unknown. On Windows every handle of the
// process (GetProcessHandleCount: threads, events and keys too).
int openFileCount();

// --- Files ---------------------------------------------------------------------------------
// Whether every user of the machine may read the file (a secret kept in it is no secret):
// the "others" read bit on Linux. Windows keeps access in ACLs, which this does not read:
// false there.
bool isReadableByEveryone(const QString &path);

// --- Process signals ---------------------------------------------------------------------
// Calls onInterrupt for each Ctrl+C / termination request (SIGINT, SIGTERM; on Windows a
// console control handler). It runs in a signal handler: it must only touch atomics.
void installInterruptHandler(void (*onInterrupt)());
// Writing to a socket the peer closed must be an error return, not the end of the process.
void ignoreSigpipe();

} // namespace nb::platform
