// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisonview.h"

#include "comparisoncontroller.h"
#include "comparisonreport.h"

#include <chartactions.h>
#include <compare/snapshot.h>
#include <comparisoncharts.h>
#include <comparisontablemodel.h>
#include <messagebanner.h>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace nb::gui {

namespace {

// The bar charts of the view, in grid order; only those with data are shown.
const QList<nb::Metric> kChartMetrics = {
    nb::Metric::Throughput,      nb::Metric::TransactionsPerSecond,
    nb::Metric::LatencyP50,      nb::Metric::LatencyP99,
    nb::Metric::LocalCpu,        nb::Metric::RemoteCpu,
    nb::Metric::LocalCpuPerGbps, nb::Metric::LocalServiceDemand,
};

const auto kSnapshotFilter =
    QT_TRANSLATE_NOOP("ComparisonView", "NicBench snapshots (*.nicbench *.nicbench.gz *.gz *.json);;All files (*)");

bool writeText(const QString &path, const QString &text, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace

QString snapshotSourceName(const QString &path, const nb::Comparison &c)
{
    QString name = QFileInfo(path).fileName();
    for (const QString &suffix : {QStringLiteral(".gz"), QStringLiteral(".nicbench"), QStringLiteral(".json")}) {
        if (name.endsWith(suffix))
            name.chop(suffix.size());
    }
    return name.isEmpty() ? c.title : name;
}

ComparisonView::ComparisonView(ComparisonController *controller, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
{
    setObjectName(QStringLiteral("comparisonView"));
    createActions();

    m_banner = new nb::ui::MessageBanner;
    m_banner->setObjectName(QStringLiteral("comparisonBanner"));

    m_toolbar = new QToolBar;
    m_toolbar->setObjectName(QStringLiteral("comparisonToolBar"));
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolbar->setIconSize(QSize(16, 16));
    m_toolbar->addAction(m_newAction);
    m_toolbar->addAction(m_openAction);
    m_toolbar->addAction(m_addAction);
    m_toolbar->addAction(m_saveAction);
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_rerunAction);
    m_toolbar->addAction(m_stopAction);
    m_toolbar->addSeparator();
    auto *exportButton = new QToolButton;
    exportButton->setText(tr("Export"));
    exportButton->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    exportButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    exportButton->setPopupMode(QToolButton::InstantPopup);
    exportButton->setMenu(m_exportMenu);
    m_toolbar->addWidget(exportButton);

    m_progressLabel = new QLabel;
    m_progressLabel->setObjectName(QStringLiteral("comparisonProgressLabel"));
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("comparisonProgress"));
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(320);
    m_progress->hide();
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_toolbar);
    progressRow->addStretch(1);
    progressRow->addWidget(m_progressLabel);
    progressRow->addWidget(m_progress, 1);

    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(createSidePanel());
    split->addWidget(createMainArea());
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({250, 1000});
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 0);
    layout->addLayout(progressRow);
    layout->addWidget(m_banner);
    layout->addWidget(split, 1);

    connect(m_controller, &ComparisonController::progress, this, [this](int done, int total, const QString &text) {
        m_progress->setRange(0, std::max(1, total));
        m_progress->setValue(done);
        m_progressLabel->setText(text);
    });
    connect(m_controller, &ComparisonController::runFinished, this, [this] { onRunFinished(); });
    connect(m_controller, &ComparisonController::finished, this, &ComparisonView::onFinished);
    refresh();
}

ComparisonView::~ComparisonView() = default;

