// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/livechart.h"

#include <QEvent>

namespace nb::ui {

void LiveChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyPalette();
    QWidget::changeEvent(event);
}

} // namespace nb::ui
