// SPDX-License-Identifier: GPL-3.0-or-later
#include "hostsview/hostprober.h"

#include <compare/comparison.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace nb::gui {

namespace {

// One host, "HOST[:PORT]" as the Hosts view lists it.
nb::AgentStatus probeOne(const QString &host, const QString &keyPath, double stepSeconds,
                         const std::atomic<bool> *cancel)
{
    nb::AgentFrom from;
    QString error;
    if (!nb::AgentFrom::fromText(host, &from, &error)) {
        nb::AgentStatus status;
        status.infoError = error;
        status.infoCode = nb::ErrorCode::InvalidParams;
        return status;
    }
    nb::AgentProbe probe;
    probe.host = from.host;
    probe.port = from.port;
    probe.keyPath = keyPath;
    probe.timeoutSeconds = stepSeconds;
    probe.cancel = cancel;
    return nb::probeAgent(probe);
}

} // namespace

HostProber::HostProber(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<nb::AgentStatus>();
}

HostProber::~HostProber()
{
    m_cancel->store(true);
}

void HostProber::probe(const QStringList &hosts, const QString &keyPath)
{
    for (const QString &h : hosts) {
        if (!m_queued.contains(h))
            m_queued.append(h);
    }
    m_keyPath = keyPath;
    if (!m_running && !m_queued.isEmpty())
        startRound();
}

void HostProber::startRound()
{
    const QStringList hosts = std::exchange(m_queued, {});
    m_running = true;
    m_jobs.start([this, hosts, key = m_keyPath, step = m_stepSeconds, cancel = m_cancel](JobTracker::Id id) {
        std::atomic<int> next{0};
        auto worker = [&] {
            for (int i = next++; i < hosts.size() && !cancel->load(); i = next++) {
                const nb::AgentStatus status = probeOne(hosts[i], key, step, cancel.get());
                m_jobs.deliver(id, [this, host = hosts[i], status] { Q_EMIT probed(host, status); });
            }
        };
        std::vector<std::thread> threads;
        const int n = std::min<int>(MaxParallel, int(hosts.size()));
        for (int i = 0; i < n; ++i)
            threads.emplace_back(worker);
        for (std::thread &t : threads)
            t.join();
        m_jobs.deliver(id, [this] { onRoundEnded(); });
    });
}

void HostProber::onRoundEnded()
{
    m_jobs.wait(); // the round has returned; its thread is ending
    m_running = false;
    if (!m_queued.isEmpty())
        startRound();
    else
        Q_EMIT idle();
}

} // namespace nb::gui
