// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/processcpu.h"

#include <sys/resource.h>

namespace nb {

static void times(double *user, double *system)
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    *user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
    *system = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
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
