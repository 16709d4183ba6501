// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/comparisonviewcharts.h"

#include <comparison/comparisoncharts.h>

#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QScrollBar>
#include <QVBoxLayout>
#include <QWheelEvent>

namespace nb::gui {

QList<nb::Metric> ComparisonChartGrid::chartMetrics()
{
    // The questions first (how fast, at what CPU cost), then the detail. Remote service
    // demand stays in the table: one chart per unit is enough here.
    return {nb::Metric::Throughput, nb::Metric::LocalCpuPerGbps, nb::Metric::RemoteCpuPerGbps,
            nb::Metric::TransactionsPerSecond, nb::Metric::LocalCpuPerKtps, nb::Metric::RemoteCpuPerKtps,
            nb::Metric::LatencyP50, nb::Metric::LatencyP99,
            // UDP: what arrived, what was lost, the jitter, the CPU cost; UDP_RR likewise.
            nb::Metric::UdpGoodput, nb::Metric::UdpLossPercent, nb::Metric::UdpJitter, nb::Metric::UdpLocalCpuPerGbps,
            nb::Metric::UdpRemoteCpuPerGbps, nb::Metric::UdpRrTransactionsPerSecond, nb::Metric::UdpRrLatencyP50,
            nb::Metric::UdpRrLatencyP99, nb::Metric::UdpRrLostPercent, nb::Metric::UdpRrLocalCpuPerKtps,
            nb::Metric::UdpRrRemoteCpuPerKtps,
            // Latency under load: the increase per loaded phase first (the question), then
            // the idle baseline, the loaded p99 and what the load achieved.
            nb::Metric::LoadedDownloadP99Increase, nb::Metric::LoadedUploadP99Increase,
            nb::Metric::LoadedBidirP99Increase, nb::Metric::LoadedDownloadP50Increase,
            nb::Metric::LoadedUploadP50Increase, nb::Metric::LoadedBidirP50Increase, nb::Metric::LoadedIdleP50,
            nb::Metric::LoadedIdleP99, nb::Metric::LoadedDownloadP99, nb::Metric::LoadedUploadP99,
            nb::Metric::LoadedBidirP99, nb::Metric::LoadedDownloadThroughput, nb::Metric::LoadedUploadThroughput,
            nb::Metric::LoadedBidirThroughput, nb::Metric::LocalCpu, nb::Metric::RemoteCpu,
            nb::Metric::LocalServiceDemand, nb::Metric::LocalServiceDemandPerTransaction};
}

ComparisonChartGrid::ComparisonChartGrid(QWidget *parent) : QScrollArea(parent)
{
    setObjectName(QStringLiteral("barChartArea"));
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_grid = new QWidget;
    m_layout = new QGridLayout(m_grid);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(6);
    setWidget(m_grid);

    const QSize minimum(260, kMinimumChartHeight);
    for (nb::Metric m : chartMetrics()) {
        auto *chart = new nb::ui::ComparisonBarChart(m_grid);
        chart->setObjectName(QStringLiteral("barChart_%1").arg(nb::metricKey(m)));
        chart->setMetric(m);
        chart->setMinimumSize(minimum);
        chart->hide();
        chart->installEventFilter(this);
        m_barCharts.append(chart);
    }
    m_timeline = new nb::ui::ComparisonTimelineChart(m_grid);
    m_timeline->setObjectName(QStringLiteral("comparisonTimeline"));
    m_timeline->setMinimumSize(minimum);
    m_timeline->hide();
    m_timeline->installEventFilter(this);

    m_latency = new nb::ui::LatencyDistributionChart;
    m_latency->setObjectName(QStringLiteral("latencyDistribution"));
    m_latency->installEventFilter(this);
    m_latencyMode = new QComboBox;
    m_latencyMode->setObjectName(QStringLiteral("latencyModeCombo"));
    m_latencyMode->addItem(tr("Box plot"), int(nb::ui::LatencyDistributionChart::Mode::Box));
    m_latencyMode->addItem(tr("CDF"), int(nb::ui::LatencyDistributionChart::Mode::Cdf));
    connect(m_latencyMode, &QComboBox::currentIndexChanged, this, [this] {
        m_latency->setMode(nb::ui::LatencyDistributionChart::Mode(m_latencyMode->currentData().toInt()));
    });
    m_latencyPage = new QWidget(m_grid);
    m_latencyPage->setObjectName(QStringLiteral("latencyPage"));
    auto *latencyLayout = new QVBoxLayout(m_latencyPage);
    latencyLayout->setContentsMargins(0, 0, 0, 0);
    latencyLayout->setSpacing(2);
    auto *modeRow = new QHBoxLayout;
    modeRow->addWidget(new QLabel(tr("Latency distribution as:")));
    modeRow->addWidget(m_latencyMode);
    modeRow->addStretch(1);
    latencyLayout->addLayout(modeRow);
    latencyLayout->addWidget(m_latency, 1);
    m_latencyPage->setMinimumSize(minimum);
    m_latencyPage->hide();

    viewport()->installEventFilter(this);
}

void ComparisonChartGrid::setData(const nb::ComparisonOverlay &overlay, const nb::ComparisonStatistics &statistics)
{
    m_hasData = true;
    for (auto *chart : std::as_const(m_barCharts))
        chart->setData(overlay, statistics);
    m_timeline->setData(overlay);
    m_latency->setData(overlay);
    m_columns = 0; // lay out again: other charts may have data now
    relayout();
}

void ComparisonChartGrid::clearData()
{
    m_hasData = false;
    for (auto *chart : std::as_const(m_barCharts))
        chart->clearData();
    m_timeline->clearData();
    m_latency->clearData();
    m_columns = 0;
    relayout();
}

nb::ui::ComparisonBarChart *ComparisonChartGrid::barChart(nb::Metric metric) const
{
    for (nb::ui::ComparisonBarChart *chart : m_barCharts) {
        if (chart->metric() == metric)
            return chart;
    }
    return nullptr;
}

QList<nb::ui::ComparisonBarChart *> ComparisonChartGrid::visibleBarCharts() const
{
    QList<nb::ui::ComparisonBarChart *> out;
    for (nb::ui::ComparisonBarChart *chart : m_barCharts) {
        if (m_hasData && chart->hasData())
            out.append(chart);
    }
    return out;
}

bool ComparisonChartGrid::isLatencyVisible() const
{
    return m_hasData && m_latency->hasData();
}

QList<NamedChart> ComparisonChartGrid::exportableCharts() const
{
    QList<NamedChart> out;
    for (nb::ui::ComparisonBarChart *chart : visibleBarCharts())
        out.append({chart, nb::metricKey(chart->metric())});
    if (m_hasData && m_timeline->curveCount() > 0)
        out.append({m_timeline, QStringLiteral("throughput_over_time")});
    if (isLatencyVisible())
        out.append({m_latency, QStringLiteral("latency_distribution")});
    return out;
}

QList<QWidget *> ComparisonChartGrid::shownCharts() const
{
    QList<QWidget *> out;
    for (nb::ui::ComparisonBarChart *chart : visibleBarCharts())
        out.append(chart);
    if (m_hasData && m_timeline->curveCount() > 0)
        out.append(m_timeline);
    if (isLatencyVisible())
        out.append(m_latencyPage);
    return out;
}

void ComparisonChartGrid::relayout()
{
    const int width = viewport()->width();
    const int columns = std::clamp(width / kMinimumChartWidth, 1, 4);
    if (columns == m_columns)
        return;
    m_columns = columns;
    const QList<QWidget *> shown = shownCharts();
    QList<QWidget *> all(m_barCharts.cbegin(), m_barCharts.cend());
    all << m_timeline << m_latencyPage;
    for (QWidget *w : std::as_const(all)) {
        m_layout->removeWidget(w);
        if (!shown.contains(w))
            w->hide();
    }
    // Twelve grid units: a full row's charts span 12 / columns, the last row's charts share
    // the whole width, so no row ends in an empty slot.
    constexpr int kUnits = 12;
    const int n = int(shown.size());
    for (int i = 0; i < n; ++i) {
        const int row = i / columns;
        const int firstOfRow = row * columns;
        const int inRow = std::min(columns, n - firstOfRow);
        const int span = kUnits / inRow;
        m_layout->addWidget(shown[i], row, (i - firstOfRow) * span, 1, span);
        shown[i]->show();
    }
    for (int c = 0; c < kUnits; ++c)
        m_layout->setColumnStretch(c, 1);
    const int rows = (n + columns - 1) / columns;
    for (int r = 0; r < m_layout->rowCount(); ++r)
        m_layout->setRowStretch(r, r < rows ? 1 : 0);
}

bool ComparisonChartGrid::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == viewport() && event->type() == QEvent::Resize)
        relayout();
    // The plain wheel scrolls the page, as over any other content; Ctrl+wheel is the chart's
    // zoom (ChartZoom). QAbstractScrollArea filters its own scroll bars' events too: a wheel event sent to the
    // scroll bar comes back here and must go through, or it is sent again, endlessly (a
    // stack overflow on the first wheel turn over a chart).
    if (event->type() == QEvent::Wheel && watched != viewport() && watched != verticalScrollBar() &&
        watched != horizontalScrollBar() && !(static_cast<QWheelEvent *>(event)->modifiers() & Qt::ControlModifier)) {
        QApplication::sendEvent(verticalScrollBar(), event);
        return true;
    }
    return QScrollArea::eventFilter(watched, event);
}

} // namespace nb::gui
