// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loadedlatency.h"

#include "core/jsonfields.h"

#include <QJsonArray>

namespace nb {

int LoadedLatencyResult::baselineIndex() const
{
    for (int i = 0; i < phases.size(); ++i)
        if (phases[i].phase == LoadPhase::Idle && phases[i].hasProbe && phases[i].latencyUs.count > 0)
            return i;
    return -1;
}

std::optional<double> LoadedLatencyResult::increaseUs(int phase, double LatencySummary::*percentile) const
{
    const int base = baselineIndex();
    if (base < 0 || phase < 0 || phase >= phases.size())
        return std::nullopt;
    const LoadPhaseResult &p = phases[phase];
    if (!p.hasProbe || p.latencyUs.count == 0)
        return std::nullopt;
    return p.latencyUs.*percentile - phases[base].latencyUs.*percentile;
}

int LoadedLatencyResult::worstLoadedPhase() const
{
    int worst = -1;
    for (int i = 0; i < phases.size(); ++i) {
        const LoadPhaseResult &p = phases[i];
        if (p.phase == LoadPhase::Idle || !p.hasProbe || p.latencyUs.count == 0)
            continue;
        if (worst < 0 || p.latencyUs.p99 > phases[worst].latencyUs.p99)
            worst = i;
    }
    return worst;
}

QJsonObject LoadedLatencyResult::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("phase_seconds"), phaseSeconds);
    QJsonObject probe;
    probe.insert(QStringLiteral("request_size"), double(probeRequestSize));
    probe.insert(QStringLiteral("response_size"), double(probeResponseSize));
    probe.insert(QStringLiteral("dscp"), probeDscp);
    if (!probeError.isEmpty())
        probe.insert(QStringLiteral("error"), probeError);
    o.insert(QStringLiteral("probe"), probe);
    o.insert(QStringLiteral("upload_measured_by"),
             uploadMeasuredByReceiver ? QStringLiteral("receiver") : QStringLiteral("sender"));
    const int base = baselineIndex();
    if (base >= 0)
        o.insert(QStringLiteral("baseline_phase"), base);
    QJsonArray arr;
    for (int i = 0; i < phases.size(); ++i) {
        const LoadPhaseResult &p = phases[i];
        QJsonObject j;
        j.insert(QStringLiteral("name"), p.name());
        j.insert(QStringLiteral("start"), p.start);
        j.insert(QStringLiteral("end"), p.end);
        j.insert(QStringLiteral("bits_per_second"), p.bitsPerSecond());
        j.insert(QStringLiteral("upload_bits_per_second"), p.uploadBitsPerSecond);
        j.insert(QStringLiteral("download_bits_per_second"), p.downloadBitsPerSecond);
        if (p.hasProbe) {
            j.insert(QStringLiteral("transactions"), double(p.transactions));
            j.insert(QStringLiteral("transactions_per_second"), p.transactionsPerSecond());
            j.insert(QStringLiteral("latency_us"), p.latencyUs.toJson());
            const auto p50 = increaseUs(i, &LatencySummary::p50), p99 = increaseUs(i, &LatencySummary::p99);
            if (p50 && p99 && i != base) {
                QJsonObject inc;
                inc.insert(QStringLiteral("p50"), *p50);
                inc.insert(QStringLiteral("p99"), *p99);
                j.insert(QStringLiteral("latency_increase_us"), inc);
            }
        }
        arr.append(j);
    }
    o.insert(QStringLiteral("phases"), arr);
    return o;
}

namespace {

bool readPhase(const QJsonObject &o, LoadPhaseResult *out, QString *error)
{
    using namespace json;
    LoadPhaseResult p;
    QString name;
    if (!readString(o, QStringLiteral("name"), &name, QString(), error, Need::Required, 16))
        return false;
    const std::optional<LoadPhase> phase = loadPhaseFromName(name);
    if (!phase)
        return fail(error, QStringLiteral("name"), QStringLiteral("unknown phase '%1'").arg(name));
    p.phase = *phase;
    constexpr double MaxBps = 8e12; // 1 TB/s: beyond any link (test/peerresults.h)
    if (!readDouble(o, QStringLiteral("start"), &p.start, QString(), error, Need::Required, 0, 1e7) ||
        !readDouble(o, QStringLiteral("end"), &p.end, QString(), error, Need::Required, p.start, 1e7) ||
        !readDouble(o, QStringLiteral("upload_bits_per_second"), &p.uploadBitsPerSecond, QString(), error,
                    Need::Required, 0, MaxBps) ||
        !readDouble(o, QStringLiteral("download_bits_per_second"), &p.downloadBitsPerSecond, QString(), error,
                    Need::Required, 0, MaxBps))
        return false;
    if (o.contains(QStringLiteral("latency_us"))) {
        std::int64_t tx = 0;
        QJsonObject lat;
        if (!readInt64(o, QStringLiteral("transactions"), &tx, QString(), error, Need::Required) ||
            !readObject(o, QStringLiteral("latency_us"), &lat, QString(), error, Need::Required) ||
            !LatencySummary::fromJson(lat, &p.latencyUs, error))
            return false;
        p.hasProbe = true;
        p.transactions = std::uint64_t(tx);
    }
    *out = p;
    return true;
}

} // namespace

bool LoadedLatencyResult::fromJson(const QJsonObject &o, LoadedLatencyResult *out, QString *error)
{
    using namespace json;
    LoadedLatencyResult r;
    QJsonObject probe;
    QJsonArray phases;
    std::int64_t request = 1, response = 1;
    QString measuredBy;
    if (!readDouble(o, QStringLiteral("phase_seconds"), &r.phaseSeconds, QString(), error, Need::Required, 0, 1e6) ||
        !readObject(o, QStringLiteral("probe"), &probe, QString(), error) ||
        !readInt64(probe, QStringLiteral("request_size"), &request, QStringLiteral("probe"), error, Need::Optional, 1,
                   1 << 30) ||
        !readInt64(probe, QStringLiteral("response_size"), &response, QStringLiteral("probe"), error, Need::Optional, 1,
                   1 << 30) ||
        !readInt(probe, QStringLiteral("dscp"), &r.probeDscp, QStringLiteral("probe"), error, Need::Optional, 0, 63) ||
        !readString(probe, QStringLiteral("error"), &r.probeError, QStringLiteral("probe"), error, Need::Optional,
                    4096) ||
        !readString(o, QStringLiteral("upload_measured_by"), &measuredBy, QString(), error) ||
        !readArray(o, QStringLiteral("phases"), &phases, QString(), error, Need::Required,
                   4 * LoadSchedule::MaxPhases) ||
        !readObjects(phases, &r.phases, QStringLiteral("phases"), error, readPhase))
        return false;
    r.probeRequestSize = std::uint32_t(request);
    r.probeResponseSize = std::uint32_t(response);
    r.uploadMeasuredByReceiver = measuredBy == QLatin1String("receiver");
    *out = r;
    return true;
}

} // namespace nb
