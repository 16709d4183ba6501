// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "builtinserver.h"
#include "testpanel.h"
#include "testrunner.h"

#include <livetestchart.h>
#include <messagebanner.h>
#include <ratescale.h>
#include <resultssummary.h>
#include <streamresultsmodel.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QHeaderView>
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
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace nb::gui {

namespace {

const auto kGeometryKey = QStringLiteral("window/geometry");
const auto kMainSplitterKey = QStringLiteral("window/mainSplitter");
const auto kRightSplitterKey = QStringLiteral("window/rightSplitter");
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
    const QString e = result.error;
    QString text = sentence(e);
    const QString lower = e.toLower();
    if (lower.contains(QLatin1String("refused")))
        text += QObject::tr(" Nothing is listening there: start a server on that computer "
                            "(nicbench-cli -s or iperf3 -s) or check the port.");
    else if (lower.contains(QLatin1String("timed out")) || lower.contains(QLatin1String("unreachable")))
        text += QObject::tr(" Check the address, the network path and any firewall in between.");
    else if (lower.contains(QLatin1String("resolve")) || lower.contains(QLatin1String("name or service")))
        text += QObject::tr(" Check the host name.");
    if (!result.intervals.isEmpty())
        text += QObject::tr(" What was measured before that is kept below.");
    return text;
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_server(new BuiltinServer(this))
    , m_runner(new TestRunner(this))
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

    QSettings settings;
    if (!restoreGeometry(settings.value(kGeometryKey).toByteArray()))
        resize(1240, 700);
    m_mainSplitter->restoreState(settings.value(kMainSplitterKey).toByteArray());
    m_rightSplitter->restoreState(settings.value(kRightSplitterKey).toByteArray());
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
    connect(m_stopAction, &QAction::triggered, m_runner, &TestRunner::stop);

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

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_streamsAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About NicBench"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QWidget *MainWindow::createCentral()
{
    m_panel = new TestPanel;
    m_panel->setRunActions(m_runAction, m_stopAction);
    auto *panelScroll = new QScrollArea;
    panelScroll->setWidget(m_panel);
    panelScroll->setWidgetResizable(true);
    panelScroll->setFrameShape(QFrame::NoFrame);
    panelScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    panelScroll->setMinimumWidth(std::max(m_panel->minimumWidth(), m_panel->minimumSizeHint().width())
                                 + panelScroll->verticalScrollBar()->sizeHint().width());

    m_banner = new nb::ui::MessageBanner;

    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("testProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progressLabel = new QLabel(tr("Ready"));
    m_progressLabel->setObjectName(QStringLiteral("progressLabel"));
    m_progressLabel->setMinimumWidth(m_progressLabel->fontMetrics().horizontalAdvance(QStringLiteral("888.8 s of 888.8 s, 888 s left")));
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_progressLabel);

    m_chart = new nb::ui::LiveTestChart;
    m_chart->setObjectName(QStringLiteral("liveTestChart"));
    connect(m_streamsAction, &QAction::toggled, m_chart, &nb::ui::LiveTestChart::setShowStreams);

    auto *chartTitle = new QLabel(tr("Throughput per interval"));
    QFont titleFont = chartTitle->font();
    titleFont.setBold(true);
    chartTitle->setFont(titleFont);
    auto *chartBox = new QWidget;
    auto *chartLayout = new QVBoxLayout(chartBox);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(chartTitle);
    chartLayout->addWidget(m_chart, 1);

    m_summary = new nb::ui::ResultsSummary;
    m_summary->setObjectName(QStringLiteral("resultsSummary"));
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
    resultsBox->addWidget(m_summary);
    resultsBox->addWidget(m_streamTable);
    resultsBox->setStretchFactor(0, 2);
    resultsBox->setStretchFactor(1, 3);
    resultsBox->setSizes({330, 670});
    resultsBox->setChildrenCollapsible(false);

    m_rightSplitter = new QSplitter(Qt::Vertical);
    m_rightSplitter->addWidget(chartBox);
    m_rightSplitter->addWidget(resultsBox);
    m_rightSplitter->setStretchFactor(0, 3);
    m_rightSplitter->setStretchFactor(1, 2);
    m_rightSplitter->setChildrenCollapsible(false);

    auto *right = new QWidget;
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(6, 6, 6, 0);
    rightLayout->addWidget(m_banner);
    rightLayout->addLayout(progressRow);
    rightLayout->addWidget(m_rightSplitter, 1);

    m_mainSplitter = new QSplitter(Qt::Horizontal);
    m_mainSplitter->addWidget(panelScroll);
    m_mainSplitter->addWidget(right);
    m_mainSplitter->setStretchFactor(0, 0);
    m_mainSplitter->setStretchFactor(1, 1);
    m_mainSplitter->setChildrenCollapsible(false);
    return m_mainSplitter;
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
    nb::TestParams params;
    QString error;
    if (!m_panel->params(&params, &error)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, sentence(error));
        return;
    }
    m_panel->rememberCurrentTarget();
    startTest(params);
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
    startTest(params);
}

void MainWindow::startTest(const nb::TestParams &params)
{
    if (!m_runner->start(params)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("A test is already running."));
        return;
    }
    m_current = params;
    m_dataFlowing = false;
    m_lastIntervalEnd = 0;
    m_banner->dismiss();
    m_chart->startTest(params.bytes > 0 && params.duration <= 0 ? 0.0 : params.duration);
    m_summary->clear();
    m_summary->showLive(0, 0);
    m_streamModel->clear();
    m_progress->setValue(0);
    m_progressLabel->setText(tr("Connecting to %1 port %2...").arg(params.host).arg(params.port));
    setRunning(true);
}

