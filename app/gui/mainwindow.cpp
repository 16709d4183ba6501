// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "builtinserver.h"
#include "comparisoncontroller.h"
#include "comparisondialog.h"
#include "comparisonview.h"
#include "testpanel.h"
#include "testrunner.h"

#include <adapterlist.h>
#include <adaptermonitor.h>
#include <adapterpanel.h>
#include <cpuchart.h>
#include <livetestchart.h>
#include <messagebanner.h>
#include <ratescale.h>
#include <resultssummary.h>
#include <rrchart.h>
#include <rrformat.h>
#include <streamresultsmodel.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace nb::gui {

namespace {

// "v2": the layout gained the adapter column; older splitter states do not fit it.
const auto kGeometryKey = QStringLiteral("window/geometry");
const auto kMainSplitterKey = QStringLiteral("window/v2/mainSplitter");
const auto kRightSplitterKey = QStringLiteral("window/v2/rightSplitter");
const auto kAdapterSplitterKey = QStringLiteral("window/v2/adapterSplitter");
const auto kTestSplitterKey = QStringLiteral("window/v2/testSplitter");
const auto kStreamsKey = QStringLiteral("view/showStreams");

QString sentence(QString text)
{
    text = text.trimmed();
    if (text.isEmpty())
        return text;
    text[0] = text[0].toUpper();
    if (!text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}

// The engine's error in words an admin can act on, with a hint at the usual cause.
QString plainError(const nb::TestResult &result)
{
    QString text = sentence(result.error);
    switch (result.errorCode) {
    case nb::ErrorCode::Refused:
        text += QObject::tr(" Nothing is listening there: start a server on that computer "
                            "(nicbench-cli -s or iperf3 -s) or check the port.");
        break;
    case nb::ErrorCode::Timeout:
    case nb::ErrorCode::Unreachable:
        text += QObject::tr(" Check the address, the network path and any firewall in between.");
        break;
    case nb::ErrorCode::Resolve:
        text += QObject::tr(" Check the host name.");
        break;
    default:
        break;
    }
    if (!result.intervals.isEmpty())
        text += QObject::tr(" What was measured before that is kept below.");
    return text;
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_server(new BuiltinServer(this))
    , m_runner(new TestRunner(this))
    , m_monitor(new nb::ui::AdapterMonitor(this))
    , m_compareController(new ComparisonController(this))
{
    setWindowTitle(tr("NicBench"));
    setObjectName(QStringLiteral("mainWindow"));
    createActions();
    setCentralWidget(createCentral());
    createMenus();

    m_serverLabel = new QLabel(this);
    m_serverLabel->setObjectName(QStringLiteral("serverLabel"));
    statusBar()->addWidget(m_serverLabel, 1);
    statusBar()->addPermanentWidget(new QLabel(tr("NicBench %1").arg(QStringLiteral(NICBENCH_VERSION)), this));

    connect(m_runner, &TestRunner::started, this, &MainWindow::onStarted);
    connect(m_runner, &TestRunner::intervalsReady, this, &MainWindow::onIntervals);
    connect(m_runner, &TestRunner::finished, this, &MainWindow::onFinished);
    connect(m_runner, &TestRunner::message, this, [this](const QString &text) {
        if (!m_dataFlowing)
            m_progressLabel->setText(text);
    });
    connect(m_server, &BuiltinServer::failed, this, [this](const QString &message) {
        m_serverLabel->setText(message);
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Warning, message);
    });
    connect(m_panel, &TestPanel::runRequested, this, &MainWindow::runFromPanel);
    m_progressTimer.setInterval(200);
    connect(&m_progressTimer, &QTimer::timeout, this, &MainWindow::updateProgress);

    m_adapterList->setMonitor(m_monitor);
    m_adapterPanel->setMonitor(m_monitor);
    connect(m_adapterList, &nb::ui::AdapterList::currentAdapterChanged, m_adapterPanel,
            &nb::ui::AdapterPanel::setAdapter);
    connect(m_monitor, &nb::ui::AdapterMonitor::adaptersChanged, this,
            [this] { m_panel->setAdapters(m_monitor->adapters()); });
    m_monitor->start();
    m_adapterPanel->setAdapter(m_adapterList->currentAdapter());

    QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray()))
        resize(1240, 700);
    m_mainSplitter->restoreState(settings.value(kMainSplitterKey).toByteArray());
    m_rightSplitter->restoreState(settings.value(kRightSplitterKey).toByteArray());
    m_adapterSplitter->restoreState(settings.value(kAdapterSplitterKey).toByteArray());
    m_testSplitter->restoreState(settings.value(kTestSplitterKey).toByteArray());
    m_streamsAction->setChecked(settings.value(kStreamsKey, false).toBool());
    setRunning(false);
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    m_runAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setToolTip(tr("Run the test (Ctrl+R)"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::runFromPanel);

    m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopAction->setToolTip(tr("Stop the test and keep what was measured (Esc)"));
    connect(m_stopAction, &QAction::triggered, this, [this] {
        m_stopRequested = true; // also cancels the rest of a "both" run
        m_runner->stop();
    });

    m_streamsAction = new QAction(tr("Show &Each Stream"), this);
    m_streamsAction->setCheckable(true);
    m_streamsAction->setToolTip(tr("One thin line per stream in the throughput chart"));

    m_copyAction = new QAction(tr("&Copy Results"), this);
    m_copyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(m_copyAction, &QAction::triggered, this, &MainWindow::copyResults);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_copyAction);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *test = menuBar()->addMenu(tr("&Test"));
    test->addAction(m_runAction);
    test->addAction(m_stopAction);

