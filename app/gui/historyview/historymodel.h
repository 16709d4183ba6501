// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run history's entries (nb::HistoryEntry, engine/compare/runhistory.h) as a table for the
// History window: when, label, kind, headline figure, adapter, target. The store stays in
// the engine; this only shows it. SortRole gives the time as a number and the rest as text.

#include <compare/runhistory.h>

#include <QAbstractTableModel>

namespace nb::gui {

class HistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Finished, Label, Kind, Headline, Adapter, Target, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int IdRole = Qt::UserRole + 2;

    explicit HistoryModel(QObject *parent = nullptr);

    void setEntries(const QList<nb::HistoryEntry> &entries);
    const QList<nb::HistoryEntry> &entries() const { return m_entries; }
    const nb::HistoryEntry &entry(int row) const { return m_entries.at(row); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "5 Dec 2026 03:12:05" in this computer's time zone.
    static QString timeText(const QDateTime &utc);

private:
    QString text(const nb::HistoryEntry &e, int column) const;

    QList<nb::HistoryEntry> m_entries;
};

} // namespace nb::gui
