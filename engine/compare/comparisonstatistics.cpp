// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonstatistics.h"

#include "compare/loadedlatencymetrics.h"
#include "compare/udpmetrics.h"
#include "model/servicedemand.h"

#include <QJsonArray>

#include <cmath>

namespace nb {

namespace {

struct MetricDesc {
    Metric metric;
    const char *key;
    const char *name;
    stats::Better better;
};

constexpr MetricDesc kMetrics[] = {
    {Metric::Throughput, "throughput_bps", "Throughput", stats::Better::Higher},
    {Metric::LocalCpuPerGbps, "local_cpu_pct_per_gbps", "Local CPU per Gbit/s", stats::Better::Lower},
    {Metric::RemoteCpuPerGbps, "remote_cpu_pct_per_gbps", "Server CPU per Gbit/s", stats::Better::Lower},
    {Metric::TransactionsPerSecond, "transactions_per_second", "Transactions/s", stats::Better::Higher},
    {Metric::LocalCpuPerKtps, "local_cpu_pct_per_ktps", "Local CPU per 1000 transactions/s", stats::Better::Lower},
    {Metric::RemoteCpuPerKtps, "remote_cpu_pct_per_ktps", "Server CPU per 1000 transactions/s", stats::Better::Lower},
    {Metric::LatencyP50, "latency_p50_us", "Latency p50", stats::Better::Lower},
    {Metric::LatencyP99, "latency_p99_us", "Latency p99", stats::Better::Lower},
    {Metric::UdpGoodput, "udp_goodput_bps", "UDP goodput", stats::Better::Higher},
    {Metric::UdpLossPercent, "udp_loss_pct", "UDP loss", stats::Better::Lower},
    {Metric::UdpJitter, "udp_jitter_us", "UDP jitter", stats::Better::Lower},
    {Metric::UdpLocalCpuPerGbps, "udp_local_cpu_pct_per_gbps", "UDP: local CPU per Gbit/s", stats::Better::Lower},
    {Metric::UdpRemoteCpuPerGbps, "udp_remote_cpu_pct_per_gbps", "UDP: server CPU per Gbit/s", stats::Better::Lower},
    {Metric::UdpRrTransactionsPerSecond, "udp_rr_transactions_per_second", "UDP_RR transactions/s",
     stats::Better::Higher},
    {Metric::UdpRrLatencyP50, "udp_rr_latency_p50_us", "UDP_RR latency p50", stats::Better::Lower},
    {Metric::UdpRrLatencyP99, "udp_rr_latency_p99_us", "UDP_RR latency p99", stats::Better::Lower},
    {Metric::UdpRrLostPercent, "udp_rr_lost_pct", "UDP_RR lost requests", stats::Better::Lower},
    {Metric::UdpRrLocalCpuPerKtps, "udp_rr_local_cpu_pct_per_ktps", "UDP_RR: local CPU per 1000 transactions/s",
     stats::Better::Lower},
    {Metric::UdpRrRemoteCpuPerKtps, "udp_rr_remote_cpu_pct_per_ktps", "UDP_RR: server CPU per 1000 transactions/s",
     stats::Better::Lower},
    {Metric::LoadedIdleP50, "loaded_idle_p50_us", "Idle latency p50", stats::Better::Lower},
    {Metric::LoadedIdleP99, "loaded_idle_p99_us", "Idle latency p99", stats::Better::Lower},
    {Metric::LoadedDownloadP50Increase, "loaded_download_p50_increase_us", "Download: p50 latency increase",
     stats::Better::Lower},
    {Metric::LoadedDownloadP99Increase, "loaded_download_p99_increase_us", "Download: p99 latency increase",
     stats::Better::Lower},
    {Metric::LoadedDownloadP99, "loaded_download_p99_us", "Download: latency p99", stats::Better::Lower},
    {Metric::LoadedDownloadThroughput, "loaded_download_bps", "Download: throughput", stats::Better::Higher},
    {Metric::LoadedUploadP50Increase, "loaded_upload_p50_increase_us", "Upload: p50 latency increase",
     stats::Better::Lower},
    {Metric::LoadedUploadP99Increase, "loaded_upload_p99_increase_us", "Upload: p99 latency increase",
     stats::Better::Lower},
    {Metric::LoadedUploadP99, "loaded_upload_p99_us", "Upload: latency p99", stats::Better::Lower},
    {Metric::LoadedUploadThroughput, "loaded_upload_bps", "Upload: throughput", stats::Better::Higher},
    {Metric::LoadedBidirP50Increase, "loaded_bidir_p50_increase_us", "Bidir: p50 latency increase",
     stats::Better::Lower},
    {Metric::LoadedBidirP99Increase, "loaded_bidir_p99_increase_us", "Bidir: p99 latency increase",
     stats::Better::Lower},
    {Metric::LoadedBidirP99, "loaded_bidir_p99_us", "Bidir: latency p99", stats::Better::Lower},
    {Metric::LoadedBidirThroughput, "loaded_bidir_bps", "Bidir: throughput", stats::Better::Higher},
    {Metric::LocalCpu, "local_cpu_pct", "Local CPU", stats::Better::Lower},
    {Metric::RemoteCpu, "remote_cpu_pct", "Remote CPU", stats::Better::Lower},
    {Metric::LocalServiceDemand, "local_service_demand", "Local service demand per KB", stats::Better::Lower},
    {Metric::RemoteServiceDemand, "remote_service_demand", "Remote service demand per KB", stats::Better::Lower},
    {Metric::LocalServiceDemandPerTransaction, "local_service_demand_per_transaction",
     "Local service demand per transaction", stats::Better::Lower},
    {Metric::RemoteServiceDemandPerTransaction, "remote_service_demand_per_transaction",
     "Remote service demand per transaction", stats::Better::Lower},
};

const MetricDesc &desc(Metric m)
{
    for (const MetricDesc &d : kMetrics)
        if (d.metric == m)
            return d;
    return kMetrics[0];
}

std::optional<double> finite(std::optional<double> v)
{
    if (v && !std::isfinite(*v))
        return std::nullopt;
    return v;
}

double receivedBitsPerSecond(const TestResult &r)
{
    double bps = 0;
    for (bool forward : {true, false})
        if (r.hasDirection(forward))
            bps += r.sum(forward).receivedBitsPerSecond();
    return bps;
}

std::optional<double> serviceDemandPerKB(const TestResult &r, const CpuSample &cpu)
{
    if (!cpu.systemValid || r.hasRr)
        return std::nullopt;
    return serviceDemandUsPerKB(cpu.systemBusyPct, cpu.cpuCount, cpu.seconds(), double(r.bytesDelivered()));
}

std::optional<double> serviceDemandPerTransaction(const TestResult &r, const CpuSample &cpu)
{
    if (!cpu.systemValid || !r.hasRr)
        return std::nullopt;
    return serviceDemandUsPerTransaction(cpu.systemBusyPct, cpu.cpuCount, cpu.seconds(), double(r.rr.transactions));
}

QJsonValue number(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf"));
}

} // namespace

QList<Metric> allMetrics()
{
    QList<Metric> out;
    for (const MetricDesc &d : kMetrics)
        out.append(d.metric);
    return out;
}

QString metricKey(Metric m)
{
    return QLatin1String(desc(m).key);
}

QString metricName(Metric m)
{
    return QLatin1String(desc(m).name);
}

QString metricUnit(Metric m)
{
    if (isLatencyMetric(m))
        return QStringLiteral("\u00b5s");
    if (isBitrateMetric(m))
        return QStringLiteral("bit/s");
    switch (m) {
    case Metric::Throughput:
        return QStringLiteral("bit/s");
    case Metric::TransactionsPerSecond:
    case Metric::UdpRrTransactionsPerSecond:
        return QStringLiteral("/s");
    case Metric::UdpLossPercent:
    case Metric::UdpRrLostPercent:
        return QStringLiteral("%");
    case Metric::LatencyP50:
    case Metric::LatencyP99:
        return QStringLiteral("\u00b5s");
    case Metric::LocalCpu:
    case Metric::RemoteCpu:
        return QStringLiteral("%");
    case Metric::LocalServiceDemand:
    case Metric::RemoteServiceDemand:
        return QStringLiteral("\u00b5s/KB");
    case Metric::LocalServiceDemandPerTransaction:
    case Metric::RemoteServiceDemandPerTransaction:
        return QStringLiteral("\u00b5s/transaction");
    case Metric::LocalCpuPerGbps:
    case Metric::RemoteCpuPerGbps:
    case Metric::UdpLocalCpuPerGbps:
    case Metric::UdpRemoteCpuPerGbps:
        return QStringLiteral("% per Gbit/s");
    case Metric::LocalCpuPerKtps:
    case Metric::RemoteCpuPerKtps:
    case Metric::UdpRrLocalCpuPerKtps:
    case Metric::UdpRrRemoteCpuPerKtps:
        return QStringLiteral("% per 1000/s");
    default:
        break;
    }
    return {};
}

bool isRequestResponseMetric(Metric m)
{
    switch (m) {
    case Metric::TransactionsPerSecond:
    case Metric::LocalCpuPerKtps:
    case Metric::RemoteCpuPerKtps:
    case Metric::LatencyP50:
    case Metric::LatencyP99:
    case Metric::LocalServiceDemandPerTransaction:
    case Metric::RemoteServiceDemandPerTransaction:
        return true;
    default:
        return isUdpRrMetric(m);
    }
}

bool isLoadedLatencyMetric(Metric m)
{
    return loadedLatencyMetricSpec(m).has_value();
}

bool isLatencyMetric(Metric m)
{
    if (m == Metric::LatencyP50 || m == Metric::LatencyP99 || m == Metric::UdpJitter || m == Metric::UdpRrLatencyP50 ||
        m == Metric::UdpRrLatencyP99)
        return true;
    const auto spec = loadedLatencyMetricSpec(m);
    return spec && spec->figure != LoadedFigure::Throughput;
}

double absoluteEquivalence(Metric m)
{
    switch (m) {
    case Metric::UdpLossPercent:
    case Metric::UdpRrLostPercent:
        return 0.1;
    case Metric::UdpJitter:
        return 10;
    default:
        return 0;
    }
}

bool isBitrateMetric(Metric m)
{
    if (m == Metric::Throughput || m == Metric::UdpGoodput)
        return true;
    const auto spec = loadedLatencyMetricSpec(m);
    return spec && spec->figure == LoadedFigure::Throughput;
}

stats::Better metricBetter(Metric m)
{
    return desc(m).better;
}

std::optional<double> busyPercent(const TestResult &r, bool local)
{
    const bool known = local ? r.localCpuKnown : r.remoteCpuKnown;
    const CpuSample &cpu = local ? r.localCpu : r.remoteCpu;
    if (!known || !cpu.systemValid)
        return std::nullopt;
    return cpu.systemBusyPct;
}

std::optional<double> metricValue(const TestResult &r, Metric m)
{
    if (!r.ok())
        return std::nullopt;
    if (r.params.isLoadedLatency() || r.loadedLatency) {
        // The whole test mixes idle and loaded phases: only its phases' figures and the
        // CPU over the test mean something.
        if (isLoadedLatencyMetric(m))
            return r.loadedLatency ? finite(loadedLatencyMetricValue(*r.loadedLatency, m)) : std::nullopt;
        if (m != Metric::LocalCpu && m != Metric::RemoteCpu)
            return std::nullopt;
    } else if (isLoadedLatencyMetric(m)) {
        return std::nullopt;
    }
    if (isUdpMetric(m))
        return udpMetricValue(r, m);
    if (isUdpStreamRun(r) || isUdpRrRun(r)) {
        // UDP runs have their own figures; the TCP rate and latency metrics leave them out,
        // so a chart never puts a UDP bar beside a TCP one. The CPU figures apply to both.
        switch (m) {
        case Metric::Throughput:
        case Metric::LocalCpuPerGbps:
        case Metric::RemoteCpuPerGbps:
        case Metric::TransactionsPerSecond:
        case Metric::LocalCpuPerKtps:
        case Metric::RemoteCpuPerKtps:
        case Metric::LatencyP50:
        case Metric::LatencyP99:
            return std::nullopt;
        default:
            break;
        }
    }
    const bool stream = !r.hasRr && !r.params.isRequestResponse();
    switch (m) {
    case Metric::Throughput:
        if (!stream || r.streams.isEmpty())
            return std::nullopt;
        return receivedBitsPerSecond(r);
    case Metric::TransactionsPerSecond:
        return r.hasRr ? std::optional<double>(r.rr.transactionsPerSecond()) : std::nullopt;
    case Metric::LatencyP50:
        return r.hasRr && r.rr.latencyUs.count > 0 ? std::optional<double>(r.rr.latencyUs.p50) : std::nullopt;
    case Metric::LatencyP99:
        return r.hasRr && r.rr.latencyUs.count > 0 ? std::optional<double>(r.rr.latencyUs.p99) : std::nullopt;
    case Metric::LocalCpu:
        return r.localCpuKnown && r.localCpu.systemValid ? std::optional<double>(r.localCpu.systemBusyPct)
                                                         : std::nullopt;
    case Metric::RemoteCpu:
        return r.remoteCpuKnown && r.remoteCpu.systemValid ? std::optional<double>(r.remoteCpu.systemBusyPct)
                                                           : std::nullopt;
    case Metric::LocalServiceDemand:
        return r.localCpuKnown ? finite(serviceDemandPerKB(r, r.localCpu)) : std::nullopt;
    case Metric::RemoteServiceDemand:
        return r.remoteCpuKnown ? finite(serviceDemandPerKB(r, r.remoteCpu)) : std::nullopt;
    case Metric::LocalServiceDemandPerTransaction:
        return r.localCpuKnown ? finite(serviceDemandPerTransaction(r, r.localCpu)) : std::nullopt;
    case Metric::RemoteServiceDemandPerTransaction:
        return r.remoteCpuKnown ? finite(serviceDemandPerTransaction(r, r.remoteCpu)) : std::nullopt;
    case Metric::LocalCpuPerKtps:
    case Metric::RemoteCpuPerKtps: {
        const std::optional<double> cpu = busyPercent(r, m == Metric::LocalCpuPerKtps);
        const double tps = r.hasRr ? r.rr.transactionsPerSecond() : 0.0;
        if (!cpu || !(tps > 0))
            return std::nullopt;
        return finite(*cpu / (tps / 1000.0));
    }
    case Metric::LocalCpuPerGbps:
    case Metric::RemoteCpuPerGbps: {
        const std::optional<double> cpu = busyPercent(r, m == Metric::LocalCpuPerGbps);
        if (!stream || !cpu)
            return std::nullopt;
        return finite(cpuPctPerGbps(*cpu, receivedBitsPerSecond(r)));
    }
    default:
        break;
    }
    return std::nullopt;
}

const MetricStatistics *ConfigurationStatistics::metric(Metric m) const
{
    for (const MetricStatistics &s : metrics)
        if (s.metric == m)
            return &s;
    return nullptr;
}

const MetricStatistics *ComparisonStatistics::find(int configIndex, Metric m) const
{
    if (configIndex < 0 || configIndex >= configurations.size())
        return nullptr;
    return configurations[configIndex].metric(m);
}

QList<Metric> ComparisonStatistics::presentMetrics() const
{
    QList<Metric> out;
    for (Metric m : allMetrics()) {
        for (const ConfigurationStatistics &c : configurations) {
            if (c.metric(m)) {
                out.append(m);
                break;
            }
        }
    }
    return out;
}

ComparisonStatistics computeStatistics(const Comparison &comparison, double alpha)
{
    ComparisonStatistics out;
    out.alpha = alpha;
    out.equivalencePercent = comparison.equivalencePercent;
    out.baselineIndex = comparison.baselineIndex;
    for (int c = 0; c < comparison.configurations.size(); ++c) {
        ConfigurationStatistics cs;
        cs.configIndex = c;
        for (const Run &r : comparison.runs) {
            if (r.configIndex != c)
                continue;
            ++cs.runs;
            if (!r.ok())
                ++cs.failedRuns;
        }
        for (Metric m : allMetrics()) {
            MetricStatistics ms;
            ms.metric = m;
            ms.configIndex = c;
            for (const Run *r : comparison.runsOf(c))
                if (const auto v = metricValue(r->result, m))
                    ms.values.append(*v);
            if (ms.values.isEmpty())
                continue;
            ms.summary = stats::summarize(ms.values);
            cs.metrics.append(ms);
        }
        out.configurations.append(cs);
    }
    for (ConfigurationStatistics &cs : out.configurations) {
        cs.isBaseline = comparison.isBaseline(cs.configIndex);
        const int b = comparison.baselineFor(cs.configIndex);
        if (b < 0 || b >= out.configurations.size() || b == cs.configIndex)
            continue;
        cs.baselineConfig = b;
        for (MetricStatistics &ms : cs.metrics) {
            const MetricStatistics *base = out.configurations[b].metric(ms.metric);
            if (!base)
                continue;
            ms.hasBaseline = true;
            const bool judge = out.equivalencePercent > 0;
            ms.vsBaseline =
                stats::compareToBaseline(base->summary, ms.summary, metricBetter(ms.metric), alpha,
                                         out.equivalencePercent / 100, judge ? absoluteEquivalence(ms.metric) : 0);
        }
    }
    return out;
}

namespace {

QJsonObject vsBaselineJson(const stats::BaselineComparison &bc)
{
    QJsonObject vb;
    if (bc.difference.valid) {
        vb.insert(QStringLiteral("relative"), number(bc.difference.relative));
        if (bc.difference.intervalKnown) {
            vb.insert(QStringLiteral("relative_ci95_low"), number(bc.difference.low));
            vb.insert(QStringLiteral("relative_ci95_high"), number(bc.difference.high));
        }
    }
    if (bc.absolute.valid) {
        vb.insert(QStringLiteral("absolute"), number(bc.absolute.value));
        if (bc.absolute.intervalKnown)
            vb.insert(QStringLiteral("absolute_ci95_half_width"), number(bc.absolute.halfWidth));
    }
    if (bc.welch.valid) {
        vb.insert(QStringLiteral("welch_t"), number(bc.welch.t));
        vb.insert(QStringLiteral("welch_df"), number(bc.welch.df));
        vb.insert(QStringLiteral("p_value"), number(bc.welch.pValue));
    }
    vb.insert(QStringLiteral("verdict"), stats::verdictKey(bc.verdict));
    return vb;
}

QJsonObject metricJson(const MetricStatistics &ms)
{
    const stats::Summary &s = ms.summary;
    QJsonObject mo{
        {QStringLiteral("n"), s.n},
        {QStringLiteral("mean"), number(s.mean)},
        {QStringLiteral("median"), number(s.median)},
        {QStringLiteral("stddev"), number(s.stddev)},
        {QStringLiteral("min"), number(s.min)},
        {QStringLiteral("max"), number(s.max)},
    };
    if (s.spreadKnown) {
        mo.insert(QStringLiteral("ci95_low"), number(s.ciLow));
        mo.insert(QStringLiteral("ci95_high"), number(s.ciHigh));
    }
    QJsonArray values;
    for (double v : ms.values)
        values.append(number(v));
    mo.insert(QStringLiteral("values"), values);
    if (ms.hasBaseline)
        mo.insert(QStringLiteral("vs_baseline"), vsBaselineJson(ms.vsBaseline));
    return mo;
}

} // namespace

QJsonObject ComparisonStatistics::toJson() const
{
    QJsonArray configs;
    for (const ConfigurationStatistics &cs : configurations) {
        QJsonObject metrics;
        for (const MetricStatistics &ms : cs.metrics)
            metrics.insert(metricKey(ms.metric), metricJson(ms));
        configs.append(QJsonObject{
            {QStringLiteral("config"), cs.configIndex},
            {QStringLiteral("baseline_config"), cs.baselineConfig},
            {QStringLiteral("runs"), cs.runs},
            {QStringLiteral("failed_runs"), cs.failedRuns},
            {QStringLiteral("metrics"), metrics},
        });
    }
    return QJsonObject{
        {QStringLiteral("baseline"), baselineIndex},
        {QStringLiteral("alpha"), alpha},
        {QStringLiteral("equivalence_percent"), equivalencePercent},
        {QStringLiteral("confidence"), 0.95},
        {QStringLiteral("configurations"), configs},
    };
}

} // namespace nb
