// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/rundescription.h"

#include "compare/comparisonmatrix.h"
#include "compare/comparisonstatistics.h"
#include "core/format.h"
#include "core/sanitize.h"

#include <QHostAddress>

namespace nb {

namespace {

QString describedDirection(Direction d)
{
    return d == Direction::Bidirectional ? QStringLiteral("both ways") : directionName(d);
}

QString streamHeadline(const TestResult &r)
{
    if (r.params.udp) {
        const auto goodput = metricValue(r, Metric::UdpGoodput);
        const auto loss = metricValue(r, Metric::UdpLossPercent);
        if (!goodput)
            return {};
        return loss ? QStringLiteral("%1, %2 lost").arg(formatBitrate(*goodput), formatLossPercent(*loss))
                    : formatBitrate(*goodput);
    }
    if (r.params.isBidir() && r.hasDirection(true) && r.hasDirection(false))
        return QStringLiteral("up %1, down %2")
            .arg(formatBitrate(r.sum(true).receivedBitsPerSecond()),
                 formatBitrate(r.sum(false).receivedBitsPerSecond()));
    const auto bps = metricValue(r, Metric::Throughput);
    return bps ? formatBitrate(*bps) : QString();
}

QString rrHeadline(const TestResult &r)
{
    const bool udp = r.params.udp;
    const auto tps = metricValue(r, udp ? Metric::UdpRrTransactionsPerSecond : Metric::TransactionsPerSecond);
    const auto p99 = metricValue(r, udp ? Metric::UdpRrLatencyP99 : Metric::LatencyP99);
    if (!tps)
        return {};
    return p99 ? QStringLiteral("%1, p99 %2").arg(formatTransactionsPerSecond(*tps), formatMicroseconds(*p99))
               : formatTransactionsPerSecond(*tps);
}

QString loadedHeadline(const TestResult &r)
{
    for (Metric m :
         {Metric::LoadedBidirP99Increase, Metric::LoadedDownloadP99Increase, Metric::LoadedUploadP99Increase}) {
        if (const auto increase = metricValue(r, m))
            return QStringLiteral("p99 %1 under load").arg(formatLatencyChange(*increase));
    }
    return {};
}

} // namespace

QString runKindLabel(const TestParams &p)
{
    if (p.isLoadedLatency())
        return QStringLiteral("Latency under load");
    if (p.isRequestResponse()) {
        QString name = p.kind == TestKind::Crr ? QStringLiteral("TCP_CRR")
                       : p.udp                 ? QStringLiteral("UDP_RR")
                                               : QStringLiteral("TCP_RR");
        if (p.connections() > 1)
            name += QStringLiteral(" (%1 conn.)").arg(p.connections());
        return name;
    }
    if (p.udp) {
        QString name =
            QStringLiteral("UDP %1 %2").arg(describedDirection(p.direction), MatrixVariant::rateText(p.bandwidth));
        if (p.streams > 1)
            name += QStringLiteral(" P=%1").arg(p.streams);
        return name;
    }
    return QStringLiteral("TCP %1 P=%2").arg(describedDirection(p.direction)).arg(p.streams);
}

QString runKindLabel(const QList<TestResult> &results)
{
    QStringList kinds;
    for (const TestResult &r : results)
        kinds << runKindLabel(r.params);
    return kinds.join(QStringLiteral(" + "));
}

QString runHeadline(const TestResult &r)
{
    if (!r.ok())
        return QStringLiteral("failed: %1").arg(printable(r.error, 160));
    QString text = r.params.isLoadedLatency()     ? loadedHeadline(r)
                   : r.params.isRequestResponse() ? rrHeadline(r)
                                                  : streamHeadline(r);
    return text.isEmpty() ? QStringLiteral("no figures") : text;
}

QString runHeadline(const QList<TestResult> &results)
{
    QStringList parts;
    for (const TestResult &r : results)
        parts << runHeadline(r);
    return parts.join(QStringLiteral(" \u00b7 "));
}

QString runAdapterLabel(const QList<TestResult> &results)
{
    for (const TestResult &r : results) {
        if (!r.localAdapter)
            continue;
        const AdapterInfo &a = *r.localAdapter;
        return a.driver.isEmpty() || a.driver == a.name
                   ? printable(a.name, 64)
                   : QStringLiteral("%1 (%2)").arg(printable(a.name, 64), printable(a.driver, 64));
    }
    return {};
}

QString runTargetLabel(const QList<TestResult> &results)
{
    if (results.isEmpty())
        return {};
    const TestParams &p = results.constFirst().params;
    const QHostAddress address(p.host);
    const bool v6 = !address.isNull() && address.protocol() == QAbstractSocket::IPv6Protocol;
    return (v6 ? QStringLiteral("[%1]:%2") : QStringLiteral("%1:%2")).arg(printable(p.host, 255)).arg(p.port);
}

} // namespace nb