void ComparisonView::createActions()
{
    m_newAction = new QAction(style()->standardIcon(QStyle::SP_FileIcon), tr("&New Comparison..."), this);
    m_newAction->setObjectName(QStringLiteral("newComparisonAction"));
    m_newAction->setIconText(tr("New"));
    m_newAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_newAction->setToolTip(tr("Compare adapters or settings: several configurations, each run several times"));
    connect(m_newAction, &QAction::triggered, this, &ComparisonView::newComparisonRequested);

    m_openAction = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Snapshot..."), this);
    m_openAction->setObjectName(QStringLiteral("openSnapshotAction"));
    m_openAction->setIconText(tr("Open"));
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, this, [this] { openWithDialog(false); });

    m_addAction = new QAction(tr("&Add Snapshot to Overlay..."), this);
    m_addAction->setObjectName(QStringLiteral("addSnapshotAction"));
    m_addAction->setIconText(tr("Overlay"));
    m_addAction->setIcon(style()->standardIcon(QStyle::SP_FileDialogNewFolder));
    m_addAction->setToolTip(tr("Show another snapshot in the same charts (before/after tuning)"));
    connect(m_addAction, &QAction::triggered, this, [this] { openWithDialog(true); });

    m_saveAction = new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save Snapshot As..."), this);
    m_saveAction->setObjectName(QStringLiteral("saveSnapshotAction"));
    m_saveAction->setIconText(tr("Save"));
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, this, &ComparisonView::saveWithDialog);

    m_rerunAction = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Re-run Configurations"), this);
    m_rerunAction->setObjectName(QStringLiteral("rerunComparisonAction"));
    m_rerunAction->setIconText(tr("Re-run"));
    m_rerunAction->setToolTip(tr("Run the selected source's configurations again, as a new comparison"));
    connect(m_rerunAction, &QAction::triggered, this, [this] { rerunConfigurations(); });

    m_stopAction = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("S&top Comparison"), this);
    m_stopAction->setObjectName(QStringLiteral("stopComparisonAction"));
    m_stopAction->setIconText(tr("Stop"));
    m_stopAction->setToolTip(tr("Stop after the current run; what was measured is kept"));
    connect(m_stopAction, &QAction::triggered, m_controller, &ComparisonController::stop);

    m_exportMenu = new QMenu(tr("&Export"), this);
    m_exportChartsAction =
        m_exportMenu->addAction(tr("&Charts (PNG, SVG, PDF)..."), this, &ComparisonView::exportChartsWithDialog);
    m_exportCsvAction = m_exportMenu->addAction(tr("Table as &CSV..."), this, [this] { exportTableWithDialog(false); });
    m_exportMarkdownAction =
        m_exportMenu->addAction(tr("Table as &Markdown..."), this, [this] { exportTableWithDialog(true); });
    m_exportMenu->addSeparator();
    m_exportReportAction = m_exportMenu->addAction(tr("&PDF Report..."), this, &ComparisonView::exportReportWithDialog);
}

void ComparisonView::populateMenu(QMenu *menu) const
{
    menu->addAction(m_newAction);
    menu->addSeparator();
    menu->addAction(m_openAction);
    menu->addAction(m_addAction);
    menu->addAction(m_saveAction);
    menu->addSeparator();
    menu->addAction(m_rerunAction);
    menu->addAction(m_stopAction);
    menu->addSeparator();
    menu->addMenu(m_exportMenu);
}

QWidget *ComparisonView::createSidePanel()
{
    m_sourceList = new QListWidget;
    m_sourceList->setObjectName(QStringLiteral("sourceList"));
    m_sourceList->setToolTip(tr("The comparison just run and the snapshots shown; several are overlaid"));
    m_sourceList->setWordWrap(true);
    m_sourceList->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_sourceList->setMaximumHeight(4 * m_sourceList->fontMetrics().lineSpacing() + 12);
    connect(m_sourceList, &QListWidget::currentRowChanged, this, [this] { updateActions(); });
    auto *remove = new QToolButton;
    remove->setText(tr("Remove"));
    remove->setObjectName(QStringLiteral("removeSourceButton"));
    connect(remove, &QToolButton::clicked, this, [this] {
        if (m_sourceList->currentRow() >= 0)
            removeSource(m_sourceList->currentRow());
    });
    m_baseline = new QComboBox;
    m_baseline->setObjectName(QStringLiteral("baselineCombo"));
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_baseline->setMinimumContentsLength(12);
    m_baseline->setToolTip(tr("The configuration the others are compared with"));
    connect(m_baseline, &QComboBox::activated, this, [this](int index) { setBaseline(index); });

    m_verdictLabel = new QLabel;
    m_verdictLabel->setObjectName(QStringLiteral("verdictLabel"));
    m_verdictLabel->setWordWrap(true);
    m_verdictLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_verdictLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *verdictScroll = new QScrollArea;
    verdictScroll->setWidget(m_verdictLabel);
    verdictScroll->setWidgetResizable(true);
    verdictScroll->setFrameShape(QFrame::NoFrame);
    verdictScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *sources = new QGroupBox(tr("Sources"));
    auto *sourcesLayout = new QVBoxLayout(sources);
    sourcesLayout->addWidget(m_sourceList);
    auto *sourceButtons = new QHBoxLayout;
    sourceButtons->addStretch(1);
    sourceButtons->addWidget(remove);
    sourcesLayout->addLayout(sourceButtons);

    auto *verdicts = new QGroupBox(tr("Verdicts"));
    auto *verdictLayout = new QVBoxLayout(verdicts);
    auto *baselineRow = new QFormLayout;
    baselineRow->addRow(tr("Baseline:"), m_baseline);
    verdictLayout->addLayout(baselineRow);
    verdictLayout->addWidget(verdictScroll, 1);

    auto *panel = new QWidget;
    panel->setMinimumWidth(220);
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(sources);
    layout->addWidget(verdicts, 1);
    return panel;
}

