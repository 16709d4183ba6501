// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The comparison table as a Qt model: one row per metric and configuration (the rows of
// nb::ComparisonTable) with columns Metric, Configuration, Runs, Mean, Median, Std dev,
// 95% CI (as "± half width"), vs baseline, Verdict. Display text uses units scaled for people; SortRole gives
// raw numbers. The verdict cell is coloured (faster/slower/no significant difference) and
// the baseline rows are bold.

#include <compare/comparison.h>
#include <compare/comparisontable.h>

#include <QAbstractTableModel>

#include <memory>

namespace nb::ui {

class ComparisonTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        MetricColumn,
        ConfigurationColumn,
        RunsColumn,
        MeanColumn,
        MedianColumn,
        StddevColumn,
        CiColumn,
        DeltaColumn,
        VerdictColumn,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit ComparisonTableModel(QObject *parent = nullptr);
    ~ComparisonTableModel() override;

    void setComparison(const nb::Comparison &comparison); // the overlay's merged comparison
    void clear();
    const nb::ComparisonTable *table() const { return m_table.get(); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // data() per role: the cell's text, its sort key and its tooltip.
    QString displayText(const nb::ComparisonTableRow &row, int column) const;
    QVariant sortValue(const nb::ComparisonTableRow &row, int column) const;
    QVariant toolTip(const nb::ComparisonTableRow &row, int column) const;
    std::unique_ptr<nb::ComparisonTable> m_table;
};

} // namespace nb::ui
