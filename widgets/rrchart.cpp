// SPDX-License-Identifier: GPL-3.0-or-later
#include "rrchart.h"

#include "chartstyle.h"
#include "ratescale.h"
#include "rrformat.h"

#include <qcustomplot.h>

namespace nb::ui {

namespace {

// "28k" style tick labels for transactions per second.
class CountTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        if (tick >= 1e6)
            return QStringLiteral("%1M").arg(QString::number(tick / 1e6, 'g', 3));
        if (tick >= 1e3)
            return QStringLiteral("%1k").arg(QString::number(tick / 1e3, 'g', 3));
        return QString::number(tick, 'g', 3);
    }
};

} // namespace

RrChart::RrChart(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    // Top: the default axis rect (transactions/s); bottom: a second rect (latency).
    m_rateRect = m_plot->axisRect();
    m_latencyRect = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(1, 0, m_latencyRect);
    auto *margins = new QCPMarginGroup(m_plot);
    m_rateRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_latencyRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    for (QCPAxisRect *r : {m_rateRect, m_latencyRect}) {
        for (QCPAxis *a : r->axes())
            a->setLayer(QStringLiteral("axes"));
    }
    m_rateRect->axis(QCPAxis::atBottom)->setTickLabels(false);
    m_rateRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new CountTicker));
    m_rateRect->axis(QCPAxis::atLeft)->setLabel(tr("Trans./s"));
    m_rateRect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
    m_latencyRect->axis(QCPAxis::atLeft)->setLabel(tr("Latency (us)"));
    m_latencyRect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
    m_latencyRect->axis(QCPAxis::atBottom)->setLabel(tr("Time (s)"));
    connect(m_latencyRect->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
            m_rateRect->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));

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
        return g == m_rate.graph ? formatTransactionsPerSecond(value) : formatLatencyUs(value);
    };
    m_placeholder = setUpLiveChart(this, m_plot, setup).placeholder;
    applyPalette();
    startTest(10);
    setPlaceholderText(tr("Transactions and latency of a request/response test appear here"));
}

void RrChart::startTest(double plannedSeconds)
{
    for (BoundedGraph *g : {&m_rate, &m_p50, &m_p90, &m_p99})
        g->clear();
    m_planned = plannedSeconds;
    m_lastX = 0;
    m_peakRate = 0;
    m_peakLatency = 0;
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

void RrChart::updateAxes()
{
    m_rateRect->axis(QCPAxis::atLeft)->setRange(0, throughputAxisMax(m_peakRate > 0 ? m_peakRate : 1000));
    m_latencyRect->axis(QCPAxis::atLeft)->setRange(0, throughputAxisMax(m_peakLatency > 0 ? m_peakLatency : 100));
    const double right = std::max({m_planned, m_lastX, 1.0});
    m_latencyRect->axis(QCPAxis::atBottom)->setRange(0, m_planned > 0 ? right : right * 1.1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RrChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyPalette();
    QWidget::changeEvent(event);
}

void RrChart::applyPalette()
{
    const QPalette pal = palette();
    applyLiveChartPalette(m_plot, m_placeholder, pal);
    // applyPaletteToPlot styles the default rect; the latency rect gets the same.
    const QList<QCPAxis *> src = m_rateRect->axes();
    const QList<QCPAxis *> dst = m_latencyRect->axes();
    for (qsizetype i = 0; i < src.size() && i < dst.size(); ++i) {
        dst[i]->setBasePen(src[i]->basePen());
        dst[i]->setTickPen(src[i]->tickPen());
        dst[i]->setSubTickPen(src[i]->subTickPen());
        dst[i]->setTickLabelColor(src[i]->tickLabelColor());
        dst[i]->setLabelColor(src[i]->labelColor());
        dst[i]->grid()->setPen(src[i]->grid()->pen());
        dst[i]->grid()->setSubGridPen(src[i]->grid()->subGridPen());
        dst[i]->grid()->setZeroLinePen(src[i]->grid()->zeroLinePen());
    }
    m_rate.graph->setPen(QPen(seriesColor(pal, 0), 2.0));
    m_p50.graph->setPen(QPen(sendColor(pal), 2.0, Qt::SolidLine));
    m_p90.graph->setPen(QPen(receiveColor(pal), 1.6, Qt::DashLine));
    m_p99.graph->setPen(QPen(seriesColor(pal, 1), 1.6, Qt::DotLine));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace nb::ui
