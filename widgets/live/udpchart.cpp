// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/udpchart.h"
#include "core/format.h"

#include "common/chartstyle.h"
#include "common/chartzoom.h"
#include "common/ratescale.h"
#include "common/rateticker.h"

#include <qcustomplot.h>

#include <algorithm>

namespace nb::ui {

namespace {

// Loss % and jitter ms tick labels: at most 3 significant digits, no trailing zeros.
class UdpFigureTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override { return QString::number(tick, 'g', 3); }
};

// The axis end for a loss or jitter peak: a nice number with headroom, at least `floor`.
double figureAxisMax(double peak, double floor)
{
    return std::max(floor, niceCeiling(peak * 1.15));
}

} // namespace

UdpChart::UdpChart(QWidget *parent) : LiveChart(parent), m_plot(new QCustomPlot(this))
{
    m_rateRect = m_plot->axisRect();
    m_lossRect = addLowerAxisRect(m_plot);
    m_rateRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new RateTicker));
    m_rateRect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
    QCPAxis *lossAxis = m_lossRect->axis(QCPAxis::atLeft);
    QCPAxis *jitterAxis = m_lossRect->axis(QCPAxis::atRight);
    lossAxis->setTicker(QSharedPointer<QCPAxisTicker>(new UdpFigureTicker));
    lossAxis->ticker()->setTickCount(3);
    // The lower pane's own legend names its lines (updateAxes).
    lossAxis->setLabel(tr("Loss %"));
    jitterAxis->setVisible(true);
    jitterAxis->setTickLabels(true);
    jitterAxis->setTicker(QSharedPointer<QCPAxisTicker>(new UdpFigureTicker));
    jitterAxis->ticker()->setTickCount(3);
    jitterAxis->setLabel(tr("Jitter ms"));
    // The rate pane's right margin matches the jitter axis below (margin group), so the
    // time axes line up.
    m_plot->plotLayout()->setRowStretchFactor(0, 1);
    m_plot->plotLayout()->setRowStretchFactor(1, 1);
    m_rateRect->setMinimumSize(0, 60);
    m_lossRect->setMinimumSize(0, 60);
    m_lossRect->axis(QCPAxis::atBottom)->setLabel(tr("Time (s)"));

    QCPAxis *rx = m_rateRect->axis(QCPAxis::atBottom);
    QCPAxis *ry = m_rateRect->axis(QCPAxis::atLeft);
    QCPAxis *lx = m_lossRect->axis(QCPAxis::atBottom);
    for (bool upload : {true, false}) {
        Direction &d = direction(upload);
        d.sent.graph = m_plot->addGraph(rx, ry);
        d.received.graph = m_plot->addGraph(rx, ry);
        d.loss.graph = m_plot->addGraph(lx, lossAxis);
        d.jitter.graph = m_plot->addGraph(lx, jitterAxis);
    }

    LiveChartSetup setup;
    setup.objectName = QStringLiteral("udpPlot");
    setup.legendIconSize = QSize(24, 10);
    setup.placeholderRect = m_rateRect;
    setup.exportName = QStringLiteral("udp");
    setup.formatValue = [this](const QCPGraph *g, double value) { return formatValue(g, value); };
    const LiveChartParts parts = setUpLiveChart(this, m_plot, setup);
    m_lossLegend = new QCPLegend;
    m_lossRect->insetLayout()->addElement(m_lossLegend, Qt::AlignTop | Qt::AlignLeft);
    m_lossLegend->setLayer(QStringLiteral("legend"));
    m_lossLegend->setObjectName(QStringLiteral("lossLegend"));
    m_lossLegend->setIconSize(QSize(24, 8));
    m_lossLegend->setRowSpacing(0);
    m_lossLegend->setFillOrder(QCPLegend::foColumnsFirst);
    m_lossLegend->setWrap(2);
    m_lossLegend->setVisible(false);
    m_placeholder = parts.placeholder;
    // Up to four rates, some with "(server)": as many legend columns as fit, more rows if needed.
    connect(m_plot, &QCustomPlot::beforeReplot, m_plot,
            [this] { fitLegendToWidth(m_plot, m_plot->viewport().width()); });
    setMinimumHeight(230);
    applyPalette();
    startTest(10);
    setPlaceholderText(tr("Rate, loss and jitter of a UDP test appear here"));
}

