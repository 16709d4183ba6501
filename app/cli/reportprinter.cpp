// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportprinter.h"
#include "core/sanitize.h"

#include "core/format.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace nb {

namespace {

// "flows: 128, transactions per flow min 812 / median 840 / max 905, Jain's fairness 0.998";
// nothing for fewer than two flows, where there is no spread to tell.
QString fairnessLine(const std::optional<FlowSpread> &f, const QString &prefix, const QString &unit,
                     QString (*format)(double))
{
    if (!f || f->count < 2)
        return {};
    return QStringLiteral("%1flows: %2, %3 per flow min %4 / median %5 / max %6, Jain's fairness %7")
        .arg(prefix)
        .arg(f->count)
        .arg(unit, format(f->min), format(f->median), format(f->max))
        .arg(formatFixed(f->jain, 3));
}

QString countText(double n)
{
    return formatFixed(n, 0);
}

QString bytesText(double n)
{
    return formatBytes(n);
}

// "21.3 us", "1.14 ms": ASCII units, as the other latency lines of the CLI.
QString latencyText(double us)
{
    return formatMicroseconds(us, UnitSpelling::Ascii);
}

// "+1.14 ms", "-0.260 us"; "-" when there is no baseline to compare with.
QString increaseText(const std::optional<double> &us)
{
    return us ? formatLatencyChange(*us, UnitSpelling::Ascii) : unknownText();
}

// iperf3's UDP columns: "0.033 ms  2/77 (2.6%)" (jitter with 3 decimals, loss with 2
// significant digits as iperf3 prints them); a sender's interval shows its datagrams.
QString udpLossText(double jitterMs, std::uint64_t lost, std::uint64_t total)
{
    const double pct = total > 0 ? 100.0 * double(lost) / double(total) : 0.0;
    return QStringLiteral("%1 ms  %2/%3 (%4)")
        .arg(formatFixed(jitterMs, 3))
        .arg(lost)
        .arg(total)
        .arg(formatLossPercent(pct, 2));
}

QString joined(const QString &a, const QString &b)
{
    return a.isEmpty() ? b : b.isEmpty() ? a : a + QStringLiteral("  ") + b;
}

} // namespace

void ReportPrinter::printLoadedLatencyHeader(const TestParams &p)
{
    const LoadSchedule s = p.loadSchedule();
    printLine(
        QStringLiteral("Testing latency under load: %1 stream(s) each way, %2 buffers; phases %3, %4 s each (%5 s); "
                       "probe %6 B request, %7 B response%8")
            .arg(p.streams)
            .arg(formatBytes(p.blockSize))
            .arg(LoadSchedule::orderText(s.phases()))
            .arg(s.phaseSeconds())
            .arg(s.total())
            .arg(p.requestSize)
            .arg(p.responseSize)
            .arg(p.probeDscp > 0 ? QStringLiteral(", DSCP %1").arg(p.probeDscp) : QString()));
    printLine(
        QStringLiteral("[Phase   ] Interval           Upload          Download        Probe trans/s  p50        p99"));
}

void ReportPrinter::printLoadedLatencyInterval(const IntervalReport &r)
{
    const double start = r.streams.isEmpty() ? r.rr.start : r.streams.first().start;
    const double end = r.streams.isEmpty() ? r.rr.end : r.streams.first().end;
    const int phase = m_schedule.phaseAt((start + end) / 2);
    const QString name = m_schedule.size() > 0 ? loadPhaseName(m_schedule.phases()[phase]) : QString();
    QString line = QStringLiteral("[%1] %2-%3 sec  %4  %5")
                       .arg(name, -8)
                       .arg(formatFixed(start, 2), 6)
                       .arg(formatFixed(end, 2), -6)
                       .arg(formatBitrate(r.hasDirection(true) ? r.sum(true).bitsPerSecond() : 0), 14)
                       .arg(formatBitrate(r.hasDirection(false) ? r.sum(false).bitsPerSecond() : 0), 14);
    if (r.hasRr)
        line += QStringLiteral("  %1  %2  %3")
                    .arg(formatGrouped(r.rr.transactionsPerSecond()), 13)
                    .arg(latencyText(r.rr.latencyUs.p50), -9)
                    .arg(latencyText(r.rr.latencyUs.p99));
    printLine(line);
}

