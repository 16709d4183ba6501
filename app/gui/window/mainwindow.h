// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The NicBench window: menus, the Run/Stop toolbar, the Test and Compare tabs, the
// built-in loopback server (so Run works out of the box), the adapter lab's guests as
// targets, and the settings that outlive a session (geometry, last tab, theme). The Test tab is TestView, the Compare
// tab ComparisonView; this class only wires them together.

#include "window/appsettings.h"

#include <compare/comparison.h>
#include <compare/runhistory.h>
#include <model/results.h>

#include <QMainWindow>

#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QTabWidget;
class QToolBar;

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
class HistoryWindow;
class LabController;
class LabDialog;
class HostsDialog;
class TestPanel;
class TestView;

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
    void setJsonOutputPath(const QString &path);

    TestView *testView() const { return m_testView; }
    nb::ui::LiveTestChart *chart() const;
    nb::ui::CpuChart *cpuChart() const;
    nb::ui::RrChart *rrChart() const;
    nb::ui::AdapterList *adapterList() const;
    nb::ui::AdapterPanel *adapterPanel() const;
    nb::ui::AdapterMonitor *adapterMonitor() const;
    nb::ui::ResultsSummary *summary() const;
    nb::ui::MessageBanner *banner() const;
    nb::ui::StreamResultsModel *streamModel() const;
    TestPanel *testPanel() const;
    ComparisonView *comparisonView() const { return m_compareView; }
    ComparisonController *comparisonController() const { return m_compareController; }
    bool isComparing() const;
    // The "New Comparison" dialog filled from the test panel (base parameters, the
    // built-in server as the default endpoint) and the live adapters; not shown.
    ComparisonDialog *createComparisonDialog();
    // Tools > Hosts: the agents and the key file (created on first use, kept while the
    // window lives so its probes outlive a close).
    HostsDialog *hostsDialog();
    void showHosts();
    // Brings the Compare tab to the front.
    void showCompareArea();
    // The adapter lab (Tools > Adapter Lab): its controller, whose guests the Target box and
    // New Comparison offer, and its dialog (made on first use, not modal).
    LabController *labController() const { return m_lab; }
    LabDialog *labDialog();
    void showLabDialog();
    // Opens snapshot files in the Compare tab and lists them under File > Open Recent.
    bool openSnapshots(const QStringList &paths);

    // The run history (docs/run-history.md): every finished test is stored there.
    nb::RunHistory *runHistory() const { return m_history.get(); }
    // File > History: the window listing it, made on first use.
    HistoryWindow *historyWindow();
    void showHistory();
    // Shows a stored run in the Test tab (History > Open).
    void openStoredRun(const nb::HistoryRun &run);
    // Shows past runs in the Compare tab, in place of what it shows or added to it.
    void showPastRuns(const nb::Comparison &comparison, bool add);
    QAction *historyAction() const { return m_historyAction; }
    QAction *runAction() const;
    QAction *stopAction() const;
    QToolBar *runToolBar() const { return m_toolBar; }
    QMenu *recentMenu() const { return m_recentMenu; }
    // View > Theme; also applies the theme to the application.
    void setTheme(AppSettings::Theme theme);

    // Help > About's text: version, licence, the Qt and QCustomPlot versions.
    static QString aboutText();
    // Help > Keyboard Shortcuts: every menu action with a shortcut, then the keys that
    // belong to no menu item. Pairs of (keys, what they do).
    QList<std::pair<QString, QString>> shortcutList() const;

    // The window size on first start: most of the available screen, at least 1200x700
    // where the screen has room for it.
    static QSize defaultSize(const QSize &available);

Q_SIGNALS:
    // A run ended (for "both", after its second test): its last result.
    void testFinished(const nb::TestResult &result);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    void createToolBar();
    QWidget *createCentral();
    void updateRecentMenu();
    void updateTitle();
    void copyResults();
    void showAbout();
    void showShortcuts();
    void newComparison();
    void updateLabTargets();
    void saveSettings() const;
    void recordRun();

    BuiltinServer *m_server;
    ComparisonController *m_compareController;
    LabController *m_lab;
    LabDialog *m_labDialog = nullptr;
    TestView *m_testView = nullptr;
    QTabWidget *m_areaTabs = nullptr; // "Test" | "Compare"
    ComparisonView *m_compareView = nullptr;
    QLabel *m_serverLabel = nullptr;
    QToolBar *m_toolBar = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_copyAction = nullptr;
    QAction *m_historyAction = nullptr;
    std::unique_ptr<nb::RunHistory> m_history;
    HistoryWindow *m_historyWindow = nullptr;
    std::optional<nb::HostEnvironment> m_thisHost; // for the history, read once
    QActionGroup *m_themeGroup = nullptr;
    HostsDialog *m_hosts = nullptr;
};

} // namespace nb::gui
