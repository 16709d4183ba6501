// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/testview.h"
#include "core/format.h"

#include "testview/testpanel.h"
#include "testview/testrunner.h"
#include "window/builtinserver.h"

#include <adapters/adapterlist.h>
#include <adapters/adaptermonitor.h>
#include <adapters/adapterpanel.h>
#include <common/messagebanner.h>
#include <common/ratescale.h>
#include <common/rrformat.h>
#include <live/cpuchart.h>
#include <live/livetestchart.h>
#include <live/loadedlatencychart.h>
#include <live/rrchart.h>
#include <live/udpchart.h>
#include <results/resultssummary.h>
#include <results/streamresultsmodel.h>
#include <results/streamtable.h>

#include <QAction>
#include <QEvent>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
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
    // The utilization graph gets 2/5 of the height (about 270 px at 720p), as Task Manager
    // gives its graph most of the page; double-clicking it takes 60%.
    m_adapterSplitter->setStretchFactor(0, 2);
    m_adapterSplitter->setStretchFactor(1, 3);
    m_adapterSplitter->setSizes({270, 385});
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
    connect(m_adapterPanel, &nb::ui::AdapterPanel::expandedChanged, this, [this](bool expanded) {
        const int total = m_adapterSplitter->height();
        const int panel = expanded ? total * 3 / 5 : total * 2 / 5;
        m_adapterSplitter->setSizes({panel, total - panel});
    });
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
    m_runAction = new QAction(tr("&Run"), this);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setShortcutContext(Qt::WindowShortcut);
    m_runAction->setToolTip(tr("Run the test (Ctrl+R)"));
    connect(m_runAction, &QAction::triggered, this, &TestView::runFromPanel);

    m_stopAction = new QAction(tr("&Stop"), this);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_stopAction->setToolTip(tr("Stop the test and keep what was measured (Esc)"));
    connect(m_stopAction, &QAction::triggered, this, &TestView::stop);

    updateActionIcons();

    m_saveAction = new QAction(tr("&Save Result As..."), this);
    m_saveAction->setObjectName(QStringLiteral("saveResultAction"));
    m_saveAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_saveAction->setToolTip(tr("Save the test's results: the -J document (JSON), every interval (CSV) or a "
                                "one-page report (PDF)"));
    connect(m_saveAction, &QAction::triggered, this, &TestView::saveResultsWithDialog);

    m_streamsAction = new QAction(tr("Show &Each Stream"), this);
    m_streamsAction->setCheckable(true);
    m_streamsAction->setToolTip(tr("One thin line per stream in the throughput chart"));
}

void TestView::updateActionIcons()
{
    // Drawn in the palette's text colour: the style's stock media icons are black, which
    // vanishes on the dark palette.
    auto draw = [this](bool play) {
        QIcon icon;
        for (int size : {16, 24, 32}) {
            for (QIcon::Mode mode : {QIcon::Normal, QIcon::Disabled}) {
                QPixmap pixmap(size, size);
                pixmap.fill(Qt::transparent);
                QPainter p(&pixmap);
                p.setRenderHint(QPainter::Antialiasing);
                const QPalette::ColorGroup group = mode == QIcon::Disabled ? QPalette::Disabled : QPalette::Active;
                p.setPen(Qt::NoPen);
                p.setBrush(palette().color(group, QPalette::ButtonText));
                const double m = size * 0.2;
                if (play) {
                    const QPointF tri[] = {{m, m * 0.8}, {size - m * 0.8, size / 2.0}, {m, size - m * 0.8}};
                    p.drawPolygon(tri, 3);
                } else {
                    p.drawRect(QRectF(m, m, size - 2 * m, size - 2 * m));
                }
                p.end();
                icon.addPixmap(pixmap, mode);
            }
        }
        return icon;
    };
    m_runAction->setIcon(draw(true));
    m_stopAction->setIcon(draw(false));
}

void TestView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange && m_runAction)
        updateActionIcons();
    QWidget::changeEvent(event);
}

// The Test view: the settings panel on the left; on the right the banner, the progress row,
// the charts over the results.
QWidget *TestView::createTestArea()
{
    QWidget *panelScroll = createPanelColumn();
    m_banner = new nb::ui::MessageBanner;
    QLayout *progressRow = createProgressRow();
    QWidget *chartSplitter = createChartArea();
    QWidget *resultsBox = createResultsArea();

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

QWidget *TestView::createPanelColumn()
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
    return panelScroll;
}

