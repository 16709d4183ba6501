// SPDX-License-Identifier: GPL-3.0-or-later
// ComparisonView's lower tabs: the mesh grid (shown, with room, when there is a mesh), the
// results table (a pair picked in the answer or the grid selected there; columns fitted to the
// table's width) and "Environment and warnings". The rest of the view is in comparisonview.cpp,
// its widgets in comparisonviewwidgets.cpp.
#include "compareview/comparisonview.h"

#include "compareview/comparisonreport.h"

#include <compare/configurationends.h>
#include <comparison/comparisontablemodel.h>
#include <comparison/meshmatrixview.h>

#include <QEvent>
#include <QHeaderView>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>

#include <algorithm>

namespace nb::gui {

void ComparisonView::refreshMatrix(const nb::Comparison &merged)
{
    const bool wasShown = m_bottomTabs->isTabVisible(0);
    m_matrix->setComparison(merged);
    m_bottomTabs->setTabVisible(0, m_matrix->hasMesh());
    if (!m_matrix->hasMesh() && m_bottomTabs->currentWidget() == m_matrix)
        m_bottomTabs->setCurrentWidget(m_table);
    if (m_matrix->hasMesh() && !wasShown) {
        m_bottomTabs->setCurrentWidget(m_matrix);
        // The grid needs room: the answer and the charts give some of theirs.
        const int total = m_splitter->sizes().value(0) + m_splitter->sizes().value(1);
        const int tabBar = m_bottomTabs->tabBar()->sizeHint().height();
        const int wanted = std::min(m_matrix->sizeHint().height() + tabBar, total / 2);
        if (m_splitter->sizes().value(1) < wanted)
            m_splitter->setSizes({total - wanted, wanted});
    }
}

void ComparisonView::showPairInTable(int configIndex)
{
    const nb::ComparisonTable *table = m_tableModel->table();
    if (!table)
        return;
    for (int row = 0; row < table->rows().size(); ++row) {
        if (table->rows().at(row).configIndex != configIndex)
            continue;
        const QModelIndex index = m_proxy->mapFromSource(m_tableModel->index(row, 0));
        m_bottomTabs->setCurrentWidget(m_table);
        m_table->selectRow(index.row());
        m_table->scrollTo(index, QAbstractItemView::PositionAtTop);
        return;
    }
}

void ComparisonView::fitTableColumns()
{
    // ResizeToContents would keep room for a sort arrow in every header: the sum is wider
    // than the table at 1280x720. Only the sorted column gets that room here.
    QHeaderView *header = m_table->horizontalHeader();
    const QAbstractItemView *view = m_table; // sizeHintForColumn is public there
    const int arrow =
        header->sizeHint().height() + m_table->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int columns = m_proxy->columnCount();
    const auto headerWidth = [&](int column) {
        int w = header->sectionSizeHint(column);
        if (header->isSortIndicatorShown() && header->sortIndicatorSection() != column)
            w -= arrow;
        return w;
    };
    QList<int> widths(columns, 0);
    for (int column = 0; column < columns; ++column)
        widths[column] = std::max(view->sizeHintForColumn(column), headerWidth(column));
    // The verdict stretches over what is left. When that is less than its text, the
    // configuration labels give up width first (elided in the middle, the whole label in the
    // tooltip), then the metric names: the numbers and the verdict never do (M6).
    const int verdict = nb::ui::ComparisonTableModel::VerdictColumn;
    int total = 0;
    for (int w : std::as_const(widths))
        total += w;
    const int available = m_table->viewport()->width();
    // Too narrow (a large desktop font at 1280 px): the median and the standard deviation
    // step aside first; the exports and a wider window keep them.
    for (int column :
         {int(nb::ui::ComparisonTableModel::MedianColumn), int(nb::ui::ComparisonTableModel::StddevColumn)}) {
        const bool hide = available > 0 && column < columns && total > available;
        m_table->setColumnHidden(column, hide);
        if (hide)
            total -= widths[column];
    }
    const int chars = m_table->fontMetrics().averageCharWidth();
    const std::pair<int, int> givers[] = {{nb::ui::ComparisonTableModel::ConfigurationColumn, 14 * chars},
                                          {nb::ui::ComparisonTableModel::MetricColumn, 12 * chars}};
    for (const auto &[column, minimum] : givers) {
        if (available <= 0 || verdict >= columns || column >= columns || total <= available)
            break;
        const int floor = std::max(headerWidth(column), minimum);
        const int give = std::clamp(total - available, 0, std::max(0, widths[column] - floor));
        widths[column] -= give;
        total -= give;
    }
    for (int column = 0; column < columns; ++column) {
        if (column != verdict && !m_table->isColumnHidden(column))
            header->resizeSection(column, widths[column]);
    }
}

bool ComparisonView::eventFilter(QObject *watched, QEvent *event)
{
    // The table's width changed (window, splitter): fit the columns to it again.
    if (m_table && watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitTableColumns();
    return QWidget::eventFilter(watched, event);
}

void ComparisonView::updateDetails()
{
    if (m_sources.isEmpty()) {
        m_details->clear();
        return;
    }
    const nb::Comparison &c = m_overlay.merged;
    QString html;
    const auto list = [](const QStringList &lines) {
        QString out = QStringLiteral("<ul>");
        for (const QString &l : lines)
            out += QStringLiteral("<li>%1</li>").arg(l.toHtmlEscaped());
        return out + QStringLiteral("</ul>");
    };
    for (const nb::ComparisonSource &s : m_sources.list()) {
        const nb::Comparison &sc = s.comparison;
        html += QStringLiteral("<h3>%1</h3>").arg(s.name.toHtmlEscaped());
        QStringList facts;
        facts << tr("%n configuration(s)", nullptr, int(sc.configurations.size()))
              << tr("%n repeat(s)", nullptr, sc.repeats) << tr("%1 order").arg(nb::orderPolicyName(sc.order))
              << tr("pause %1 s").arg(sc.pauseSeconds);
        if (sc.createdAt.isValid())
            facts << tr("started %1").arg(QLocale().toString(sc.createdAt.toLocalTime(), QLocale::ShortFormat));
        if (sc.createdAt.isValid() && !sc.finishedAt.isValid() && !sc.runs.isEmpty())
            facts << tr("not finished");
        html += QStringLiteral("<p>%1</p>").arg(facts.join(QStringLiteral(", ")).toHtmlEscaped());
        const bool severalServers = nb::serversDiffer(nb::configurationEnds(sc));
        html += QStringLiteral("<p><b>%1</b></p>").arg(tr("This side (client)"));
        html += sc.environment.local.known ? list(environmentLines(sc.environment.local)) : tr("<p>Unknown.</p>");
        if (!severalServers) {
            html += QStringLiteral("<p><b>%1</b></p>").arg(tr("Server side"));
            html += sc.environment.remote.known ? list(environmentLines(sc.environment.remote)) : tr("<p>Unknown.</p>");
        }
        html +=
            QStringLiteral("<p><b>%1</b></p>")
                .arg(severalServers ? tr("Adapters and servers per configuration") : tr("Adapters per configuration"));
        html += list(nb::configurationEndsLines(sc));
    }
    html += QStringLiteral("<h3>%1</h3>").arg(tr("Warnings"));
    html += c.warnings.isEmpty() ? tr("<p>None.</p>") : list(c.warnings);
    m_details->setHtml(html);
    const int tab = m_bottomTabs->indexOf(m_details);
    m_bottomTabs->setTabText(tab, c.warnings.isEmpty() ? tr("Environment and warnings")
                                                       : tr("Environment and warnings (%1)").arg(c.warnings.size()));
}

} // namespace nb::gui