void ReportPrinter::printLoadedLatencyResult(const TestResult &result)
{
    const LoadedLatencyResult &l = *result.loadedLatency;
    printLine(QStringLiteral("- - - - - - - - - - - - - - - - - - - - - - - - -"));
    printLine(
        QStringLiteral("Phase     Time (s)      Upload          Download        Probe trans/s  p50        p99       "
                       " p50 vs idle  p99 vs idle"));
    for (int i = 0; i < l.phases.size(); ++i) {
        const LoadPhaseResult &p = l.phases[i];
        QString line = QStringLiteral("%1  %2-%3  %4  %5")
                           .arg(p.name(), -8)
                           .arg(formatFixed(p.start, 2), 5)
                           .arg(formatFixed(p.end, 2), -6)
                           .arg(formatBitrate(p.uploadBitsPerSecond), 14)
                           .arg(formatBitrate(p.downloadBitsPerSecond), 14);
        if (p.hasProbe)
            line += QStringLiteral("  %1  %2  %3  %4  %5")
                        .arg(formatGrouped(p.transactionsPerSecond()), 13)
                        .arg(latencyText(p.latencyUs.p50), -9)
                        .arg(latencyText(p.latencyUs.p99), -9)
                        .arg(i == l.baselineIndex() ? QStringLiteral("(baseline)")
                                                    : increaseText(l.increaseUs(i, &LatencySummary::p50)),
                             -11)
                        .arg(i == l.baselineIndex() ? QString() : increaseText(l.increaseUs(i, &LatencySummary::p99)));
        printLine(line);
    }
    if (!l.probeError.isEmpty()) {
        printLine(QStringLiteral("Latency under load: not measured (%1)").arg(l.probeError));
    } else if (const int worst = l.worstLoadedPhase(); worst >= 0 && l.baselineIndex() >= 0) {
        const LoadPhaseResult &idle = l.phases[l.baselineIndex()];
        printLine(
            QStringLiteral("Latency under load: p99 %1 in %2 (%3 over idle), p50 %4 over idle; idle p50 %5, p99 %6")
                .arg(latencyText(l.phases[worst].latencyUs.p99), l.phases[worst].name(),
                     increaseText(l.increaseUs(worst, &LatencySummary::p99)),
                     increaseText(l.increaseUs(worst, &LatencySummary::p50)), latencyText(idle.latencyUs.p50),
                     latencyText(idle.latencyUs.p99)));
    }
    if (!l.uploadMeasuredByReceiver)
        printLine(QStringLiteral("(upload figures: bytes this side sent; the server did not report what it received)"));
    if (result.localCpuKnown || result.cpu.hostTotal > 0)
        printCpuAndWarnings(result);
    else
        printWarnings(result);
}

void ReportPrinter::printLine(const QString &line, FILE *to)
{
    // Lines carry the server's messages and results: nothing in them may steer the terminal.
    const QByteArray b = terminalSafe(line).toLocal8Bit();
    std::fwrite(b.constData(), 1, size_t(b.size()), to);
    std::fputc('\n', to);
    std::fflush(to);
}

void ReportPrinter::message(const QString &text)
{
    if (m_style == Style::Text && (m_verbose || m_server || text.startsWith(QLatin1Char('['))))
        printLine(text);
}

