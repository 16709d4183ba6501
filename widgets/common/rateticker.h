// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An axis ticker for rates: tick positions stay in bit/s, labels are in the unit the axis
// currently shows ("2.5" on a Gbit/s axis).

#include "common/ratescale.h"

#include <qcustomplot.h>

namespace nb::ui {

class RateTicker : public QCPAxisTicker {
public:
    void setUnit(const RateUnit &unit) { m_unit = unit; }
    const RateUnit &unit() const { return m_unit; }

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override { return axisTickLabel(tick, m_unit); }

private:
    RateUnit m_unit;
};

} // namespace nb::ui
