// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The NicBench window: test settings on the left, the live chart and the results on
// the right, a built-in loopback server so Run works out of the box. Wiring only; the
// widgets live in widgets/ and the engine work runs in TestRunner's thread.

#include <results.h>

#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>

class QAction;
class QLabel;
class QProgressBar;
class QSplitter;
class QTableView;

namespace nb::ui {
class LiveTestChart;
class MessageBanner;
class ResultsSummary;
class StreamResultsModel;
}

namespace nb::gui {

class BuiltinServer;
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

    nb::ui::LiveTestChart *chart() const { return m_chart; }
    nb::ui::ResultsSummary *summary() const { return m_summary; }
    nb::ui::MessageBanner *banner() const { return m_banner; }
    nb::ui::StreamResultsModel *streamModel() const { return m_streamModel; }
    TestPanel *testPanel() const { return m_panel; }
    QAction *runAction() const { return m_runAction; }
    QAction *stopAction() const { return m_stopAction; }

Q_SIGNALS:
    void testFinished(const nb::TestResult &result);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    QWidget *createCentral();
    void runFromPanel();
    void startTest(const nb::TestParams &params);
    void onStarted(const nb::TestResult &header);
    void onIntervals(const QList<nb::IntervalReport> &batch);
    void onFinished(const nb::TestResult &result);
    void updateProgress();
    void setRunning(bool running);
    void copyResults();
    void showAbout();

    BuiltinServer *m_server;
    TestRunner *m_runner;
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

    nb::TestParams m_current;
    QElapsedTimer m_clock;          // since the engine reported that data flows
    bool m_dataFlowing = false;
    double m_lastIntervalEnd = 0;
    QTimer m_progressTimer;
};

} // namespace nb::gui
