// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/mainwindow.h"

#include "compareview/comparisoncontroller.h"
#include "compareview/comparisondialog.h"
#include "compareview/comparisonview.h"
#include "historyview/historywindow.h"
#include "hostsview/hostsdialog.h"
#include "labview/labcontroller.h"
#include "labview/labdialog.h"
#include "testview/testpanel.h"
#include "testview/testview.h"
#include "window/aboutdialog.h"
#include "window/apptheme.h"
#include "window/builtinserver.h"
#include "window/shortcutsdialog.h"

#include <adapters/adaptermonitor.h>
#include <common/messagebanner.h>
#include <qcustomplot.h>
#include <results/resultssummary.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include <algorithm>

namespace nb::gui {

namespace {

const auto kGeometryKey = QStringLiteral("window/geometry");
const auto kTabKey = QStringLiteral("window/tab");

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_server(new BuiltinServer(this))
    , m_compareController(new ComparisonController(this))
    , m_lab(new LabController(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    m_history = std::make_unique<nb::RunHistory>(AppSettings::historyDirectory());
    createActions();
    setCentralWidget(createCentral());
    createMenus();
    createToolBar();

    m_serverLabel = new QLabel(this);
    m_serverLabel->setObjectName(QStringLiteral("serverLabel"));
    statusBar()->addWidget(m_serverLabel, 1);
    statusBar()->addPermanentWidget(new QLabel(tr("NicBench %1").arg(QStringLiteral(NICBENCH_VERSION)), this));

    connect(m_server, &BuiltinServer::failed, this, [this](const QString &message) {
        m_serverLabel->setText(message);
        m_testView->banner()->showMessage(nb::ui::MessageBanner::Kind::Warning, message);
    });
    connect(m_testView, &TestView::testFinished, this, &MainWindow::recordRun);
    connect(m_testView, &TestView::testFinished, this, &MainWindow::testFinished);
    connect(m_testView, &TestView::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(m_testView, &TestView::runningChanged, this, [this](bool running) {
        // One measurement at a time: a comparison waits for the test and the reverse.
        m_compareView->setTestRunning(running);
        updateTitle();
    });
    connect(m_areaTabs, &QTabWidget::currentChanged, this, &MainWindow::updateTitle);
    // Run (toolbar, Ctrl+R) from the Compare tab: the test and its messages are on the Test tab.
    connect(m_testView->runAction(), &QAction::triggered, this, [this] { m_areaTabs->setCurrentWidget(m_testView); });

    QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
        const QScreen *screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
        const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
        const QSize size = defaultSize(available.size());
        resize(size);
        move(available.center() - QPoint(size.width() / 2, size.height() / 2));
    }
    m_testView->restoreSettings(settings);
    m_areaTabs->setCurrentIndex(std::clamp(settings.value(kTabKey, 0).toInt(), 0, m_areaTabs->count() - 1));
    m_testView->updateActions();
    updateRecentMenu();
    updateTitle();
    // A lab that the CLI or an earlier window started: its guests are targets here too.
    connect(m_lab, &LabController::changed, this, &MainWindow::updateLabTargets);
    m_lab->refreshIfPresent();
}

MainWindow::~MainWindow() = default;

QSize MainWindow::defaultSize(const QSize &available)
{
    // 90% of the screen, but never below 1200x700 where the screen is that big, and
    // never bigger than the screen.
    const int width = std::min(available.width(), std::max(available.width() * 9 / 10, 1200));
    const int height = std::min(available.height(), std::max(available.height() * 9 / 10, 700));
    return {width, height};
}

void MainWindow::createActions()
{
    m_copyAction = new QAction(tr("&Copy Results"), this);
    m_copyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(m_copyAction, &QAction::triggered, this, &MainWindow::copyResults);
    m_historyAction = new QAction(tr("&History..."), this);
    m_historyAction->setObjectName(QStringLiteral("historyAction"));
    m_historyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    m_historyAction->setToolTip(tr("Every test run in this window: reopen, save, compare, delete"));
    connect(m_historyAction, &QAction::triggered, this, &MainWindow::showHistory);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    if (QAction *open = m_compareView->openAction())
        file->addAction(open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    file->addAction(m_testView->saveResultAction());
    file->addAction(m_historyAction);
    file->addSeparator();
    file->addAction(m_copyAction);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    // Some platforms (and the offscreen one) bind no key to the standard Quit: Ctrl+Q then.
    quit->setShortcut(QKeySequence(QKeySequence::Quit).isEmpty() ? QKeySequence(Qt::CTRL | Qt::Key_Q)
                                                                 : QKeySequence(QKeySequence::Quit));

    QMenu *test = menuBar()->addMenu(tr("&Test"));
    test->addAction(m_testView->runAction());
    test->addAction(m_testView->stopAction());

    QMenu *compare = menuBar()->addMenu(tr("&Compare"));
    m_compareView->populateMenu(compare);
    compare->addSeparator();
    compare->addAction(tr("Add &Past Runs..."), this, &MainWindow::showHistory)
        ->setToolTip(tr("Choose runs in the history and add them to the comparison"));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_testView->streamsAction());
    view->addSeparator();
    QMenu *theme = view->addMenu(tr("&Theme"));
    theme->setObjectName(QStringLiteral("themeMenu"));
    m_themeGroup = new QActionGroup(this);
    const std::pair<AppSettings::Theme, QString> themes[] = {
        {AppSettings::Theme::System, tr("&System")},
        {AppSettings::Theme::Light, tr("&Light")},
        {AppSettings::Theme::Dark, tr("&Dark")},
    };
    for (const auto &[value, name] : themes) {
        QAction *a = theme->addAction(name);
        a->setCheckable(true);
        a->setData(int(value));
        a->setChecked(value == currentTheme());
        m_themeGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, value = value] { setTheme(value); });
    }

