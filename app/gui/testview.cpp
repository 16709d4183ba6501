// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview.h"

#include "builtinserver.h"
#include "testpanel.h"
#include "testrunner.h"

#include <adapterlist.h>
#include <adaptermonitor.h>
#include <adapterpanel.h>
#include <cpuchart.h>
#include <livetestchart.h>
#include <messagebanner.h>
#include <resultssummary.h>
#include <rrchart.h>
#include <rrformat.h>
#include <streamresultsmodel.h>

#include <QAction>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QProgressBar>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace nb::gui {

namespace {

// "v2": the layout gained the adapter column; older splitter states do not fit it.
const auto kMainSplitterKey = QStringLiteral("window/v2/mainSplitter");
const auto kRightSplitterKey = QStringLiteral("window/v2/rightSplitter");
const auto kAdapterSplitterKey = QStringLiteral("window/v2/adapterSplitter");
const auto kTestSplitterKey = QStringLiteral("window/v2/testSplitter");
const auto kStreamsKey = QStringLiteral("view/showStreams");
const auto kAdapterKey = QStringLiteral("test/selectedAdapter");

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

TestView::TestView(BuiltinServer *server, QWidget *parent)
    : QWidget(parent)
    , m_server(server)
    , m_runner(new TestRunner(this))
    , m_monitor(new nb::ui::AdapterMonitor(this))
{
    setObjectName(QStringLiteral("testView"));
    createActions();

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

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_mainSplitter);

    connect(m_runner, &TestRunner::started, this, &TestView::onStarted);
    connect(m_runner, &TestRunner::intervalsReady, this, &TestView::onIntervals);
    connect(m_runner, &TestRunner::finished, this, &TestView::onFinished);
    connect(m_runner, &TestRunner::message, this, [this](const QString &text) {
        if (!m_dataFlowing)
            m_progressLabel->setText(text);
    });
    connect(m_panel, &TestPanel::runRequested, this, &TestView::runFromPanel);
    m_progressTimer.setInterval(200);
    connect(&m_progressTimer, &QTimer::timeout, this, &TestView::updateProgress);

    m_adapterList->setMonitor(m_monitor);
    m_adapterPanel->setMonitor(m_monitor);
    connect(m_adapterList, &nb::ui::AdapterList::currentAdapterChanged, m_adapterPanel,
            &nb::ui::AdapterPanel::setAdapter);
    connect(m_monitor, &nb::ui::AdapterMonitor::adaptersChanged, this,
            [this] { m_panel->setAdapters(m_monitor->adapters()); });
    m_monitor->start();
    m_adapterPanel->setAdapter(m_adapterList->currentAdapter());
    selectTargetAdapter();
    setRunning(false);
}

TestView::~TestView() = default;

void TestView::createActions()
{
    m_runAction = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setShortcutContext(Qt::WindowShortcut);
    m_runAction->setToolTip(tr("Run the test (Ctrl+R)"));
    connect(m_runAction, &QAction::triggered, this, &TestView::runFromPanel);

    m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopAction->setToolTip(tr("Stop the test and keep what was measured (Esc)"));
    connect(m_stopAction, &QAction::triggered, this, &TestView::stop);

    m_streamsAction = new QAction(tr("Show &Each Stream"), this);
    m_streamsAction->setCheckable(true);
    m_streamsAction->setToolTip(tr("One thin line per stream in the throughput chart"));
}

QWidget *TestView::createTestArea()
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
        m_progressLabel->fontMetrics().horizontalAdvance(QStringLiteral("Stopped after 888.8 s of 888.8 s")));
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

void TestView::builtinServerStarted()
{
    if (m_server->isListening())
        m_panel->setLoopbackPort(m_server->port());
    selectTargetAdapter();
}

void TestView::selectTargetAdapter()
{
    // The adapter the next test will leave through: loopback for the built-in server, the
    // "From" address's adapter when one is chosen, else the routing table's choice is not
    // known before connecting and the last selection stays.
    const QList<nb::AdapterInfo> adapters = m_monitor->adapters();
    std::optional<nb::AdapterInfo> adapter;
    const QHostAddress from(m_panel->bindAddress());
    if (!from.isNull())
        adapter = nb::adapterForLocalAddress(from, adapters);
    if (!adapter && m_panel->isLoopbackSelected())
        adapter = nb::adapterForLocalAddress(QHostAddress(BuiltinServer::address()), adapters);
    if (!adapter) {
        nb::TestParams p;
        QString ignored;
        if (m_panel->params(&p, &ignored)) {
            const QHostAddress target(p.host);
            if (!target.isNull() && target.isLoopback())
                adapter = nb::adapterForLocalAddress(target, adapters);
        }
    }
    if (adapter)
        m_adapterList->selectAdapter(adapter->name);
}

