// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Test tab: the adapter tiles and the selected adapter's live graph (Task Manager's
// layout), the test settings, the live charts, the results summary and the per-stream
// table. It owns the test runner and the Run/Stop actions; the window puts those actions
// in its menu and toolbar.

#include <model/results.h>
#include <platform/hostenvironment.h>
#include <session/commandline.h>

#include <QDateTime>
#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <optional>

class QLayout;
class QAction;
class QLabel;
class QProgressBar;
class QSettings;
class QSplitter;
class QTableView;
class QTabWidget;

namespace nb::ui {
class AdapterList;
class AdapterMonitor;
class AdapterPanel;
class CpuChart;
class LiveTestChart;
class LoadedLatencyChart;
class MessageBanner;
class ResultsSummary;
class RrChart;
class StreamResultsModel;
class UdpChart;
} // namespace nb::ui

namespace nb::gui {

class BuiltinServer;
class TestPanel;
class TestRunner;
struct TestCharts;
struct TestReportInput;

class TestView : public QWidget {
    Q_OBJECT
public:
    // The built-in server stays the window's; the view reads its port for "This computer".
    explicit TestView(BuiltinServer *server, QWidget *parent = nullptr);
    ~TestView() override;

    // Returns why no test may start now (a comparison is running), or an empty string.
    void setStartGuard(std::function<QString()> guard) { m_startGuard = std::move(guard); }
    // Re-reads the guard and the running state into the actions and the panel.
    void updateActions();

    // Shows the parameters in the test panel and runs them. An empty host means the
    // built-in server.
    void runTest(nb::TestParams params);
    // Runs what the panel shows (Run, Ctrl+R).
    void runFromPanel();
    void stop();
    bool isRunning() const;
    void setJsonOutputPath(const QString &path) { m_jsonOutputPath = path; }
    // The one-line description of the running test for the window title, empty when idle.
    QString runningDescription() const;

    // After the built-in server started (or failed): the panel's loopback port, and the
    // adapter that carries the current target selected.
    void builtinServerStarted();
    void selectTargetAdapter();

    // Splitters, "Show Each Stream", the last test settings and the selected adapter.
    void saveSettings(QSettings &settings) const;
    void restoreSettings(const QSettings &settings);
    void prepareClose();

    // "6 s of 10 s, 4 s left": whole seconds elapsed (rounded down, never past the total)
    // and what remains of the total after them, so the two always add up.
    static QString progressText(double elapsedSeconds, double totalSeconds);
    // "6.5 s", "10 s": a length in seconds as a person writes it.
    static QString secondsText(double seconds);

    // The tests of the run shown (the last one, or one reopened from the history): one, or
    // throughput then request/response; empty before the first.
    const QList<nb::TestResult> &shownResults() const { return m_planResults; }
    // Shows a finished run as the view showed it when it ended (summary, charts, streams),
    // with where it came from on the progress row; nothing runs. `host`: this machine then.
    void showStoredRun(const QList<nb::TestResult> &results, const nb::HostEnvironment &host,
                       const QDateTime &finishedAt, const QString &label);
    // When the shown run was reopened from the history (invalid for a run of this session).
    QDateTime reopenedAt() const { return m_reopenedAt; }
    // Saves the shown results by the file's suffix: .json (the -J document), .csv (every
    // interval), .pdf (one page). False with the reason in the banner; the path in the
    // status bar when written.
    bool saveResults(const QString &path);
    void saveResultsWithDialog();

