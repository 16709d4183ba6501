// SPDX-License-Identifier: GPL-3.0-or-later
#include "historyview/historywindow.h"

#include "historyview/historymodel.h"
#include "testview/resultfiles.h"

#include <common/messagebanner.h>
#include <compare/historycomparison.h>
#include <core/format.h>

#include <QDialogButtonBox>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QShowEvent>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <functional>

namespace nb::gui {

HistoryWindow::HistoryWindow(nb::RunHistory *history, QWidget *parent) : QDialog(parent), m_history(history)
{
    setObjectName(QStringLiteral("historyWindow"));
    setWindowTitle(tr("Run History"));
    setWindowFlag(Qt::WindowContextHelpButtonHint, false);
    setSizeGripEnabled(true);

    m_model = new HistoryModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(HistoryModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);

    m_banner = new nb::ui::MessageBanner;
    m_banner->setObjectName(QStringLiteral("historyBanner"));
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("historyFilter"));
    m_filter->setPlaceholderText(tr("Filter: test, adapter, target, label, result"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, &HistoryWindow::setFilterText);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(HistoryModel::Finished, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(HistoryModel::Headline, QHeaderView::Stretch);
    m_table->horizontalHeader()->setHighlightSections(false);
    connect(m_table, &QTableView::doubleClicked, this, [this] { openSelected(); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryWindow::updateButtons);
    for (const auto key : {Qt::Key_Return, Qt::Key_Enter}) {
        auto *enter = new QShortcut(QKeySequence(key), m_table);
        enter->setContext(Qt::WidgetShortcut);
        connect(enter, &QShortcut::activated, this, [this] { openSelected(); });
    }
    auto *deleteKey = new QShortcut(QKeySequence::Delete, m_table);
    deleteKey->setContext(Qt::WidgetShortcut);
    connect(deleteKey, &QShortcut::activated, this, &HistoryWindow::deleteWithQuestion);

    m_empty = new QLabel(tr("No runs yet: every test you run in the Test tab is kept here, with its results."));
    m_empty->setObjectName(QStringLiteral("historyEmptyLabel"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("historySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_empty, 1);
    layout->addWidget(createButtons());
    layout->addWidget(m_summary);
    resize(960, 480);
    refresh();
}

QWidget *HistoryWindow::createButtons()
{
    const auto make = [this](const QString &text, const QString &name, const QString &tip,
                             const std::function<void()> &what) {
        auto *b = new QPushButton(text);
        b->setObjectName(name);
        b->setToolTip(tip);
        b->setAutoDefault(false);
        connect(b, &QPushButton::clicked, this, what);
        m_buttons << b;
        return b;
    };
    auto *row = new QWidget;
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(make(tr("&Open"), QStringLiteral("historyOpenButton"),
                           tr("Show the run in the Test tab as it looked when it ended (Enter, double-click)"),
                           [this] { openSelected(); }));
    layout->addWidget(make(tr("&Save As..."), QStringLiteral("historySaveButton"),
                           tr("Save the run: the -J document (JSON), every interval (CSV) or a one-page report (PDF)"),
                           [this] { saveWithDialog(); }));
    layout->addWidget(make(tr("&Compare"), QStringLiteral("historyCompareButton"),
                           tr("Compare the selected runs in the Compare tab"), [this] { compareSelected(); }));
    layout->addWidget(make(tr("&Add to Comparison"), QStringLiteral("historyAddButton"),
                           tr("Add the selected runs to what the Compare tab shows, as configurations"),
                           [this] { addSelectedToComparison(); }));
    layout->addWidget(make(tr("&Label..."), QStringLiteral("historyLabelButton"),
                           tr("Name the run (\"E1000 guest\"): comparisons of past runs use the name"),
                           [this] { labelWithDialog(); }));
    layout->addWidget(make(tr("&Delete"), QStringLiteral("historyDeleteButton"),
                           tr("Delete the selected runs from the history (Del)"), [this] { deleteWithQuestion(); }));
    layout->addStretch(1);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(close);
    return row;
}

QPushButton *HistoryWindow::button(const QString &objectName) const
{
    for (QPushButton *b : m_buttons) {
        if (b->objectName() == objectName)
            return b;
    }
    return nullptr;
}

void HistoryWindow::showEvent(QShowEvent *event)
{
    refresh();
    QDialog::showEvent(event);
}

void HistoryWindow::refresh()
{
    const QStringList selected = selectedIds();
    m_model->setEntries(m_history->entries());
    m_table->resizeColumnsToContents();
    // The headline stretches; the others keep their contents' width, within reason.
    // A little air after each, so neighbours do not touch.
    const int air = m_table->fontMetrics().horizontalAdvance(QLatin1Char('M'));
    for (int c = 0; c < HistoryModel::ColumnCount; ++c) {
        if (c != HistoryModel::Headline)
            m_table->setColumnWidth(c, std::min(m_table->columnWidth(c) + air, 260));
    }
    selectIds(selected);
    const bool empty = m_model->rowCount() == 0;
    m_table->setVisible(!empty);
    m_empty->setVisible(empty);
    m_filter->setEnabled(!empty);
    updateSummary();
    updateButtons();
}

void HistoryWindow::updateSummary()
{
    const nb::HistoryLimits limits = m_history->limits();
    m_summary->setText(
        tr("%n run(s), %1, kept in %2. The newest %3 runs (at most %4) are kept; older ones are "
           "deleted.",
           nullptr, m_history->runCount())
            .arg(nb::formatBytes(double(m_history->totalBytes())), QDir::toNativeSeparators(m_history->directory()))
            .arg(limits.maxRuns)
            .arg(nb::formatBytes(double(limits.maxBytes))));
}

void HistoryWindow::updateButtons()
{
    int readable = 0;
    const QStringList ids = selectedIds();
    for (const nb::HistoryEntry &e : m_model->entries()) {
        if (ids.contains(e.id) && e.readable)
            ++readable;
    }
    const bool one = ids.size() == 1 && readable == 1;
    const std::pair<const char *, bool> states[] = {
        {"historyOpenButton", one},          {"historySaveButton", one},  {"historyCompareButton", readable >= 2},
        {"historyAddButton", readable >= 1}, {"historyLabelButton", one}, {"historyDeleteButton", !ids.isEmpty()},
    };
    for (const auto &[name, enabled] : states) {
        if (QPushButton *b = button(QLatin1String(name)))
            b->setEnabled(enabled);
    }
}

int HistoryWindow::rowCount() const
{
    return m_proxy->rowCount();
}

QStringList HistoryWindow::shownIds() const
{
    QStringList ids;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        ids << m_proxy->index(r, 0).data(HistoryModel::IdRole).toString();
    return ids;
}

QStringList HistoryWindow::selectedIds() const
{
    QStringList ids;
    if (!m_table || !m_table->selectionModel())
        return ids;
    for (const QModelIndex &i : m_table->selectionModel()->selectedRows())
        ids << i.data(HistoryModel::IdRole).toString();
    return ids;
}

void HistoryWindow::selectIds(const QStringList &ids)
{
    QItemSelection selection;
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QModelIndex i = m_proxy->index(r, 0);
        if (ids.contains(i.data(HistoryModel::IdRole).toString()))
            selection.select(i, m_proxy->index(r, HistoryModel::ColumnCount - 1));
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    updateButtons();
}

void HistoryWindow::setFilterText(const QString &text)
{
    if (m_filter->text() != text)
        m_filter->setText(text); // comes back here through textChanged
    m_proxy->setFilterFixedString(text);
    updateButtons();
}

bool HistoryWindow::loadSelected(QList<nb::HistoryRun> *runs, int atLeast)
{
    const QStringList ids = selectedIds();
    if (ids.size() < atLeast) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                              atLeast > 1 ? tr("Select at least %1 runs.").arg(atLeast) : tr("Select a run first."));
        return false;
    }
    for (const QString &id : ids) {
        nb::HistoryRun run;
        QString error;
        if (!m_history->load(id, &run, &error)) {
            m_banner->showMessage(nb::ui::MessageBanner::Kind::Error,
                                  tr("Cannot read the run: %1").arg(nb::ui::MessageBanner::sentence(error)));
            return false;
        }
        runs->append(run);
    }
    return true;
}

bool HistoryWindow::openSelected()
{
    QList<nb::HistoryRun> runs;
    if (selectedIds().size() > 1) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                              tr("Open shows one run: select one (Compare shows several)."));
        return false;
    }
    if (!loadSelected(&runs, 1))
        return false;
    m_banner->dismiss();
    Q_EMIT openRequested(runs.constFirst());
    return true;
}

bool HistoryWindow::saveSelected(const QString &path)
{
    QList<nb::HistoryRun> runs;
    if (!loadSelected(&runs, 1))
        return false;
    const nb::HistoryRun &run = runs.constFirst();
    QString error;
    if (!writeResultFile(path, TestReportInput{run.results, run.host, run.entry.finishedAt, run.entry.label}, &error)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, nb::ui::MessageBanner::sentence(error));
        return false;
    }
    m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                          tr("Saved to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool HistoryWindow::emitComparison(bool add)
{
    QList<nb::HistoryRun> runs;
    if (!loadSelected(&runs, add ? 1 : 2))
        return false;
    nb::Comparison comparison;
    QString error;
    if (!nb::comparisonFromHistory(runs, &comparison, &error)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, nb::ui::MessageBanner::sentence(error));
        return false;
    }
    m_banner->dismiss();
    Q_EMIT comparisonRequested(comparison, add);
    return true;
}

bool HistoryWindow::compareSelected()
{
    return emitComparison(false);
}

bool HistoryWindow::addSelectedToComparison()
{
    return emitComparison(true);
}

bool HistoryWindow::labelSelected(const QString &label)
{
    const QStringList ids = selectedIds();
    if (ids.size() != 1) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("Select one run to label."));
        return false;
    }
    QString error;
    if (!m_history->setLabel(ids.constFirst(), label, &error)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, nb::ui::MessageBanner::sentence(error));
        return false;
    }
    refresh();
    return true;
}

