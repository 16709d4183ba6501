// SPDX-License-Identifier: GPL-3.0-or-later
#include "platform/interfacemonitor.h"

#include "core/format.h"
#include "platform/platform.h"

namespace nb {

namespace {

std::uint64_t grown(std::uint64_t before, std::uint64_t after)
{
    return after >= before ? after - before : 0;
}

} // namespace

InterfaceRates interfaceRates(const InterfaceCounters &before, const InterfaceCounters &after,
                              std::int64_t linkSpeedBps)
{
    InterfaceRates r;
    r.seconds = double(after.timestampNs - before.timestampNs) / 1e9;
    if (r.seconds <= 0) {
        r.seconds = 0;
        r.rxUtilizationPct = r.txUtilizationPct = linkSpeedBps > 0 ? 0 : -1;
        return r;
    }
    r.rxBytesPerSecond = double(grown(before.rxBytes, after.rxBytes)) / r.seconds;
    r.txBytesPerSecond = double(grown(before.txBytes, after.txBytes)) / r.seconds;
    r.rxPacketsPerSecond = double(grown(before.rxPackets, after.rxPackets)) / r.seconds;
    r.txPacketsPerSecond = double(grown(before.txPackets, after.txPackets)) / r.seconds;
    r.droppedPerSecond =
        double(grown(before.rxDropped, after.rxDropped) + grown(before.txDropped, after.txDropped)) / r.seconds;
    r.errorsPerSecond =
        double(grown(before.rxErrors, after.rxErrors) + grown(before.txErrors, after.txErrors)) / r.seconds;
    if (linkSpeedBps > 0) {
        r.rxUtilizationPct = 100.0 * r.rxBytesPerSecond * 8 / double(linkSpeedBps);
        r.txUtilizationPct = 100.0 * r.txBytesPerSecond * 8 / double(linkSpeedBps);
    }
    return r;
}

QString wrongPathWarning(const QString &interfaceName, const InterfaceCounters &before, const InterfaceCounters &after,
                         std::uint64_t testBytesSent, std::uint64_t testBytesReceived, double threshold)
{
    const std::uint64_t tx = grown(before.txBytes, after.txBytes);
    const std::uint64_t rx = grown(before.rxBytes, after.rxBytes);
    QStringList problems;
    const auto check = [&](std::uint64_t testBytes, std::uint64_t seen, const char *verb, const char *counter) {
        if (testBytes > 0 && double(seen) < threshold * double(testBytes)) {
            problems.append(QStringLiteral("the test %1 %2 but %3 counted only %4 %5 (%6%)")
                                .arg(QLatin1String(verb), formatBytes(double(testBytes)), interfaceName,
                                     formatBytes(double(seen)), QLatin1String(counter),
                                     formatSignificant(100.0 * double(seen) / double(testBytes))));
        }
    };
    check(testBytesSent, tx, "sent", "transmitted");
    check(testBytesReceived, rx, "received", "received");
    if (problems.isEmpty())
        return {};
    return QStringLiteral("Traffic probably took another path than %1: %2.")
        .arg(interfaceName, problems.join(QStringLiteral("; ")));
}

} // namespace nb
