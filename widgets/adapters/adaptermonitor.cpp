// SPDX-License-Identifier: GPL-3.0-or-later
#include "adapters/adaptermonitor.h"

#include <platform/interfacemonitor.h>
#include <platform/platform.h>

#include <cmath>

namespace nb::ui {

namespace {

constexpr int kRefreshEveryPolls = 50; // adapter details every 5 s

} // namespace

AdapterMonitor::AdapterMonitor(QObject *parent) : QObject(parent)
{
    m_timer.setInterval(kPollIntervalMs);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &AdapterMonitor::poll);
    m_clock.start();
}

void AdapterMonitor::start()
{
    refreshAdapters();
    m_last = nb::platform::readAllCounters();
    m_timer.start();
}

void AdapterMonitor::stop()
{
    m_timer.stop();
}

void AdapterMonitor::refreshAdapters()
{
    m_pollsSinceRefresh = 0;
    QList<nb::AdapterInfo> fresh = nb::platform::listAdapters();
    if (fresh == m_adapters)
        return;
    m_adapters = std::move(fresh);
    // History of adapters that went away is dropped; new ones start empty.
    QMap<QString, RateHistory> kept;
    for (const nb::AdapterInfo &a : std::as_const(m_adapters))
        kept.insert(a.name, m_history.value(a.name));
    m_history = std::move(kept);
    Q_EMIT adaptersChanged();
}

std::optional<nb::AdapterInfo> AdapterMonitor::adapter(const QString &name) const
{
    for (const nb::AdapterInfo &a : m_adapters) {
        if (a.name == name)
            return a;
    }
    return std::nullopt;
}

const std::deque<RatePoint> &AdapterMonitor::history(const QString &name) const
{
    static const std::deque<RatePoint> empty;
    const auto it = m_history.constFind(name);
    return it == m_history.constEnd() ? empty : it->recent();
}

std::vector<RatePoint> AdapterMonitor::sessionHistory(const QString &name) const
{
    const auto it = m_history.constFind(name);
    return it == m_history.constEnd() ? std::vector<RatePoint>() : it->all();
}

double AdapterMonitor::droppedSinceStart(const QString &name) const
{
    const auto it = m_history.constFind(name);
    return it == m_history.constEnd() ? 0 : it->droppedTotal();
}

double AdapterMonitor::errorsSinceStart(const QString &name) const
{
    const auto it = m_history.constFind(name);
    return it == m_history.constEnd() ? 0 : it->errorsTotal();
}

RatePoint AdapterMonitor::recentAverage(const QString &name, double seconds) const
{
    const std::deque<RatePoint> &h = history(name);
    RatePoint avg;
    if (h.empty())
        return avg;
    const double from = h.back().time - seconds;
    int n = 0;
    for (auto it = h.crbegin(); it != h.crend() && it->time > from; ++it, ++n) {
        avg.sendBps += it->sendBps;
        avg.receiveBps += it->receiveBps;
        avg.sendPps += it->sendPps;
        avg.receivePps += it->receivePps;
        avg.dropped += it->dropped;
        avg.errors += it->errors;
    }
    if (n > 0) {
        avg.sendBps /= n;
        avg.receiveBps /= n;
        avg.sendPps /= n;
        avg.receivePps /= n;
    }
    avg.time = h.back().time;
    return avg;
}

double AdapterMonitor::now() const
{
    return m_clock.elapsed() / 1000.0;
}

void AdapterMonitor::poll()
{
    if (++m_pollsSinceRefresh >= kRefreshEveryPolls)
        refreshAdapters();
    addReading(nb::platform::readAllCounters());
}

void AdapterMonitor::addReading(const QMap<QString, nb::InterfaceCounters> &counters)
{
    const double t = now();
    for (auto it = m_history.begin(); it != m_history.end(); ++it) {
        const auto cur = counters.constFind(it.key());
        const auto prev = m_last.constFind(it.key());
        if (cur == counters.constEnd())
            continue;
        // The first reading of an adapter has nothing to take a rate from: no point (a 0 would
        // pull the first second's average down).
        if (prev == m_last.constEnd())
            continue;
        const nb::InterfaceRates r = nb::interfaceRates(*prev, *cur, -1);
        RatePoint p;
        p.time = t;
        p.sendBps = r.txBytesPerSecond * 8;
        p.receiveBps = r.rxBytesPerSecond * 8;
        p.sendPps = r.txPacketsPerSecond;
        p.receivePps = r.rxPacketsPerSecond;
        p.dropped = std::round(r.droppedPerSecond * r.seconds);
        p.errors = std::round(r.errorsPerSecond * r.seconds);
        it.value().add(p);
    }
    m_last = counters;
    Q_EMIT updated();
}

} // namespace nb::ui
