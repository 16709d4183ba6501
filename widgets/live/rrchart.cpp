// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/rrchart.h"
#include "core/format.h"

#include "common/chartstyle.h"
#include "common/chartzoom.h"
#include "common/latencyaxis.h"
#include "common/ratescale.h"
#include "common/rrformat.h"

#include <qcustomplot.h>

#include <QActionGroup>
#include <QMenu>
#include <QSettings>

#include <cmath>

namespace nb::ui {

namespace {

// Skew (p99/p50 of one interval) above which the automatic scale turns logarithmic.
constexpr double kLogSkew = 10.0;

// Tick labels for transactions per second, written like the figures ("20,000", "1.5 M").
class CountTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        if (tick >= 1e6)
            return QStringLiteral("%1 M").arg(QString::number(tick / 1e6, 'g', 3));
        return nb::formatGrouped(tick, 3);
    }
};

const char *scaleName(RrChart::LatencyScale scale)
{
    switch (scale) {
    case RrChart::LatencyScale::Linear:
        return "linear";
    case RrChart::LatencyScale::Logarithmic:
        return "log";
    case RrChart::LatencyScale::Automatic:
        break;
    }
    return "auto";
}

} // namespace

RrChart::RrChart(QWidget *parent) : LiveChart(parent), m_plot(new QCustomPlot(this))
{
    // Top: the default axis rect (transactions/s); bottom: a second rect (latency).
    m_rateRect = m_plot->axisRect();
    m_latencyRect = addLowerAxisRect(m_plot);
    m_rateRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    m_rateRect->axis(QCPAxis::atLeft)->setLabel(tr("Trans./s"));
    m_rateRect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
    m_latencyRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new LatencyAxisTicker));
    m_latencyRect->axis(QCPAxis::atLeft)->ticker()->setTickCount(4);
    // The latencies get more of the height than the single transactions line; both keep
    // enough pixels that three ticks and the curves stay readable (review M7).
    m_plot->plotLayout()->setRowStretchFactor(0, 2);
    m_plot->plotLayout()->setRowStretchFactor(1, 3);
    m_rateRect->setMinimumSize(0, 45);
    m_latencyRect->setMinimumSize(0, 70);
    m_latencyRect->axis(QCPAxis::atBottom)->setLabel(tr("Time (s)"));

    m_rate.graph = m_plot->addGraph(m_rateRect->axis(QCPAxis::atBottom), m_rateRect->axis(QCPAxis::atLeft));
    m_rate.graph->setName(tr("Transactions/s"));
    QCPAxis *lx = m_latencyRect->axis(QCPAxis::atBottom);
    QCPAxis *ly = m_latencyRect->axis(QCPAxis::atLeft);
    m_p50.graph = m_plot->addGraph(lx, ly);
    m_p50.graph->setName(tr("p50"));
    m_p90.graph = m_plot->addGraph(lx, ly);
    m_p90.graph->setName(tr("p90"));
    m_p99.graph = m_plot->addGraph(lx, ly);
    m_p99.graph->setName(tr("p99"));

    LiveChartSetup setup;
    setup.objectName = QStringLiteral("rrPlot");
    setup.legendIconSize = QSize(24, 10);
    setup.placeholderRect = m_rateRect;
    setup.exportName = QStringLiteral("request-response");
    setup.formatValue = [this](const QCPGraph *g, double value) {
        return g == m_rate.graph ? nb::formatTransactionsPerSecond(value) : nb::formatMicroseconds(value);
    };
    const LiveChartParts parts = setUpLiveChart(this, m_plot, setup);
    m_placeholder = parts.placeholder;
    // Legend row + the two panes' minimums + the time axis: nothing is clipped down to here.
    setMinimumHeight(230);
    parts.actions->setMenuExtender([this](QMenu *menu) {
        QMenu *sub = menu->addMenu(tr("Latency axis"));
        auto *group = new QActionGroup(sub);
        const std::pair<LatencyScale, QString> choices[] = {
            {LatencyScale::Automatic, tr("Automatic (logarithmic when p99 > 10 \u00d7 p50)")},
            {LatencyScale::Linear, tr("Linear")},
            {LatencyScale::Logarithmic, tr("Logarithmic")}};
        for (const auto &[scale, text] : choices) {
            QAction *a = sub->addAction(text);
            a->setCheckable(true);
            a->setChecked(m_scale == scale);
            a->setActionGroup(group);
            connect(a, &QAction::triggered, this, [this, scale = scale] { setLatencyScale(scale); });
        }
    });
    const QString saved = QSettings().value(QLatin1String(kScaleKey)).toString();
    for (LatencyScale scale : {LatencyScale::Linear, LatencyScale::Logarithmic}) {
        if (saved == QLatin1String(scaleName(scale)))
            m_scale = scale;
    }
    applyPalette();
    startTest(10);
    setPlaceholderText(tr("Transactions and latency of a request/response test appear here"));
}