QCPGraph *UdpChart::graph(bool upload, Figure figure) const
{
    const Direction &d = upload ? m_upload : m_download;
    switch (figure) {
    case Figure::Sent:
        return d.sent.graph;
    case Figure::Received:
        return d.received.graph;
    case Figure::LossPercent:
        return d.loss.graph;
    case Figure::JitterMs:
        break;
    }
    return d.jitter.graph;
}

QString UdpChart::formatValue(const QCPGraph *g, double value) const
{
    for (const Direction *d : {&m_upload, &m_download}) {
        if (g == d->loss.graph)
            return nb::formatLossPercent(value);
        if (g == d->jitter.graph)
            return tr("%1 ms").arg(nb::formatCompact(value));
    }
    return nb::formatBitrate(value);
}

void UdpChart::startTest(double plannedSeconds)
{
    ChartZoom::resetOf(m_plot); // a new test shows itself whole
    for (bool upload : {true, false}) {
        Direction &d = direction(upload);
        const QString way = upload ? tr("Upload") : tr("Download");
        const std::pair<BoundedGraph *, QString> names[] = {{&d.sent, tr("%1 sent").arg(way)},
                                                            {&d.received, tr("%1 received").arg(way)},
                                                            {&d.loss, tr("%1 loss").arg(way)},
                                                            {&d.jitter, tr("%1 jitter").arg(way)}};
        for (const auto &[g, name] : names) {
            g->clear();
            g->graph->setName(name);
            g->graph->setProperty("nbWholeTest", false);
        }
    }
    applyPalette();
    m_planned = plannedSeconds;
    m_lastX = 0;
    m_peakRate = m_peakLoss = m_peakJitter = 0;
    m_samples = 0;
    setPlaceholderText(tr("Waiting for the first report..."));
    updateAxes();
}

void UdpChart::addIntervals(const QList<nb::IntervalReport> &reports)
{
    for (const nb::IntervalReport &r : reports)
        addInterval(r);
    updateAxes();
}

void UdpChart::addInterval(const nb::IntervalReport &report)
{
    // The client's view: streams it sent on are the upload.
    for (bool sent : {true, false}) {
        if (!report.hasDirection(sent))
            continue;
        const nb::IntervalSum sum = report.sum(sent);
        if (sum.omitted || sum.end <= sum.start)
            continue;
        Direction &d = direction(sent);
        const double x = sum.end;
        const double bps = sum.bitsPerSecond();
        m_peakRate = std::max(m_peakRate, bps);
        m_lastX = std::max(m_lastX, x);
        if (sent) {
            d.sent.append(x, bps);
        } else {
            d.received.append(x, bps);
            d.loss.append(x, sum.lostPercent());
            d.jitter.append(x, sum.jitterMs);
            m_peakLoss = std::max(m_peakLoss, sum.lostPercent());
            m_peakJitter = std::max(m_peakJitter, sum.jitterMs);
        }
        ++m_samples;
        m_placeholder->setVisible(false);
    }
}

void UdpChart::addWholeTest(BoundedGraph &g, double value, double seconds)
{
    // Only where the interval figures are missing: the peer measured it.
    if (!g.series.points().isEmpty() || seconds <= 0)
        return;
    g.append(0, value);
    g.append(seconds, value);
    g.graph->setProperty("nbWholeTest", true); // applyPalette() gives it its dash-dot pen
    g.graph->setName(tr("%1 (server)").arg(g.graph->name()));
}

void UdpChart::finishTest(const nb::TestResult &result)
{
    if (result.isServerSide)
        return;
    for (bool upload : {true, false}) {
        if (!result.hasDirection(upload))
            continue;
        const nb::DirectionSum sum = result.sum(upload);
        if (!sum.udp)
            continue;
        Direction &d = direction(upload);
        const double seconds = std::max(sum.seconds, sum.receiverSeconds);
        addWholeTest(d.sent, sum.sentBitsPerSecond(), seconds);
        if (sum.packetsReceived > 0 || sum.bytesReceived > 0) {
            addWholeTest(d.received, sum.receivedBitsPerSecond(), seconds);
            addWholeTest(d.loss, sum.lostPercent(), seconds);
            addWholeTest(d.jitter, sum.jitterMs, seconds);
            m_peakLoss = std::max(m_peakLoss, sum.lostPercent());
            m_peakJitter = std::max(m_peakJitter, sum.jitterMs);
        }
        m_peakRate = std::max({m_peakRate, sum.sentBitsPerSecond(), sum.receivedBitsPerSecond()});
        m_lastX = std::max(m_lastX, seconds);
        m_placeholder->setVisible(false);
    }
    applyPalette();
    updateAxes();
}