bool HistoryWindow::deleteSelected()
{
    const QStringList ids = selectedIds();
    if (ids.isEmpty())
        return false;
    QString error;
    const bool ok = m_history->remove(ids, &error);
    refresh();
    if (!ok) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error,
                              tr("Not every run was deleted: %1").arg(nb::ui::MessageBanner::sentence(error)));
        return false;
    }
    m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("%n run(s) deleted.", nullptr, int(ids.size())));
    return true;
}

void HistoryWindow::saveWithDialog()
{
    QList<nb::HistoryRun> runs;
    if (!loadSelected(&runs, 1))
        return;
    const nb::HistoryRun &run = runs.constFirst();
    const QString path =
        askResultPath(this, TestReportInput{run.results, run.host, run.entry.finishedAt, run.entry.label});
    if (!path.isEmpty())
        saveSelected(path);
}

void HistoryWindow::labelWithDialog()
{
    const QStringList ids = selectedIds();
    if (ids.size() != 1)
        return;
    QString current;
    for (const nb::HistoryEntry &e : m_model->entries()) {
        if (e.id == ids.constFirst())
            current = e.label;
    }
    bool ok = false;
    const QString label =
        QInputDialog::getText(this, tr("Label the Run"), tr("A name for this run (comparisons of past runs use it):"),
                              QLineEdit::Normal, current, &ok);
    if (ok)
        labelSelected(label);
}

void HistoryWindow::deleteWithQuestion()
{
    const int n = int(selectedIds().size());
    if (n == 0)
        return;
    const auto answer = QMessageBox::question(
        this, tr("Delete Runs"), tr("Delete %n run(s) from the history? This cannot be undone.", nullptr, n));
    if (answer == QMessageBox::Yes)
        deleteSelected();
}

} // namespace nb::gui
