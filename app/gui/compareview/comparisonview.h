// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Compare tab: the comparison just run and/or opened snapshots (several overlay in
// the same charts). First the answer (per test variant the winner, its difference and the
// CPU cost of every adapter) with the baseline selector, then the charts
// (ComparisonChartGrid), and below them the comparison table and both machines'
// environment and warnings; progress with an estimate of the time left while a
// comparison runs, everything redrawn after every finished run.
// Every action that asks for a file has a non-interactive twin (openSnapshots,
// saveSnapshot, export...) that tests and the command line call; errors go to the
// view's banner, never to a modal box.

#include "compareview/comparisonsources.h"

#include <compare/comparisonanswer.h>
#include <compare/comparisonoverlay.h>
#include <compare/comparisonstatistics.h>

#include <QElapsedTimer>
#include <QList>
#include <QWidget>

#include <functional>

class QAction;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QMenu;
class QProgressBar;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QTimer;
class QToolBar;
class QToolButton;

namespace nb::ui {
class ComparisonAnswerPanel;
class ComparisonBarChart;
class ComparisonTableModel;
class ComparisonTimelineChart;
class LatencyDistributionChart;
class MeshMatrixView;
class MessageBanner;
} // namespace nb::ui

namespace nb::gui {

class ComparisonChartGrid;
class ComparisonController;

// A snapshot's name in legends and lists: its file name without ".nicbench[.gz]"/".json",
// or the comparison's title when nothing is left.
QString snapshotSourceName(const QString &path, const nb::Comparison &comparison);

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(ComparisonController *controller, QWidget *parent = nullptr);
    ~ComparisonView() override;

    // Returns why a comparison may not start now (a single test runs), or "".
    void setStartGuard(std::function<QString()> guard) { m_startGuard = std::move(guard); }
    // A single test runs: New Comparison and Re-run are disabled meanwhile.
    void setTestRunning(bool running);
    // Starts a comparison; its results become the first source. False (with a banner)
    // when it cannot start.
    bool startComparison(const nb::Comparison &comparison);

    // Sources. Loading errors show in the banner and return false; what loaded stays.
    bool openSnapshots(const QStringList &paths);                 // replaces the sources
    void showSources(const QList<nb::ComparisonSource> &sources); // same, already loaded
    bool addSnapshot(const QString &path);                        // overlays one more
    void addSource(const nb::ComparisonSource &source);           // same, already loaded
    void removeSource(int index);
    int sourceCount() const { return m_sources.size(); }
    QStringList sourceNames() const;
    // What the window title names: one snapshot by its title and file name ("E1000 vs
    // VMXNET3 · cmp"; the title was shown in the PDF only: review minor), several by names.
    QString documentTitle() const;
    // The source Save and Re-run act on: the selected one, else the first.
    int currentSource() const;

    bool saveSnapshot(const QString &path, int source = -1);
    bool rerunConfigurations(int source = -1);
    // Writes every shown chart as <dir>/<name>.png, .svg and .pdf at one fixed size;
    // returns the files.
    QStringList exportCharts(const QString &directory);
    bool exportTableCsv(const QString &path);
    bool exportTableMarkdown(const QString &path);
    bool exportPdfReport(const QString &path);

    // The baseline: with one source an adapter (its configuration of each variant is what
    // the others are compared with), with several a source (each configuration is compared
    // with the same adapter and variant there). setBaseline picks the adapter, or with
    // several sources the source, of one merged configuration.
    void setBaseline(int mergedIndex);
    void setBaselineAdapter(const QString &adapter);
    void setBaselineSource(int source);
    QString baselineAdapter() const;
    int baselineSource() const;
    const nb::ComparisonOverlay &overlay() const { return m_overlay; }
    const nb::ComparisonStatistics &statistics() const { return m_stats; }
    const QList<nb::VariantAnswer> &answers() const { return m_answers; }

    // For tests and screenshots.
    nb::ui::ComparisonBarChart *barChart(nb::Metric metric) const;
    QList<nb::ui::ComparisonBarChart *> visibleBarCharts() const;
    nb::ui::ComparisonTimelineChart *timelineChart() const;
    nb::ui::LatencyDistributionChart *latencyChart() const;
    ComparisonChartGrid *chartGrid() const { return m_charts; }
    nb::ui::ComparisonAnswerPanel *answerPanel() const { return m_answerPanel; }
    QComboBox *baselineCombo() const { return m_baseline; }
    // Whose CPU the answer quotes (nb::CpuSide: automatic, this computer, the server).
    QComboBox *cpuSideCombo() const { return m_cpuSideCombo; }
    // The equivalence threshold (percent) the verdicts use; starts at the comparison's.
    QDoubleSpinBox *equivalenceSpin() const { return m_equivalenceSpin; }
    nb::ui::ComparisonTableModel *tableModel() const { return m_tableModel; }
    QTableView *tableView() const { return m_table; }
    // A mesh's matrix (a tab shown only for meshes), for tests.
    nb::ui::MeshMatrixView *meshMatrix() const { return m_matrix; }
    nb::ui::MessageBanner *banner() const { return m_banner; }
    QToolButton *exportButton() const { return m_exportButton; }
    // The answer in sentences (nb::answerLines): "P=4: VMXNET3 is faster than E1000: ...".
    QStringList verdicts() const { return m_verdicts; }
    QString progressText() const;
    bool isLatencyVisible() const;