QWidget *ComparisonView::createMainArea()
{
    for (nb::Metric m : kChartMetrics) {
        auto *chart = new nb::ui::ComparisonBarChart;
        chart->setObjectName(QStringLiteral("barChart_%1").arg(nb::metricKey(m)));
        chart->setMetric(m);
        chart->setMinimumSize(260, 190);
        chart->hide();
        m_barCharts.append(chart);
    }
    m_chartGrid = new QWidget;
    m_chartLayout = new QGridLayout(m_chartGrid);
    m_chartLayout->setContentsMargins(0, 0, 0, 0);
    m_chartLayout->setSpacing(6);
    m_placeholder = new QLabel(tr("No comparison yet.\n\nCompare > New Comparison runs configurations side by side "
                                  "(for example 1 stream against 4, or two adapters);\nCompare > Open Snapshot shows "
                                  "one that nicbench-cli compare or this window saved."));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setEnabled(false);
    auto *chartScroll = new QScrollArea;
    m_chartArea = chartScroll;
    chartScroll->setObjectName(QStringLiteral("barChartArea"));
    chartScroll->setWidget(m_chartGrid);
    chartScroll->setWidgetResizable(true);
    chartScroll->setFrameShape(QFrame::NoFrame);
    // What the bars and whiskers are, said once for all the charts.
    m_chartCaption = new QLabel(tr("Bars: mean of the runs, whiskers: 95% confidence interval. "
                                   "Verdicts: Welch's t-test against the baseline at alpha 0.05."));
    m_chartCaption->setObjectName(QStringLiteral("chartCaption"));
    QFont captionFont = m_chartCaption->font();
    captionFont.setPointSizeF(captionFont.pointSizeF() * 0.9);
    m_chartCaption->setFont(captionFont);
    m_chartCaption->setContentsMargins(2, 0, 0, 0);
    m_chartCaption->hide();
    auto *top = new QWidget;
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(2);
    topLayout->addWidget(m_placeholder);
    topLayout->addWidget(m_chartCaption);
    topLayout->addWidget(chartScroll, 1);

    m_timeline = new nb::ui::ComparisonTimelineChart;
    m_timeline->setObjectName(QStringLiteral("comparisonTimeline"));
    m_latency = new nb::ui::LatencyDistributionChart;
    m_latency->setObjectName(QStringLiteral("latencyDistribution"));
    m_latencyMode = new QComboBox;
    m_latencyMode->setObjectName(QStringLiteral("latencyModeCombo"));
    m_latencyMode->addItem(tr("Box plot"), int(nb::ui::LatencyDistributionChart::Mode::Box));
    m_latencyMode->addItem(tr("CDF"), int(nb::ui::LatencyDistributionChart::Mode::Cdf));
    connect(m_latencyMode, &QComboBox::currentIndexChanged, this, [this] {
        m_latency->setMode(nb::ui::LatencyDistributionChart::Mode(m_latencyMode->currentData().toInt()));
    });
    m_latencyPage = new QWidget;
    auto *latencyLayout = new QVBoxLayout(m_latencyPage);
    latencyLayout->setContentsMargins(0, 2, 0, 0);
    auto *modeRow = new QHBoxLayout;
    modeRow->addWidget(new QLabel(tr("Show as:")));
    modeRow->addWidget(m_latencyMode);
    modeRow->addStretch(1);
    latencyLayout->addLayout(modeRow);
    latencyLayout->addWidget(m_latency, 1);

    m_tableModel = new nb::ui::ComparisonTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_tableModel);
    m_proxy->setSortRole(nb::ui::ComparisonTableModel::SortRole);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("comparisonTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the table's own order until a header is clicked
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Every column as wide as its text (fitTableColumns, whenever the data changes), the
    // verdict takes what is left: at 1280x720 the whole table fits without scrolling sideways.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(nb::ui::ComparisonTableModel::VerdictColumn,
                                                      QHeaderView::Stretch);
    m_table->horizontalHeader()->setStretchLastSection(false);
    connect(m_table->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, &ComparisonView::fitTableColumns);
    m_table->viewport()->installEventFilter(this);

    m_details = new QTextBrowser;
    m_details->setObjectName(QStringLiteral("comparisonDetails"));
    m_details->setOpenLinks(false);

    m_bottomTabs = new QTabWidget;
    m_bottomTabs->setObjectName(QStringLiteral("comparisonTabs"));
    m_bottomTabs->setDocumentMode(true);
    m_bottomTabs->addTab(m_table, tr("Table"));
    m_bottomTabs->addTab(m_timeline, tr("Throughput over time"));
    m_bottomTabs->addTab(m_latencyPage, tr("Latency distribution"));
    m_bottomTabs->addTab(m_details, tr("Environment and warnings"));
    // Small minimums, so the splitter can give the bar charts two full rows at 720 px.
    for (QWidget *page : {static_cast<QWidget *>(m_table), static_cast<QWidget *>(m_timeline), m_latencyPage,
                          static_cast<QWidget *>(m_details)})
        page->setMinimumSize(200, 90);
    m_latency->setMinimumSize(200, 60);

    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->addWidget(top);
    m_splitter->addWidget(m_bottomTabs);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setSizes({440, 170}); // two rows of charts at 1280x720
    return m_splitter;
}