    QMenu *compare = menuBar()->addMenu(tr("&Compare"));
    m_compareView->populateMenu(compare);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_streamsAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About NicBench"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QWidget *MainWindow::createCentral()
{
    // Task Manager's layout: adapters on the left, the selected adapter's live graph on
    // top, the test below it.
    m_adapterList = new nb::ui::AdapterList;
    m_adapterPanel = new nb::ui::AdapterPanel;

    m_adapterSplitter = new QSplitter(Qt::Vertical);
    m_adapterSplitter->addWidget(m_adapterPanel);
    m_adapterSplitter->addWidget(createTestArea());
    m_adapterSplitter->setStretchFactor(0, 2);
    m_adapterSplitter->setStretchFactor(1, 5);
    m_adapterSplitter->setSizes({230, 470});
    m_adapterSplitter->setChildrenCollapsible(false);

    m_mainSplitter = new QSplitter(Qt::Horizontal);
    m_mainSplitter->addWidget(m_adapterList);
    m_mainSplitter->addWidget(m_adapterSplitter);
    m_mainSplitter->setStretchFactor(0, 0);
    m_mainSplitter->setStretchFactor(1, 1);
    m_mainSplitter->setChildrenCollapsible(false);
    m_mainSplitter->setSizes({m_adapterList->sizeHint().width(), 1000});

    // Comparisons get the whole width: a grid of bar charts and a table need it more
    // than the live adapter tiles do (docs/design.md, "The Compare tab").
    m_compareView = new ComparisonView(m_compareController);
    m_compareView->setStartGuard([this] {
        return m_runner->isRunning() ? tr("A test is running: stop it or wait for it before starting a comparison.")
                                     : QString();
    });
    connect(m_compareView, &ComparisonView::newComparisonRequested, this, &MainWindow::newComparison);
    connect(m_compareView, &ComparisonView::activated, this, &MainWindow::showCompareArea);
    connect(m_compareView, &ComparisonView::runningChanged, this, [this] { setRunning(m_runner->isRunning()); });

    m_areaTabs = new QTabWidget;
    m_areaTabs->setObjectName(QStringLiteral("areaTabs"));
    m_areaTabs->setDocumentMode(true);
    m_areaTabs->addTab(m_mainSplitter, tr("Test"));
    m_areaTabs->addTab(m_compareView, tr("Compare"));
    return m_areaTabs;
}

QWidget *MainWindow::createTestArea()
{
    m_panel = new TestPanel;
    m_panel->setRunActions(m_runAction, m_stopAction);
    auto *panelScroll = new QScrollArea;
    panelScroll->setWidget(m_panel);
    panelScroll->setWidgetResizable(true);
    panelScroll->setFrameShape(QFrame::NoFrame);
    panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    panelScroll->setMinimumWidth(std::max(m_panel->minimumWidth(), m_panel->minimumSizeHint().width()) +
                                 panelScroll->verticalScrollBar()->sizeHint().width());

    m_banner = new nb::ui::MessageBanner;

    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("testProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progressLabel = new QLabel(tr("Ready"));
    m_progressLabel->setObjectName(QStringLiteral("progressLabel"));
    m_progressLabel->setMinimumWidth(
        m_progressLabel->fontMetrics().horizontalAdvance(QStringLiteral("888.8 s of 888.8 s, 888 s left")));
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_progressLabel);

    m_chart = new nb::ui::LiveTestChart;
    m_chart->setObjectName(QStringLiteral("liveTestChart"));
    connect(m_streamsAction, &QAction::toggled, m_chart, &nb::ui::LiveTestChart::setShowStreams);
    m_rrChart = new nb::ui::RrChart;
    m_rrChart->setObjectName(QStringLiteral("rrChart"));
    m_cpuChart = new nb::ui::CpuChart;
    m_cpuChart->setObjectName(QStringLiteral("cpuChart"));

    m_chartTabs = new QTabWidget;
    m_chartTabs->setObjectName(QStringLiteral("chartTabs"));
    m_chartTabs->setDocumentMode(true);
    m_chartTabs->addTab(m_chart, tr("Throughput"));
    m_chartTabs->addTab(m_rrChart, tr("Request/response"));
    auto *cpuBox = new QTabWidget;
    cpuBox->setDocumentMode(true);
    cpuBox->addTab(m_cpuChart, tr("CPU"));

    auto *chartSplitter = new QSplitter(Qt::Horizontal);
    chartSplitter->addWidget(m_chartTabs);
    chartSplitter->addWidget(cpuBox);
    chartSplitter->setStretchFactor(0, 3);
    chartSplitter->setStretchFactor(1, 2);
    chartSplitter->setChildrenCollapsible(false);

    m_summary = new nb::ui::ResultsSummary;
    m_summary->setObjectName(QStringLiteral("resultsSummary"));
    auto *summaryScroll = new QScrollArea;
    summaryScroll->setWidget(m_summary);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    summaryScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_streamModel = new nb::ui::StreamResultsModel(this);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_streamModel);
    proxy->setSortRole(nb::ui::StreamResultsModel::SortRole);
    m_streamTable = new QTableView;
    m_streamTable->setObjectName(QStringLiteral("streamTable"));
    m_streamTable->setModel(proxy);
    m_streamTable->setSortingEnabled(true);
    m_streamTable->sortByColumn(nb::ui::StreamResultsModel::StreamId, Qt::AscendingOrder);
    m_streamTable->verticalHeader()->hide();
    m_streamTable->setAlternatingRowColors(true);
    m_streamTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_streamTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_streamTable->horizontalHeader()->setStretchLastSection(true);

