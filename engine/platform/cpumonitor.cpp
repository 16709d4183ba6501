// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/cpumonitor.h"

#include <QJsonValue>

#include <algorithm>

namespace nb {

namespace {

// Counters only grow; a smaller value means a CPU went offline mid-test, and a negative
// share would be nonsense, so clamp instead.
double delta(std::uint64_t a, std::uint64_t b) { return b > a ? double(b - a) : 0.0; }

bool failWith(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

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
    if (systemValid) {
        o.insert(QStringLiteral("system_busy_pct"), systemBusyPct);
        o.insert(QStringLiteral("user_pct"), userPct);
        o.insert(QStringLiteral("system_pct"), systemPct);
        o.insert(QStringLiteral("irq_pct"), irqPct);
        o.insert(QStringLiteral("iowait_pct"), iowaitPct);
        o.insert(QStringLiteral("steal_pct"), stealPct);
    }
    if (processValid) {
        o.insert(QStringLiteral("process_pct"), processPct);
        o.insert(QStringLiteral("process_user_pct"), processUserPct);
        o.insert(QStringLiteral("process_system_pct"), processSystemPct);
    }
    return o;
}

bool CpuSample::fromJson(const QJsonObject &json, CpuSample *out, QString *error)
{
    CpuSample s;
    if (!json.value(QStringLiteral("start")).isDouble() || !json.value(QStringLiteral("end")).isDouble())
        return failWith(error, QStringLiteral("cpu sample: start/end missing"));
    s.start = json.value(QStringLiteral("start")).toDouble();
    s.end = json.value(QStringLiteral("end")).toDouble();
    s.cpuCount = json.value(QStringLiteral("cpu_count")).toInt(0);
    // A group is present entirely or not at all: half a group means a corrupt file.
    const auto readGroup = [&json](std::initializer_list<std::pair<const char *, double *>> fields, bool *valid) {
        int present = 0;
        for (const auto &[key, target] : fields) {
            const QJsonValue v = json.value(QLatin1String(key));
            if (v.isDouble()) {
                *target = v.toDouble();
                ++present;
            }
        }
        *valid = present == int(fields.size());
        return present == 0 || *valid;
    };
    if (!readGroup({{"system_busy_pct", &s.systemBusyPct}, {"user_pct", &s.userPct}, {"system_pct", &s.systemPct},
                    {"irq_pct", &s.irqPct}, {"iowait_pct", &s.iowaitPct}, {"steal_pct", &s.stealPct}},
                   &s.systemValid)
        || !readGroup({{"process_pct", &s.processPct}, {"process_user_pct", &s.processUserPct},
                       {"process_system_pct", &s.processSystemPct}},
                      &s.processValid))
        return failWith(error, QStringLiteral("cpu sample: incomplete figures"));
    *out = s;
    return true;
}

} // namespace nb