bool ComparisonView::startComparison(const nb::Comparison &comparison)
{
    if (const QString busy = m_startGuard ? m_startGuard() : QString(); !busy.isEmpty()) {
        showError(busy);
        return false;
    }
    QString error;
    if (!m_controller->start(comparison, &error)) {
        showError(error);
        return false;
    }
    m_banner->dismiss();
    // The new comparison is the first source; snapshots stay for the overlay.
    m_sources.prepend(
        nb::ComparisonSource{comparison.title.isEmpty() ? tr("This run") : comparison.title, m_controller->current()});
    m_liveSource = 0;
    m_progress->show();
    m_baselineLabel = comparison.configurations.value(comparison.baselineIndex).label;
    refresh();
    Q_EMIT runningChanged(true);
    Q_EMIT activated();
    return true;
}

void ComparisonView::onRunFinished()
{
    if (m_liveSource < 0 || m_liveSource >= m_sources.size())
        return;
    m_sources[m_liveSource].comparison = m_controller->current();
    refresh();
}

void ComparisonView::onFinished(const nb::Comparison &comparison)
{
    if (m_liveSource >= 0 && m_liveSource < m_sources.size())
        m_sources[m_liveSource].comparison = comparison;
    m_liveSource = -1;
    int failed = 0;
    for (const nb::Run &r : comparison.runs)
        failed += r.ok() ? 0 : 1;
    if (failed > 0)
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Warning,
                              tr("%n run(s) failed; the table counts them and the warnings say why.", nullptr, failed));
    refresh();
    Q_EMIT runningChanged(false);
    Q_EMIT comparisonFinished(comparison);
}

bool ComparisonView::loadInto(const QString &path, nb::ComparisonSource *out)
{
    nb::Comparison c;
    QString error;
    if (!nb::Snapshot::load(path, &c, &error)) {
        showError(tr("Cannot open snapshot %1").arg(error)); // the error starts with the path
        return false;
    }
    *out = nb::ComparisonSource{snapshotSourceName(path, c), c};
    return true;
}

bool ComparisonView::openSnapshots(const QStringList &paths)
{
    QList<nb::ComparisonSource> loaded;
    bool allOk = true;
    for (const QString &path : paths) {
        nb::ComparisonSource s;
        if (loadInto(path, &s))
            loaded.append(s);
        else
            allOk = false;
    }
    if (loaded.isEmpty())
        return false;
    if (allOk)
        m_banner->dismiss();
    showSources(loaded);
    return allOk;
}

