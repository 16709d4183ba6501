// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/latencyaxis.h"

#include "common/ratescale.h"

#include <cmath>

namespace nb::ui {

void setLatencyAxis(QCPAxis *axis, bool log, double minUs, double peakUs, const QString &stem)
{
    const double top = throughputAxisMax(peakUs > 0 ? peakUs : 100);
    const LatencyUnit unit = latencyUnitFor(top);
    if (log != (axis->scaleType() == QCPAxis::stLogarithmic)) {
        axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        if (log) {
            auto *ticker = new LatencyAxisLogTicker;
            ticker->setLogBase(10);
            ticker->setSubTickCount(8);
            axis->setTicker(QSharedPointer<QCPAxisTicker>(ticker));
        } else {
            axis->setTicker(QSharedPointer<QCPAxisTicker>(new LatencyAxisTicker));
            axis->ticker()->setTickCount(4);
        }
    }
    if (log) {
        static_cast<LatencyAxisLogTicker *>(axis->ticker().data())->unit = unit;
        // From the power of ten below the fastest p50 to a little above the slowest p99.
        const double bottom = std::pow(10.0, std::floor(std::log10(minUs)));
        axis->setRange(bottom, std::max(top, bottom * 10));
    } else {
        static_cast<LatencyAxisTicker *>(axis->ticker().data())->unit = unit;
        axis->setRange(0, top);
    }
    axis->setLabel(log ? QStringLiteral("%1 (%2, log)").arg(stem, unit.name)
                       : QStringLiteral("%1 (%2)").arg(stem, unit.name));
}

} // namespace nb::ui
