// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/testaccounting.h"

#include "model/servicedemand.h"
#include "net/connect.h"
#include "platform/interfacemonitor.h"
#include "platform/platform.h"

#include <QJsonArray>

#include <algorithm>

namespace nb {

void TestAccounting::begin(const net::Socket &socket)
{
    if (socket.valid()) {
        const net::Address local = net::localAddress(socket);
        m_adapter = adapterForLocalAddress(QHostAddress(local.host()));
    }
    m_countersValid = m_adapter && platform::readCounters(m_adapter->name, &m_before);
    m_monitor.start();
}

CpuSample TestAccounting::sampleInterval()
{
    return m_monitor.sample();
}

void TestAccounting::restart()
{
    m_monitor.start();
    if (m_adapter)
        m_countersValid = platform::readCounters(m_adapter->name, &m_before);
}

void TestAccounting::end()
{
    m_total = m_monitor.finish();
    if (m_countersValid)
        m_countersValid = platform::readCounters(m_adapter->name, &m_after);
}

QString TestAccounting::wrongPathWarning(std::uint64_t bytesSent, std::uint64_t bytesReceived) const
{
    if (!m_countersValid || !m_adapter)
        return {};
    return nb::wrongPathWarning(m_adapter->name, m_before, m_after, bytesSent, bytesReceived);
}

void applyAccounting(const TestAccounting &acc, TestResult *r)
{
    r->localCpuKnown = acc.cpu().systemValid || acc.cpu().processValid;
    r->localCpu = acc.cpu();
    r->localAdapter = acc.adapter();
    if (acc.countersValid()) {
        r->localAdapterTxBytes = std::int64_t(acc.countersAfter().txBytes - acc.countersBefore().txBytes);
        r->localAdapterRxBytes = std::int64_t(acc.countersAfter().rxBytes - acc.countersBefore().rxBytes);
    }
    // Only a test that completed says anything about the path its traffic took: one that
    // ended in an error moved less than it meant to, and the counters cannot be compared.
    // A UDP sender's datagrams can be dropped by a shaper on this adapter's own queue
    // before its counter sees them: what the receiver got is what surely left.
    std::uint64_t sent = r->localBytesSent();
    if (!r->hasRr &&
        std::any_of(r->streams.cbegin(), r->streams.cend(), [](const StreamSummary &s) { return s.udp; })) {
        sent = 0;
        for (const StreamSummary &s : std::as_const(r->streams))
            if (s.sender)
                sent += s.bytesReceived > 0 ? std::min(s.bytesReceived, s.bytesSent) : s.bytesSent;
    }
    const QString w = r->ok() ? acc.wrongPathWarning(sent, r->localBytesReceived()) : QString();
    if (!w.isEmpty())
        r->warnings.append(w);
}

QJsonObject accountingJson(const TestAccounting &acc)
{
    QJsonObject o;
    o.insert(QStringLiteral("cpu"), acc.cpu().toJson());
    QJsonArray intervals;
    for (const CpuSample &s : acc.cpuIntervals())
        intervals.append(s.toJson());
    o.insert(QStringLiteral("cpu_intervals"), intervals);
    if (acc.adapter())
        o.insert(QStringLiteral("adapter"), acc.adapter()->toJson());
    return o;
}

void applyRemoteAccounting(const QJsonObject &json, TestResult *r)
{
    QString err;
    CpuSample cpu;
    if (json.value(QStringLiteral("cpu")).isObject() &&
        CpuSample::fromJson(json.value(QStringLiteral("cpu")).toObject(), &cpu, &err)) {
        r->remoteCpu = cpu;
        r->remoteCpuKnown = true;
    }
    for (const QJsonValue &v : json.value(QStringLiteral("cpu_intervals")).toArray()) {
        CpuSample s;
        if (CpuSample::fromJson(v.toObject(), &s, &err))
            r->remoteCpuIntervals.append(s);
    }
    AdapterInfo a;
    if (json.value(QStringLiteral("adapter")).isObject() &&
        AdapterInfo::fromJson(json.value(QStringLiteral("adapter")).toObject(), &a, &err))
        r->remoteAdapter = a;
}

} // namespace nb