void ComparisonView::showSources(const QList<nb::ComparisonSource> &loaded)
{
    // A running comparison keeps its place; the rest is replaced.
    QList<nb::ComparisonSource> kept;
    if (m_liveSource >= 0)
        kept.append(m_sources.at(m_liveSource));
    m_liveSource = kept.isEmpty() ? -1 : 0;
    m_sources = kept + loaded;
    m_baselineLabel.clear();
    refresh();
    Q_EMIT activated();
}

bool ComparisonView::addSnapshot(const QString &path)
{
    nb::ComparisonSource s;
    if (!loadInto(path, &s))
        return false;
    m_banner->dismiss();
    m_sources.append(s);
    refresh();
    Q_EMIT activated();
    return true;
}

void ComparisonView::removeSource(int index)
{
    if (index < 0 || index >= m_sources.size())
        return;
    if (index == m_liveSource) {
        showError(tr("Stop the running comparison before removing it."));
        return;
    }
    m_sources.removeAt(index);
    if (m_liveSource > index)
        --m_liveSource;
    refresh();
}

QStringList ComparisonView::sourceNames() const
{
    QStringList names;
    for (const nb::ComparisonSource &s : m_sources)
        names << s.name;
    return names;
}

int ComparisonView::currentSource() const
{
    const int row = m_sourceList->currentRow();
    return row >= 0 && row < m_sources.size() ? row : (m_sources.isEmpty() ? -1 : 0);
}

