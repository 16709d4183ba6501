// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/processcpu.h"

#include "platform/platform.h"

namespace nb {

static void times(double *user, double *system)
{
    platform::ProcessCpuTimes t;
    platform::readProcessCpuTimes(&t);
    *user = t.userSeconds;
    *system = t.systemSeconds;
}

void ProcessCpuMeter::start()
{
    m_wall = std::chrono::steady_clock::now();
    times(&m_user, &m_system);
}

ProcessCpuMeter::Percent ProcessCpuMeter::read() const
{
    double u = 0, s = 0;
    times(&u, &s);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wall).count();
    Percent p;
    if (wall <= 0)
        return p;
    p.user = (u - m_user) / wall * 100.0;
    p.system = (s - m_system) / wall * 100.0;
    p.total = p.user + p.system;
    return p;
}

} // namespace nb
