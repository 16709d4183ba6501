// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cpucost.h"

#include "model/results.h"
#include "model/servicedemand.h"

#include <QJsonValue>

namespace nb {

namespace {

QString costKey(const QString &side, const char *name)
{
    return side + QLatin1Char('_') + QLatin1String(name);
}

void putCost(QJsonObject *o, const QString &key, std::optional<double> v)
{
    o->insert(key, v ? QJsonValue(*v) : QJsonValue());
}

std::optional<double> readCost(const QJsonObject &o, const QString &key)
{
    const QJsonValue v = o.value(key);
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

} // namespace

CpuCost CpuCost::measure(const TestResult &r, const CpuSample &c, std::optional<double> clockHz)
{
    CpuCost cost;
    const double seconds = c.seconds();
    if (r.hasRr) {
        cost.requestResponse = true;
        cost.usPerTransaction =
            serviceDemandUsPerTransaction(c.systemBusyPct, c.cpuCount, seconds, double(r.rr.transactions));
        return cost;
    }
    const double bytes = double(r.bytesDelivered());
    cost.usPerKB = nb::serviceDemandUsPerKB(c.systemBusyPct, c.cpuCount, seconds, bytes);
    cost.cpuPctPerGbps = nb::cpuPctPerGbps(c.systemBusyPct, seconds > 0 ? bytes * 8 / seconds : 0);
    if (clockHz)
        cost.cyclesPerByte = nb::cyclesPerByte(c.systemBusyCpuSeconds(), *clockHz, bytes);
    return cost;
}

void CpuCost::insertInto(QJsonObject *o, const QString &side) const
{
    if (requestResponse) {
        putCost(o, costKey(side, "us_per_transaction"), usPerTransaction);
        return;
    }
    putCost(o, costKey(side, "us_per_kb"), usPerKB);
    putCost(o, costKey(side, "cpu_pct_per_gbps"), cpuPctPerGbps);
    putCost(o, costKey(side, "cycles_per_byte"), cyclesPerByte);
}

std::optional<CpuCost> CpuCost::fromJson(const QJsonObject &o, const QString &side)
{
    CpuCost cost;
    if (o.contains(costKey(side, "us_per_transaction"))) {
        cost.requestResponse = true;
        cost.usPerTransaction = readCost(o, costKey(side, "us_per_transaction"));
        return cost;
    }
    if (!o.contains(costKey(side, "us_per_kb")))
        return std::nullopt;
    cost.usPerKB = readCost(o, costKey(side, "us_per_kb"));
    cost.cpuPctPerGbps = readCost(o, costKey(side, "cpu_pct_per_gbps"));
    cost.cyclesPerByte = readCost(o, costKey(side, "cycles_per_byte"));
    return cost;
}

void measureCpuCosts(TestResult *r, double localClockHz)
{
    const auto clock = [](double hz) { return hz > 0 ? std::optional<double>(hz) : std::nullopt; };
    r->costs = {};
    if (r->localCpuKnown && r->localCpu.systemValid)
        r->costs.local = CpuCost::measure(*r, r->localCpu, clock(localClockHz));
    if (r->remoteCpuKnown && r->remoteCpu.systemValid)
        r->costs.remote = CpuCost::measure(*r, r->remoteCpu, clock(r->remoteHost ? r->remoteHost->cpuClockHz : 0.0));
}

} // namespace nb
