// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The NicBench window: test settings on the left, the live chart and the results on
// the right, a built-in loopback server so Run works out of the box. Wiring only; the
// widgets live in widgets/ and the engine work runs in TestRunner's thread.

#include <test/results.h>

#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>

class QAction;
class QLabel;
class QProgressBar;
class QSplitter;
class QTableView;

class QTabWidget;

namespace nb::ui {
class AdapterList;
class AdapterMonitor;
class AdapterPanel;
class CpuChart;
class LiveTestChart;
class RrChart;
class MessageBanner;
class ResultsSummary;
class StreamResultsModel;
} // namespace nb::ui

namespace nb::gui {

class BuiltinServer;
class ComparisonController;
class ComparisonDialog;
class ComparisonView;
class TestPanel;
class TestRunner;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Starts the built-in loopback server; called once after construction.
    bool startBuiltinServer();
    quint16 builtinServerPort() const;

    // Shows the parameters in the test panel and runs them. An empty host means the
    // built-in server.
    void runTest(nb::TestParams params);
    bool isTestRunning() const;
    // When set, each finished run writes its result JSON (the CLI's -J document; a
    // "both" run writes {"results": [...]}) to this file.
    void setJsonOutputPath(const QString &path) { m_jsonOutputPath = path; }

    nb::ui::LiveTestChart *chart() const { return m_chart; }
    nb::ui::CpuChart *cpuChart() const { return m_cpuChart; }
    nb::ui::RrChart *rrChart() const { return m_rrChart; }
    nb::ui::AdapterList *adapterList() const { return m_adapterList; }
    nb::ui::AdapterPanel *adapterPanel() const { return m_adapterPanel; }
    nb::ui::AdapterMonitor *adapterMonitor() const { return m_monitor; }
    nb::ui::ResultsSummary *summary() const { return m_summary; }
    nb::ui::MessageBanner *banner() const { return m_banner; }
    nb::ui::StreamResultsModel *streamModel() const { return m_streamModel; }
    TestPanel *testPanel() const { return m_panel; }
    ComparisonView *comparisonView() const { return m_compareView; }
    ComparisonController *comparisonController() const { return m_compareController; }
    bool isComparing() const;
    // The "New Comparison" dialog filled from the test panel (base parameters, the
    // built-in server as the default endpoint) and the live adapters; not shown.
    ComparisonDialog *createComparisonDialog();
    // Brings the Compare tab to the front.
    void showCompareArea();
    QAction *runAction() const { return m_runAction; }
    QAction *stopAction() const { return m_stopAction; }

Q_SIGNALS:
    // A run ended (for "both", after its second test): its last result.
    void testFinished(const nb::TestResult &result);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    QWidget *createCentral();
    QWidget *createTestArea();
    void runFromPanel();
    void startPlan(const QList<nb::TestParams> &plan);
    void startNext();
    void finishPlan();
    void writeJsonOutput() const;
    void selectTestAdapter(const nb::TestResult &header);
    void onStarted(const nb::TestResult &header);
    void onIntervals(const QList<nb::IntervalReport> &batch);
    void onFinished(const nb::TestResult &result);
    void updateProgress();
    void setRunning(bool running);
    void copyResults();
    void showAbout();
    void newComparison();

    BuiltinServer *m_server;
    TestRunner *m_runner;
    nb::ui::AdapterMonitor *m_monitor;
    nb::ui::AdapterList *m_adapterList = nullptr;
    nb::ui::AdapterPanel *m_adapterPanel = nullptr;
    nb::ui::CpuChart *m_cpuChart = nullptr;
    nb::ui::RrChart *m_rrChart = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    QTabWidget *m_areaTabs = nullptr; // "Test" | "Compare"
    ComparisonController *m_compareController = nullptr;
    ComparisonView *m_compareView = nullptr;
    QSplitter *m_adapterSplitter = nullptr;
    QSplitter *m_testSplitter = nullptr;
    TestPanel *m_panel = nullptr;
    nb::ui::LiveTestChart *m_chart = nullptr;
    nb::ui::ResultsSummary *m_summary = nullptr;
    nb::ui::MessageBanner *m_banner = nullptr;
    nb::ui::StreamResultsModel *m_streamModel = nullptr;
    QTableView *m_streamTable = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_progressLabel = nullptr;
    QLabel *m_serverLabel = nullptr;
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_rightSplitter = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_streamsAction = nullptr;
    QAction *m_copyAction = nullptr;

    QList<nb::TestParams> m_plan; // the tests of this run, in order
    int m_planIndex = 0;
    bool m_stopRequested = false;
    QList<nb::TestResult> m_planResults;
    double m_planSeconds = 0; // planned length of the whole run
    double m_doneSeconds = 0; // planned length of its finished tests
    double m_timeOffset = 0;  // where the current test starts on the CPU chart
    QString m_jsonOutputPath;
    nb::TestParams m_current;
    QElapsedTimer m_clock; // since the engine reported that data flows
    bool m_dataFlowing = false;
    double m_lastIntervalEnd = 0;
    QTimer m_progressTimer;
};

} // namespace nb::gui
