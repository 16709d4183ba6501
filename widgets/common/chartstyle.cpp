// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/chartstyle.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <array>

namespace nb::ui {

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor sendColor(const QPalette &palette)
{
    return isDarkPalette(palette) ? QColor(0x56, 0xB4, 0xE9) : QColor(0x00, 0x72, 0xB2);
}

QColor receiveColor(const QPalette &palette)
{
    return isDarkPalette(palette) ? QColor(0xE6, 0x9F, 0x00) : QColor(0xD5, 0x5E, 0x00);
}

QColor seriesColor(const QPalette &palette, int index)
{
    // Okabe-Ito without black; yellow only on dark backgrounds where it reads well.
    static constexpr std::array<QRgb, 6> light{0x009E73, 0xCC79A7, 0x0072B2, 0xD55E00, 0x56B4E9, 0xE69F00};
    static constexpr std::array<QRgb, 6> dark{0x009E73, 0xCC79A7, 0xF0E442, 0x56B4E9, 0xE69F00, 0xD55E00};
    const auto &table = isDarkPalette(palette) ? dark : light;
    const std::size_t i = static_cast<std::size_t>(index < 0 ? -index : index) % table.size();
    return QColor::fromRgb(table[i]);
}

QPen sendPen(const QPalette &palette, qreal width)
{
    return QPen(sendColor(palette), width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
}

QPen receivePen(const QPalette &palette, qreal width)
{
    QPen pen(receiveColor(palette), width, Qt::CustomDashLine, Qt::FlatCap, Qt::RoundJoin);
    pen.setDashPattern({4.0, 2.5});
    return pen;
}

void placeLegendAbove(QCustomPlot *plot, int wrap)
{
    plot->legend->setVisible(true);
    plot->axisRect()->insetLayout()->take(plot->legend);
    auto *legendRow = new QCPLayoutGrid;
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, legendRow);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    legendRow->addElement(0, 0, plot->legend);
    // The spacer keeps a short legend from narrowing the whole column to its width.
    legendRow->addElement(0, 1, new QCPLayoutElement(plot));
    legendRow->setColumnStretchFactor(1, 0.001);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setWrap(wrap);
    plot->legend->setMargins(QMargins(4, 2, 4, 2));
    plot->legend->setMinimumSize(0, 0);
    plot->legend->setBorderPen(Qt::NoPen);
}

void fitLegendToWidth(QCustomPlot *plot, int width)
{
    QCPLegend *legend = plot->legend;
    int items = 0;
    int widest = 0;
    for (int i = 0; i < legend->elementCount(); ++i) {
        if (QCPLayoutElement *item = legend->elementAt(i)) {
            ++items;
            widest = std::max(widest, item->minimumOuterSizeHint().width());
        }
    }
    if (items == 0)
        return;
    const int available = width - legend->margins().left() - legend->margins().right() - 8;
    const int columns =
        std::clamp((available + legend->columnSpacing()) / std::max(1, widest + legend->columnSpacing()), 1, items);
    if (columns != legend->wrap() || legend->columnCount() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    }
    if (auto *row = qobject_cast<QCPLayoutGrid *>(legend->layout()); row && row->columnCount() == 2) {
        row->setColumnStretchFactor(0, 0.001);
        row->setColumnStretchFactor(1, 1);
    }
}

void applyPaletteToPlot(QCustomPlot *plot, const QPalette &palette)
{
    const QColor text = palette.color(QPalette::Text);
    QColor grid = palette.color(QPalette::Text);
    grid.setAlpha(isDarkPalette(palette) ? 45 : 35);
    QColor subGrid = grid;
    subGrid.setAlpha(grid.alpha() / 2);
    plot->setBackground(palette.brush(QPalette::Base));
    const QList<QCPAxis *> axes = plot->axisRect()->axes();
    for (QCPAxis *axis : axes) {
        axis->setBasePen(QPen(text, 1));
        axis->setTickPen(QPen(text, 1));
        axis->setSubTickPen(QPen(text, 1));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1, Qt::SolidLine));
        axis->grid()->setSubGridPen(QPen(subGrid, 1, Qt::DotLine));
        axis->grid()->setZeroLinePen(QPen(grid, 1));
    }
    if (plot->legend) {
        QColor legendBack = palette.color(QPalette::Base);
        legendBack.setAlpha(220);
        plot->legend->setBrush(legendBack);
        plot->legend->setBorderPen(QPen(grid, 1));
        plot->legend->setTextColor(text);
    }
}

LiveChartParts setUpLiveChart(QWidget *host, QCustomPlot *plot, const LiveChartSetup &setup)
{
    auto *layout = new QVBoxLayout(host);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot);
    host->setMinimumHeight(160);
    // A width of its own, not the one-row legend's (four entries made the live charts, and
    // with them the window, wider than a 1024-pixel console: review M3); the legend flows
    // into rows for the width the chart gets.
    host->setMinimumWidth(200);
    plot->setObjectName(setup.objectName);
    plot->legend->setIconSize(setup.legendIconSize);
    placeLegendAbove(plot);
    QObject::connect(plot, &QCustomPlot::beforeReplot, plot,
                     [plot] { fitLegendToWidth(plot, plot->viewport().width()); });

    LiveChartParts parts;
    QCPAxisRect *rect = setup.placeholderRect ? setup.placeholderRect : plot->axisRect();
    parts.placeholder = new QCPItemText(plot);
    parts.placeholder->setClipToAxisRect(true);
    parts.placeholder->setClipAxisRect(rect);
    parts.placeholder->position->setAxisRect(rect);
    parts.placeholder->position->setType(QCPItemPosition::ptAxisRectRatio);
    parts.placeholder->position->setCoords(setup.placeholderAt);
    parts.placeholder->setPositionAlignment(Qt::AlignCenter);

    parts.actions = new ChartActions(plot, setup.exportName, setup.csv);
    parts.actions->setValueFormatter(setup.formatValue);
    return parts;
}

void applyLiveChartPalette(QCustomPlot *plot, QCPItemText *placeholder, const QPalette &palette)
{
    applyPaletteToPlot(plot, palette);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    placeholder->setColor(palette.color(QPalette::PlaceholderText));
}

void copyAxisRectStyle(QCPAxisRect *from, QCPAxisRect *to)
{
    const QList<QCPAxis *> src = from->axes();
    const QList<QCPAxis *> dst = to->axes();
    for (qsizetype i = 0; i < src.size() && i < dst.size(); ++i) {
        dst[i]->setBasePen(src[i]->basePen());
        dst[i]->setTickPen(src[i]->tickPen());
        dst[i]->setSubTickPen(src[i]->subTickPen());
        dst[i]->setTickLabelColor(src[i]->tickLabelColor());
        dst[i]->setLabelColor(src[i]->labelColor());
        dst[i]->grid()->setPen(src[i]->grid()->pen());
        dst[i]->grid()->setSubGridPen(src[i]->grid()->subGridPen());
        dst[i]->grid()->setZeroLinePen(src[i]->grid()->zeroLinePen());
    }
}

} // namespace nb::ui
