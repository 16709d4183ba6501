// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The comparison view's charts (QCustomPlot), all fed from one ComparisonOverlay (one or
// several comparisons merged) and its statistics:
//  - ComparisonBarChart: one metric (its name in a bold title row, the unit on the y
//    axis), bars grouped by configuration label with one bar per source (QCPBarsGroup),
//    95% CI error bars (QCPErrorBars), and by each bar its
//    difference from the baseline ("+69.0% ± 4.1%") over a verdict marker readable without
//    colour ("▲ faster", "▼ slower", "n.s.", "too few runs", "baseline").
//  - ComparisonTimelineChart: throughput (or transactions/s) per interval of every run,
//    overlaid; colour per configuration label, line style per source, one legend entry
//    per configuration.
//  - LatencyDistributionChart: per configuration, the latency distribution of all its
//    runs merged, as a box plot (QCPStatisticalBox: whiskers p1/p99, box p25/p75, line
//    p50, no outliers) or as CDF curves on a logarithmic latency axis.
// Each chart carries ChartActions (right-click: copy image, save PNG/SVG/PDF, copy CSV),
// follows the palette (dark mode) and shows units scaled for the data (Mbit/s, Gbit/s).
//
// Data units: the bar and box charts hold values in the displayed unit (unitLabel(), e.g.
// Gbit/s or ms); the timeline holds bit/s and transactions/s (its ticker scales the
// labels); CDF curves hold microseconds on the key axis and fractions 0..1.

#include <compare/comparisonoverlay.h>
#include <compare/comparisonstatistics.h>

#include <qcustomplot.h>

#include <QList>
#include <QString>
#include <QStringList>

namespace nb::ui {

class ChartActions;

class ComparisonBarChart : public QCustomPlot {
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
    int barCount() const;               // bars with a value
    QStringList categoryLabels() const; // x axis, left to right
    // Per bar (same order as barCount: source by source, groups left to right within a
    // source, as the QCPBars hold them): "baseline", or the delta
    // (ComparisonTable::formatDelta) and the verdict marker on a second line.
    QStringList deltaLabels() const;
    QString unitLabel() const; // "Gbit/s", "us", ...: the y axis says only this
    QString title() const;     // the bold title row: "Throughput", "CPU per Gbit/s", ...
    // label,source,unit,n,mean,ci95_low,ci95_high,relative,relative_ci95_low,
    // relative_ci95_high,verdict: raw numbers in the metric's base unit (bit/s, us, %).
    QString toCsv() const;
    ChartActions *actions() const { return m_actions; }

protected:
    void draw(QCPPainter *painter) override;
    void changeEvent(QEvent *event) override;

private:
    struct Bar {
        int config = 0;
        int group = 0;
        int source = 0;
        double key = 0; // x position of the bar's centre (plot coordinates)
        nb::stats::Summary summary;
        bool isBaseline = false;
        bool hasBaseline = false;
        nb::stats::BaselineComparison vsBaseline;
        QString delta;       // formatDelta, or empty
        QString marker;      // "▲ faster", "n.s.", "baseline", ...
        QString shortMarker; // for narrow bars: "▲", "n.s.", "base", ...
        QCPItemText *label = nullptr;
    };

    void rebuild();
    void fitLayout(); // label wrapping and y headroom for the current size
    QString tooltipAt(const QPoint &pos) const;

    nb::Metric m_metric = nb::Metric::Throughput;
    nb::ComparisonOverlay m_overlay;
    nb::ComparisonStatistics m_stats;
    bool m_hasOverlay = false;
    ChartActions *m_actions = nullptr;
    QCPBarsGroup *m_group = nullptr;
    QCPItemText *m_placeholder = nullptr;
    QCPTextElement *m_title = nullptr;
    QList<Bar> m_bars;
    QStringList m_deltaLabels;
    int m_barCount = 0;
    double m_divisor = 1;
    QString m_unit;
    double m_slot = 0.8; // width of one source's slot within a group (plot coords)
    bool m_fitting = false;
};

class ComparisonTimelineChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit ComparisonTimelineChart(QWidget *parent = nullptr);
    void setData(const nb::ComparisonOverlay &overlay);
    void clearData();
    int curveCount() const; // one per run with intervals
    // configuration,source,run,time_s,value,unit (bit/s or 1/s), one line per point.
    QString toCsv() const;
    ChartActions *actions() const { return m_actions; }

protected:
    void draw(QCPPainter *painter) override;
    void changeEvent(QEvent *event) override;

private:
    struct Curve {
        int run = 0; // index into m_overlay.merged.runs
        int config = 0;
        bool transactions = false;
        QCPGraph *graph = nullptr;
    };
    void rebuild();

    ChartActions *m_actions = nullptr;
    nb::ComparisonOverlay m_overlay;
    QList<Curve> m_curves;
    QCPItemText *m_placeholder = nullptr;
};

class LatencyDistributionChart : public QCustomPlot {
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
    QString unitLabel() const { return m_unit; } // box mode value axis: "us", "ms" or "s"
    // Box: configuration,source,runs,transactions,p1_us,p25_us,p50_us,p75_us,p99_us.
    // CDF: configuration,source,latency_us,fraction.
    QString toCsv() const;
    ChartActions *actions() const { return m_actions; }

protected:
    void draw(QCPPainter *painter) override;
    void changeEvent(QEvent *event) override;

private:
    struct Series {
        int config = 0;
        int group = 0;
        int source = 0;
        int runs = 0;
        nb::LatencyHistogram histogram; // all runs of the configuration merged
        double key = 0;                 // box position
        QList<QPointF> cdf;             // (us, fraction)
    };
    void rebuild();
    QString tooltipAt(const QPoint &pos) const;

    Mode m_mode = Mode::Box;
    ChartActions *m_actions = nullptr;
    nb::ComparisonOverlay m_overlay;
    bool m_hasOverlay = false;
    int m_series = 0;
    QList<Series> m_data;
    QCPItemText *m_placeholder = nullptr;
    QString m_unit = QStringLiteral("us");
    double m_divisor = 1;
    double m_boxWidth = 0.5;
};

} // namespace nb::ui
