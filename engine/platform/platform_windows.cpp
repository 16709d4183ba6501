// SPDX-License-Identifier: GPL-3.0-or-later
// Windows behind platform.h. PLACEHOLDER: to be replaced with the real implementation
// (GetIfTable2, GetAdaptersAddresses, GetSystemTimes, GetProcessTimes).
#include "platform/platform.h"

#include <QSysInfo>
#include <QThread>

namespace nb::platform {

bool readSystemCpuTimes(CpuTimes *)
{
    return false;
}
bool readProcessCpuTimes(ProcessCpuTimes *)
{
    return false;
}
int cpuCount()
{
    return QThread::idealThreadCount();
}
double cpuClockHz()
{
    return 0;
}
QString cpuModel()
{
    return {};
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
    return {};
}
bool readCounters(const QString &, InterfaceCounters *)
{
    return false;
}
QMap<QString, InterfaceCounters> readAllCounters()
{
    return {};
}
FileLimit raiseFileLimit()
{
    return {};
}
FileLimit fileLimit()
{
    return {};
}
int openFileCount()
{
    return -1;
}

} // namespace nb::platform
