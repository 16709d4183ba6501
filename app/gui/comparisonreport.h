// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one-page PDF report of a comparison (A4 landscape): title, date, both machines'
// environment, the main bar charts, the table of the main metrics, the verdicts and the
// warnings. Whatever the data, it never spills onto a second page: long lists are cut
// with a note saying how much was left out. Also the words the Compare view and the
// report share: verdict lines and environment summaries.

#include <compare/comparisonoverlay.h>
#include <compare/comparisonstatistics.h>

#include <QString>
#include <QStringList>

namespace nb::gui {

// "VMXNET3 is faster than E1000: +62% ± 5%", one per non-baseline configuration for the
// headline metrics (throughput, transactions/s, latency p99, CPU per Gbit/s).
QStringList verdictLines(const nb::Comparison &comparison, const nb::ComparisonStatistics &statistics);
// "Debian 12, kernel 6.1, Intel Xeon ..., 4 CPUs" and one line per adapter.
QStringList environmentLines(const nb::HostEnvironment &host);
// The metrics the report and the view chart first, in that order, among those present.
QList<nb::Metric> headlineMetrics(const nb::ComparisonStatistics &statistics);

// Writes the report atomically (QSaveFile). False with *error on failure.
bool writeComparisonReport(const QString &path, const nb::ComparisonOverlay &overlay,
                           const nb::ComparisonStatistics &statistics, QString *error);

} // namespace nb::gui
