// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every live chart of the Test view shares: it follows the window's theme. A palette or
// style change (the light/dark switch, the system theme) restyles the chart through
// applyPalette(), which sets the plot's colours and axis styling (chartstyle.h) and the
// chart's own pens.

#include <QWidget>

class QCustomPlot;
class QCPAxisRect;

namespace nb::ui {

class LiveChart : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;

protected:
    void changeEvent(QEvent *event) override;
    // Colours, pens and axes from palette(); called on every palette or style change.
    virtual void applyPalette() = 0;
    // A second axis rect under the plot's own, as the request/response, latency-under-load
    // and UDP charts have: the same left and right margins, axes on the "axes" layer, one
    // time axis (the lower one's; the upper one follows it without tick labels).
    static QCPAxisRect *addLowerAxisRect(QCustomPlot *plot);
};

} // namespace nb::ui
