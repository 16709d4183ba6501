// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison/comparisontablemodel.h"
#include "core/format.h"

#include "common/ratescale.h"
#include "comparison/comparisonanswerpanel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <cmath>

namespace nb::ui {

namespace {

QString formatCell(const ComparisonTableRow &row, double value)
{
    return ComparisonTable::formatValue(row.metric, value, row.unit);
}

// Okabe-Ito green and vermillion in shades with contrast on the current palette (light or
// dark); the cell says the verdict in words anyway.
QColor verdictColor(stats::Verdict v)
{
    switch (v) {
    case stats::Verdict::Faster:
        return verdictTextColor(true, QGuiApplication::palette());
    case stats::Verdict::Slower:
        return verdictTextColor(false, QGuiApplication::palette());
    default:
        return QColor();
    }
}

} // namespace

ComparisonTableModel::ComparisonTableModel(QObject *parent) : QAbstractTableModel(parent) {}

ComparisonTableModel::~ComparisonTableModel() = default;

void ComparisonTableModel::setComparison(const Comparison &comparison)
{
    beginResetModel();
    m_table = std::make_unique<ComparisonTable>(comparison);
    endResetModel();
}

void ComparisonTableModel::clear()
{
    beginResetModel();
    m_table.reset();
    endResetModel();
}

int ComparisonTableModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_table)
        return 0;
    return int(m_table->rows().size());
}

int ComparisonTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case MetricColumn:
            return tr("Metric");
        case ConfigurationColumn:
            return tr("Configuration");
        case RunsColumn:
            return tr("Runs");
        case MeanColumn:
            return tr("Mean");
        case MedianColumn:
            return tr("Median");
        case StddevColumn:
            return tr("Std dev");
        case CiColumn:
            return tr("95% CI");
        case DeltaColumn:
            return tr("vs baseline");
        case VerdictColumn:
            return tr("Verdict");
        case ColumnCount:
            break;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case CiColumn:
            return tr("Half width of the 95% confidence interval of the mean (Student t)");
        case DeltaColumn:
            return tr("Difference of the mean from the baseline's, with its 95% interval");
        case VerdictColumn:
            return m_table ? nb::verdictRule(m_table->statistics().equivalencePercent) + tr(", against the baseline")
                           : nb::verdictRule(0);
        case StddevColumn:
            return tr("Sample standard deviation over the runs");
        default:
            break;
        }
    }
    return QVariant();
}

QString ComparisonTableModel::displayText(const ComparisonTableRow &row, int column) const
{
    const stats::Summary &s = row.stats->summary;
    const stats::BaselineComparison &b = row.stats->vsBaseline;
    switch (column) {
    case MetricColumn:
        return metricName(row.metric);
    case ConfigurationColumn:
        return row.label;
    case RunsColumn:
        return row.failedRuns > 0 ? tr("%1 (%2 failed)").arg(s.n).arg(row.failedRuns) : QString::number(s.n);
    case MeanColumn:
        return formatCell(row, s.mean);
    case MedianColumn:
        return formatCell(row, s.median);
    case StddevColumn:
        return s.spreadKnown ? formatCell(row, s.stddev) : nb::unknownText();
    case CiColumn:
        // "± 3.57 Gbit/s" around the mean (Student t: symmetric), as in the report; the
        // exports give both ends.
        return s.spreadKnown ? QStringLiteral("\u00b1 ") + formatCell(row, s.ciHalfWidth()) : nb::unknownText();
    case DeltaColumn: {
        if (row.isBaseline)
            return tr("baseline");
        const QString d = row.stats->hasBaseline ? ComparisonTable::formatDelta(row.metric, b) : QString();
        return d.isEmpty() ? nb::unknownText() : d;
    }
    case VerdictColumn:
        if (row.isBaseline)
            return tr("baseline");
        if (!row.stats->hasBaseline)
            return nb::unknownText();
        // Short enough for the column; the tooltip has the test's numbers.
        if (b.verdict == stats::Verdict::NoSignificantDifference)
            return tr("not significant");
        return stats::verdictText(b.verdict, metricBetter(row.metric));
    }
    return {};
}

QVariant ComparisonTableModel::sortValue(const ComparisonTableRow &row, int column) const
{
    const stats::Summary &s = row.stats->summary;
    const stats::BaselineComparison &b = row.stats->vsBaseline;
    switch (column) {
    case MetricColumn:
        return int(row.metric);
    case ConfigurationColumn:
        return row.label;
    case RunsColumn:
        return s.n;
    case MeanColumn:
        return s.mean;
    case MedianColumn:
        return s.median;
    case StddevColumn:
        return s.spreadKnown ? QVariant(s.stddev) : QVariant();
    case CiColumn:
        return s.spreadKnown ? QVariant(s.ciHalfWidth()) : QVariant();
    case DeltaColumn:
        if (row.isBaseline)
            return 0.0;
        return row.stats->hasBaseline && b.difference.valid ? QVariant(b.difference.relative) : QVariant();
    case VerdictColumn:
        return row.stats->hasBaseline ? QVariant(int(b.verdict)) : QVariant();
    }
    return QVariant();
}

QVariant ComparisonTableModel::toolTip(const ComparisonTableRow &row, int column) const
{
    const stats::BaselineComparison &b = row.stats->vsBaseline;
    if (column == MetricColumn) // the column may be too narrow for the whole name
        return QStringLiteral("%1 (%2)").arg(metricName(row.metric), row.unit);
    if (column == ConfigurationColumn) // elided in the middle when the table is narrow
        return row.comparedWith.isEmpty() ? row.label : tr("%1\ncompared with %2").arg(row.label, row.comparedWith);
    if (column == DeltaColumn && !row.comparedWith.isEmpty())
        return tr("Compared with %1").arg(row.comparedWith);
    if (column == VerdictColumn && row.stats->hasBaseline && b.welch.valid &&
        b.verdict != stats::Verdict::NotEnoughRuns) {
        const QString test = tr("Welch's t = %1, df = %2, p = %3")
                                 .arg(nb::formatSignificant(b.welch.t, 3), nb::formatSignificant(b.welch.df, 3),
                                      nb::formatSignificant(b.welch.pValue, 2));
        const QString against =
            row.comparedWith.isEmpty() ? test : tr("Compared with %1; %2").arg(row.comparedWith, test);
        if (b.verdict == stats::Verdict::Equivalent)
            return tr("Equivalent: the difference is within the %1 threshold. %2")
                .arg(nb::equivalenceText(m_table->statistics().equivalencePercent), against);
        return b.verdict == stats::Verdict::NoSignificantDifference ? tr("No significant difference: %1").arg(against)
                                                                    : against;
    }
    if (column == RunsColumn && row.failedRuns > 0)
        return tr("%1 of %2 runs failed and are left out").arg(row.failedRuns).arg(row.runs);
    return QVariant();
}

QVariant ComparisonTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_table || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return QVariant();
    const ComparisonTableRow &row = m_table->rows().at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, column);
    case SortRole:
        return sortValue(row, column);
    case Qt::TextAlignmentRole:
        if (column == MetricColumn || column == ConfigurationColumn || column == VerdictColumn)
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row.isBaseline) {
            QFont f;
            f.setBold(true);
            return f;
        }
        break;
    case Qt::ForegroundRole:
        if (column == VerdictColumn && row.stats->hasBaseline) {
            const QColor c = verdictColor(row.stats->vsBaseline.verdict);
            if (c.isValid())
                return QBrush(c);
        }
        break;
    case Qt::ToolTipRole:
        return toolTip(row, column);
    default:
        break;
    }
    return QVariant();
}

} // namespace nb::ui