    auto *resultsBox = new QSplitter(Qt::Horizontal);
    resultsBox->addWidget(summaryScroll);
    resultsBox->addWidget(m_streamTable);
    resultsBox->setStretchFactor(0, 3);
    resultsBox->setStretchFactor(1, 2);
    resultsBox->setSizes({480, 320});
    resultsBox->setChildrenCollapsible(false);

    m_rightSplitter = new QSplitter(Qt::Vertical);
    m_rightSplitter->addWidget(chartSplitter);
    m_rightSplitter->addWidget(resultsBox);
    m_rightSplitter->setStretchFactor(0, 3);
    m_rightSplitter->setStretchFactor(1, 2);
    m_rightSplitter->setChildrenCollapsible(false);

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(6, 4, 6, 0);
    rightLayout->addWidget(m_banner);
    rightLayout->addLayout(progressRow);
    rightLayout->addWidget(m_rightSplitter, 1);

    m_testSplitter = new QSplitter(Qt::Horizontal);
    m_testSplitter->addWidget(panelScroll);
    m_testSplitter->addWidget(right);
    m_testSplitter->setStretchFactor(0, 0);
    m_testSplitter->setStretchFactor(1, 1);
    m_testSplitter->setChildrenCollapsible(false);
    return m_testSplitter;
}

bool MainWindow::startBuiltinServer()
{
    QString error;
    if (!m_server->start(&error)) {
        m_serverLabel->setText(tr("No built-in server: %1").arg(error));
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Warning,
                              tr("%1 Tests against other computers still work.").arg(sentence(error)));
        return false;
    }
    m_panel->setLoopbackPort(m_server->port());
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

