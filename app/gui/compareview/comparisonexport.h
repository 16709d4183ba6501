// SPDX-License-Identifier: GPL-3.0-or-later
// What the Compare tab writes to files, apart from snapshots and the PDF report: every
// chart as PNG, SVG and PDF at one fixed size, the table as CSV or Markdown, and the
// folders the file dialogs start in.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QCustomPlot;

namespace nb {
class ComparisonTable;
struct Comparison;
} // namespace nb

namespace nb::gui {

// One chart image at the fixed export size, by extension (.png, .svg, .pdf); atomic.
bool exportChartImage(QCustomPlot *chart, const QString &path, QString *error);

struct NamedChart {
    QCustomPlot *plot = nullptr;
    QString name; // file name without suffix: "throughput_bps", "latency_distribution"
};
// Writes <directory>/<name>.png, .svg and .pdf for every chart; returns the files written.
// Stops at the first failure with *error set (the files written so far stay).
QStringList exportChartFiles(const QList<NamedChart> &charts, const QString &directory, QString *error);

// Writes UTF-8 text atomically (QSaveFile).
bool writeTextFile(const QString &path, const QString &text, QString *error);

// "# <title>", the table, then the answer lines as a list.
QString comparisonMarkdown(const nb::Comparison &comparison, const nb::ComparisonTable &table,
                           const QStringList &answerLines);

} // namespace nb::gui
