// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One metric of a comparison as grouped bars: one group per test variant on the x axis
// ("P=4", "TCP_RR"), one bar per series (adapter, or adapter x source in an overlay) in
// each group, in a colour fixed per adapter and a fill per source, named in the legend.
// Only variants with a value for the metric are on the axis and only series with a value
// take room in a group, so nothing is left empty. 95% CI error bars (clipped at 0), and
// over each bar that is not a baseline its difference from ITS baseline (the baseline
// adapter's bar of the same variant, or the same bar of the baseline source) with a
// verdict marker readable without colour ("▲ faster", "▼ slower", "n.s.", "baseline").
// Annotations shrink to fit their bar's slot (two lines, smaller font, the marker only:
// the full text is in the tooltip), so they never run into each other.

#include "comparison/comparisonchart.h"

#include <compare/comparisonoverlay.h>
#include <compare/comparisonstatistics.h>

#include <QList>
#include <QString>
#include <QStringList>

namespace nb::ui {

class ComparisonBarChart : public ComparisonChart {
    Q_OBJECT
public:
    explicit ComparisonBarChart(QWidget *parent = nullptr);

    void setMetric(nb::Metric metric);
    nb::Metric metric() const { return m_metric; }
    // Redraws from the overlay and its statistics (computeStatistics(overlay.merged)).
    void setData(const nb::ComparisonOverlay &overlay, const nb::ComparisonStatistics &statistics);
    void clearData();
    // True when at least one configuration has a value for the metric.
    bool hasData() const;

    // For tests and exports.
    int barCount() const;               // bars drawn (configurations with a value)
    QStringList categoryLabels() const; // the variants on the x axis, left to right (full text)
    QStringList seriesNames() const;    // legend entries, in order
    // Per bar (series by series, variants left to right within a series): "baseline", or
    // the delta (ComparisonTable::formatDelta) and the verdict marker on a second line; the
    // full text, whatever the chart shows for lack of room.
    QStringList deltaLabels() const;
    // Per bar, same order: the merged configuration it shows.
    QList<int> barConfigurations() const;
    QString unitLabel() const; // "Gbit/s", "µs", ...: the y axis says only this
    QString title() const;     // the bold title row: "Throughput", "CPU per Gbit/s", ...
    // variant,adapter,source,compared_with,unit,n,mean,ci95_low,ci95_high,relative,
    // relative_ci95_low,relative_ci95_high,verdict: raw numbers in the metric's base unit.
    QString toCsv() const override;

protected:
    void rebuild() override;
    void fitLayout() override;
    QString tooltipAt(const QPoint &pos) const override;
    QList<QRectF> annotationRects() const override;

private:
    struct Bar {
        int config = 0;
        int group = 0;  // index into m_groups (position on the axis - 1)
        int series = 0; // overlay series
        double key = 0; // x position of the bar's centre (plot coordinates)
        nb::stats::Summary summary;
        bool isBaseline = false;
        bool hasBaseline = false;
        bool ciClipped = false; // the interval reaches below 0; the whisker stops at 0
        nb::stats::BaselineComparison vsBaseline;
        QString delta;       // formatDelta, or empty
        QString marker;      // "▲ faster", "n.s.", "baseline", ...
        QString shortMarker; // for narrow bars: "▲", "n.s.", "base", ...
        QCPItemText *label = nullptr;
    };

    double barTop(const Bar &b) const; // top of bar or whisker, display units
    // rebuild() in steps: the bars from the statistics (returns the largest value), the
    // axes and title, one QCPBars with its whiskers per series, the labels above the bars.
    Bar makeBar(int config, int series, const MetricStatistics &ms) const;
    double collectBars();
    void setUpAxes(const QPalette &pal, double maxValue);
    void addSeriesBars(const QPalette &pal, int series);
    void addBarLabels(const QPalette &pal);

    nb::Metric m_metric = nb::Metric::Throughput;
    nb::ComparisonOverlay m_overlay;
    nb::ComparisonStatistics m_stats;
    bool m_hasOverlay = false;
    QCPTextElement *m_title = nullptr;
    QList<Bar> m_bars;
    QList<int> m_groups; // overlay groups shown, left to right
    QStringList m_deltaLabels;
    double m_divisor = 1;
    QString m_unit;
    double m_slot = 0.8; // width of one bar's slot (plot coords)
};

} // namespace nb::ui
