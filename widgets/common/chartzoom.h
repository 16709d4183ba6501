// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Zoom and pan for a chart (review M11). Ctrl+wheel zooms around the mouse, dragging with
// the left button pans, Shift+drag zooms to the dragged span; the keyboard does the same on
// a focused chart (+ and - zoom, the arrows pan, Home resets). While zoomed a "Reset zoom"
// button sits in the chart's corner; the chart's menu has Reset Zoom too. The plain wheel
// stays the page's: a chart in a scroll area scrolls it (forwardWheelToScrollArea).
//
// Charts go on setting their axes as data arrives (their automatic range). While the user's
// view is held, each replot puts the user's range back, so a live chart stops moving under
// the mouse; Reset returns to whatever the chart set last. Exports draw what is shown.

#include <QHash>
#include <QObject>
#include <QPoint>
#include <QPointer>
#include <QSet>

class QCPAxis;
class QCPRange;
class QCustomPlot;
class QRubberBand;
class QToolButton;

namespace nb::ui {

class ChartZoom : public QObject {
    Q_OBJECT
public:
    // Installs itself on the plot (which becomes its parent).
    explicit ChartZoom(QCustomPlot *plot);
    // The plot's zoom (made by its ChartActions), or nullptr.
    static ChartZoom *of(const QCustomPlot *plot);
    // Back to the chart's own ranges, for a chart whose data starts afresh (a new test, another
    // comparison). Nothing for a plot without zoom.
    static void resetOf(const QCustomPlot *plot);

    // Which axes zoom and pan: Qt::Horizontal (the bottom axes of every axis rect: time or
    // latency; the default) or Qt::Vertical (the left and right axes: bar and box charts,
    // whose categories stay put).
    void setOrientation(Qt::Orientation orientation);
    Qt::Orientation orientation() const { return m_orientation; }

    bool isZoomed() const { return m_zoomed; }
    // The user's range of one axis while zoomed; false when the chart's own range shows.
    bool heldRange(const QCPAxis *axis, double *lower, double *upper) const;
    // Back to the chart's own ranges.
    void reset();
    // Puts the user's view back after the chart set its ranges during a draw (comparison
    // charts fit their headroom to the export size there); nothing while not zoomed.
    void reapply();
    // What the mouse does, for the keyboard and tests: `factor` < 1 zooms in around `pos`
    // (widget pixels); `pixels` moves the view as a drag by that much would.
    void zoomAt(const QPoint &pos, double factor);
    void panBy(const QPoint &pixels);
    // Shows the span between two widget positions (along the zoom axes) across the chart.
    void zoomTo(const QPoint &from, const QPoint &to);

Q_SIGNALS:
    void zoomedChanged(bool zoomed);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QList<QCPAxis *> zoomAxes() const;
    void watchAxes();
    void takeUserView();
    void applyHeld();
    void placeResetButton();
    void endDrag();
    bool handleMouse(QEvent *event);
    bool handleKey(QEvent *event);
    // One axis' coordinate for a widget position.
    double coordAt(const QCPAxis *axis, const QPoint &pos) const;

    QCustomPlot *m_plot;
    Qt::Orientation m_orientation = Qt::Horizontal;
    bool m_zoomed = false;
    bool m_applying = false; // ranges set here, not by the chart
    QSet<QCPAxis *> m_watched;
    QHash<QCPAxis *, QPair<double, double>> m_automatic; // the chart's last range per axis
    QHash<QCPAxis *, QPair<double, double>> m_held;      // the user's view

    enum class Drag { None, Pan, Box };
    Drag m_drag = Drag::None;
    bool m_dragMoved = false;
    QPoint m_pressPos;
    QHash<QCPAxis *, QPair<double, double>> m_dragStart;
    QRubberBand *m_band = nullptr;
    QToolButton *m_resetButton = nullptr;
};

} // namespace nb::ui
