// SPDX-License-Identifier: GPL-3.0-or-later
// ComparisonView: building its actions and widgets (the side panel with the sources and the
// answer in words, the empty page, and the main area: answer, charts, table).
#include "compareview/comparisonview.h"

#include "compareview/comparisoncontroller.h"
#include "compareview/comparisonviewcharts.h"
#include "compareview/equivalencespin.h"

#include <comparison/comparisonanswerpanel.h>
#include <comparison/comparisontablemodel.h>
#include <comparison/meshmatrixview.h>

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

namespace nb::gui {

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

    // The answer panel's sentences, whole: for reading and copying.
    auto *verdicts = new QGroupBox(tr("The answer in words"));
    auto *verdictLayout = new QVBoxLayout(verdicts);
    verdictLayout->addWidget(verdictScroll, 1);

    auto *panel = new QWidget;
    panel->setMinimumWidth(200);
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(sources);
    layout->addWidget(verdicts, 1);
    return panel;
}

QWidget *ComparisonView::createEmptyPage()
{
    // Minor 18 of the GUI review: the way in, where the user looks, not only in the menu.
    auto *page = new QWidget;
    page->setObjectName(QStringLiteral("comparisonEmptyPage"));
    auto *text = new QLabel(tr("No comparison yet.\n\nA comparison runs adapters (or settings) side by side, "
                               "each several times, and answers which is faster, by how much, and at what CPU "
                               "cost.\nA snapshot is one that nicbench-cli compare or this window saved."));
    text->setAlignment(Qt::AlignCenter);
    text->setWordWrap(true);
    text->setForegroundRole(QPalette::PlaceholderText);
    auto *newButton = new QPushButton(m_newAction->icon(), m_newAction->text().remove(QLatin1Char('&')));
    newButton->setObjectName(QStringLiteral("emptyNewComparisonButton"));
    newButton->setDefault(true);
    auto *openButton = new QPushButton(m_openAction->icon(), m_openAction->text().remove(QLatin1Char('&')));
    openButton->setObjectName(QStringLiteral("emptyOpenSnapshotButton"));
    connect(newButton, &QPushButton::clicked, m_newAction, &QAction::trigger);
    connect(openButton, &QPushButton::clicked, m_openAction, &QAction::trigger);
    connect(m_newAction, &QAction::changed, newButton,
            [this, newButton] { newButton->setEnabled(m_newAction->isEnabled()); });
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(newButton);
    buttons->addWidget(openButton);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(page);
    layout->addStretch(1);
    layout->addWidget(text);
    layout->addSpacing(12);
    layout->addLayout(buttons);
    layout->addStretch(2);
    return page;
}

// The Compare view's content: the answer and the charts over the table and the details;
// the empty page instead while there is nothing to compare.
QWidget *ComparisonView::createMainArea()
{
    QWidget *top = createAnswerArea();
    createTable();
    m_details = new QTextBrowser;
    m_details->setObjectName(QStringLiteral("comparisonDetails"));
    m_details->setOpenLinks(false);

    m_bottomTabs = new QTabWidget;
    m_bottomTabs->setObjectName(QStringLiteral("comparisonTabs"));
    m_bottomTabs->setDocumentMode(true);
    m_matrix = new nb::ui::MeshMatrixView;
    m_bottomTabs->addTab(m_matrix, tr("Matrix"));
    m_bottomTabs->setTabVisible(0, false);
    connect(m_matrix, &nb::ui::MeshMatrixView::pairActivated, this, &ComparisonView::showPairInTable);
    m_bottomTabs->addTab(m_table, tr("Table"));
    m_bottomTabs->addTab(m_details, tr("Environment and warnings"));
    m_bottomTabs->setCurrentWidget(m_table);
    for (QWidget *page :
         {static_cast<QWidget *>(m_matrix), static_cast<QWidget *>(m_table), static_cast<QWidget *>(m_details)})
        page->setMinimumSize(200, 90);

    m_splitter = new QSplitter(Qt::Vertical);
    m_splitter->addWidget(top);
    m_splitter->addWidget(m_bottomTabs);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setSizes({460, 150}); // the answer and a full row of charts at 1280x720
    m_content = m_splitter;

    m_emptyPage = createEmptyPage();
    auto *area = new QWidget;
    auto *layout = new QVBoxLayout(area);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_emptyPage, 1);
    layout->addWidget(m_content, 1);
    return area;
}