bool MainWindow::isTestRunning() const
{
    return m_runner->isRunning();
}

void MainWindow::runFromPanel()
{
    if (m_runner->isRunning())
        return;
    if (m_compareController->isRunning()) {
        m_banner->showMessage(
            nb::ui::MessageBanner::Kind::Information,
            tr("A comparison is running (Compare tab): stop it or wait for it before starting a test."));
        return;
    }
    QList<nb::TestParams> plan;
    QString error;
    if (!m_panel->testPlan(&plan, &error)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, sentence(error));
        return;
    }
    m_panel->rememberCurrentTarget();
    startPlan(plan);
}

void MainWindow::runTest(nb::TestParams params)
{
    if (params.host.isEmpty()) {
        m_panel->selectLoopback();
        params.host = BuiltinServer::address();
        params.port = m_server->port();
        nb::TestParams shown = params;
        shown.host.clear();
        m_panel->setParams(shown);
    } else {
        m_panel->setParams(params);
    }
    startPlan({params});
}

void MainWindow::startPlan(const QList<nb::TestParams> &plan)
{
    if (m_runner->isRunning() || plan.isEmpty()) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("A test is already running."));
        return;
    }
    if (m_compareController->isRunning()) {
        m_banner->showMessage(
            nb::ui::MessageBanner::Kind::Information,
            tr("A comparison is running (Compare tab): stop it or wait for it before starting a test."));
        return;
    }
    m_plan = plan;
    m_planIndex = 0;
    m_stopRequested = false;
    m_planResults.clear();
    m_planSeconds = 0;
    for (const nb::TestParams &p : plan)
        m_planSeconds += p.omit + p.duration;
    m_doneSeconds = 0;
    m_timeOffset = 0;
    m_banner->dismiss();
    m_summary->clear();
    m_summary->showLive(0, 0);
    m_streamModel->clear();
    const nb::TestParams &first = plan.constFirst();
    const bool anyStream =
        std::any_of(plan.cbegin(), plan.cend(), [](const nb::TestParams &p) { return !p.isRequestResponse(); });
    const bool anyRr =
        std::any_of(plan.cbegin(), plan.cend(), [](const nb::TestParams &p) { return p.isRequestResponse(); });
    m_chart->startTest(anyStream ? (first.isTimed() ? first.duration : 0.0) : 10.0);
    if (!anyStream)
        m_chart->setPlaceholderText(tr("A request/response test: see its tab"));
    m_rrChart->startTest(anyRr ? plan.constLast().duration : 10.0);
    if (!anyRr)
        m_rrChart->setPlaceholderText(tr("A throughput test: see its tab"));
    // Request/response has no streams to list; the summary gets the room.
    m_streamTable->setVisible(anyStream);
    m_cpuChart->startTest(first.isTimed() ? m_planSeconds : 0.0);
    m_chartTabs->setCurrentWidget(first.isRequestResponse() ? static_cast<QWidget *>(m_rrChart) : m_chart);
    setRunning(true);
    startNext();
}

void MainWindow::startNext()
{
    const nb::TestParams &params = m_plan.at(m_planIndex);
    if (!m_runner->start(params))
        return;
    m_current = params;
    m_dataFlowing = false;
    m_lastIntervalEnd = 0;
    if (m_planIndex > 0)
        m_chartTabs->setCurrentWidget(params.isRequestResponse() ? static_cast<QWidget *>(m_rrChart) : m_chart);
    const QString step = m_plan.size() > 1 ? tr(" (test %1 of %2)").arg(m_planIndex + 1).arg(m_plan.size()) : QString();
    m_progressLabel->setText(tr("Connecting to %1 port %2...%3").arg(params.host).arg(params.port).arg(step));
    if (m_planIndex == 0)
        m_progress->setValue(0);
}

void MainWindow::onStarted(const nb::TestResult &header)
{
    m_dataFlowing = true;
    m_clock.start();
    m_progressTimer.start();
    updateProgress();
    selectTestAdapter(header);
}

