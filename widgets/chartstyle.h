// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Colours and pens shared by NicBench charts, derived from the widget's palette so
// charts follow light and dark mode. Send and receive differ by line style (solid,
// dashed) as well as colour, so they stay distinguishable without colour.

#include <QColor>
#include <QPalette>
#include <QPen>

class QCustomPlot;

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

} // namespace nb::ui
