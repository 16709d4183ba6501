// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Colours and pens shared by NicBench charts, derived from the widget's palette so
// charts follow light and dark mode. Send and receive differ by line style (solid,
// dashed) as well as colour, so they stay distinguishable without colour.

#include "common/chartactions.h"

#include <QColor>
#include <QPalette>
#include <QPen>
#include <QPointF>
#include <QSize>
#include <QString>

class QCPAxisRect;
class QCPItemText;
class QCustomPlot;
class QWidget;

namespace nb::ui {

bool isDarkPalette(const QPalette &palette);
// Okabe-Ito colours, picked for contrast on the palette's base colour.
QColor sendColor(const QPalette &palette);
QColor receiveColor(const QPalette &palette);
QColor seriesColor(const QPalette &palette, int index);
QPen sendPen(const QPalette &palette, qreal width = 2.0);
QPen receivePen(const QPalette &palette, qreal width = 2.0);

// Moves the legend out of the plot area into a row above it, so it never hides curves.
void placeLegendAbove(QCustomPlot *plot, int wrap = 6);

// For a legend placed with placeLegendAbove(): as many columns as fit in `width` pixels
// (the plot's viewport width, which exports change), packed to the left rather than
// spread over the whole row. Call before each layout (beforeReplot, and draw for exports).
void fitLegendToWidth(QCustomPlot *plot, int width);

// Background, axes, grid, legend and text of a plot from the palette.
void applyPaletteToPlot(QCustomPlot *plot, const QPalette &palette);

// What the live test charts (throughput, request/response) share around their own axes
// and graphs. Call once those are in place (the legend takes a row above the layout).
struct LiveChartSetup {
    QString objectName; // the plot's
    QSize legendIconSize;
    QCPAxisRect *placeholderRect = nullptr; // nullptr: the plot's default axis rect
    QPointF placeholderAt{0.5, 0.5};        // centre, in ratios of that rect
    QString exportName;                     // ChartActions' base name for saved files
    ChartActions::CsvFunction csv;          // empty: ChartActions' default
    ChartActions::ValueFormatter formatValue;
};
struct LiveChartParts {
    QCPItemText *placeholder = nullptr; // for text while there is no data
    ChartActions *actions = nullptr;
};
// Lays `plot` out to fill `host` (which has no layout yet; at least 160 px high), places
// the legend above the plot, adds a centred placeholder text and the chart actions.
LiveChartParts setUpLiveChart(QWidget *host, QCustomPlot *plot, const LiveChartSetup &setup);

// applyPaletteToPlot() for such a chart: legend without frame or background, placeholder
// in the palette's placeholder colour.
void applyLiveChartPalette(QCustomPlot *plot, QCPItemText *placeholder, const QPalette &palette);
// Gives a second axis rect (a chart's lower plot) the pens and colours of the styled one.
void copyAxisRectStyle(QCPAxisRect *from, QCPAxisRect *to);

} // namespace nb::ui
