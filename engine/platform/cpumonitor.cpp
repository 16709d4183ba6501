// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/cpumonitor.h"

#include "core/jsonfields.h"

#include <algorithm>

namespace nb {

namespace {

// Counters only grow; a smaller value means a CPU went offline mid-test, and a negative
// share would be nonsense, so clamp instead.
double delta(std::uint64_t a, std::uint64_t b)
{
    return b > a ? double(b - a) : 0.0;
}

// The two groups of figures a sample may carry; each is written and read whole.
using S = CpuSample;
const json::Field<S> kSystemFields[] = {
    {"system_busy_pct", &S::systemBusyPct}, {"user_pct", &S::userPct},
    {"system_pct", &S::systemPct},          {"irq_pct", &S::irqPct},
    {"iowait_pct", &S::iowaitPct},          {"steal_pct", &S::stealPct},
};
const json::Field<S> kProcessFields[] = {
    {"process_pct", &S::processPct},
    {"process_user_pct", &S::processUserPct},
    {"process_system_pct", &S::processSystemPct},
};

} // namespace

CpuReading CpuReading::now()
{
    CpuReading r;
    r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    r.systemValid = platform::readSystemCpuTimes(&r.system);
    r.processValid = platform::readProcessCpuTimes(&r.process);
    return r;
}

CpuSample cpuSampleBetween(const CpuReading &from, const CpuReading &to, double originSeconds)
{
    CpuSample s;
    s.start = from.wallSeconds - originSeconds;
    s.end = to.wallSeconds - originSeconds;
    s.cpuCount = std::max(from.system.cpuCount, to.system.cpuCount);
    const double wall = to.wallSeconds - from.wallSeconds;

    if (from.systemValid && to.systemValid) {
        const platform::CpuTimes &a = from.system, &b = to.system;
        // Total ticks across all CPUs rather than wall x cores: immune to clock rounding
        // and to CPUs that were offline part of the time.
        const double total = delta(a.total(), b.total());
        if (total > 0) {
            const auto pct = [total](double ticks) { return 100.0 * ticks / total; };
            s.systemValid = true;
            s.userPct = pct(delta(a.user, b.user) + delta(a.nice, b.nice));
            s.systemPct = pct(delta(a.system, b.system));
            s.irqPct = pct(delta(a.irq, b.irq) + delta(a.softirq, b.softirq));
            s.iowaitPct = pct(delta(a.iowait, b.iowait));
            s.stealPct = pct(delta(a.steal, b.steal));
            // From the ticks, not the sum of the rounded shares, which can exceed 100.
            s.systemBusyPct = pct(delta(a.user, b.user) + delta(a.nice, b.nice) + delta(a.system, b.system) +
                                  delta(a.irq, b.irq) + delta(a.softirq, b.softirq));
        }
    }
    if (from.processValid && to.processValid && wall > 0) {
        s.processValid = true;
        s.processPct = 100.0 * std::max(0.0, to.process.totalSeconds - from.process.totalSeconds) / wall;
        s.processUserPct = 100.0 * std::max(0.0, to.process.userSeconds - from.process.userSeconds) / wall;
        s.processSystemPct = 100.0 * std::max(0.0, to.process.systemSeconds - from.process.systemSeconds) / wall;
    }
    return s;
}

void CpuMonitor::start()
{
    m_first = m_last = CpuReading::now();
    m_intervals.clear();
}

CpuSample CpuMonitor::sample()
{
    const CpuReading r = CpuReading::now();
    const CpuSample s = cpuSampleBetween(m_last, r, m_first.wallSeconds);
    m_intervals.append(s);
    m_last = r;
    return s;
}

CpuSample CpuMonitor::finish()
{
    const CpuReading r = CpuReading::now();
    if (r.wallSeconds > m_last.wallSeconds)
        m_intervals.append(cpuSampleBetween(m_last, r, m_first.wallSeconds));
    m_last = r;
    return total();
}

QJsonObject CpuSample::toJson() const
{
    QJsonObject o{
        {QStringLiteral("start"), start},
        {QStringLiteral("end"), end},
        {QStringLiteral("cpu_count"), cpuCount},
    };
    if (systemValid)
        json::writeFields(*this, kSystemFields, &o);
    if (processValid)
        json::writeFields(*this, kProcessFields, &o);
    return o;
}

bool CpuSample::fromJson(const QJsonObject &json, CpuSample *out, QString *error)
{
    const QString w = QStringLiteral("cpu sample");
    CpuSample s;
    if (!json::readDouble(json, QStringLiteral("start"), &s.start, w, error, json::Need::Required) ||
        !json::readDouble(json, QStringLiteral("end"), &s.end, w, error, json::Need::Required) ||
        !json::readFieldGroup(json, &s, kSystemFields, w, error, &s.systemValid) ||
        !json::readFieldGroup(json, &s, kProcessFields, w, error, &s.processValid))
        return false;
    s.cpuCount = json::valueOr(json, QStringLiteral("cpu_count"), 0);
    *out = s;
    return true;
}

} // namespace nb
