// SPDX-License-Identifier: GPL-3.0-or-later
#include "historyview/historymodel.h"

#include <QLocale>

namespace nb::gui {

HistoryModel::HistoryModel(QObject *parent) : QAbstractTableModel(parent) {}

void HistoryModel::setEntries(const QList<nb::HistoryEntry> &entries)
{
    beginResetModel();
    m_entries = entries;
    endResetModel();
}

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString HistoryModel::timeText(const QDateTime &utc)
{
    // Day, month and time: the list is about recent runs; the year only when it is not this one.
    const QDateTime local = utc.toLocalTime();
    const bool thisYear = local.date().year() == QDate::currentDate().year();
    return local.toString(thisYear ? QStringLiteral("d MMM HH:mm:ss") : QStringLiteral("d MMM yyyy HH:mm:ss"));
}

QString HistoryModel::text(const nb::HistoryEntry &e, int column) const
{
    switch (column) {
    case Finished:
        return timeText(e.finishedAt);
    case Label:
        return e.label;
    case Kind:
        return e.kind;
    case Headline:
        return e.ok ? e.headline : QStringLiteral("\u2717 ") + e.headline;
    case Adapter:
        return e.adapter;
    case Target:
        return e.target;
    default:
        return {};
    }
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const nb::HistoryEntry &e = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return text(e, index.column());
    case Qt::ToolTipRole:
        if (index.column() == Finished)
            return QLocale().toString(e.finishedAt.toLocalTime(), QLocale::LongFormat);
        return text(e, index.column());
    case SortRole:
        return index.column() == Finished ? QVariant(e.finishedAt.toMSecsSinceEpoch())
                                          : QVariant(text(e, index.column()).toLower());
    case IdRole:
        return e.id;
    default:
        return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Finished:
        return tr("Finished");
    case Label:
        return tr("Label");
    case Kind:
        return tr("Test");
    case Headline:
        return tr("Result");
    case Adapter:
        return tr("Adapter");
    case Target:
        return tr("Target");
    default:
        return {};
    }
}

} // namespace nb::gui
