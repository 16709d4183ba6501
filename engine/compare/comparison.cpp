// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparison.h"

#include "compare/comparisonoptions.h"
#include "core/hostport.h"
#include "core/jsonfields.h"

#include <QSet>

#include <random>

namespace nb {

QString AgentFrom::text() const
{
    if (host.isEmpty())
        return {};
    return (host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2") : QStringLiteral("%1:%2")).arg(host).arg(port);
}

bool AgentFrom::fromText(const QString &text, AgentFrom *out, QString *error)
{
    int port = 0;
    QString why;
    if (!splitHostPort(text.trimmed(), &out->host, &port, &why) || out->host.isEmpty()) {
        *error = why.isEmpty() ? QStringLiteral("\"%1\" names no agent host").arg(text) : why;
        return false;
    }
    out->port = port > 0 ? quint16(port) : quint16(5201);
    return true;
}

namespace {

// A configuration's "from": absent for a test run here.
bool readFrom(const QJsonObject &o, AgentFrom *out, const QString &where, QString *error)
{
    QString text;
    if (!json::readString(o, QStringLiteral("from"), &text, where, error, json::Need::Optional, 300))
        return false;
    QString why;
    if (!text.isEmpty() && !AgentFrom::fromText(text, out, &why))
        return json::fail(error, where + QStringLiteral(".from"), why);
    return true;
}

} // namespace

QString Configuration::joinLabel(const QString &adapter, const QString &variant)
{
    return variant.isEmpty() ? adapter : QStringLiteral("%1, %2").arg(adapter, variant);
}

void Configuration::splitLabel(const QString &label, QString *adapter, QString *variant)
{
    const qsizetype comma = label.lastIndexOf(QLatin1String(", "));
    if (comma <= 0 || comma + 2 >= label.size()) {
        *adapter = label;
        variant->clear();
        return;
    }
    *adapter = label.left(comma);
    *variant = label.mid(comma + 2);
}

void Configuration::completeFromLabel()
{
    if (!adapter.isEmpty())
        return;
    splitLabel(label, &adapter, &variant);
}

QString Configuration::adapterName() const
{
    if (!adapter.isEmpty())
        return adapter;
    QString a, v;
    splitLabel(label, &a, &v);
    return a;
}

QString Configuration::variantName() const
{
    if (!adapter.isEmpty())
        return variant;
    QString a, v;
    splitLabel(label, &a, &v);
    return v;
}

QJsonObject Configuration::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("label"), label);
    o.insert(QStringLiteral("adapter"), adapterName());
    o.insert(QStringLiteral("variant"), variantName());
    o.insert(QStringLiteral("params"), params.toJson());
    if (!notes.isEmpty())
        o.insert(QStringLiteral("notes"), notes);
    if (from.isSet())
        o.insert(QStringLiteral("from"), from.text());
    return o;
}

bool Configuration::fromJson(const QJsonObject &o, Configuration *out, QString *error)
{
    using namespace json;
    Configuration c;
    QJsonObject params;
    const QString w = QStringLiteral("configuration");
    if (!readString(o, QStringLiteral("label"), &c.label, w, error, Need::Required, 1000) ||
        !readString(o, QStringLiteral("adapter"), &c.adapter, w, error, Need::Optional, 1000) ||
        !readString(o, QStringLiteral("variant"), &c.variant, w, error, Need::Optional, 1000) ||
        !readString(o, QStringLiteral("notes"), &c.notes, w, error) ||
        !readObject(o, QStringLiteral("params"), &params, w, error, Need::Required) || !readFrom(o, &c.from, w, error))
        return false;
    QString paramError;
    if (!TestParams::fromJson(params, &c.params, &paramError))
        return fail(error, QStringLiteral("configuration \"%1\".params").arg(c.label), paramError);
    c.completeFromLabel();
    *out = c;
    return true;
}

QString cpuSideName(CpuSide s)
{
    switch (s) {
    case CpuSide::Auto:
        break;
    case CpuSide::Client:
        return QStringLiteral("client");
    case CpuSide::Server:
        return QStringLiteral("server");
    }
    return QStringLiteral("auto");
}

