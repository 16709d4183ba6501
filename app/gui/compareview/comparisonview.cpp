// SPDX-License-Identifier: GPL-3.0-or-later
// ComparisonView: running and showing comparisons, their sources and baseline, progress and
// actions. Its widgets are in comparisonviewwidgets.cpp, files in comparisonviewfiles.cpp, the
// lower tabs (grid, table, environment) in comparisonviewtabs.cpp.
#include "compareview/comparisonview.h"

#include "compareview/comparisoncontroller.h"
#include "compareview/comparisonexport.h"
#include "compareview/comparisonreport.h"
#include "compareview/comparisonviewcharts.h"

#include <common/messagebanner.h>
#include <compare/configurationends.h>
#include <compare/snapshot.h>
#include <comparison/comparisonanswerpanel.h>
#include <comparison/comparisoncharts.h>
#include <comparison/comparisontablemodel.h>
#include <comparison/meshmatrixview.h>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace nb::gui {

namespace {

// "about 40 s left", "about 3 min left".
QString aboutLeft(double seconds)
{
    if (seconds < 90)
        return QObject::tr("about %1 s left").arg(std::max(1, int(std::ceil(seconds))));
    return QObject::tr("about %1 min left").arg(int(std::lround(seconds / 60)));
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
    m_exportButton = new QToolButton;
    m_exportButton->setObjectName(QStringLiteral("comparisonExportButton"));
    m_exportButton->setText(tr("Export"));
    m_exportButton->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_exportButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_exportButton->setPopupMode(QToolButton::InstantPopup);
    m_exportButton->setMenu(m_exportMenu);
    m_toolbar->addWidget(m_exportButton);

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
    split->setSizes({220, 1060});
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 0);
    layout->addLayout(progressRow);
    layout->addWidget(m_banner);
    layout->addWidget(split, 1);

    // The estimate of the time left counts down between the controller's reports.
    m_etaTimer = new QTimer(this);
    m_etaTimer->setInterval(1000);
    connect(m_etaTimer, &QTimer::timeout, this, &ComparisonView::updateProgressText);
    connect(m_controller, &ComparisonController::progress, this, [this](int done, int total, const QString &text) {
        m_progress->setRange(0, std::max(1, total));
        m_progress->setValue(done);
        m_progressBase = text;
        updateProgressText();
    });
    connect(m_controller, &ComparisonController::runStarted, this, [this] { m_runTime.start(); });
    connect(m_controller, &ComparisonController::runFinished, this, [this] { onRunFinished(); });
    connect(m_controller, &ComparisonController::finished, this, &ComparisonView::onFinished);
    refresh();
}

ComparisonView::~ComparisonView() = default;

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
    adoptJudging(comparison);
    m_sources.startLive(
        nb::ComparisonSource{comparison.title.isEmpty() ? tr("This run") : comparison.title, m_controller->current()},
        comparison.configurations.value(comparison.baselineIndex).adapterName());
    m_progress->show();
    m_runningTime.start();
    m_runTime.start();
    m_etaTimer->start();
    refresh();
    Q_EMIT runningChanged(true);
    Q_EMIT activated();
    return true;
}

void ComparisonView::onRunFinished()
{
    if (!m_sources.contains(m_sources.liveSource()))
        return;
    m_sources.updateLive(m_controller->current());
    refresh();
}

