// SPDX-License-Identifier: GPL-3.0-or-later
#include "streamtable.h"

#include "streamresultsmodel.h"

#include <QHeaderView>
#include <QPainter>

namespace nb::ui {

StreamTableView::StreamTableView(QWidget *parent) : QTableView(parent)
{
    setObjectName(QStringLiteral("streamTable"));
    verticalHeader()->hide();
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setWordWrap(false);
    setTextElideMode(Qt::ElideRight);
    // The columns always fit: a scroll bar here would hide the one column it clips.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    horizontalHeader()->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("88888")));
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setTextElideMode(Qt::ElideRight);
    setEmptyText(tr("Per-stream results appear here after a test"));
}

void StreamTableView::setModel(QAbstractItemModel *model)
{
    QTableView::setModel(model);
    fitColumns();
}

void StreamTableView::fitColumns()
{
    QHeaderView *header = horizontalHeader();
    if (!model())
        return;
    // The short columns (number, direction) take what they need; the figures share the rest.
    header->setSectionResizeMode(QHeaderView::Stretch);
    for (int column : {int(StreamResultsModel::StreamId), int(StreamResultsModel::Direction)}) {
        if (column < model()->columnCount())
            header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    }
}

QSize StreamTableView::sizeHint() const
{
    // Header and a few rows: the table is a detail next to the summary, not a page.
    const int rows = 4;
    return QSize(QTableView::sizeHint().width(),
                 horizontalHeader()->sizeHint().height() + rows * verticalHeader()->defaultSectionSize() +
                     2 * frameWidth());
}

QSize StreamTableView::minimumSizeHint() const
{
    return QSize(fontMetrics().horizontalAdvance(QStringLiteral("Stream Direction Throughput")),
                 horizontalHeader()->sizeHint().height() + verticalHeader()->defaultSectionSize() +
                     2 * frameWidth());
}

void StreamTableView::setEmptyText(const QString &text)
{
    m_emptyText = text;
    viewport()->update();
}

void StreamTableView::paintEvent(QPaintEvent *event)
{
    QTableView::paintEvent(event);
    if (m_emptyText.isEmpty() || (model() && model()->rowCount() > 0))
        return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(viewport()->rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, m_emptyText);
}

} // namespace nb::ui
