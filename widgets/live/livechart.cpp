// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/livechart.h"

#include <qcustomplot.h>

#include <QEvent>

namespace nb::ui {

void LiveChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyPalette();
    QWidget::changeEvent(event);
}

QCPAxisRect *LiveChart::addLowerAxisRect(QCustomPlot *plot)
{
    QCPAxisRect *upper = plot->axisRect();
    auto *lower = new QCPAxisRect(plot);
    plot->plotLayout()->addElement(1, 0, lower);
    auto *margins = new QCPMarginGroup(plot);
    upper->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    lower->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    for (QCPAxisRect *r : {upper, lower}) {
        for (QCPAxis *a : r->axes())
            a->setLayer(QStringLiteral("axes"));
    }
    upper->axis(QCPAxis::atBottom)->setTickLabels(false);
    connect(lower->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
            upper->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    return lower;
}

} // namespace nb::ui
