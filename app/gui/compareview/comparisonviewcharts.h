// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Compare tab's charts in one scrolling grid, in the order a user asks: throughput and
// CPU per Gbit/s, transactions/s and CPU per 1000 transactions/s first, then latency, CPU,
// service demand (per KB and per transaction), throughput over time and the latency
// distribution. Only charts with data are shown; the grid takes as many columns as fit
// (two at 1280 px, four at 1920 px) and never squeezes a chart below a readable height.
// The mouse wheel over a chart scrolls the grid; Ctrl+wheel zooms the chart (ChartZoom).

#include <compare/comparisonoverlay.h>
#include <compare/comparisonstatistics.h>

#include <QList>
#include <QScrollArea>

#include "compareview/comparisonexport.h"

class QComboBox;
class QGridLayout;

namespace nb::ui {
class ComparisonBarChart;
class ComparisonTimelineChart;
class LatencyDistributionChart;
} // namespace nb::ui

namespace nb::gui {

class ComparisonChartGrid : public QScrollArea {
    Q_OBJECT
public:
    static constexpr int kMinimumChartWidth = 400;
    static constexpr int kMinimumChartHeight = 230;

    explicit ComparisonChartGrid(QWidget *parent = nullptr);

    void setData(const nb::ComparisonOverlay &overlay, const nb::ComparisonStatistics &statistics);
    void clearData();

    // The bar charts, in grid order, whether shown or not.
    static QList<nb::Metric> chartMetrics();
    nb::ui::ComparisonBarChart *barChart(nb::Metric metric) const;
    QList<nb::ui::ComparisonBarChart *> visibleBarCharts() const;
    nb::ui::ComparisonTimelineChart *timelineChart() const { return m_timeline; }
    nb::ui::LatencyDistributionChart *latencyChart() const { return m_latency; }
    bool isLatencyVisible() const;
    // Every shown chart with its export file name, in grid order.
    QList<NamedChart> exportableCharts() const;
    int columnCount() const { return m_columns; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QList<QWidget *> shownCharts() const;
    void relayout();

    bool m_hasData = false;
    int m_columns = 0;
    QWidget *m_grid = nullptr;
    QGridLayout *m_layout = nullptr;
    QList<nb::ui::ComparisonBarChart *> m_barCharts;
    nb::ui::ComparisonTimelineChart *m_timeline = nullptr;
    nb::ui::LatencyDistributionChart *m_latency = nullptr;
    QWidget *m_latencyPage = nullptr;
    QComboBox *m_latencyMode = nullptr;
};

} // namespace nb::gui
