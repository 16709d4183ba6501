// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/streamtable.h"

#include "results/streamresultsmodel.h"

#include <QEvent>
#include <QHeaderView>
#include <QPainter>

#include <algorithm>

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
    horizontalHeader()->setMinimumSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("888")));
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setTextElideMode(Qt::ElideRight);
    setEmptyText(tr("Per-stream results appear here after a test"));
}

void StreamTableView::setModel(QAbstractItemModel *model)
{
    if (this->model())
        disconnect(this->model(), nullptr, this, nullptr);
    QTableView::setModel(model);
    if (model) {
        connect(model, &QAbstractItemModel::modelReset, this, &StreamTableView::fitColumns);
        connect(model, &QAbstractItemModel::layoutChanged, this, &StreamTableView::fitColumns);
        connect(model, &QAbstractItemModel::rowsInserted, this, &StreamTableView::fitColumns);
    }
    fitColumns();
}

void StreamTableView::resizeEvent(QResizeEvent *event)
{
    QTableView::resizeEvent(event);
    fitColumns();
}

bool StreamTableView::viewportEvent(QEvent *event)
{
    const bool handled = QTableView::viewportEvent(event);
    if (event->type() == QEvent::Resize)
        fitColumns();
    return handled;
}

void StreamTableView::fitColumns()
{
    if (!model())
        return;
    QHeaderView *header = horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    const int columns = model()->columnCount();
    const int available = viewport()->width();
    QList<int> needed(columns);
    for (int c = 0; c < columns; ++c) {
        // What the header and the figures need, plus a little air.
        needed[c] = std::max(header->sectionSizeHint(c), sizeHintForColumn(c)) + 4;
    }
    QList<bool> shown(columns, true);
    const auto total = [&] {
        int sum = 0;
        for (int c = 0; c < columns; ++c)
            sum += shown.at(c) ? needed.at(c) : 0;
        return sum;
    };
    // Direction says nothing when every stream goes the same way (all but --bidir).
    bool oneDirection = true;
    for (int r = 1; r < model()->rowCount() && oneDirection; ++r)
        oneDirection = model()->index(r, StreamResultsModel::Direction).data() ==
                       model()->index(0, StreamResultsModel::Direction).data();
    // Least needed first; throughput and data always stay.
    QStringList hidden;
    for (int c : {int(StreamResultsModel::MaxCwnd), int(StreamResultsModel::MeanRtt),
                  int(StreamResultsModel::Retransmits), int(StreamResultsModel::Direction)}) {
        if (total() <= available || c >= columns)
            break;
        if (c == StreamResultsModel::Direction && !oneDirection)
            continue;
        shown[c] = false;
        hidden.prepend(model()->headerData(c, Qt::Horizontal).toString());
    }
    int figures = 0; // the shown columns of figures (not the id or the direction)
    for (int c = 0; c < columns; ++c) {
        setColumnHidden(c, !shown.at(c));
        figures += shown.at(c) && c != StreamResultsModel::StreamId && c != StreamResultsModel::Direction ? 1 : 0;
    }
    figures = std::max(figures, 1);
    // The spare width is shared by the figures' columns; too little for even the needed
    // widths leaves them narrower (and elided) rather than scrolling.
    const int spare = available - total();
    int used = 0;
    int lastShown = -1;
    for (int c = 0; c < columns; ++c) {
        if (!shown.at(c))
            continue;
        const bool figure = c != StreamResultsModel::StreamId && c != StreamResultsModel::Direction;
        int width = needed.at(c);
        if (spare >= 0 && figure)
            width += spare / figures;
        else if (spare < 0)
            width = std::max(header->minimumSectionSize(), needed.at(c) * available / std::max(total(), 1));
        header->resizeSection(c, width);
        used += width;
        lastShown = c;
    }
    if (lastShown >= 0 && used != available) // rounding: the last column takes the rest
        header->resizeSection(
            lastShown, std::max(header->minimumSectionSize(), header->sectionSize(lastShown) + available - used));
    header->setToolTip(hidden.isEmpty() ? QString()
                                        : tr("Widen the table to see: %1").arg(hidden.join(QStringLiteral(", "))));
}

QSize StreamTableView::sizeHint() const
{
    // Header and a few rows: the table is a detail next to the summary, not a page.
    const int rows = 4;
    return QSize(QTableView::sizeHint().width(), horizontalHeader()->sizeHint().height() +
                                                     rows * verticalHeader()->defaultSectionSize() + 2 * frameWidth());
}

QSize StreamTableView::minimumSizeHint() const
{
    return QSize(fontMetrics().horizontalAdvance(QStringLiteral("Stream Direction Throughput")),
                 horizontalHeader()->sizeHint().height() + verticalHeader()->defaultSectionSize() + 2 * frameWidth());
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