bool cpuSideFromName(const QString &name, CpuSide *out)
{
    for (CpuSide s : {CpuSide::Auto, CpuSide::Client, CpuSide::Server}) {
        if (name == cpuSideName(s)) {
            *out = s;
            return true;
        }
    }
    return false;
}

QString orderPolicyName(OrderPolicy p)
{
    return p == OrderPolicy::Shuffled ? QStringLiteral("shuffled") : QStringLiteral("interleaved");
}

bool orderPolicyFromName(const QString &name, OrderPolicy *out)
{
    if (name == QLatin1String("interleaved"))
        *out = OrderPolicy::Interleaved;
    else if (name == QLatin1String("shuffled"))
        *out = OrderPolicy::Shuffled;
    else
        return false;
    return true;
}

QList<ScheduledRun> buildSchedule(int configurationCount, int repeats, OrderPolicy policy, quint64 seed)
{
    QList<ScheduledRun> out;
    if (configurationCount <= 0 || repeats <= 0)
        return out;
    // Our own Fisher-Yates over mt19937_64 (whose output the standard fixes), so a seed
    // gives the same order with every standard library.
    std::mt19937_64 rng(seed);
    QList<int> round(configurationCount);
    for (int r = 0; r < repeats; ++r) {
        for (int i = 0; i < configurationCount; ++i)
            round[i] = i;
        if (policy == OrderPolicy::Shuffled) {
            for (int i = configurationCount - 1; i > 0; --i)
                std::swap(round[i], round[int(rng() % quint64(i + 1))]);
        }
        for (int i : round)
            out.append({i, r});
    }
    return out;
}

namespace {

using R = Run;
const json::Field<R> kRunFields[] = {
    {"config", &R::configIndex, json::Need::Required, 0, 1 << 30},
    {"repeat", &R::repeatIndex, json::Need::Required, 0, 1 << 30},
    {"order", &R::orderIndex, json::Need::Required, 0, 1 << 30},
};

} // namespace

QJsonObject Run::toJson() const
{
    QJsonObject o{
        {QStringLiteral("started_at"), startedAt.toUTC().toString(Qt::ISODateWithMs)},
        {QStringLiteral("ok"), ok()},
        {QStringLiteral("result"), result.toJson()},
    };
    json::writeFields(*this, kRunFields, &o);
    return o;
}

bool Run::fromJson(const QJsonObject &o, Run *out, QString *error)
{
    using namespace json;
    Run r;
    QString started;
    QJsonObject result;
    const QString w = QStringLiteral("run");
    if (!readFields(o, &r, kRunFields, w, error) ||
        !readString(o, QStringLiteral("started_at"), &started, w, error, Need::Optional, 64) ||
        !readObject(o, QStringLiteral("result"), &result, w, error, Need::Required))
        return false;
    if (!started.isEmpty()) {
        r.startedAt = QDateTime::fromString(started, Qt::ISODateWithMs);
        if (!r.startedAt.isValid())
            return fail(error, QStringLiteral("run %1.started_at").arg(r.orderIndex),
                        QStringLiteral("\"%1\" is not an ISO 8601 time").arg(started));
        r.startedAt = r.startedAt.toUTC();
    }
    QString resultError;
    if (!TestResult::fromJson(result, &r.result, &resultError))
        return fail(error, QStringLiteral("run %1.result").arg(r.orderIndex), resultError);
    *out = r;
    return true;
}

QString Comparison::baselineAdapter() const
{
    return configurations.value(baselineIndex).adapterName();
}

int Comparison::baselineFor(int configIndex) const
{
    if (configIndex < 0 || configIndex >= configurations.size())
        return -1;
    if (!baselineOf.isEmpty())
        return baselineOf.value(configIndex, -1);
    if (baselineIndex < 0 || baselineIndex >= configurations.size())
        return -1;
    const QString base = baselineAdapter();
    const Configuration &c = configurations[configIndex];
    if (adapters().size() == 1) // one adapter: its variants are what is compared
        return configIndex == baselineIndex ? -1 : baselineIndex;
    if (c.adapterName() == base)
        return -1;
    const QString variant = c.variantName();
    for (int i = 0; i < configurations.size(); ++i)
        if (configurations[i].adapterName() == base && configurations[i].variantName() == variant)
            return i;
    return -1;
}