void ComparisonView::onFinished(const nb::Comparison &comparison)
{
    m_sources.finishLive(comparison);
    m_etaTimer->stop();
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

void ComparisonView::showSources(const QList<nb::ComparisonSource> &loaded)
{
    // A running comparison keeps its place; the rest is replaced.
    m_sources.replace(loaded);
    if (!loaded.isEmpty())
        adoptJudging(loaded.first().comparison); // as the snapshot was saved
    refresh();
    Q_EMIT activated();
}

void ComparisonView::removeSource(int index)
{
    if (!m_sources.contains(index))
        return;
    if (m_sources.isLive(index)) {
        showError(tr("Stop the running comparison before removing it."));
        return;
    }
    m_sources.remove(index);
    refresh();
}

QStringList ComparisonView::sourceNames() const
{
    return m_sources.names();
}

QString ComparisonView::documentTitle() const
{
    if (m_sources.size() == 1) {
        const nb::ComparisonSource &only = m_sources.at(0);
        const QString title = only.comparison.title.trimmed();
        if (!title.isEmpty() && title != only.name)
            return QStringLiteral("%1 \u00b7 %2").arg(title, only.name);
    }
    return sourceNames().join(QStringLiteral(" + "));
}

int ComparisonView::currentSource() const
{
    const int row = m_sourceList->currentRow();
    return row >= 0 && row < m_sources.size() ? row : (m_sources.isEmpty() ? -1 : 0);
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

void ComparisonView::setBaseline(int mergedIndex)
{
    if (mergedIndex < 0 || mergedIndex >= m_overlay.merged.configurations.size())
        return;
    if (m_sources.size() > 1)
        setBaselineSource(m_overlay.sourceOf.value(mergedIndex));
    else
        setBaselineAdapter(m_overlay.merged.configurations.at(mergedIndex).adapterName());
}

void ComparisonView::setBaselineAdapter(const QString &adapter)
{
    m_sources.setBaselineAdapter(adapter);
    refresh();
}

void ComparisonView::setBaselineSource(int source)
{
    if (!m_sources.setBaselineSource(source))
        return;
    refresh();
}

QString ComparisonView::baselineAdapter() const
{
    return m_overlay.merged.configurations.value(m_overlay.merged.baselineIndex).adapterName();
}

int ComparisonView::baselineSource() const
{
    return m_overlay.baselineSource;
}

nb::ui::ComparisonBarChart *ComparisonView::barChart(nb::Metric metric) const
{
    return m_charts->barChart(metric);
}

QList<nb::ui::ComparisonBarChart *> ComparisonView::visibleBarCharts() const
{
    return m_charts->visibleBarCharts();
}

nb::ui::ComparisonTimelineChart *ComparisonView::timelineChart() const
{
    return m_charts->timelineChart();
}

nb::ui::LatencyDistributionChart *ComparisonView::latencyChart() const
{
    return m_charts->latencyChart();
}

QString ComparisonView::progressText() const
{
    return m_progressLabel->text();
}

bool ComparisonView::isLatencyVisible() const
{
    return m_charts->isLatencyVisible();
}

void ComparisonView::updateProgressText()
{
    const QString left = timeLeftText();
    m_progressLabel->setText(left.isEmpty() ? m_progressBase : m_progressBase + QStringLiteral(" - ") + left);
}

QString ComparisonView::timeLeftText() const
{
    // Minor 19: the runs still to go times (duration + pause), scaled by how long the runs
    // so far really took (connection set-up, CPU sampling, a slow server), less the time
    // the current run has been going.
    if (!m_controller->isRunning() || !m_runningTime.isValid())
        return {};
    const nb::Comparison &c = m_controller->current();
    const QList<nb::ScheduledRun> schedule = c.schedule();
    const int done = m_controller->finishedRuns();
    if (done >= schedule.size() || m_progressBase.isEmpty())
        return {};
    const auto planned = [&](int from, int to) {
        double seconds = 0;
        for (int i = from; i < to; ++i)
            seconds += c.configurations.value(schedule[i].configIndex).params.duration + c.pauseSeconds;
        return seconds;
    };
    double factor = 1.0;
    if (done > 0) {
        const double plannedDone = planned(0, done);
        if (plannedDone > 0)
            factor = std::clamp(m_runningTime.elapsed() / 1000.0 / plannedDone, 0.5, 4.0);
    }
    const double current = m_runTime.isValid() ? m_runTime.elapsed() / 1000.0 : 0.0;
    const double left = factor * planned(done, int(schedule.size())) - current;
    return aboutLeft(std::max(1.0, left));
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
        if (m_sources.isLive(i))
            text += tr(", running");
        auto *item = new QListWidgetItem(text, m_sourceList);
        item->setToolTip(text);
    }
    if (selected >= 0 && selected < m_sourceList->count())
        m_sourceList->setCurrentRow(selected);

    if (m_sources.isEmpty()) {
        m_overlay = nb::ComparisonOverlay();
        m_stats = nb::ComparisonStatistics();
        m_answers.clear();
        m_charts->clearData();
        m_tableModel->clear();
        refreshMatrix(nb::Comparison());
        m_answerPanel->clear();
        m_verdicts.clear();
    } else {
        m_overlay = m_sources.overlay();
        m_overlay.merged.cpuSide = m_cpuSide;                // the answer's, the report's and the exports' side
        m_overlay.merged.equivalencePercent = m_equivalence; // and their threshold
        m_chartCaption->setText(tr("Bars: mean of the runs, whiskers: 95% confidence interval. Verdicts: %1.")
                                    .arg(nb::verdictRule(m_equivalence)));
        const nb::Comparison &merged = m_overlay.merged;
        m_stats = nb::computeStatistics(merged);
        // The answer names series as the legends do: "E1000", or "E1000 (before)".
        QStringList names;
        for (int i = 0; i < merged.configurations.size(); ++i)
            names << m_overlay.seriesLabels.value(m_overlay.seriesOf.value(i));
        m_answers = nb::answerComparison(merged, m_stats, names);
        // One adapter in several variants (P=1 against P=4): the variants are what is
        // compared, so the sentences name configurations ("lo, P=4 is faster than lo, P=1").
        const bool oneAdapter = m_overlay.adapterLabels.size() == 1 && m_sources.size() == 1;
        QStringList labels;
        for (const nb::Configuration &conf : std::as_const(merged.configurations))
            labels << conf.label;
        m_verdicts = nb::answerLines(oneAdapter ? nb::answerComparison(merged, m_stats, labels) : m_answers);
        QList<nb::ui::ComparisonAnswerPanel::Column> columns;
        for (int s = 0; s < m_overlay.seriesCount(); ++s)
            columns.append({m_overlay.seriesLabels.at(s), m_overlay.seriesAdapter.value(s)});
        QList<nb::VariantAnswer> shown = m_answers;
        if (oneAdapter) {
            // "lo: +28.2% vs lo, P=1": the variant compared with, not just the adapter again.
            for (nb::VariantAnswer &a : shown)
                for (nb::AnswerEntry &e : a.entries)
                    if (const int b = m_stats.configurations.value(e.configIndex).baselineConfig; b >= 0)
                        e.baseline = merged.configurations.value(b).label;
        }
        m_answerPanel->setAnswers(shown, columns);
        m_charts->setData(m_overlay, m_stats);
        m_tableModel->setComparison(merged);
        refreshMatrix(merged);
    }
    refreshBaselineCombo();
    fitTableColumns();
    m_emptyPage->setVisible(m_sources.isEmpty());
    m_content->setVisible(!m_sources.isEmpty());
    m_verdictLabel->setText(m_sources.isEmpty() ? tr("None yet.")
                            : m_verdicts.isEmpty()
                                ? tr("Verdicts need two adapters (or two sources) with two runs each.")
                                : QStringLiteral("\u2022 ") + m_verdicts.join(QStringLiteral("\n\u2022 ")));
    updateDetails();
    updateActions();
}

void ComparisonView::refreshBaselineCombo()
{
    const QSignalBlocker block(m_baseline);
    m_baseline->clear();
    if (m_sources.isEmpty()) {
        m_baseline->setEnabled(false);
        return;
    }
    // One source: its adapters; several: the sources (before/after compares like with like).
    const bool bySource = m_sources.size() > 1;
    const QStringList items = bySource ? m_overlay.sourceNames : m_overlay.merged.adapters();
    const int current = bySource ? m_overlay.baselineSource : int(items.indexOf(baselineAdapter()));
    // Long names are elided in the middle to the combo's width; the tooltip has them whole.
    const QFontMetrics fm(m_baseline->font());
    const int width = fm.averageCharWidth() * m_baseline->minimumContentsLength();
    for (const QString &item : items) {
        m_baseline->addItem(fm.elidedText(item, Qt::ElideMiddle, width), item);
        m_baseline->setItemData(m_baseline->count() - 1, item, Qt::ToolTipRole);
    }
    m_baseline->setCurrentIndex(std::max(0, current));
    m_baseline->setEnabled(items.size() > 1);
    const QString what = bySource ? tr("The snapshot the others are compared with, adapter by adapter and test by test")
                                  : tr("The adapter the others are compared with, test variant by test variant");
    m_baseline->setToolTip(QStringLiteral("%1\n%2").arg(items.value(std::max(0, current)), what));
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
    m_exportButton->setEnabled(any); // minor 18: nothing to export in an empty tab
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

} // namespace nb::gui