void MainWindow::selectTestAdapter(const nb::TestResult &header)
{
    // Show the adapter the test actually leaves through, so its graph fills up.
    std::optional<nb::AdapterInfo> adapter = header.localAdapter;
    if (!adapter && !header.connections.isEmpty())
        adapter =
            nb::adapterForLocalAddress(QHostAddress(header.connections.constFirst().localHost), m_monitor->adapters());
    if (!adapter) {
        const QHostAddress target(m_current.host);
        if (!target.isNull() && target.isLoopback())
            adapter = nb::adapterForLocalAddress(target, m_monitor->adapters());
    }
    if (adapter)
        m_adapterList->selectAdapter(adapter->name);
}

void MainWindow::onIntervals(const QList<nb::IntervalReport> &batch)
{
    for (const nb::IntervalReport &r : batch) {
        if (r.hasCpu)
            m_cpuChart->addSample(r.cpu, m_timeOffset);
    }
    if (m_current.isRequestResponse()) {
        m_rrChart->addIntervals(batch);
        const nb::IntervalReport &last = batch.constLast();
        if (last.hasRr)
            m_summary->showLiveText(tr("Transactions %1, p99 %2")
                                        .arg(nb::ui::formatTransactionsPerSecond(last.rr.transactionsPerSecond()),
                                             nb::ui::formatLatencyUs(last.rr.latencyUs.p99)));
        return;
    }
    m_chart->addIntervals(batch);
    for (auto it = batch.crbegin(); it != batch.crend(); ++it) {
        const bool hasSend = it->hasDirection(true);
        const bool hasReceive = it->hasDirection(false);
        const nb::IntervalSum send = hasSend ? it->sum(true) : nb::IntervalSum();
        const nb::IntervalSum receive = hasReceive ? it->sum(false) : nb::IntervalSum();
        if ((hasSend && send.omitted) || (hasReceive && receive.omitted))
            continue;
        m_summary->showLive(hasSend ? send.bitsPerSecond() : 0, hasReceive ? receive.bitsPerSecond() : 0);
        m_lastIntervalEnd = std::max(send.end, receive.end);
        break;
    }
}

void MainWindow::updateProgress()
{
    if (!m_dataFlowing)
        return;
    const double elapsed = m_doneSeconds + m_clock.elapsed() / 1000.0;
    const double total = m_planSeconds;
    if (!m_current.isTimed()) {
        m_progress->setRange(0, 0); // a byte count has no known end time
        m_progressLabel->setText(tr("%1 s").arg(QString::number(elapsed, 'f', 0)));
        return;
    }
    m_progress->setRange(0, 1000);
    const double fraction = total > 0 ? std::clamp(elapsed / total, 0.0, 0.999) : 0.0;
    m_progress->setValue(int(fraction * 1000));
    const double left = std::max(0.0, total - elapsed);
    m_progressLabel->setText(tr("%1 s of %2 s, %3 s left")
                                 .arg(QString::number(std::min(elapsed, total), 'f', 0), QString::number(total, 'g', 4),
                                      QString::number(std::ceil(left), 'f', 0)));
}

void MainWindow::onFinished(const nb::TestResult &result)
{
    m_progressTimer.stop();
    m_dataFlowing = false;
    nb::TestResult shown = result;
    if (m_server->isListening() && result.params.host == BuiltinServer::address() &&
        result.params.port == m_server->port() && !result.intervals.isEmpty())
        shown.warnings.append(tr("The built-in server runs in this process, so both CPU figures cover "
                                 "client and server together."));
    m_planResults.append(shown);
    if (result.remoteCpuKnown)
        m_cpuChart->setRemote(result.remoteCpuIntervals, result.remoteCpu, m_timeOffset);
    if (!result.isServerSide && !result.hasRr)
        m_streamModel->setResult(result);
    // "Both": the request/response test follows a throughput test that worked.
    if (result.ok() && !m_stopRequested && m_planIndex + 1 < m_plan.size()) {
        const nb::TestParams &done = m_plan.at(m_planIndex);
        m_doneSeconds += done.omit + done.duration;
        m_timeOffset += std::max(result.localCpu.seconds(), done.omit + done.duration);
        m_summary->showResults(m_planResults);
        ++m_planIndex;
        startNext();
        return;
    }
    finishPlan();
}