bool ComparisonView::saveSnapshot(const QString &path, int source)
{
    if (source < 0)
        source = currentSource();
    if (source < 0) {
        showError(tr("There is no comparison to save."));
        return false;
    }
    QString error;
    if (!nb::Snapshot::save(m_sources.at(source).comparison, path, &error)) {
        showError(tr("The snapshot was not saved: %1").arg(error));
        return false;
    }
    m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                          tr("Snapshot saved to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool ComparisonView::rerunConfigurations(int source)
{
    if (source < 0)
        source = currentSource();
    if (source < 0) {
        showError(tr("Open a snapshot or run a comparison first."));
        return false;
    }
    nb::Comparison c = m_sources.at(source).comparison;
    c.runs.clear();
    c.warnings.clear();
    c.environment = nb::Environment();
    c.finishedAt = QDateTime();
    return startComparison(c);
}

QStringList ComparisonView::exportCharts(const QString &directory)
{
    QStringList written;
    if (!QDir().mkpath(directory)) {
        showError(tr("Cannot create the folder %1").arg(directory));
        return written;
    }
    QList<std::pair<QCustomPlot *, QString>> plots;
    for (nb::ui::ComparisonBarChart *chart : visibleBarCharts())
        plots.append({chart, nb::metricKey(chart->metric())});
    if (m_timeline->curveCount() > 0)
        plots.append({m_timeline, QStringLiteral("throughput_over_time")});
    if (m_latency->hasData())
        plots.append({m_latency, QStringLiteral("latency_distribution")});
    if (plots.isEmpty()) {
        showError(tr("There are no charts to export."));
        return written;
    }
    const QDir dir(directory);
    for (const auto &[plot, name] : plots) {
        // A fixed size: charts on a hidden tab have no useful size of their own.
        const QSize size = plot->isVisible() && plot->width() >= 400 ? plot->size() : QSize(900, 480);
        for (const QString &ext : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
            const QString path = dir.filePath(QStringLiteral("%1.%2").arg(name, ext));
            QString error;
            if (!nb::ui::ChartActions::saveImage(plot, path, &error, size)) {
                showError(tr("Export stopped: %1").arg(error));
                return written;
            }
            written << path;
        }
    }
    m_banner->showMessage(
        nb::ui::MessageBanner::Kind::Information,
        tr("%n file(s) written to %1", nullptr, int(written.size())).arg(QDir::toNativeSeparators(directory)));
    return written;
}

bool ComparisonView::exportTableCsv(const QString &path)
{
    QString error;
    if (!m_tableModel->table()) {
        showError(tr("There is no table to export."));
        return false;
    }
    if (!writeText(path, m_tableModel->table()->toCsv(), &error)) {
        showError(error);
        return false;
    }
    return true;
}

bool ComparisonView::exportTableMarkdown(const QString &path)
{
    QString error;
    if (!m_tableModel->table()) {
        showError(tr("There is no table to export."));
        return false;
    }
    const nb::Comparison &c = m_overlay.merged;
    QString text = QStringLiteral("# %1\n\n").arg(c.title.isEmpty() ? tr("Comparison") : c.title);
    text += m_tableModel->table()->toMarkdown();
    if (!m_verdicts.isEmpty())
        text += QStringLiteral("\n") + QStringLiteral("- ") + m_verdicts.join(QStringLiteral("\n- ")) +
                QStringLiteral("\n");
    if (!writeText(path, text, &error)) {
        showError(error);
        return false;
    }
    return true;
}

bool ComparisonView::exportPdfReport(const QString &path)
{
    if (m_sources.isEmpty()) {
        showError(tr("There is no comparison to report."));
        return false;
    }
    QString error;
    if (!writeComparisonReport(path, m_overlay, m_stats, &error)) {
        showError(tr("The report was not written: %1").arg(error));
        return false;
    }
    m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                          tr("Report written to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void ComparisonView::setBaseline(int mergedIndex)
{
    if (mergedIndex < 0 || mergedIndex >= m_overlay.merged.configurations.size())
        return;
    m_baselineLabel = m_overlay.merged.configurations.at(mergedIndex).label;
    refresh();
}

nb::ui::ComparisonBarChart *ComparisonView::barChart(nb::Metric metric) const
{
    for (nb::ui::ComparisonBarChart *chart : m_barCharts) {
        if (chart->metric() == metric)
            return chart;
    }
    return nullptr;
}

QList<nb::ui::ComparisonBarChart *> ComparisonView::visibleBarCharts() const
{
    QList<nb::ui::ComparisonBarChart *> out;
    for (nb::ui::ComparisonBarChart *chart : m_barCharts) {
        if (!m_sources.isEmpty() && chart->hasData())
            out.append(chart);
    }
    return out;
}

QString ComparisonView::progressText() const
{
    return m_progressLabel->text();
}

bool ComparisonView::isLatencyVisible() const
{
    return m_bottomTabs->isTabVisible(m_bottomTabs->indexOf(m_latencyPage));
}

void ComparisonView::refresh()
{
    // Sources list.
    const int selected = m_sourceList->currentRow();
    m_sourceList->clear();
    for (int i = 0; i < m_sources.size(); ++i) {
        const nb::Comparison &c = m_sources.at(i).comparison;
        QString text = m_sources.at(i).name + QLatin1Char('\n') +
                       tr("%n configuration(s)", nullptr, int(c.configurations.size())) + QStringLiteral(", ") +
                       tr("%n run(s)", nullptr, int(c.runs.size()));
        if (i == m_liveSource)
            text += tr(", running");
        auto *item = new QListWidgetItem(text, m_sourceList);
        item->setToolTip(text);
    }
    if (selected >= 0 && selected < m_sourceList->count())
        m_sourceList->setCurrentRow(selected);

    if (m_sources.isEmpty()) {
        m_overlay = nb::ComparisonOverlay();
        m_stats = nb::ComparisonStatistics();
        for (auto *chart : std::as_const(m_barCharts))
            chart->clearData();
        m_timeline->clearData();
        m_latency->clearData();
        m_tableModel->clear();
        m_verdicts.clear();
        m_baseline->clear();
    } else {
        m_overlay = nb::overlayComparisons(m_sources);
        nb::Comparison &merged = m_overlay.merged;
        for (int i = 0; i < merged.configurations.size(); ++i) {
            if (merged.configurations.at(i).label == m_baselineLabel) {
                merged.baselineIndex = i;
                break;
            }
        }
        m_stats = nb::computeStatistics(merged);
        {
            const QSignalBlocker block(m_baseline);
            m_baseline->clear();
            for (const nb::Configuration &c : std::as_const(merged.configurations))
                m_baseline->addItem(c.label);
            m_baseline->setCurrentIndex(merged.baselineIndex);
        }
        for (auto *chart : std::as_const(m_barCharts))
            chart->setData(m_overlay, m_stats);
        m_timeline->setData(m_overlay);
        m_latency->setData(m_overlay);
        m_tableModel->setComparison(merged);
        m_verdicts = verdictLines(merged, m_stats);
    }
    fitTableColumns();
    m_placeholder->setVisible(m_sources.isEmpty());
    m_chartArea->setVisible(!m_sources.isEmpty());
    m_chartCaption->setVisible(!m_sources.isEmpty());
    layoutBarCharts();
    const int latencyTab = m_bottomTabs->indexOf(m_latencyPage);
    m_bottomTabs->setTabVisible(latencyTab, m_latency->hasData());
    m_verdictLabel->setText(m_sources.isEmpty() ? tr("None yet.")
                            : m_verdicts.isEmpty()
                                ? tr("Verdicts need at least two configurations with two runs each.")
                                : QStringLiteral("\u2022 ") + m_verdicts.join(QStringLiteral("\n\u2022 ")));
    updateDetails();
    updateActions();
}

void ComparisonView::layoutBarCharts()
{
    for (auto *chart : std::as_const(m_barCharts)) {
        m_chartLayout->removeWidget(chart);
        chart->hide();
    }
    const QList<nb::ui::ComparisonBarChart *> shown = visibleBarCharts();
    const int n = int(shown.size());
    // Up to three charts a row (two for four charts), rows as even as possible with the
    // fuller rows first; on a grid of six units a chart spans 6 / (charts in its row), so
    // every row is filled: five charts are three over two, not three over two and a gap.
    const int columns = n <= 3 ? std::max(1, n) : (n == 4 ? 2 : 3);
    const int rows = (n + columns - 1) / columns;
    constexpr int kUnits = 6;
    int i = 0;
    for (int r = 0; r < rows; ++r) {
        const int inRow = n / rows + (r < n % rows ? 1 : 0);
        const int span = kUnits / inRow;
        for (int c = 0; c < inRow; ++c, ++i) {
            m_chartLayout->addWidget(shown[i], r, c * span, 1, span);
            shown[i]->show();
        }
    }
    for (int c = 0; c < kUnits; ++c)
        m_chartLayout->setColumnStretch(c, 1);
}

void ComparisonView::fitTableColumns()
{
    // ResizeToContents would keep room for a sort arrow in every header: the sum is wider
    // than the table at 1280x720. Only the sorted column gets that room here.
    QHeaderView *header = m_table->horizontalHeader();
    const QAbstractItemView *view = m_table; // sizeHintForColumn is public there
    const int arrow =
        header->sizeHint().height() + m_table->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int columns = m_proxy->columnCount();
    const auto headerWidth = [&](int column) {
        int w = header->sectionSizeHint(column);
        if (header->isSortIndicatorShown() && header->sortIndicatorSection() != column)
            w -= arrow;
        return w;
    };
    QList<int> widths(columns, 0);
    for (int column = 0; column < columns; ++column)
        widths[column] = std::max(view->sizeHintForColumn(column), headerWidth(column));
    // The verdict stretches over what is left. When that is less than its text, the metric
    // names give up width (elided, the full name in the tooltip): the numbers never do.
    const int verdict = nb::ui::ComparisonTableModel::VerdictColumn;
    const int metric = nb::ui::ComparisonTableModel::MetricColumn;
    int total = 0;
    for (int w : std::as_const(widths))
        total += w;
    const int available = m_table->viewport()->width();
    if (available > 0 && verdict < columns && metric < columns && total > available) {
        const int floor = std::max(headerWidth(metric), 12 * m_table->fontMetrics().averageCharWidth());
        widths[metric] -= std::clamp(total - available, 0, std::max(0, widths[metric] - floor));
    }
    for (int column = 0; column < columns; ++column) {
        if (column != verdict)
            header->resizeSection(column, widths[column]);
    }
}

bool ComparisonView::eventFilter(QObject *watched, QEvent *event)
{
    // The table's width changed (window, splitter): fit the columns to it again.
    if (m_table && watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitTableColumns();
    return QWidget::eventFilter(watched, event);
}

void ComparisonView::updateDetails()
{
    if (m_sources.isEmpty()) {
        m_details->clear();
        return;
    }
    const nb::Comparison &c = m_overlay.merged;
    QString html;
    const auto list = [](const QStringList &lines) {
        QString out = QStringLiteral("<ul>");
        for (const QString &l : lines)
            out += QStringLiteral("<li>%1</li>").arg(l.toHtmlEscaped());
        return out + QStringLiteral("</ul>");
    };
    for (const nb::ComparisonSource &s : std::as_const(m_sources)) {
        const nb::Comparison &sc = s.comparison;
        html += QStringLiteral("<h3>%1</h3>").arg(s.name.toHtmlEscaped());
        QStringList facts;
        facts << tr("%n configuration(s)", nullptr, int(sc.configurations.size()))
              << tr("%n repeat(s)", nullptr, sc.repeats) << tr("%1 order").arg(nb::orderPolicyName(sc.order))
              << tr("pause %1 s").arg(sc.pauseSeconds);
        if (sc.createdAt.isValid())
            facts << tr("started %1").arg(QLocale().toString(sc.createdAt.toLocalTime(), QLocale::ShortFormat));
        if (sc.createdAt.isValid() && !sc.finishedAt.isValid() && !sc.runs.isEmpty())
            facts << tr("not finished");
        html += QStringLiteral("<p>%1</p>").arg(facts.join(QStringLiteral(", ")).toHtmlEscaped());
        html += QStringLiteral("<p><b>%1</b></p>").arg(tr("This side (client)"));
        html += sc.environment.local.known ? list(environmentLines(sc.environment.local)) : tr("<p>Unknown.</p>");
        html += QStringLiteral("<p><b>%1</b></p>").arg(tr("Server side"));
        html += sc.environment.remote.known ? list(environmentLines(sc.environment.remote)) : tr("<p>Unknown.</p>");
    }
    html += QStringLiteral("<h3>%1</h3>").arg(tr("Warnings"));
    html += c.warnings.isEmpty() ? tr("<p>None.</p>") : list(c.warnings);
    m_details->setHtml(html);
    const int tab = m_bottomTabs->indexOf(m_details);
    m_bottomTabs->setTabText(tab, c.warnings.isEmpty() ? tr("Environment and warnings")
                                                       : tr("Environment and warnings (%1)").arg(c.warnings.size()));
}

void ComparisonView::updateActions()
{
    const bool running = m_controller->isRunning();
    const bool any = !m_sources.isEmpty();
    m_newAction->setEnabled(!running && !m_testRunning);
    m_rerunAction->setEnabled(!running && !m_testRunning && any);
    m_stopAction->setEnabled(running);
    m_saveAction->setEnabled(any);
    m_exportChartsAction->setEnabled(any);
    m_exportCsvAction->setEnabled(any);
    m_exportMarkdownAction->setEnabled(any);
    m_exportReportAction->setEnabled(any);
    m_progress->setVisible(running);
}

void ComparisonView::setTestRunning(bool running)
{
    m_testRunning = running;
    updateActions();
}

void ComparisonView::showError(const QString &text)
{
    m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, text);
}

void ComparisonView::openWithDialog(bool add)
{
    if (add) {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Add Snapshot to Overlay"), QString(), tr(kSnapshotFilter));
        if (!path.isEmpty())
            addSnapshot(path);
        return;
    }
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open Snapshot"), QString(), tr(kSnapshotFilter));
    if (!paths.isEmpty())
        openSnapshots(paths);
}

void ComparisonView::saveWithDialog()
{
    const int source = currentSource();
    if (source < 0)
        return;
    QString name = m_sources.at(source).name;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    QString path = QFileDialog::getSaveFileName(this, tr("Save Snapshot As"), name + QStringLiteral(".nicbench"),
                                                tr(kSnapshotFilter));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".nicbench");
    if (saveSnapshot(path, source) && source != m_liveSource) {
        m_sources[source].name = snapshotSourceName(path, m_sources.at(source).comparison);
        refresh();
    }
}

void ComparisonView::exportChartsWithDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export Charts Into"));
    if (!dir.isEmpty())
        exportCharts(dir);
}

void ComparisonView::exportTableWithDialog(bool markdown)
{
    const QString filter = markdown ? tr("Markdown (*.md)") : tr("CSV (*.csv)");
    const QString path = QFileDialog::getSaveFileName(
        this, markdown ? tr("Export Table as Markdown") : tr("Export Table as CSV"),
        markdown ? QStringLiteral("comparison.md") : QStringLiteral("comparison.csv"), filter);
    if (path.isEmpty())
        return;
    if (markdown ? exportTableMarkdown(path) : exportTableCsv(path))
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                              tr("Table written to %1").arg(QDir::toNativeSeparators(path)));
}

void ComparisonView::exportReportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("PDF Report"), QStringLiteral("comparison-report.pdf"),
                                                      tr("PDF (*.pdf)"));
    if (!path.isEmpty())
        exportPdfReport(path);
}

} // namespace nb::gui
