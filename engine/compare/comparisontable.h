// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The comparison table: one row per metric and configuration with runs, mean, 95% CI, the
// difference against the baseline and the verdict. Rendered as CSV (raw numbers, for
// spreadsheets), Markdown or aligned text (formatted with units, for people). Used by
// `nicbench-cli report` and by the GUI's table export.

#include "compare/comparisonstatistics.h"

#include <QList>
#include <QString>

namespace nb {

struct ComparisonTableRow {
    Metric metric = Metric::Throughput;
    QString unit;
    int configIndex = 0;
    QString label;
    bool isBaseline = false;
    QString comparedWith; // the label of the configuration the verdict compares with
    int runs = 0;         // runs recorded for the configuration
    int failedRuns = 0;
    const MetricStatistics *stats = nullptr; // points into the table's own statistics
};

class ComparisonTable {
public:
    explicit ComparisonTable(const Comparison &comparison, double alpha = 0.05);
    // Copying would leave rows pointing into the other table's statistics.
    ComparisonTable(const ComparisonTable &) = delete;
    ComparisonTable &operator=(const ComparisonTable &) = delete;

    const QList<ComparisonTableRow> &rows() const { return m_rows; }
    const ComparisonStatistics &statistics() const { return m_stats; }

    // Header: metric,unit,config,label,baseline,runs,failed,n,mean,median,stddev,
    // ci95_low,ci95_high,relative,relative_ci95_low,relative_ci95_high,p_value,verdict,
    // compared_with
    QString toCsv() const;
    QString toMarkdown() const;
    QString toText() const;

    // "9.41 Gbit/s", "12.3 %", "41.5 µs/KB", "78,800 /s", "1.23 ms"
    static QString formatValue(Metric metric, double value, const QString &unit);
    // "+69.0% ± 4.1%"; "+69.0%" without an interval; empty when unknown.
    static QString formatDelta(const stats::RelativeDifference &d);
    // The difference as the metric is compared: relative ("+69.0% ± 4.1%"), or for the
    // figures near zero (absoluteEquivalence) absolute: "+0.68 pt ± 0.10", "+30 µs ± 12 µs".
    static QString formatDelta(Metric m, const stats::BaselineComparison &b);
    // The 95% interval of a mean, "1.20 ms .. 1.50 ms"; "-" with fewer than two runs. Every
    // metric is a figure of zero or more (loaded-latency increases count below zero as
    // zero), so the t interval's low end is shown from 0, as the charts' whiskers are.
    static QString formatInterval(Metric metric, const stats::Summary &s, const QString &unit);

private:
    QList<QStringList> humanCells() const;
    static QStringList humanHeader();

    Comparison m_comparison;
    ComparisonStatistics m_stats;
    QList<ComparisonTableRow> m_rows;
};

} // namespace nb
