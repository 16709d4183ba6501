// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Request/response latency of a comparison, per configuration with all its runs merged:
// grouped like the bars (one group per RR variant on the axis, one box per series, colour
// per adapter, fill per source) as box plots (QCPStatisticalBox: whiskers p1/p99, box
// p25/p75, line p50, no outliers), or as CDF curves on a logarithmic latency axis (colour
// per adapter, line style per source, a point shape per variant when several).

#include "comparison/comparisonchart.h"

#include <compare/comparisonoverlay.h>

#include <QList>
#include <QPointF>
#include <QString>

namespace nb::ui {

class LatencyDistributionChart : public ComparisonChart {
    Q_OBJECT
public:
    enum class Mode { Box, Cdf };
    explicit LatencyDistributionChart(QWidget *parent = nullptr);
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    void setData(const nb::ComparisonOverlay &overlay);
    void clearData();
    bool hasData() const;                        // some configuration has request/response latencies
    int seriesCount() const;                     // boxes or CDF curves drawn
    QStringList categoryLabels() const;          // box mode: the RR variants on the axis
    QString unitLabel() const { return m_unit; } // box mode value axis: "µs", "ms" or "s"
    // Box: variant,adapter,source,runs,transactions,p1_us,p25_us,p50_us,p75_us,p99_us.
    // CDF: variant,adapter,source,latency_us,fraction.
    QString toCsv() const override;

protected:
    void rebuild() override;
    void fitLayout() override;
    QString tooltipAt(const QPoint &pos) const override;

private:
    // rebuild() in steps: the series per variant (returns the largest p99 in µs), then
    // the boxes or the CDF curves.
    double collectSeries();
    void drawBoxes(const QPalette &pal, double maxP99);
    void drawCdf(const QPalette &pal);
    struct Series {
        int config = 0;
        int group = 0; // index into m_groups
        int series = 0;
        int runs = 0;
        nb::LatencyHistogram histogram; // all runs of the configuration merged
        double key = 0;                 // box position
        QList<QPointF> cdf;             // (us, fraction)
    };

    Mode m_mode = Mode::Box;
    nb::ComparisonOverlay m_overlay;
    bool m_hasOverlay = false;
    QList<Series> m_data;
    QList<int> m_groups; // overlay groups with latencies, left to right
    QString m_unit = QStringLiteral("\u00b5s");
    double m_divisor = 1;
    double m_boxWidth = 0.5;
};

} // namespace nb::ui