QWidget *ComparisonView::createAnswerArea()
{
    // The answer: a header row with the baseline selector and what bars and whiskers mean,
    // then one row per variant.
    m_baseline = new QComboBox;
    m_baseline->setObjectName(QStringLiteral("baselineCombo"));
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_baseline->setMinimumContentsLength(16);
    connect(m_baseline, &QComboBox::activated, this, [this](int index) {
        if (m_sources.size() > 1)
            setBaselineSource(index);
        else
            setBaselineAdapter(m_baseline->itemData(index).toString());
    });
    auto *baselineLabel = new QLabel(tr("&Baseline:"));
    baselineLabel->setBuddy(m_baseline);
    // Host -> guest, the adapter under test is the guest's: its CPU is the cost that matters.
    m_cpuSideCombo = new QComboBox;
    m_cpuSideCombo->setObjectName(QStringLiteral("cpuSideCombo"));
    m_cpuSideCombo->addItem(tr("Automatic"), int(nb::CpuSide::Auto));
    m_cpuSideCombo->addItem(tr("Client (this computer)"), int(nb::CpuSide::Client));
    m_cpuSideCombo->addItem(tr("Server"), int(nb::CpuSide::Server));
    m_cpuSideCombo->setToolTip(tr("Whose CPU the answer quotes per Gbit/s (or per 1000 transactions/s).\n"
                                  "Automatic: the server's when the configurations differ only in the "
                                  "server's adapter (host -> guests), else this computer's."));
    connect(m_cpuSideCombo, &QComboBox::activated, this, [this](int index) {
        m_cpuSide = nb::CpuSide(m_cpuSideCombo->itemData(index).toInt());
        refresh();
    });
    auto *cpuSideLabel = new QLabel(tr("CPU c&ost:"));
    cpuSideLabel->setBuddy(m_cpuSideCombo);
    QWidget *judging = createJudgingControls();
    m_chartCaption = new QLabel; // its text: refresh(), with the equivalence threshold
    m_chartCaption->setObjectName(QStringLiteral("chartCaption"));
    QFont captionFont = m_chartCaption->font();
    captionFont.setPointSizeF(captionFont.pointSizeF() * 0.9);
    m_chartCaption->setFont(captionFont);
    m_chartCaption->setWordWrap(true);
    m_chartCaption->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_chartCaption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *header = new QHBoxLayout;
    header->addWidget(baselineLabel);
    header->addWidget(m_baseline);
    header->addSpacing(12);
    header->addWidget(cpuSideLabel);
    header->addWidget(m_cpuSideCombo);
    header->addSpacing(12);
    header->addWidget(judging);
    header->addSpacing(12);
    header->addWidget(m_chartCaption, 1);
    m_answerPanel = new nb::ui::ComparisonAnswerPanel;

    m_charts = new ComparisonChartGrid;
    auto *top = new QWidget;
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(3);
    topLayout->addLayout(header);
    topLayout->addWidget(m_answerPanel);
    topLayout->addWidget(m_charts, 1);
    return top;
}

// "Equivalent within +-[2.0] %": the practical threshold under which a difference is not a
// verdict (compareopt::Id::Equivalence); changing it re-judges what is shown and what is
// saved next.
QWidget *ComparisonView::createJudgingControls()
{
    m_equivalenceSpin = newEquivalenceSpinBox();
    m_equivalenceSpin->setValue(m_equivalence);
    connect(m_equivalenceSpin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (v == m_equivalence)
            return;
        m_equivalence = v;
        refresh();
    });
    auto *label = new QLabel(tr("E&quivalent within:"));
    label->setBuddy(m_equivalenceSpin);
    auto *box = new QWidget;
    auto *layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label);
    layout->addWidget(m_equivalenceSpin);
    return box;
}

void ComparisonView::adoptJudging(const nb::Comparison &comparison)
{
    m_cpuSide = comparison.cpuSide;
    m_cpuSideCombo->setCurrentIndex(std::max(0, m_cpuSideCombo->findData(int(m_cpuSide))));
    m_equivalence = comparison.equivalencePercent;
    const QSignalBlocker block(m_equivalenceSpin);
    m_equivalenceSpin->setValue(m_equivalence);
}

void ComparisonView::createTable()
{
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
    // Long configuration labels keep both ends ("veth e1000…-like, P=4"): the suffix tells
    // rows apart. The tooltip has the whole label.
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false); // one line per row: elided, not wrapped into a cut-off second line
    // Every column as wide as its text (fitTableColumns, whenever the data changes), the
    // verdict takes what is left; when that is not enough the configuration gives up width.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(nb::ui::ComparisonTableModel::VerdictColumn,
                                                      QHeaderView::Stretch);
    m_table->horizontalHeader()->setStretchLastSection(false);
    connect(m_table->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, &ComparisonView::fitTableColumns);
    m_table->viewport()->installEventFilter(this);
}

} // namespace nb::gui
