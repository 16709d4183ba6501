// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one-page PDF report of a comparison (A4 landscape): title and what was run, the
// answer (nb::answerLines: per variant who is faster, by how much, at what CPU cost), the
// charts of throughput, CPU per Gbit/s, transactions/s and CPU per 1000 transactions/s
// (those with data, 2x2), both machines' environment and the warnings, and the table of
// the charted metrics. Whatever the data, it never spills onto a second page: long lists
// are cut with a note saying how much was left out. Also the environment summaries the
// Compare view shows.

#include <compare/comparisonoverlay.h>
#include <compare/comparisonstatistics.h>

#include <QList>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QStringList>

namespace nb::gui {

// The answer's sentences with the overlay's series names ("E1000 (after)").
QStringList reportAnswerLines(const nb::ComparisonOverlay &overlay, const nb::ComparisonStatistics &statistics);
// "Debian 12, kernel 6.1", "Intel Xeon ..., 4 CPUs", "NicBench 0.1.0": the machine, without
// its adapters (which adapters carried each configuration: nb::configurationEndsLines).
QStringList environmentLines(const nb::HostEnvironment &host);
// The metrics the report charts (up to four, in this order, among those present):
// throughput, CPU per Gbit/s, transactions/s, CPU per 1000 transactions/s, then latency
// p99 and CPU while there is room. A CPU cost is the side the answer quotes (nb::chooseCpuSide
// over the configurations that have it): the server's when they differ in the server's adapter
// or the comparison asks for it.
QList<nb::Metric> headlineMetrics(const nb::Comparison &comparison, const nb::ComparisonStatistics &statistics);

// Where each chart's labels landed on the page (ComparisonChart::labelRects() as laid out
// at the chart's size on the page), for the test that checks nothing overlaps.
struct ReportChartLabels {
    nb::Metric metric = nb::Metric::Throughput;
    QSize size;
    QList<QRectF> labels;
};

// Writes the report atomically (QSaveFile). False with *error on failure. `charts`, when
// given, receives the charts' label rectangles.
bool writeComparisonReport(const QString &path, const nb::ComparisonOverlay &overlay,
                           const nb::ComparisonStatistics &statistics, QString *error,
                           QList<ReportChartLabels> *charts = nullptr);

} // namespace nb::gui