    QMenu *tools = menuBar()->addMenu(tr("T&ools"));
    tools->setObjectName(QStringLiteral("toolsMenu"));
    tools->addAction(tr("Adapter &Lab..."), this, &MainWindow::showLabDialog)
        ->setObjectName(QStringLiteral("adapterLabAction"));
    tools->addAction(tr("&Hosts..."), this, &MainWindow::showHosts)->setObjectName(QStringLiteral("hostsAction"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Documentation"), this, [this] { openDocumentation(this); })
        ->setObjectName(QStringLiteral("documentationAction"));
    help->addSeparator();
    help->addAction(tr("&About NicBench"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createToolBar()
{
    // Run and Stop at the top right, where UI.md puts them: always on screen, whatever
    // the panel below scrolls to. In the menu bar's corner they cost no height; a native
    // (global) menu bar has no corner, so there they get a toolbar row.
    m_toolBar = new QToolBar(tr("Test"), this);
    m_toolBar->setObjectName(QStringLiteral("runToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->setMovable(false);
    m_toolBar->setFloatable(false);
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->addAction(m_testView->runAction());
    m_toolBar->addAction(m_testView->stopAction());
    if (menuBar()->isNativeMenuBar()) {
        addToolBar(Qt::TopToolBarArea, m_toolBar);
    } else {
        m_toolBar->setStyleSheet(QStringLiteral("QToolBar { border: 0px; padding: 0px; }"));
        menuBar()->setCornerWidget(m_toolBar, Qt::TopRightCorner);
    }
}

QWidget *MainWindow::createCentral()
{
    m_testView = new TestView(m_server);
    m_testView->setStartGuard([this] {
        return m_compareController->isRunning()
                   ? tr("A comparison is running (Compare tab): stop it or wait for it before starting a test.")
                   : QString();
    });

    // Comparisons get the whole width: a grid of bar charts and a table need it more
    // than the live adapter tiles do (docs/design.md, "The Compare tab").
    m_compareView = new ComparisonView(m_compareController);
    m_compareView->setStartGuard([this] {
        return m_testView->isRunning() ? tr("A test is running: stop it or wait for it before starting a comparison.")
                                       : QString();
    });
    connect(m_compareView, &ComparisonView::newComparisonRequested, this, &MainWindow::newComparison);
    connect(m_compareView, &ComparisonView::activated, this, [this] {
        showCompareArea();
        updateTitle();
    });
    connect(m_compareView, &ComparisonView::runningChanged, this, [this] {
        m_testView->updateActions();
        updateTitle();
    });

    m_areaTabs = new QTabWidget;
    m_areaTabs->setObjectName(QStringLiteral("areaTabs"));
    m_areaTabs->setDocumentMode(true);
    m_areaTabs->addTab(m_testView, tr("Test"));
    m_areaTabs->addTab(m_compareView, tr("Compare"));
    return m_areaTabs;
}

bool MainWindow::startBuiltinServer()
{
    QString error;
    if (!m_server->start(&error)) {
        m_serverLabel->setText(tr("No built-in server: %1").arg(error));
        m_testView->banner()->showMessage(
            nb::ui::MessageBanner::Kind::Warning,
            tr("%1 Tests against other computers still work.").arg(nb::ui::MessageBanner::sentence(error)));
        m_testView->builtinServerStarted();
        return false;
    }
    m_testView->builtinServerStarted();
    QString text = tr("Built-in server listening on %1:%2").arg(BuiltinServer::address()).arg(m_server->port());
    if (m_server->port() != BuiltinServer::kPreferredPort)
        text += tr(" (port %1 is in use)").arg(BuiltinServer::kPreferredPort);
    m_serverLabel->setText(text);
    return true;
}

quint16 MainWindow::builtinServerPort() const
{
    return m_server->port();
}

void MainWindow::runTest(nb::TestParams params)
{
    m_areaTabs->setCurrentWidget(m_testView);
    m_testView->runTest(std::move(params));
}

bool MainWindow::isTestRunning() const
{
    return m_testView->isRunning();
}

void MainWindow::setJsonOutputPath(const QString &path)
{
    m_testView->setJsonOutputPath(path);
}

// clang-format off
nb::ui::LiveTestChart *MainWindow::chart() const { return m_testView->chart(); }
nb::ui::CpuChart *MainWindow::cpuChart() const { return m_testView->cpuChart(); }
nb::ui::RrChart *MainWindow::rrChart() const { return m_testView->rrChart(); }
nb::ui::AdapterList *MainWindow::adapterList() const { return m_testView->adapterList(); }
nb::ui::AdapterPanel *MainWindow::adapterPanel() const { return m_testView->adapterPanel(); }
nb::ui::AdapterMonitor *MainWindow::adapterMonitor() const { return m_testView->adapterMonitor(); }
nb::ui::ResultsSummary *MainWindow::summary() const { return m_testView->summary(); }
nb::ui::MessageBanner *MainWindow::banner() const { return m_testView->banner(); }
nb::ui::StreamResultsModel *MainWindow::streamModel() const { return m_testView->streamModel(); }
TestPanel *MainWindow::testPanel() const { return m_testView->testPanel(); }
QAction *MainWindow::runAction() const { return m_testView->runAction(); }
QAction *MainWindow::stopAction() const { return m_testView->stopAction(); }
// clang-format on

bool MainWindow::isComparing() const
{
    return m_compareController->isRunning();
}

ComparisonDialog *MainWindow::createComparisonDialog()
{
    auto *dialog = new ComparisonDialog(this);
    TestPanel *panel = m_testView->testPanel();
    nb::TestParams base;
    QString error;
    if (!panel->params(&base, &error)) {
        base = nb::TestParams();
        base.host = BuiltinServer::address();
        base.port = m_server->port();
    }
    if (panel->isLoopbackSelected() || base.host.isEmpty()) {
        base.host = BuiltinServer::address();
        base.port = m_server->isListening() ? m_server->port() : base.port;
    }
    dialog->setBaseParams(base);
    dialog->setAdapters(m_testView->adapterMonitor()->adapters());
    // The lab's guests that are up, ticked, one adapter each ("E1000", "VMXNET3"); the test
    // panel's target stays as a row, not ticked, unless it is one of them.
    QList<nb::MatrixEndpoint> endpoints = labEndpoints(m_lab->view());
    const bool lab = !endpoints.isEmpty();
    const bool targetIsGuest = std::any_of(endpoints.cbegin(), endpoints.cend(), [&](const nb::MatrixEndpoint &e) {
        return e.target == base.host && e.port == base.port;
    });
    if (!targetIsGuest)
        // The test panel's From: an agent's row leaves the local address to the agent.
        endpoints.append(nb::MatrixEndpoint{panel->agentFrom().isEmpty() ? base.bindAddress : QString(), base.host,
                                            std::nullopt, QString(), 0, panel->agentFrom()});
    dialog->setEndpoints(endpoints);
    if (lab && !targetIsGuest)
        dialog->setEndpointEnabled(dialog->endpointRowCount() - 1, false);
    return dialog;
}

LabDialog *MainWindow::labDialog()
{
    if (!m_labDialog) {
        m_labDialog = new LabDialog(m_lab, this);
        connect(m_labDialog, &LabDialog::newComparisonRequested, this, &MainWindow::newComparison);
    }
    return m_labDialog;
}

void MainWindow::showLabDialog()
{
    LabDialog *dialog = labDialog();
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::updateLabTargets()
{
    m_testView->testPanel()->setNamedTargets(labTargets(m_lab->view()));
}

void MainWindow::newComparison()
{
    if (m_testView->isRunning()) {
        m_compareView->banner()->showMessage(
            nb::ui::MessageBanner::Kind::Information,
            tr("A test is running: stop it or wait for it before starting a comparison."));
        return;
    }
    std::unique_ptr<ComparisonDialog> dialog(createComparisonDialog());
    if (dialog->exec() == QDialog::Accepted) {
        showCompareArea();
        m_compareView->startComparison(dialog->comparison());
    }
}

HostsDialog *MainWindow::hostsDialog()
{
    if (!m_hosts) {
        m_hosts = new HostsDialog(this);
        connect(m_hosts, &HostsDialog::hostsChanged, m_testView->testPanel(), &TestPanel::setAgentHosts);
    }
    return m_hosts;
}

void MainWindow::showHosts()
{
    HostsDialog *dialog = hostsDialog();
    const bool first = !dialog->isVisible();
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    if (first)
        dialog->refresh();
}

void MainWindow::showCompareArea()
{
    m_areaTabs->setCurrentWidget(m_compareView);
}

bool MainWindow::openSnapshots(const QStringList &paths)
{
    if (paths.isEmpty())
        return false;
    const bool ok = m_compareView->openSnapshots(paths);
    if (ok) {
        // Reverse order: the first file ends up on top of the list.
        for (auto it = paths.crbegin(); it != paths.crend(); ++it)
            AppSettings::addRecentSnapshot(*it);
    } else {
        // Where the user is (Ctrl+O on the Test tab, a double-clicked file): the status bar
        // says it, and the Compare view in front shows the whole error in its banner.
        statusBar()->showMessage(tr("The snapshot did not open: the Compare tab says why"), 10000);
    }
    showCompareArea();
    updateRecentMenu();
    updateTitle();
    return ok;
}

void MainWindow::recordRun()
{
    const QList<nb::TestResult> &results = m_testView->shownResults();
    // Stopped before any data flowed: nothing was measured, nothing to keep.
    if (results.isEmpty() || (results.constLast().errorCode == nb::ErrorCode::Stopped &&
                              results.constLast().intervals.isEmpty() && results.size() == 1))
        return;
    if (!m_thisHost)
        m_thisHost = nb::HostEnvironment::local(false);
    QString error;
    if (!m_history->add(results, *m_thisHost, nullptr, &error)) {
        statusBar()->showMessage(tr("The run was not kept in the history: %1").arg(error), 15000);
        return;
    }
    if (m_historyWindow && m_historyWindow->isVisible())
        m_historyWindow->refresh();
}

HistoryWindow *MainWindow::historyWindow()
{
    if (!m_historyWindow) {
        m_historyWindow = new HistoryWindow(m_history.get(), this);
        connect(m_historyWindow, &HistoryWindow::openRequested, this, &MainWindow::openStoredRun);
        connect(m_historyWindow, &HistoryWindow::comparisonRequested, this, &MainWindow::showPastRuns);
    }
    return m_historyWindow;
}

void MainWindow::showHistory()
{
    HistoryWindow *w = historyWindow();
    w->show();
    w->raise();
    w->activateWindow();
}

void MainWindow::openStoredRun(const nb::HistoryRun &run)
{
    if (m_testView->isRunning()) {
        historyWindow()->banner()->showMessage(nb::ui::MessageBanner::Kind::Information,
                                               tr("A test is running: open the run when it has ended."));
        return;
    }
    m_testView->showStoredRun(run.results, run.host, run.entry.finishedAt, run.entry.label);
    m_areaTabs->setCurrentWidget(m_testView);
    raise();
    activateWindow();
}

void MainWindow::showPastRuns(const nb::Comparison &comparison, bool add)
{
    const nb::ComparisonSource source{comparison.title, comparison};
    if (add && m_compareView->sourceCount() > 0)
        m_compareView->addSource(source);
    else
        m_compareView->showSources({source});
    showCompareArea();
    updateTitle();
    raise();
    activateWindow();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = AppSettings::recentSnapshots();
    for (int i = 0; i < recent.size(); ++i) {
        const QString &path = recent.at(i);
        // "&1 before.nicbench": a digit mnemonic per entry, the full path in the tooltip.
        QAction *a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(
            QFileInfo(path).fileName().replace(QLatin1Char('&'), QStringLiteral("&&"))));
        a->setData(path);
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, [this, path] { openSnapshots({path}); });
    }
    if (recent.isEmpty()) {
        m_recentMenu->addAction(tr("No recent snapshots"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear List"), this, [this] {
        AppSettings::clearRecentSnapshots();
        updateRecentMenu();
    });
}

void MainWindow::updateTitle()
{
    // The state in the title, so a window in the task bar says what it is doing.
    const QString app = tr("NicBench");
    QString detail;
    if (m_testView->isRunning()) {
        detail = tr("running %1").arg(m_testView->runningDescription());
    } else if (m_compareController->isRunning()) {
        detail = tr("running a comparison");
    } else if (m_areaTabs->currentWidget() == m_compareView) {
        detail = m_compareView->documentTitle();
    }
    // "cmp — NicBench": ending with the application's display name, which X11 and Wayland
    // otherwise append ("NicBench — cmp — NicBench", review minor).
    setWindowTitle(detail.isEmpty() ? app : QStringLiteral("%1 \u2014 %2").arg(detail, app));
}

void MainWindow::setTheme(AppSettings::Theme theme)
{
    applyTheme(theme);
    AppSettings::setTheme(theme);
    for (QAction *a : m_themeGroup->actions())
        a->setChecked(a->data().toInt() == int(theme));
}

void MainWindow::copyResults()
{
    QApplication::clipboard()->setText(m_testView->summary()->toText());
    statusBar()->showMessage(tr("Results copied"), 3000);
}

QString MainWindow::aboutText()
{
    return AboutDialog::text();
}

void MainWindow::showAbout()
{
    AboutDialog box(this);
    box.exec();
}

QList<std::pair<QString, QString>> MainWindow::shortcutList() const
{
    return ShortcutsDialog::rows(menuBar());
}

void MainWindow::showShortcuts()
{
    ShortcutsDialog dialog(menuBar(), this);
    dialog.exec();
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kTabKey, m_areaTabs->currentIndex());
    m_testView->saveSettings(settings);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    m_testView->prepareClose();
    m_compareController->stop();
    m_lab->prepareClose(); // guests started here stop with the window
    QMainWindow::closeEvent(event);
}

} // namespace nb::gui