QLayout *TestView::createProgressRow()
{
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
    return progressRow;
}

// The live charts: one tab per kind of test, the CPU beside them.
QWidget *TestView::createChartArea()
{
    m_chart = new nb::ui::LiveTestChart;
    m_chart->setObjectName(QStringLiteral("liveTestChart"));
    connect(m_streamsAction, &QAction::toggled, m_chart, &nb::ui::LiveTestChart::setShowStreams);
    m_rrChart = new nb::ui::RrChart;
    m_rrChart->setObjectName(QStringLiteral("rrChart"));
    m_loadedChart = new nb::ui::LoadedLatencyChart;
    m_loadedChart->setObjectName(QStringLiteral("loadedLatencyChart"));
    m_udpChart = new nb::ui::UdpChart;
    m_udpChart->setObjectName(QStringLiteral("udpChart"));
    m_cpuChart = new nb::ui::CpuChart;
    m_cpuChart->setObjectName(QStringLiteral("cpuChart"));

    m_chartTabs = new QTabWidget;
    m_chartTabs->setObjectName(QStringLiteral("chartTabs"));
    m_chartTabs->setDocumentMode(true);
    m_chartTabs->addTab(m_chart, tr("Throughput"));
    m_chartTabs->addTab(m_rrChart, tr("Request/response"));
    m_chartTabs->addTab(m_loadedChart, tr("Latency under load"));
    m_chartTabs->addTab(m_udpChart, tr("UDP"));
    auto *cpuBox = new QTabWidget;
    cpuBox->setDocumentMode(true);
    cpuBox->addTab(m_cpuChart, tr("CPU"));

    auto *chartSplitter = new QSplitter(Qt::Horizontal);
    chartSplitter->addWidget(m_chartTabs);
    chartSplitter->addWidget(cpuBox);
    chartSplitter->setStretchFactor(0, 3);
    chartSplitter->setStretchFactor(1, 2);
    chartSplitter->setChildrenCollapsible(false);
    return chartSplitter;
}

// The summary beside the per-stream table.
QWidget *TestView::createResultsArea()
{
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
    // Sizes its own columns: never a horizontal scroll bar (review minor 7).
    m_streamTable = new nb::ui::StreamTableView;
    m_streamTable->setObjectName(QStringLiteral("streamTable"));
    m_streamTable->setModel(proxy);
    m_streamTable->setSortingEnabled(true);
    m_streamTable->sortByColumn(nb::ui::StreamResultsModel::StreamId, Qt::AscendingOrder);
    m_streamTable->setSelectionBehavior(QAbstractItemView::SelectRows);

    auto *resultsBox = new QSplitter(Qt::Horizontal);
    resultsBox->addWidget(summaryScroll);
    resultsBox->addWidget(m_streamTable);
    resultsBox->setStretchFactor(0, 3);
    resultsBox->setStretchFactor(1, 2);
    resultsBox->setSizes({480, 320});
    resultsBox->setChildrenCollapsible(false);
    return resultsBox;
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
    QString target = m_panel->isLoopbackSelected() ? tr("this computer") : m_current.host;
    if (!m_agentFrom.isEmpty())
        target = tr("%1 from %2").arg(target, m_agentFrom);
    if (m_current.udp && !m_current.isRequestResponse()) {
        const QString rate =
            m_current.bandwidth > 0 ? nb::formatBitrate(double(m_current.bandwidth)) : tr("unlimited rate");
        return m_current.streams == 1 ? tr("UDP at %1 to %2").arg(rate, target)
                                      : tr("UDP at %1, %2 streams to %3").arg(rate).arg(m_current.streams).arg(target);
    }
    if (m_current.isRequestResponse() && m_current.udp)
        return tr("UDP request/response to %1").arg(target);
    if (m_current.isRequestResponse())
        return m_current.connections() == 1
                   ? tr("request/response to %1").arg(target)
                   : tr("request/response, %1 connections to %2").arg(m_current.connections()).arg(target);
    return m_current.streams == 1 ? tr("1 stream to %1").arg(target)
                                  : tr("%1 streams to %2").arg(m_current.streams).arg(target);
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
    m_saveAction->setEnabled(!running && !m_planResults.isEmpty());
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