void MainWindow::finishPlan()
{
    setRunning(false);
    m_progress->setRange(0, 1000);
    const nb::TestResult &result = m_planResults.constLast();
    m_summary->showResults(m_planResults);
    if (result.ok()) {
        m_progress->setValue(1000);
        m_progressLabel->setText(tr("Finished"));
        statusBar()->showMessage(tr("Test finished: %1").arg(m_summary->toText().section(QLatin1Char('\n'), 0, 0)),
                                 10000);
    } else if (result.errorCode == nb::ErrorCode::Stopped) {
        m_progressLabel->setText(tr("Stopped"));
        if (m_chart->sampleCount() == 0)
            m_chart->setPlaceholderText(tr("Nothing measured"));
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("The test was stopped before data flowed."));
    } else {
        m_progressLabel->setText(tr("Failed"));
        if (m_chart->sampleCount() == 0)
            m_chart->setPlaceholderText(tr("Nothing measured"));
        if (m_rrChart->sampleCount() == 0)
            m_rrChart->setPlaceholderText(tr("Nothing measured"));
        if (m_cpuChart->sampleCount() == 0)
            m_cpuChart->setPlaceholderText(tr("Nothing measured"));
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, plainError(result));
    }
    writeJsonOutput();
    Q_EMIT testFinished(result);
}

void MainWindow::writeJsonOutput() const
{
    if (m_jsonOutputPath.isEmpty() || m_planResults.isEmpty())
        return;
    QJsonDocument doc;
    if (m_planResults.size() == 1) {
        doc.setObject(m_planResults.constFirst().toJson());
    } else {
        QJsonArray all;
        for (const nb::TestResult &r : m_planResults)
            all.append(r.toJson());
        doc.setObject(QJsonObject{{QStringLiteral("results"), all}});
    }
    QFile file(m_jsonOutputPath);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(doc.toJson()) < 0)
        qWarning("nicbench: cannot write %s: %s", qPrintable(m_jsonOutputPath), qPrintable(file.errorString()));
}

void MainWindow::setRunning(bool running)
{
    const bool comparing = m_compareController->isRunning();
    m_runAction->setEnabled(!running && !comparing);
    m_stopAction->setEnabled(running);
    m_panel->setEditingEnabled(!running);
    // One measurement at a time: a comparison waits for the test and the reverse.
    m_compareView->setTestRunning(running);
}

bool MainWindow::isComparing() const
{
    return m_compareController->isRunning();
}

ComparisonDialog *MainWindow::createComparisonDialog()
{
    auto *dialog = new ComparisonDialog(this);
    nb::TestParams base;
    QString error;
    if (!m_panel->params(&base, &error)) {
        base = nb::TestParams();
        base.host = BuiltinServer::address();
        base.port = m_server->port();
    }
    if (m_panel->isLoopbackSelected() || base.host.isEmpty()) {
        base.host = BuiltinServer::address();
        base.port = m_server->isListening() ? m_server->port() : base.port;
    }
    dialog->setBaseParams(base);
    dialog->setAdapters(m_monitor->adapters());
    dialog->setEndpoints({nb::MatrixEndpoint{base.bindAddress, base.host, std::nullopt, QString()}});
    return dialog;
}

void MainWindow::newComparison()
{
    if (m_runner->isRunning()) {
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

void MainWindow::showCompareArea()
{
    m_areaTabs->setCurrentWidget(m_compareView);
}

void MainWindow::copyResults()
{
    QApplication::clipboard()->setText(m_summary->toText());
    statusBar()->showMessage(tr("Results copied"), 3000);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About NicBench"),
                       tr("<b>NicBench %1</b><p>Network adapter benchmark: throughput, CPU cost and "
                          "adapter comparisons, compatible with iperf3.</p><p>License: GPL-3.0-or-later.</p>")
                           .arg(QStringLiteral(NICBENCH_VERSION)));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kMainSplitterKey, m_mainSplitter->saveState());
    settings.setValue(kRightSplitterKey, m_rightSplitter->saveState());
    settings.setValue(kAdapterSplitterKey, m_adapterSplitter->saveState());
    settings.setValue(kTestSplitterKey, m_testSplitter->saveState());
    settings.setValue(kStreamsKey, m_streamsAction->isChecked());
    // The runner's destructor waits for the engine; asking it to stop first keeps that short.
    m_runner->stop();
    m_compareController->stop();
    m_plan.clear();
    m_monitor->stop();
    QMainWindow::closeEvent(event);
}

} // namespace nb::gui