    QAction *runAction() const { return m_runAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *saveResultAction() const { return m_saveAction; }
    QAction *streamsAction() const { return m_streamsAction; }
    nb::ui::LiveTestChart *chart() const { return m_chart; }
    nb::ui::CpuChart *cpuChart() const { return m_cpuChart; }
    nb::ui::RrChart *rrChart() const { return m_rrChart; }
    nb::ui::LoadedLatencyChart *loadedLatencyChart() const { return m_loadedChart; }
    nb::ui::UdpChart *udpChart() const { return m_udpChart; }
    nb::ui::AdapterList *adapterList() const { return m_adapterList; }
    nb::ui::AdapterPanel *adapterPanel() const { return m_adapterPanel; }
    nb::ui::AdapterMonitor *adapterMonitor() const { return m_monitor; }
    nb::ui::ResultsSummary *summary() const { return m_summary; }
    nb::ui::MessageBanner *banner() const { return m_banner; }
    nb::ui::StreamResultsModel *streamModel() const { return m_streamModel; }
    TestPanel *testPanel() const { return m_panel; }
    QLabel *progressLabel() const { return m_progressLabel; }

Q_SIGNALS:
    // A run ended (for "both", after its second test): its last result.
    void testFinished(const nb::TestResult &result);
    void runningChanged(bool running);
    // A line for the status bar.
    void statusMessage(const QString &text, int timeoutMs);

protected:
    void changeEvent(QEvent *event) override;

private:
    void createActions();
    void updateActionIcons();
    QWidget *createTestArea();
    QWidget *createPanelColumn();
    QLayout *createProgressRow();
    QWidget *createChartArea();
    QWidget *createResultsArea();
    QWidget *chartFor(const nb::TestParams &params) const;
    TestCharts charts() const;
    TestReportInput resultInput() const;
    void showLoadedLatencyLive(const QList<nb::IntervalReport> &batch);
    void showUdpLive(const QList<nb::IntervalReport> &batch);
    // agentLines: empty to run here, else one command line per test for the agent (--from).
    void startPlan(const QList<nb::TestParams> &plan, const QList<nb::CommandLine> &agentLines = {});
    // The plan's command lines for the agent `agent`; false with a message to show (no key
    // file chosen, a key file that cannot be used, a target only this computer has).
    bool agentPlan(const QString &agent, const QList<nb::TestParams> &plan, QList<nb::CommandLine> *out,
                   QString *why) const;
    void startNext();
    void finishPlan();
    void writeJsonOutput() const;
    void selectTestAdapter(const nb::TestResult &header);
    void onStarted(const nb::TestResult &header);
    void onIntervals(const QList<nb::IntervalReport> &batch);
    void onFinished(const nb::TestResult &result);
    void updateProgress();
    void setRunning(bool running);
    double elapsedSeconds() const;

    BuiltinServer *m_server;
    TestRunner *m_runner;
    nb::ui::AdapterMonitor *m_monitor;
    std::function<QString()> m_startGuard;
    nb::ui::AdapterList *m_adapterList = nullptr;
    nb::ui::AdapterPanel *m_adapterPanel = nullptr;
    nb::ui::CpuChart *m_cpuChart = nullptr;
    nb::ui::RrChart *m_rrChart = nullptr;
    nb::ui::LoadedLatencyChart *m_loadedChart = nullptr;
    nb::ui::UdpChart *m_udpChart = nullptr;
    QTabWidget *m_chartTabs = nullptr;
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_adapterSplitter = nullptr;
    QSplitter *m_testSplitter = nullptr;
    QSplitter *m_rightSplitter = nullptr;
    TestPanel *m_panel = nullptr;
    nb::ui::LiveTestChart *m_chart = nullptr;
    nb::ui::ResultsSummary *m_summary = nullptr;
    nb::ui::MessageBanner *m_banner = nullptr;
    nb::ui::StreamResultsModel *m_streamModel = nullptr;
    QTableView *m_streamTable = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_progressLabel = nullptr;
    QAction *m_runAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_streamsAction = nullptr;
    QAction *m_saveAction = nullptr;

    QList<nb::TestParams> m_plan;        // the tests of this run, in order
    QList<nb::CommandLine> m_agentLines; // the same for an agent (From), else empty
    QString m_agentFrom;                 // the agent running them, else empty
    int m_planIndex = 0;
    bool m_stopRequested = false;
    double m_stoppedAt = -1; // seconds into the run when the user pressed Stop
    QList<nb::TestResult> m_planResults;
    QDateTime m_reopenedAt;                    // the shown run came from the history
    std::optional<nb::HostEnvironment> m_host; // this machine when the shown run ended
    QString m_reopenedLabel;
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
