// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/summarycontent.h"

#include "adapters/adaptertile.h"
#include "common/loadedlatencyformat.h"
#include "common/udpformat.h"

#include <core/format.h>
#include <model/servicedemand.h>

#include <QCoreApplication>
#include <QJsonObject>

#include <cmath>

namespace nb::ui {

namespace {

QString trSummary(const char *text)
{
    return QCoreApplication::translate("nb::ui::ResultsSummary", text);
}

QString summaryPercent(double value)
{
    return QStringLiteral("%1%").arg(nb::formatSignificant(value, 2));
}

QString adapterWords(const nb::AdapterInfo &a)
{
    QStringList extra{AdapterTile::familyLabel(a)};
    if (a.mtu > 0)
        extra.append(trSummary("MTU %1").arg(a.mtu));
    return QStringLiteral("%1 (%2)").arg(a.name, extra.join(QStringLiteral(", ")));
}

// "1 B", "200 B", "16.0 KiB": request and response sizes.
QString sizeWords(std::uint32_t bytes)
{
    return bytes < 1024 ? QStringLiteral("%1 B").arg(bytes) : nb::formatBytes(bytes);
}

// "transactions per connection: min 812 · median 840 · max 905 (128 connections), Jain's
// index 0.998"; empty for fewer than two flows, which have no spread.
QString fairnessWords(const std::optional<nb::FlowSpread> &f, const QString &what, const QString &flows,
                      QString (*amount)(double))
{
    if (!f || f->count < 2)
        return {};
    return trSummary("%1: min %2 \u00b7 median %3 \u00b7 max %4 (%5 %6), Jain's index %7")
        .arg(what, amount(f->min), amount(f->median), amount(f->max))
        .arg(f->count)
        .arg(flows)
        .arg(nb::formatFixed(f->jain, 3));
}

QString countWords(double n)
{
    return nb::formatFixed(n, 0);
}

QString bytesWords(double n)
{
    return nb::formatBytes(n);
}

// What was asked for, not what came back: a request/response test that failed before
// any transaction is still a request/response test.
QString kindWords(const nb::TestResult &r)
{
    if (r.params.isLoadedLatency())
        return trSummary("latency under load");
    const nb::TestKind kind = r.hasRr ? r.rr.kind : r.params.kind;
    if (kind != nb::TestKind::Stream)
        return kind == nb::TestKind::Crr ? QStringLiteral("TCP_CRR")
               : r.params.udp            ? QStringLiteral("UDP_RR")
                                         : QStringLiteral("TCP_RR");
    if (r.params.udp)
        return QStringLiteral("UDP");
    return trSummary("throughput");
}

// "12.3% here, 10.1% on the server": busy % of all cores per unit of work.
QString costWords(const nb::TestResult &r, double work)
{
    QStringList parts;
    if (work <= 0)
        return {};
    if (r.localCpuKnown && r.localCpu.systemValid)
        parts.append((r.drivenBy ? trSummary("%1% on the agent") : trSummary("%1% here"))
                         .arg(nb::formatGrouped(r.localCpu.systemBusyPct / work)));
    if (r.remoteCpuKnown && r.remoteCpu.systemValid)
        parts.append(trSummary("%1% on the server").arg(nb::formatGrouped(r.remoteCpu.systemBusyPct / work)));
    return parts.join(QStringLiteral(", "));
}

bool isRequestResponse(const nb::TestResult &r)
{
    // A latency-under-load test's probe figures are per phase; its load is a bidirectional
    // throughput test.
    return r.hasRr && !r.params.isLoadedLatency();
}

void addLoadedLatency(SummaryContent &c, const nb::TestResult &result)
{
    c.headline.append(loadedLatencyHeadline(*result.loadedLatency));
    QStringList lines = loadedLatencyPhaseLines(*result.loadedLatency);
    if (!result.loadedLatency->probeError.isEmpty())
        lines.append(trSummary("Probe: %1").arg(result.loadedLatency->probeError));
    c.loadedLatency = lines;
}

// Returns whether anything was measured.
bool addRequestResponse(SummaryContent &c, const nb::TestResult &result, const QString &prefix)
{
    const nb::RrSummary &rr = result.rr;
    c.transactionsPerSecond = rr.transactionsPerSecond();
    const QString connections =
        rr.connections == 1 ? trSummary("1 connection") : trSummary("%1 connections").arg(rr.connections);
    c.requestResponse = trSummary("%1 (%2, %3 request, %4 response, %5, %6 in flight)")
                            .arg(nb::formatTransactionsPerSecond(rr.transactionsPerSecond()), kindWords(result),
                                 sizeWords(rr.requestSize), sizeWords(rr.responseSize), connections)
                            .arg(rr.inFlight);
    const nb::LatencySummary &l = rr.latencyUs;
    c.latency = trSummary("p50 %1 \u00b7 p90 %2 \u00b7 p99 %3 \u00b7 p99.9 %4 \u00b7 max %5 \u00b7 mean %6")
                    .arg(nb::formatMicroseconds(l.p50), nb::formatMicroseconds(l.p90), nb::formatMicroseconds(l.p99),
                         nb::formatMicroseconds(l.p999), nb::formatMicroseconds(l.max), nb::formatMicroseconds(l.mean));
    c.latencyShown = l.count > 0;
    if (rr.udpLost)
        c.udpLostRequests = udpLostRequestsText(rr, result.params.udpRrTimeoutMs);
    c.headline.append(
        trSummary("Transactions %1, p99 %2")
            .arg(nb::formatTransactionsPerSecond(rr.transactionsPerSecond()), nb::formatMicroseconds(l.p99)));
    const QString fair =
        fairnessWords(rr.fairness, trSummary("transactions per connection"), trSummary("connections"), countWords);
    if (!fair.isEmpty())
        c.fairness.append(prefix + fair);
    return rr.transactions > 0;
}

// Returns whether anything was measured.
bool addStreams(SummaryContent &c, const nb::TestResult &result, const QString &prefix)
{
    bool measured = false;
    c.directionsSet = true;
    c.upload.reset();
    c.download.reset();
    for (bool clientSent : {true, false}) {
        if (!result.hasDirection(clientSent))
            continue;
        c.anyStream = measured = true;
        const nb::DirectionSum sum = result.sum(clientSent);
        (clientSent ? c.upload : c.download) = sum;
        c.headlineBitsPerSecond += sum.receivedBitsPerSecond();
        const QString way = clientSent ? trSummary("Upload") : trSummary("Download");
        // Latency under load: the phases carry the throughput that matters.
        if (sum.udp && sum.packetsReceived > 0) {
            c.headlinePerLine = true;
            c.headline.append(trSummary("%1 %2, %3 lost")
                                  .arg(way, nb::formatBitrate(sum.receivedBitsPerSecond()),
                                       nb::formatLossPercent(sum.lostPercent())));
            c.udp.append(QStringLiteral("%1: %2").arg(way, udpDirectionText(sum)));
        } else if (!result.loadedLatency) {
            c.headline.append(QStringLiteral("%1 %2").arg(way, nb::formatBitrate(sum.receivedBitsPerSecond())));
        }
        const QString fair =
            fairnessWords(result.fairnessOf(clientSent),
                          clientSent ? trSummary("Upload per stream") : trSummary("Download per stream"),
                          trSummary("streams"), bytesWords);
        if (!fair.isEmpty())
            c.fairness.append(prefix + fair);
    }
    return measured;
}

// System-wide busy % where the engine measured it (all cores), and the iperf3-style process
// figure (one core).
QString cpuWords(const nb::TestResult &result)
{
    QStringList cpu;
    // A test an agent ran: "local" is the agent's machine.
    if (result.localCpuKnown && result.localCpu.systemValid)
        cpu.append((result.drivenBy ? trSummary("agent %1 busy") : trSummary("this computer %1 busy"))
                       .arg(summaryPercent(result.localCpu.systemBusyPct)));
    cpu.append(trSummary("process %1 of one core").arg(summaryPercent(result.cpu.hostTotal)));
    if (result.remoteCpuKnown && result.remoteCpu.systemValid)
        cpu.append(trSummary("server %1 busy").arg(summaryPercent(result.remoteCpu.systemBusyPct)));
    else if (result.cpu.remoteKnown)
        cpu.append(trSummary("server process %1 of one core").arg(summaryPercent(result.cpu.remoteTotal)));
    else
        cpu.append(trSummary("server not reported"));
    return cpu.join(QStringLiteral(", "));
}

// "0.583 µs/KB here, 0.61 µs/KB on the server, 1.9 cycles/byte here".
QString demandWords(const nb::TestResult &result, bool rrTest)
{
    // The costs as measured where the test ran (nb::CpuCosts), not re-read from JSON.
    const auto perUnit = [rrTest](const std::optional<nb::CpuCost> &c) {
        return !c ? std::nullopt : rrTest ? c->usPerTransaction : c->usPerKB;
    };
    const QString unit = rrTest ? trSummary("transaction") : QStringLiteral("KB");
    QStringList demand;
    if (const auto local = perUnit(result.costs.local))
        demand.append((result.drivenBy ? trSummary("%1 on the agent") : trSummary("%1 here"))
                          .arg(nb::formatServiceDemand(*local, unit)));
    if (const auto remote = perUnit(result.costs.remote))
        demand.append(trSummary("%1 on the server").arg(nb::formatServiceDemand(*remote, unit)));
    // NTttcp's figure, where this machine's clock is known (review M3).
    const auto cycles = result.costs.local ? result.costs.local->cyclesPerByte : std::nullopt;
    if (!rrTest && cycles && *cycles > 0)
        demand.append((result.drivenBy ? trSummary("%1 cycles/byte on the agent") : trSummary("%1 cycles/byte here"))
                          .arg(nb::formatSignificant(*cycles, 3)));
    return demand.join(QStringLiteral(", "));
}

void addCpu(SummaryContent &c, const nb::TestResult &result, const QString &prefix, bool rrTest)
{
    c.cpu.append(prefix + cpuWords(result));
    if (rrTest) {
        const QString cost = costWords(result, result.rr.transactionsPerSecond() / 1000.0);
        if (!cost.isEmpty())
            c.cpuPerKiloTransactions.append(prefix + cost);
    } else {
        double bps = 0;
        for (bool clientSent : {true, false}) {
            if (result.hasDirection(clientSent))
                bps += result.sum(clientSent).receivedBitsPerSecond();
        }
        // cpuPctPerGbps() refuses no throughput; the division is the same for both ends.
        if (nb::cpuPctPerGbps(1.0, bps)) {
            const QString cost = costWords(result, bps / 1e9);
            if (!cost.isEmpty())
                c.cpuPerGbps.append(prefix + cost);
        }
    }
    const QString demand = demandWords(result, rrTest);
    if (!demand.isEmpty())
        c.serviceDemand.append(prefix + demand);
}

QString adapterLine(const nb::TestResult &result)
{
    QString text = result.localAdapter ? adapterWords(*result.localAdapter) : trSummary("unknown");
    if (result.drivenBy)
        text = trSummary("agent: %1").arg(text);
    if (result.remoteAdapter)
        text += trSummary(", server: %1").arg(adapterWords(*result.remoteAdapter));
    return text;
}

// "10 s", "1.00 GBytes", "stopped after 3.2 s of 12 s".
QString lengthWords(const nb::TestParams &p, double stoppedAfterSeconds)
{
    if (stoppedAfterSeconds >= 0) {
        const QString after = nb::formatSeconds(std::round(stoppedAfterSeconds * 10) / 10);
        return p.isTimed() ? trSummary("stopped after %1 s of %2 s").arg(after, nb::formatSeconds(p.omit + p.duration))
                           : trSummary("stopped after %1 s").arg(after);
    }
    return p.isTimed() ? trSummary("%1 s").arg(nb::formatSeconds(p.duration)) : nb::formatBytes(double(p.bytes));
}

// What was run: "Upload, 4 streams, 10 s, 128 KBytes blocks, to 10.0.0.2:5201".
QString testWords(const nb::TestResult &result, double stoppedAfterSeconds)
{
    const nb::TestParams &p = result.params;
    QString target = p.host;
    if (target.contains(QLatin1Char(':')))
        target = QStringLiteral("[%1]").arg(target);
    const QString length = lengthWords(p, stoppedAfterSeconds);
    if (p.isLoadedLatency()) {
        const QString streams =
            p.streams == 1 ? trSummary("1 stream each way") : trSummary("%1 streams each way").arg(p.streams);
        return trSummary("latency under load, %1 phases of %2 s, %3, %4 B probe, to %5:%6")
            .arg(p.loadSchedule().size())
            .arg(nb::formatSeconds(p.phaseSeconds), streams)
            .arg(p.requestSize)
            .arg(target)
            .arg(p.port);
    }
    if (p.isRequestResponse())
        return trSummary("%1, %2, to %3:%4").arg(kindWords(result), length, target).arg(p.port);
    const QString streams = p.streams == 1 ? trSummary("1 stream") : trSummary("%1 streams").arg(p.streams);
    if (p.udp) {
        const QString rate = p.bandwidth > 0 ? nb::formatBitrate(double(p.bandwidth)) : trSummary("unlimited");
        const QString datagram =
            p.udpDatagramSizeUnset() ? trSummary("path-MSS") : QStringLiteral("%1 B").arg(p.blockSize);
        return trSummary("UDP %1, %2, %3, %4 datagrams at %5 per stream, to %6:%7")
            .arg(nb::directionName(p.direction), streams, length, datagram, rate, target)
            .arg(p.port);
    }
    return trSummary("%1, %2, %3, %4 blocks, to %5:%6")
        .arg(nb::directionName(p.direction), streams, length, nb::formatBytes(p.blockSize), target)
        .arg(p.port);
}

// "run by the agent 198.18.0.2:5201 for workstation (198.18.0.1)": who ran a test for whom.
QString drivenByWords(const nb::DrivenBy &by)
{
    const QString agent = by.agent.isEmpty() ? trSummary("an agent") : trSummary("the agent %1").arg(by.agent);
    QString controller = by.controllerHost;
    if (!by.controller.isEmpty())
        controller = controller.isEmpty() ? by.controller : QStringLiteral("%1 (%2)").arg(controller, by.controller);
    return controller.isEmpty() ? trSummary("run by %1").arg(agent)
                                : trSummary("run by %1 for %2").arg(agent, controller);
}

void addResult(SummaryContent &c, const nb::TestResult &result, const QString &prefix, double stoppedAfterSeconds)
{
    const bool rrTest = isRequestResponse(result);
    if (result.loadedLatency)
        addLoadedLatency(c, result);
    const bool measured = rrTest ? addRequestResponse(c, result, prefix) : addStreams(c, result, prefix);
    if (measured)
        addCpu(c, result, prefix, rrTest);
    if (result.localAdapter || result.remoteAdapter) {
        const QString text = adapterLine(result);
        if (!c.adapters.contains(text))
            c.adapters.append(text);
    }
    c.test.append(result.drivenBy ? QStringLiteral("%1, %2").arg(testWords(result, stoppedAfterSeconds),
                                                                 drivenByWords(*result.drivenBy))
                                  : testWords(result, stoppedAfterSeconds));
    if (!result.ok())
        c.notes.append(prefix + trSummary("Error: %1").arg(result.error));
    for (const QString &w : result.warnings) {
        if (!c.notes.contains(w))
            c.notes.append(w);
    }
}

} // namespace

SummaryContent summaryContent(const QList<nb::TestResult> &results, double stoppedAfterSeconds)
{
    SummaryContent c;
    const bool several = results.size() > 1;
    for (const nb::TestResult &result : results) {
        const QString prefix = several ? kindWords(result) + QStringLiteral(": ") : QString();
        addResult(c, result, prefix, &result == &results.constLast() ? stoppedAfterSeconds : -1);
    }
    return c;
}

} // namespace nb::ui