void MainWindow::onStarted(const nb::TestResult &)
{
    m_dataFlowing = true;
    m_clock.start();
    m_progressTimer.start();
    updateProgress();
}

void MainWindow::onIntervals(const QList<nb::IntervalReport> &batch)
{
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
    const double elapsed = m_clock.elapsed() / 1000.0;
    const double total = m_current.omit + m_current.duration;
    if (m_current.bytes > 0 && m_current.duration <= 0) {
        m_progress->setRange(0, 0);   // a byte count has no known end time
        m_progressLabel->setText(tr("%1 s").arg(QString::number(elapsed, 'f', 0)));
        return;
    }
    m_progress->setRange(0, 1000);
    const double fraction = total > 0 ? std::clamp(elapsed / total, 0.0, 0.999) : 0.0;
    m_progress->setValue(int(fraction * 1000));
    const double left = std::max(0.0, total - elapsed);
    m_progressLabel->setText(tr("%1 s of %2 s, %3 s left")
                                 .arg(QString::number(std::min(elapsed, total), 'f', 0),
                                      QString::number(total, 'g', 4),
                                      QString::number(std::ceil(left), 'f', 0)));
}

void MainWindow::onFinished(const nb::TestResult &result)
{
    m_progressTimer.stop();
    m_dataFlowing = false;
    setRunning(false);
    m_progress->setRange(0, 1000);
    nb::TestResult shown = result;
    if (m_server->isListening() && result.params.host == BuiltinServer::address()
        && result.params.port == m_server->port() && !result.intervals.isEmpty())
        shown.warnings.append(tr("The built-in server runs in this process, so both CPU figures cover "
                                 "client and server together."));
    m_summary->showResult(shown);
    m_streamModel->setResult(result);
    if (result.ok()) {
        m_progress->setValue(1000);
        m_progressLabel->setText(tr("Finished"));
        statusBar()->showMessage(tr("Test finished: %1").arg(m_summary->toText().section(QLatin1Char('\n'), 0, 0)), 10000);
    } else if (result.error == QLatin1String("stopped")) {
        m_progressLabel->setText(tr("Stopped"));
        m_chart->setPlaceholderText(tr("Nothing measured"));
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("The test was stopped before data flowed."));
    } else {
        m_progressLabel->setText(tr("Failed"));
        m_chart->setPlaceholderText(tr("Nothing measured"));
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, plainError(result));
    }
    Q_EMIT testFinished(result);
}

void MainWindow::setRunning(bool running)
{
    m_runAction->setEnabled(!running);
    m_stopAction->setEnabled(running);
    m_panel->setEditingEnabled(!running);
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
    settings.setValue(kStreamsKey, m_streamsAction->isChecked());
    // The runner's destructor waits for the engine; asking it to stop first keeps that short.
    m_runner->stop();
    QMainWindow::closeEvent(event);
}

} // namespace nb::gui