bool TestView::isRunning() const
{
    return m_runner->isRunning();
}

QString TestView::runningDescription() const
{
    if (!m_runner->isRunning())
        return {};
    const QString target = m_panel->isLoopbackSelected() ? tr("this computer") : m_current.host;
    if (m_current.isRequestResponse())
        return m_current.connections() == 1
                   ? tr("request/response to %1").arg(target)
                   : tr("request/response, %1 connections to %2").arg(m_current.connections()).arg(target);
    return m_current.streams == 1 ? tr("1 stream to %1").arg(target)
                                  : tr("%1 streams to %2").arg(m_current.streams).arg(target);
}

void TestView::stop()
{
    if (!m_runner->isRunning())
        return;
    m_stopRequested = true; // also cancels the rest of a "both" run
    m_stoppedAt = m_dataFlowing ? elapsedSeconds() : -1;
    m_runner->stop();
}

void TestView::runFromPanel()
{
    if (m_runner->isRunning())
        return;
    if (const QString why = m_startGuard ? m_startGuard() : QString(); !why.isEmpty()) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, why);
        return;
    }
    QList<nb::TestParams> plan;
    QString error;
    if (!m_panel->testPlan(&plan, &error)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, sentence(error));
        return;
    }
    m_panel->rememberCurrentTarget();
    QSettings settings;
    m_panel->saveState(settings);
    startPlan(plan);
}

void TestView::runTest(nb::TestParams params)
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

void TestView::startPlan(const QList<nb::TestParams> &plan)
{
    if (m_runner->isRunning() || plan.isEmpty()) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("A test is already running."));
        return;
    }
    if (const QString why = m_startGuard ? m_startGuard() : QString(); !why.isEmpty()) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, why);
        return;
    }
    m_plan = plan;
    m_planIndex = 0;
    m_stopRequested = false;
    m_stoppedAt = -1;
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
    m_current = first;
    setRunning(true);
    startNext();
}

void TestView::startNext()
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
    Q_EMIT runningChanged(true); // the description changed
}

void TestView::onStarted(const nb::TestResult &header)
{
    m_dataFlowing = true;
    m_clock.start();
    m_progressTimer.start();
    updateProgress();
    selectTestAdapter(header);
}

void TestView::selectTestAdapter(const nb::TestResult &header)
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

void TestView::onIntervals(const QList<nb::IntervalReport> &batch)
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

double TestView::elapsedSeconds() const
{
    return m_doneSeconds + m_clock.elapsed() / 1000.0;
}

QString TestView::secondsText(double seconds)
{
    const double tenths = std::round(seconds * 10) / 10;
    return QString::number(tenths, 'f', tenths == std::floor(tenths) ? 0 : 1);
}

QString TestView::progressText(double elapsedSeconds, double totalSeconds)
{
    // Whole seconds shown, and the rest of the total after them: 1 s of 6 s, 5 s left.
    const double shown = std::clamp(std::floor(elapsedSeconds), 0.0, totalSeconds);
    const double left = std::max(0.0, totalSeconds - shown);
    if (left <= 0)
        return tr("%1 s of %1 s").arg(secondsText(totalSeconds));
    return tr("%1 s of %2 s, %3 s left").arg(secondsText(shown), secondsText(totalSeconds), secondsText(left));
}

void TestView::updateProgress()
{
    if (!m_dataFlowing)
        return;
    const double elapsed = elapsedSeconds();
    const double total = m_planSeconds;
    if (!m_current.isTimed()) {
        m_progress->setRange(0, 0); // a byte count has no known end time
        m_progressLabel->setText(tr("%1 s").arg(QString::number(std::floor(elapsed), 'f', 0)));
        return;
    }
    m_progress->setRange(0, 1000);
    const double fraction = total > 0 ? std::clamp(elapsed / total, 0.0, 1.0) : 0.0;
    m_progress->setValue(int(fraction * 1000));
    m_progressLabel->setText(progressText(elapsed, total));
}

void TestView::onFinished(const nb::TestResult &result)
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

