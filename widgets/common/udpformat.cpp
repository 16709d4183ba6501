// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/udpformat.h"

#include "common/ratescale.h"

#include <QCoreApplication>
#include <QLocale>

namespace nb::ui {

namespace {

QString udpTr(const char *text)
{
    return QCoreApplication::translate("nb::ui::UdpFormat", text);
}

// 91008 -> "91,008": a count in full, grouped as the other figures are.
QString groupedCount(std::uint64_t n)
{
    QLocale english(QLocale::English, QLocale::UnitedStates);
    english.setNumberOptions(QLocale::DefaultNumberOptions);
    return english.toString(qulonglong(n));
}

} // namespace

QString formatLossPercent(double percent)
{
    return QStringLiteral("%1%").arg(QString::number(percent, 'g', 3));
}

QString formatJitterMs(double ms)
{
    return udpTr("%1 ms").arg(ms < 1 ? QString::number(ms, 'f', 3) : formatSignificantDigits(ms, 3));
}

QString udpDirectionText(const nb::DirectionSum &sum)
{
    return udpTr("lost %1/%2 (%3), jitter %4, %5 out of order")
        .arg(sum.lostPackets)
        .arg(sum.packetsReceived)
        .arg(formatLossPercent(sum.lostPercent()), formatJitterMs(sum.jitterMs))
        .arg(sum.outOfOrder);
}

QString udpLostRequestsText(const nb::RrSummary &rr, int timeoutMs)
{
    const std::uint64_t lost = rr.udpLost.value_or(0);
    const std::uint64_t sent = rr.transactions + lost;
    const double percent = sent > 0 ? 100.0 * double(lost) / double(sent) : 0.0;
    return udpTr("%1 of %2 requests (%3) had no response within %4 ms")
        .arg(groupedCount(lost), groupedCount(sent), formatLossPercent(percent))
        .arg(timeoutMs);
}

} // namespace nb::ui