void ReportPrinter::testStarted(const TestResult &header)
{
    m_bidir = header.params.isBidir();
    m_udp = header.params.udp;
    m_streams = header.params.isBidir() ? header.params.streams * 2 : header.params.streams;
    if (m_style == Style::JsonStream) {
        QJsonObject o;
        o.insert(QStringLiteral("event"), QStringLiteral("start"));
        o.insert(QStringLiteral("data"), header.toJson().value(QStringLiteral("start")));
        printLine(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
        return;
    }
    if (m_style != Style::Text)
        return;
    // A server prints many tests: one with latency under load must not shape the next.
    m_schedule = LoadSchedule();
    if (header.params.isLoadedLatency()) {
        m_schedule = header.params.loadSchedule();
        if (!header.isServerSide)
            printLoadedLatencyHeader(header.params);
        return;
    }
    if (header.params.isRequestResponse()) {
        if (!header.isServerSide)
            printLine(QStringLiteral("Testing %1: %2 connection(s), %3 in flight, %4 B request, %5 B response, %6 s")
                          .arg(header.params.kind == TestKind::Crr ? QStringLiteral("TCP_CRR")
                               : header.params.udp                 ? QStringLiteral("UDP_RR")
                                                                   : QStringLiteral("TCP_RR"))
                          .arg(header.params.connections())
                          .arg(header.params.inFlight)
                          .arg(header.params.requestSize)
                          .arg(header.params.responseSize)
                          .arg(header.params.duration));
        return;
    }
    if (!header.isServerSide)
        printLine(
            QStringLiteral("Testing %1%2, %3 stream%4, %5 %6, %7")
                .arg(header.params.udp ? QStringLiteral("UDP ") : QString(), directionName(header.params.direction))
                .arg(header.params.streams)
                .arg(header.params.streams > 1 ? QStringLiteral("s") : QString())
                .arg(formatBytes(header.params.blockSize))
                .arg(!header.params.udp             ? QStringLiteral("buffers")
                     : header.params.bandwidth == 0 ? QStringLiteral("datagrams, unlimited rate")
                                                    : QStringLiteral("datagrams at %1 per stream")
                                                          .arg(formatBitrate(double(header.params.bandwidth))))
                .arg(header.params.isTimed() ? QStringLiteral("%1 seconds").arg(header.params.duration)
                                             : formatBytes(double(header.params.bytes))));
    printLine(QStringLiteral("[ ID]%1 Interval           Transfer       Bitrate          %2")
                  .arg(m_bidir ? QStringLiteral("[Role]") : QString(),
                       m_udp ? QStringLiteral("Jitter    Lost/Total Datagrams") : QStringLiteral("Retr   Cwnd")));
}

void ReportPrinter::printStreamLine(const QString &id, double start, double end, double bytes, std::int64_t retr,
                                    std::int64_t cwnd, const QString &tail)
{
    const double secs = end - start;
    QString line = QStringLiteral("[%1] %2-%3 sec  %4  %5")
                       .arg(id, 3)
                       .arg(formatFixed(start, 2), 6)
                       .arg(formatFixed(end, 2), -6)
                       .arg(formatBytes(bytes), 12)
                       .arg(formatBitrate(secs > 0 ? bytes * 8 / secs : 0), 14);
    if (retr >= 0)
        line += QStringLiteral("  %1").arg(retr, 5);
    if (cwnd >= 0)
        line += QStringLiteral("  %1").arg(formatBytes(double(cwnd)), 12);
    if (!tail.isEmpty())
        line += QStringLiteral("  ") + tail;
    printLine(line);
}

void ReportPrinter::intervalReady(const IntervalReport &report)
{
    if (m_style == Style::JsonStream) {
        QJsonObject o;
        o.insert(QStringLiteral("event"), QStringLiteral("interval"));
        o.insert(QStringLiteral("data"), report.toJson());
        printLine(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
        return;
    }
    if (m_style != Style::Text || report.streams.isEmpty())
        return;
    if (m_schedule.size() > 0) {
        printLoadedLatencyInterval(report);
        return;
    }
    if (report.hasRr) {
        const RrInterval &r = report.rr;
        printLine(QStringLiteral("[ RR] %1-%2 sec  %3 trans/s  latency us: p50 %4  p90 %5  p99 %6  max %7%8")
                      .arg(formatFixed(r.start, 2), 6)
                      .arg(formatFixed(r.end, 2), -6)
                      .arg(formatSignificant(r.transactionsPerSecond(), 4), 9)
                      .arg(formatSignificant(r.latencyUs.p50))
                      .arg(formatSignificant(r.latencyUs.p90))
                      .arg(formatSignificant(r.latencyUs.p99))
                      .arg(formatSignificant(r.latencyUs.max))
                      .arg(report.streams.first().omitted ? QStringLiteral("  (omitted)") : QString()));
        return;
    }
    const QString omitted = report.streams.first().omitted ? QStringLiteral("(omitted)") : QString();
    for (const StreamInterval &s : report.streams) {
        const QString id =
            m_bidir ? QStringLiteral("%1][%2").arg(s.id, 3).arg(s.sender ? QStringLiteral("TX") : QStringLiteral("RX"))
                    : QStringLiteral("%1").arg(s.id, 3);
        if (s.udp)
            printStreamLine(
                id, s.start, s.end, double(s.bytes), -1, -1,
                joined(s.sender ? QString::number(s.packets) : udpLossText(s.jitterMs, s.lostPackets, s.packets),
                       omitted));
        else
            printStreamLine(id, s.start, s.end, double(s.bytes), s.sender ? s.retransmits : -1,
                            s.sender ? s.cwndBytes : -1, omitted);
    }
    if (report.streams.size() > 1) {
        for (bool dir : {true, false}) {
            if (!report.hasDirection(dir))
                continue;
            const IntervalSum sum = report.sum(dir);
            const QString id = m_bidir
                                   ? QStringLiteral("SUM][%1").arg(dir ? QStringLiteral("TX") : QStringLiteral("RX"))
                                   : QStringLiteral("SUM");
            if (sum.udp)
                printStreamLine(
                    id, sum.start, sum.end, double(sum.bytes), -1, -1,
                    joined(dir ? QString::number(sum.packets) : udpLossText(sum.jitterMs, sum.lostPackets, sum.packets),
                           omitted));
            else
                printStreamLine(id, sum.start, sum.end, double(sum.bytes), dir ? sum.retransmits : -1, -1, omitted);
        }
    }
}

void ReportPrinter::printJsonEnd(const TestResult &result)
{
    QJsonObject o;
    o.insert(QStringLiteral("event"), QStringLiteral("end"));
    QJsonObject all = result.toJson();
    QJsonObject data = all.value(QStringLiteral("end")).toObject();
    data.insert(QStringLiteral("nicbench"), all.value(QStringLiteral("nicbench")));
    if (!result.error.isEmpty())
        data.insert(QStringLiteral("error"), result.error);
    o.insert(QStringLiteral("data"), data);
    printLine(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
}

void ReportPrinter::printRrResult(const TestResult &result)
{
    const RrSummary &r = result.rr;
    printLine(QStringLiteral("- - - - - - - - - - - - - - - - - - - - - - - - -"));
    printLine(QStringLiteral("%1: %2 transactions in %3 s = %4 transactions/s (%5 connection(s), %6 in flight, "
                             "%7 B request, %8 B response)")
                  .arg(r.kind == TestKind::Crr          ? QStringLiteral("TCP_CRR")
                       : r.udpLost || result.params.udp ? QStringLiteral("UDP_RR")
                                                        : QStringLiteral("TCP_RR"))
                  .arg(r.transactions)
                  .arg(formatSignificant(r.seconds))
                  .arg(formatSignificant(r.transactionsPerSecond(), 4))
                  .arg(r.connections)
                  .arg(r.inFlight)
                  .arg(r.requestSize)
                  .arg(r.responseSize));
    if (r.udpLost)
        printLine(QStringLiteral("Lost: %1 request(s) with no response within %2 ms (%3% of those sent)")
                      .arg(*r.udpLost)
                      .arg(result.params.udpRrTimeoutMs)
                      .arg(formatSignificant(r.transactions + *r.udpLost > 0
                                                 ? 100.0 * double(*r.udpLost) / double(r.transactions + *r.udpLost)
                                                 : 0.0)));
    if (const QString f = fairnessLine(r.fairness, QString(), QStringLiteral("transactions"), countText); !f.isEmpty())
        printLine(f);
    const LatencySummary &l = r.latencyUs;
    if (l.count > 0)
        printLine(QStringLiteral("Latency (us): min %1  mean %2  stddev %3  p50 %4  p90 %5  p99 %6  p99.9 %7  max %8")
                      .arg(formatSignificant(l.min), formatSignificant(l.mean), formatSignificant(l.stddev),
                           formatSignificant(l.p50), formatSignificant(l.p90), formatSignificant(l.p99),
                           formatSignificant(l.p999), formatSignificant(l.max)));
    printCpuAndWarnings(result);
}

// "CPU utilization: local 12.3%, remote 8.10%", then the warnings.
void ReportPrinter::printCpuAndWarnings(const TestResult &result)
{
    printLine(QStringLiteral("CPU utilization: local %1%%2")
                  .arg(formatSignificant(result.cpu.hostTotal))
                  .arg(result.cpu.remoteKnown
                           ? QStringLiteral(", remote %1%").arg(formatSignificant(result.cpu.remoteTotal))
                           : QString()));
    printWarnings(result);
}

void ReportPrinter::printWarnings(const TestResult &result)
{
    for (const QString &w : result.warnings)
        printLine(QStringLiteral("warning: %1").arg(w));
}

// The sender's and the receiver's line of one stream or one direction's sum; as iperf3, a
// UDP sender's line has no jitter or loss of its own.
template <typename Totals> void ReportPrinter::printEndLines(const QString &id, const Totals &t, double receiverSeconds)
{
    if (t.udp) {
        printStreamLine(id, 0, t.seconds, double(t.bytesSent), -1, -1,
                        udpLossText(0, 0, t.packetsSent) + QStringLiteral("  sender"));
        printStreamLine(id, 0, receiverSeconds, double(t.bytesReceived), -1, -1,
                        udpLossText(t.jitterMs, t.lostPackets, t.packetsReceived) + QStringLiteral("  receiver"));
        return;
    }
    printStreamLine(id, 0, t.seconds, double(t.bytesSent), t.retransmits, -1, QStringLiteral("sender"));
    printStreamLine(id, 0, receiverSeconds, double(t.bytesReceived), -1, -1, QStringLiteral("receiver"));
}

void ReportPrinter::printStreamResult(const TestResult &result)
{
    printLine(QStringLiteral("- - - - - - - - - - - - - - - - - - - - - - - - -"));
    printLine(QStringLiteral("[ ID]%1 Interval           Transfer       Bitrate          %2")
                  .arg(m_bidir ? QStringLiteral("[Role]") : QString(),
                       m_udp ? QStringLiteral("Jitter    Lost/Total Datagrams") : QStringLiteral("Retr")));
    for (const StreamSummary &s : result.streams) {
        const QString id =
            m_bidir ? QStringLiteral("%1][%2").arg(s.id, 3).arg(s.sender ? QStringLiteral("TX") : QStringLiteral("RX"))
                    : QStringLiteral("%1").arg(s.id, 3);
        printEndLines(id, s, s.receiverSeconds > 0 ? s.receiverSeconds : s.seconds);
    }
    if (result.streams.size() > 1) {
        for (bool clientSent : {true, false}) {
            if (!result.hasDirection(clientSent))
                continue;
            const DirectionSum d = result.sum(clientSent);
            const bool localSent = result.isServerSide ? !clientSent : clientSent;
            const QString id =
                m_bidir ? QStringLiteral("SUM][%1").arg(localSent ? QStringLiteral("TX") : QStringLiteral("RX"))
                        : QStringLiteral("SUM");
            printEndLines(id, d, d.seconds);
        }
    }
    for (bool clientSent : {true, false}) {
        const bool localSent = result.isServerSide ? !clientSent : clientSent;
        const QString prefix = m_bidir ? (localSent ? QStringLiteral("TX ") : QStringLiteral("RX ")) : QString();
        if (const QString f = fairnessLine(result.fairnessOf(clientSent), prefix, QStringLiteral("bytes"), bytesText);
            !f.isEmpty())
            printLine(f);
    }
    printLine(QStringLiteral("CPU utilization: local %1% (user %2%, system %3%)%4")
                  .arg(formatSignificant(result.cpu.hostTotal))
                  .arg(formatSignificant(result.cpu.hostUser))
                  .arg(formatSignificant(result.cpu.hostSystem))
                  .arg(result.cpu.remoteKnown ? QStringLiteral(", remote %1% (user %2%, system %3%)")
                                                    .arg(formatSignificant(result.cpu.remoteTotal))
                                                    .arg(formatSignificant(result.cpu.remoteUser))
                                                    .arg(formatSignificant(result.cpu.remoteSystem))
                                              : QString()));
    printWarnings(result);
    if (m_server)
        printLine(QString());
}

void ReportPrinter::testFinished(const TestResult &result)
{
    if (m_style == Style::Json)
        printLine(QString::fromUtf8(QJsonDocument(result.toJson()).toJson(QJsonDocument::Indented)));
    else if (m_style == Style::JsonStream)
        printJsonEnd(result);
    else if (result.loadedLatency && !result.isServerSide)
        printLoadedLatencyResult(result);
    else if (result.hasRr)
        printRrResult(result);
    else if (!result.streams.isEmpty())
        printStreamResult(result);
}

} // namespace nb
