// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/udpformat.h"

#include "core/format.h"

#include <QCoreApplication>

namespace nb::ui {

namespace {

QString udpTr(const char *text)
{
    return QCoreApplication::translate("nb::ui::UdpFormat", text);
}

} // namespace

QString udpDirectionText(const nb::DirectionSum &sum)
{
    return udpTr("lost %1/%2 (%3), jitter %4, %5 out of order")
        .arg(sum.lostPackets)
        .arg(sum.packetsReceived)
        .arg(nb::formatLossPercent(sum.lostPercent()), nb::formatJitterMs(sum.jitterMs))
        .arg(sum.outOfOrder);
}

QString udpLostRequestsText(const nb::RrSummary &rr, int timeoutMs)
{
    const std::uint64_t lost = rr.udpLost.value_or(0);
    const std::uint64_t sent = rr.transactions + lost;
    const double percent = sent > 0 ? 100.0 * double(lost) / double(sent) : 0.0;
    return udpTr("%1 of %2 requests (%3) had no response within %4 ms")
        .arg(nb::formatCount(lost), nb::formatCount(sent), nb::formatLossPercent(percent))
        .arg(timeoutMs);
}

} // namespace nb::ui