bool Comparison::isBaseline(int configIndex) const
{
    if (configIndex < 0 || configIndex >= configurations.size())
        return false;
    if (!baselineOf.isEmpty())
        return baselineOf.contains(configIndex);
    if (adapters().size() == 1)
        return configIndex == baselineIndex;
    return configurations[configIndex].adapterName() == baselineAdapter();
}

QStringList Comparison::adapters() const
{
    QStringList out;
    for (const Configuration &c : configurations)
        if (!out.contains(c.adapterName()))
            out.append(c.adapterName());
    return out;
}

QStringList Comparison::variants() const
{
    QStringList out;
    for (const Configuration &c : configurations)
        if (!out.contains(c.variantName()))
            out.append(c.variantName());
    return out;
}

QList<const Run *> Comparison::runsOf(int configIndex, bool okOnly) const
{
    QList<const Run *> out;
    for (const Run &r : runs)
        if (r.configIndex == configIndex && (!okOnly || r.ok()))
            out.append(&r);
    return out;
}

QString Comparison::checkAgents() const
{
    for (const Configuration &conf : configurations) {
        if (!conf.from.isSet())
            continue;
        if (conf.from.keyPath.isEmpty() && agentKeyPath.isEmpty())
            return QStringLiteral("configuration \"%1\" runs on the agent %2: give the agent key (--agent-key FILE, "
                                  "or \"agent_key\" in the spec)")
                .arg(conf.label, conf.from.text());
        if (conf.from.given.isEmpty())
            return QStringLiteral("configuration \"%1\" runs on the agent %2, but its test options are not known "
                                  "(a configuration read from a snapshot): run it from a spec")
                .arg(conf.label, conf.from.text());
    }
    return {};
}

QString Comparison::validate() const
{
    if (configurations.isEmpty())
        return QStringLiteral("a comparison needs at least one configuration");
    const compareopt::Option &repeatsRow = compareopt::option(compareopt::Id::Repeats);
    if (!compareopt::inRange(repeatsRow, repeats))
        return QStringLiteral("repeats must be between %1 and %2, not %3")
            .arg(repeatsRow.min)
            .arg(repeatsRow.max)
            .arg(repeats);
    if (baselineIndex < 0 || baselineIndex >= configurations.size())
        return QStringLiteral("baseline %1 is not a configuration (0..%2)")
            .arg(baselineIndex)
            .arg(configurations.size() - 1);
    if (!baselineOf.isEmpty() && baselineOf.size() != configurations.size())
        return QStringLiteral("baselineOf has %1 entries for %2 configurations")
            .arg(baselineOf.size())
            .arg(configurations.size());
    if (const compareopt::Option &pause = compareopt::option(compareopt::Id::Pause);
        !compareopt::inRange(pause, pauseSeconds))
        return QStringLiteral("pause between runs must be %1..%2 s").arg(pause.min).arg(pause.max);
    QSet<quint64> seen;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const Run &r = runs[i];
        if (r.configIndex < 0 || r.configIndex >= configurations.size())
            return QStringLiteral("run %1 refers to configuration %2, which does not exist").arg(i).arg(r.configIndex);
        if (r.repeatIndex < 0 || r.repeatIndex >= repeats)
            return QStringLiteral("run %1 has repeat %2, outside 0..%3").arg(i).arg(r.repeatIndex).arg(repeats - 1);
        if (r.orderIndex != i)
            return QStringLiteral("run %1 has order %2; runs must be stored in execution order")
                .arg(i)
                .arg(r.orderIndex);
        const quint64 key = (quint64(quint32(r.configIndex)) << 32) | quint32(r.repeatIndex);
        if (seen.contains(key))
            return QStringLiteral("run %1 repeats repeat %2 of configuration %3")
                .arg(i)
                .arg(r.repeatIndex)
                .arg(r.configIndex);
        seen.insert(key);
    }
    return {};
}

} // namespace nb