void UdpChart::setPlaceholderText(const QString &text)
{
    m_placeholder->setText(text);
    m_placeholder->setVisible(m_samples == 0 && !text.isEmpty());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void UdpChart::updateAxes()
{
    QCPAxis *rate = m_rateRect->axis(QCPAxis::atLeft);
    const double rateTop = throughputAxisMax(m_peakRate > 0 ? m_peakRate : 1e6);
    const RateUnit unit = rateUnitFor(rateTop);
    static_cast<RateTicker *>(rate->ticker().data())->setUnit(unit);
    rate->setLabel(tr("Rate (%1)").arg(unit.name));
    rate->setRange(0, rateTop);
    m_lossRect->axis(QCPAxis::atLeft)->setRange(0, figureAxisMax(m_peakLoss, 1.0));
    m_lossRect->axis(QCPAxis::atRight)->setRange(0, figureAxisMax(m_peakJitter, 0.1));
    // Only lines with data are named (an upload has no download lines): the rates in the
    // legend above, loss and jitter in the lower pane's own (the server's whole-test lines
    // are dash-dot, which the axes' "solid"/"dashed" could not say: review minor).
    for (Direction *d : {&m_upload, &m_download}) {
        for (BoundedGraph *g : {&d->sent, &d->received, &d->loss, &d->jitter}) {
            const bool has = !g->series.points().isEmpty();
            g->graph->setVisible(has);
            const bool lower = g == &d->loss || g == &d->jitter;
            QCPLegend *legend = lower ? m_lossLegend : m_plot->legend;
            if (lower)
                g->graph->removeFromLegend(m_plot->legend); // addGraph() put it there
            if (has)
                g->graph->addToLegend(legend);
            else
                g->graph->removeFromLegend(legend);
        }
    }
    m_lossLegend->setVisible(m_lossLegend->itemCount() > 0);
    const double right = std::max({m_planned, m_lastX, 1.0});
    m_lossRect->axis(QCPAxis::atBottom)->setRange(0, m_planned > 0 ? right : right * 1.1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void UdpChart::applyPalette()
{
    const QPalette pal = palette();
    applyLiveChartPalette(m_plot, m_placeholder, pal);
    copyAxisRectStyle(m_rateRect, m_lossRect);
    QColor back = pal.color(QPalette::Base);
    back.setAlpha(210);
    m_lossLegend->setBrush(back);
    m_lossLegend->setBorderPen(Qt::NoPen);
    m_lossLegend->setTextColor(pal.color(QPalette::Text));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_lossLegend->setFont(small);
    // Colour: the direction; received thick and solid, offered thin and dotted; loss solid,
    // jitter dashed.
    for (bool upload : {true, false}) {
        Direction &d = direction(upload);
        const QColor c = upload ? sendColor(pal) : receiveColor(pal);
        const auto pen = [&](BoundedGraph &g, qreal width, Qt::PenStyle style) {
            const bool whole = g.graph->property("nbWholeTest").toBool();
            // The server's whole-test line: dash-dot for a solid figure, dash-dot-dot for a
            // dotted or dashed one, so loss and jitter stay apart.
            const Qt::PenStyle wholeStyle = style == Qt::SolidLine ? Qt::DashDotLine : Qt::DashDotDotLine;
            g.graph->setPen(QPen(c, width, whole ? wholeStyle : style));
        };
        pen(d.sent, 1.4, Qt::DotLine);
        pen(d.received, 2.0, Qt::SolidLine);
        pen(d.loss, 2.0, Qt::SolidLine);
        pen(d.jitter, 1.6, Qt::DashLine);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace nb::ui