    // The Compare menu's actions, in menu order (nullptr: a separator).
    void populateMenu(QMenu *menu) const;
    QAction *newAction() const { return m_newAction; }
    QAction *openAction() const { return m_openAction; }
    QAction *saveAction() const { return m_saveAction; }
    QAction *stopAction() const { return m_stopAction; }

Q_SIGNALS:
    void newComparisonRequested();
    // Something worth looking at arrived (a snapshot opened, a comparison started).
    void activated();
    void runningChanged(bool running);
    void comparisonFinished(const nb::Comparison &comparison);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createActions();
    QWidget *createSidePanel();
    QWidget *createMainArea();
    QWidget *createAnswerArea();
    void createTable();
    QWidget *createEmptyPage();
    void refresh();
    void refreshBaselineCombo();
    void updateProgressText();
    QString timeLeftText() const;
    void fitTableColumns();
    // The Matrix tab for a mesh (shown and brought forward when one opens), hidden otherwise.
    void refreshMatrix(const nb::Comparison &merged);
    // A matrix cell's pair: its rows in the table, selected and in view.
    void showPairInTable(int configIndex);
    void updateActions();
    void updateDetails();
    void onRunFinished();
    void onFinished(const nb::Comparison &comparison);
    bool loadInto(const QString &path, nb::ComparisonSource *out);
    void showError(const QString &text);
    void openWithDialog(bool add);
    void saveWithDialog();
    void exportChartsWithDialog();
    void exportTableWithDialog(bool markdown);
    void exportReportWithDialog();

    ComparisonController *m_controller;
    std::function<QString()> m_startGuard;
    bool m_testRunning = false;
    ComparisonSources m_sources;
    nb::ComparisonOverlay m_overlay;
    nb::ComparisonStatistics m_stats;
    QList<nb::VariantAnswer> m_answers;
    QStringList m_verdicts;
    QString m_progressBase;      // the controller's "Run 8 of 12: E1000, P=4, round 2"
    QElapsedTimer m_runningTime; // since the comparison started
    QElapsedTimer m_runTime;     // since the current run started
    QTimer *m_etaTimer = nullptr;

    nb::ui::MessageBanner *m_banner = nullptr;
    QToolBar *m_toolbar = nullptr;
    QLabel *m_progressLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QListWidget *m_sourceList = nullptr;
    QComboBox *m_baseline = nullptr;
    QComboBox *m_cpuSideCombo = nullptr;
    nb::CpuSide m_cpuSide = nb::CpuSide::Auto;
    QDoubleSpinBox *m_equivalenceSpin = nullptr;
    double m_equivalence = nb::compareopt::kDefaultEquivalencePercent;
    // Shows the CPU side and equivalence threshold a started comparison or an opened
    // snapshot was given.
    void adoptJudging(const nb::Comparison &comparison);
    QWidget *createJudgingControls();
    QLabel *m_verdictLabel = nullptr;
    QTextBrowser *m_details = nullptr;
    QWidget *m_emptyPage = nullptr;
    QWidget *m_content = nullptr; // the answer, charts and tables: hidden while empty
    QLabel *m_chartCaption = nullptr;
    nb::ui::ComparisonAnswerPanel *m_answerPanel = nullptr;
    ComparisonChartGrid *m_charts = nullptr;
    QTabWidget *m_bottomTabs = nullptr;
    nb::ui::MeshMatrixView *m_matrix = nullptr; // a mesh's pairs, first tab while one is shown
    QToolButton *m_exportButton = nullptr;
    nb::ui::ComparisonTableModel *m_tableModel = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_table = nullptr;
    QSplitter *m_splitter = nullptr;

    QAction *m_newAction = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_addAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_rerunAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_exportChartsAction = nullptr;
    QAction *m_exportCsvAction = nullptr;
    QAction *m_exportMarkdownAction = nullptr;
    QAction *m_exportReportAction = nullptr;
    QMenu *m_exportMenu = nullptr;
};

} // namespace nb::gui
