// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every comparison chart (bars, timeline, latency distribution) shares, written once:
// the right-click actions (ChartActions), the tooltip, the placeholder text of an empty
// chart, following the palette (dark mode) and the font, fitting labels to the size before
// every screen or export draw, one fixed export size, a test hook with the rectangles of
// every label, plain mouse-wheel events left to the page (a QScrollArea scrolls over charts)
// and Ctrl+wheel, drag and Shift+drag zooming (ChartZoom, made by the ChartActions).

#include <qcustomplot.h>

#include <QList>
#include <QRectF>
#include <QSize>
#include <QString>

namespace nb::ui {

class ChartActions;

class ComparisonChart : public QCustomPlot {
    Q_OBJECT
public:
    // Every export (PNG, SVG, PDF, the view's "export all") lays a chart out at this size,
    // whatever its size on screen: wide enough for 3 variants x 3 adapters with their labels.
    static constexpr QSize kExportSize{1100, 560};

    ChartActions *actions() const { return m_actions; }
    // The chart's data as CSV (the right-click "Copy data as CSV").
    virtual QString toCsv() const = 0;

    // Bounding rectangles (widget pixels) of every x tick label, legend item and annotation
    // as last laid out: none of them may intersect another.
    QList<QRectF> labelRects() const;

    // Saves at kExportSize (PNG twice that in pixels), laid out at that size whether the
    // chart is shown or not; atomic, the reason of a failure in *error.
    bool exportTo(const QString &path, QString *error);
    // The same for any chart: comparison charts and other QCustomPlots alike.
    static bool exportImage(QCustomPlot *chart, const QString &path, QString *error);

protected:
    // objectName names the widget, exportName the files the save dialog proposes.
    ComparisonChart(const QString &objectName, const QString &exportName, QWidget *parent);

    // Rebuilds plottables from the data (and the palette and font): subclasses call it at
    // the end of their constructor and whenever the data changes.
    virtual void rebuild() = 0;
    // Fits labels and headroom to the current viewport (screen or export size); called
    // before every layout. The default fits the legend's columns.
    virtual void fitLayout();
    // Tooltip text for a widget position; empty falls back to the nearest graph point.
    virtual QString tooltipAt(const QPoint &pos) const;
    // Annotations drawn inside the plot (bar labels), for labelRects().
    virtual QList<QRectF> annotationRects() const { return {}; }

    void draw(QCPPainter *painter) override;
    void changeEvent(QEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;

    // A bold title row above everything else (the metric's name), so axes need only units.
    QCPTextElement *addTitleRow();
    // The centred grey text of an empty chart; shown with text, hidden with an empty one.
    // Also hides the axes and grid while shown.
    void setPlaceholder(const QString &text);
    // Legend and placeholder colours from the palette (after applyPaletteToPlot).
    void styleCommon();
    // Rectangle of a QCPItemText as QCustomPlot draws it (alignment, padding, font).
    static QRectF itemTextRect(const QCPItemText *item);

private:
    ChartActions *m_actions = nullptr;
    QCPItemText *m_placeholder = nullptr;
    bool m_fitting = false;
};

} // namespace nb::ui