void RrChart::startTest(double plannedSeconds)
{
    ChartZoom::resetOf(m_plot); // a new test shows itself whole
    for (BoundedGraph *g : {&m_rate, &m_p50, &m_p90, &m_p99})
        g->clear();
    m_planned = plannedSeconds;
    m_lastX = 0;
    m_peakRate = 0;
    m_peakLatency = 0;
    m_minLatency = 0;
    m_skew = 0;
    m_samples = 0;
    setPlaceholderText(tr("Waiting for the first report..."));
    updateAxes();
}

void RrChart::addIntervals(const QList<nb::IntervalReport> &reports)
{
    for (const nb::IntervalReport &r : reports)
        addInterval(r);
    updateAxes();
}

void RrChart::addInterval(const nb::IntervalReport &report)
{
    if (!report.hasRr || report.rr.end <= report.rr.start)
        return;
    const nb::RrInterval &rr = report.rr;
    const double x = rr.end;
    m_rate.append(x, rr.transactionsPerSecond());
    m_peakRate = std::max(m_peakRate, rr.transactionsPerSecond());
    if (rr.latencyUs.count > 0) {
        m_p50.append(x, rr.latencyUs.p50);
        m_p90.append(x, rr.latencyUs.p90);
        m_p99.append(x, rr.latencyUs.p99);
        m_peakLatency = std::max(m_peakLatency, rr.latencyUs.p99);
        if (rr.latencyUs.p50 > 0) {
            m_minLatency = m_minLatency > 0 ? std::min(m_minLatency, rr.latencyUs.p50) : rr.latencyUs.p50;
            m_skew = std::max(m_skew, rr.latencyUs.p99 / rr.latencyUs.p50);
        }
    }
    ++m_samples;
    m_lastX = std::max(m_lastX, x);
    m_placeholder->setVisible(false);
}

void RrChart::setPlaceholderText(const QString &text)
{
    m_placeholder->setText(text);
    m_placeholder->setVisible(m_samples == 0 && !text.isEmpty());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RrChart::setLatencyScale(LatencyScale scale)
{
    m_scale = scale;
    QSettings().setValue(QLatin1String(kScaleKey), QLatin1String(scaleName(scale)));
    updateAxes();
}

bool RrChart::latencyAxisIsLog() const
{
    return m_latencyRect->axis(QCPAxis::atLeft)->scaleType() == QCPAxis::stLogarithmic;
}

QString RrChart::latencyAxisLabel() const
{
    return m_latencyRect->axis(QCPAxis::atLeft)->label();
}

void RrChart::updateAxes()
{
    m_rateRect->axis(QCPAxis::atLeft)->setRange(0, throughputAxisMax(m_peakRate > 0 ? m_peakRate : 1000));
    const bool log = m_minLatency > 0 && (m_scale == LatencyScale::Logarithmic ||
                                          (m_scale == LatencyScale::Automatic && m_skew > kLogSkew));
    setLatencyAxis(m_latencyRect->axis(QCPAxis::atLeft), log, m_minLatency, m_peakLatency, tr("Latency"));
    const double right = std::max({m_planned, m_lastX, 1.0});
    m_latencyRect->axis(QCPAxis::atBottom)->setRange(0, m_planned > 0 ? right : right * 1.1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RrChart::applyPalette()
{
    const QPalette pal = palette();
    applyLiveChartPalette(m_plot, m_placeholder, pal);
    // applyPaletteToPlot styles the default rect; the latency rect gets the same.
    copyAxisRectStyle(m_rateRect, m_latencyRect);
    m_rate.graph->setPen(QPen(seriesColor(pal, 0), 2.0));
    m_p50.graph->setPen(QPen(sendColor(pal), 2.0, Qt::SolidLine));
    m_p90.graph->setPen(QPen(receiveColor(pal), 1.6, Qt::DashLine));
    m_p99.graph->setPen(QPen(seriesColor(pal, 1), 1.6, Qt::DotLine));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace nb::ui
