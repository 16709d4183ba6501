// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// File > History: every test the window finished, newest first (when, the user's label, the
// test, its headline figure, the adapter, the target), filtered as you type. A run reopens in
// the Test view as it looked when it ended; one run saves as JSON, CSV or PDF; two or more are
// compared in the Compare view, or added to what it shows; runs get a label and can be
// deleted. The store is nb::RunHistory (engine/compare/runhistory.h), owned by the window;
// this view only lists and asks. Every button has a twin without a dialog (openSelected,
// compareSelected, ...) that tests call; errors go to the view's banner.

#include <compare/comparison.h>
#include <compare/runhistory.h>

#include <QDialog>
#include <QList>
#include <QStringList>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace nb::ui {
class MessageBanner;
}

namespace nb::gui {

class HistoryModel;

class HistoryWindow : public QDialog {
    Q_OBJECT
public:
    explicit HistoryWindow(nb::RunHistory *history, QWidget *parent = nullptr);

    // Reads the folder again (new runs, runs another window deleted).
    void refresh();

    int rowCount() const;
    // The runs shown, in the table's order (sorted and filtered).
    QStringList shownIds() const;
    QStringList selectedIds() const;
    void selectIds(const QStringList &ids);
    void setFilterText(const QString &text);

    // What the buttons do, on the selected runs. False with the reason in the banner.
    bool openSelected();
    bool saveSelected(const QString &path);
    bool compareSelected();
    bool addSelectedToComparison();
    bool labelSelected(const QString &label);
    bool deleteSelected(); // no question asked (the button asks first)

    QTableView *table() const { return m_table; }
    nb::ui::MessageBanner *banner() const { return m_banner; }
    QLabel *summaryLabel() const { return m_summary; }
    QPushButton *button(const QString &objectName) const;

Q_SIGNALS:
    // Show this run in the Test view.
    void openRequested(const nb::HistoryRun &run);
    // Show these runs in the Compare view: in place of what it shows, or added to it.
    void comparisonRequested(const nb::Comparison &comparison, bool add);

protected:
    void showEvent(QShowEvent *event) override;

private:
    QWidget *createButtons();
    void updateButtons();
    void updateSummary();
    bool loadSelected(QList<nb::HistoryRun> *runs, int atLeast);
    bool emitComparison(bool add);
    void saveWithDialog();
    void labelWithDialog();
    void deleteWithQuestion();

    nb::RunHistory *m_history;
    HistoryModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    nb::ui::MessageBanner *m_banner = nullptr;
    QLineEdit *m_filter = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_empty = nullptr;
    QList<QPushButton *> m_buttons;
};

} // namespace nb::gui