void TestView::finishPlan()
{
    setRunning(false);
    m_progress->setRange(0, 1000);
    const nb::TestResult &result = m_planResults.constLast();
    // A user's Stop after data flowed keeps the data, and says how far the run got.
    const bool stoppedByUser = m_stopRequested && m_stoppedAt >= 0 && result.errorCode != nb::ErrorCode::Stopped &&
                               (result.ok() || !result.intervals.isEmpty());
    if (stoppedByUser) {
        const nb::TestParams &p = m_plan.at(m_planIndex);
        const double inTest = std::clamp(m_stoppedAt - m_doneSeconds, 0.0, p.omit + p.duration);
        m_summary->showResults(m_planResults, p.isTimed() ? inTest : -1);
    } else {
        m_summary->showResults(m_planResults);
    }
    if (stoppedByUser && m_current.isTimed()) {
        const QString text = tr("Stopped after %1 s of %2 s")
                                 .arg(secondsText(std::min(m_stoppedAt, m_planSeconds)), secondsText(m_planSeconds));
        m_progress->setValue(int(std::clamp(m_stoppedAt / m_planSeconds, 0.0, 1.0) * 1000));
        m_progressLabel->setText(text);
        Q_EMIT statusMessage(tr("Test stopped after %1 s of %2 s: %3")
                                 .arg(secondsText(std::min(m_stoppedAt, m_planSeconds)), secondsText(m_planSeconds),
                                      m_summary->toText().section(QLatin1Char('\n'), 0, 0)),
                             10000);
    } else if (stoppedByUser) {
        m_progressLabel->setText(tr("Stopped after %1 s").arg(secondsText(m_stoppedAt)));
        Q_EMIT statusMessage(tr("Test stopped after %1 s").arg(secondsText(m_stoppedAt)), 10000);
    } else if (result.ok()) {
        m_progress->setValue(1000);
        m_progressLabel->setText(m_current.isTimed() ? tr("Finished: %1").arg(progressText(m_planSeconds, m_planSeconds))
                                                     : tr("Finished"));
        Q_EMIT statusMessage(tr("Test finished: %1").arg(m_summary->toText().section(QLatin1Char('\n'), 0, 0)),
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

void TestView::writeJsonOutput() const
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
    QSaveFile file(m_jsonOutputPath);
    if (!file.open(QIODevice::WriteOnly) || file.write(doc.toJson()) < 0 || !file.commit())
        qWarning("nicbench: cannot write %s: %s", qPrintable(m_jsonOutputPath), qPrintable(file.errorString()));
}

void TestView::updateActions()
{
    setRunning(m_runner->isRunning());
}

void TestView::setRunning(bool running)
{
    const bool blocked = m_startGuard && !m_startGuard().isEmpty();
    m_runAction->setEnabled(!running && !blocked);
    m_stopAction->setEnabled(running);
    m_panel->setEditingEnabled(!running);
    Q_EMIT runningChanged(running);
}

void TestView::saveSettings(QSettings &settings) const
{
    settings.setValue(kMainSplitterKey, m_mainSplitter->saveState());
    settings.setValue(kRightSplitterKey, m_rightSplitter->saveState());
    settings.setValue(kAdapterSplitterKey, m_adapterSplitter->saveState());
    settings.setValue(kTestSplitterKey, m_testSplitter->saveState());
    settings.setValue(kStreamsKey, m_streamsAction->isChecked());
    settings.setValue(kAdapterKey, m_adapterList->currentAdapter());
    m_panel->saveState(settings);
}

void TestView::restoreSettings(const QSettings &settings)
{
    m_mainSplitter->restoreState(settings.value(kMainSplitterKey).toByteArray());
    m_rightSplitter->restoreState(settings.value(kRightSplitterKey).toByteArray());
    m_adapterSplitter->restoreState(settings.value(kAdapterSplitterKey).toByteArray());
    m_testSplitter->restoreState(settings.value(kTestSplitterKey).toByteArray());
    m_streamsAction->setChecked(settings.value(kStreamsKey, false).toBool());
    m_panel->restoreState(settings);
    // The saved adapter first; the one that carries the restored target wins over it.
    const QString adapter = settings.value(kAdapterKey).toString();
    if (!adapter.isEmpty())
        m_adapterList->selectAdapter(adapter);
    selectTargetAdapter();
}

void TestView::prepareClose()
{
    // The runner's destructor waits for the engine; asking it to stop first keeps that short.
    m_runner->stop();
    m_plan.clear();
    m_monitor->stop();
}

} // namespace nb::gui
