// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/loadedlatencychart.h"
#include "core/format.h"

#include "common/chartstyle.h"
#include "common/chartzoom.h"
#include "common/latencyaxis.h"
#include "common/loadedlatencyformat.h"
#include "common/ratescale.h"
#include "common/rateticker.h"
#include "common/rrformat.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace nb::ui {

namespace {

// Largest p99 over smallest p50 of the test above which the latency axis turns logarithmic.
constexpr double kLoadedLogSkew = 10.0;
// Pixels kept free on each side of a phase label inside its band.
constexpr int kLabelMargin = 2;

QString shortPhaseTitle(nb::LoadPhase phase)
{
    switch (phase) {
    case nb::LoadPhase::Idle:
        return QObject::tr("Idle");
    case nb::LoadPhase::Download:
        return QObject::tr("Down");
    case nb::LoadPhase::Upload:
        return QObject::tr("Up");
    case nb::LoadPhase::Bidir:
        return QObject::tr("Both");
    }
    return {};
}

// The value of a graph at time t: the interval that ends at or after t (points sit at
// interval ends); empty past the last point or before any.
std::optional<double> valueAt(const QCPGraph *graph, double t)
{
    const auto data = graph->data();
    auto it = std::lower_bound(data->constBegin(), data->constEnd(), t,
                               [](const QCPGraphData &d, double key) { return d.key < key; });
    if (it == data->constEnd())
        return std::nullopt;
    return it->value;
}

} // namespace

LoadedLatencyChart::LoadedLatencyChart(QWidget *parent) : LiveChart(parent), m_plot(new QCustomPlot(this))
{
    m_rateRect = m_plot->axisRect();
    m_latencyRect = addLowerAxisRect(m_plot);
    // The bands lie under the grid and the curves.
    m_plot->addLayer(QStringLiteral("bands"), m_plot->layer(QStringLiteral("grid")), QCustomPlot::limBelow);
    m_rateRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new RateTicker));
    m_rateRect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);
    m_latencyRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<QCPAxisTicker>(new LatencyAxisTicker));
    m_latencyRect->axis(QCPAxis::atLeft)->ticker()->setTickCount(4);
    m_plot->plotLayout()->setRowStretchFactor(0, 1);
    m_plot->plotLayout()->setRowStretchFactor(1, 1);
    m_rateRect->setMinimumSize(0, 60);
    m_latencyRect->setMinimumSize(0, 70);
    m_latencyRect->axis(QCPAxis::atBottom)->setLabel(tr("Time (s)"));

    QCPAxis *rx = m_rateRect->axis(QCPAxis::atBottom);
    QCPAxis *ry = m_rateRect->axis(QCPAxis::atLeft);
    m_upload.graph = m_plot->addGraph(rx, ry);
    m_upload.graph->setName(tr("Upload"));
    m_download.graph = m_plot->addGraph(rx, ry);
    m_download.graph->setName(tr("Download"));
    QCPAxis *lx = m_latencyRect->axis(QCPAxis::atBottom);
    QCPAxis *ly = m_latencyRect->axis(QCPAxis::atLeft);
    m_p50.graph = m_plot->addGraph(lx, ly);
    m_p50.graph->setName(tr("Probe p50"));
    m_p99.graph = m_plot->addGraph(lx, ly);
    m_p99.graph->setName(tr("Probe p99"));
    for (BoundedGraph *g : {&m_upload, &m_download, &m_p50, &m_p99})
        g->graph->setLineStyle(QCPGraph::lsStepRight); // a point at an interval's end holds over it

    LiveChartSetup setup;
    setup.objectName = QStringLiteral("loadedLatencyPlot");
    setup.legendIconSize = QSize(24, 10);
    setup.placeholderRect = m_rateRect;
    setup.placeholderAt = QPointF(0.5, 0.6);
    setup.exportName = QStringLiteral("latency-under-load");
    setup.formatValue = [this](const QCPGraph *g, double value) {
        return g == m_upload.graph || g == m_download.graph ? nb::formatBitrate(value) : nb::formatMicroseconds(value);
    };
    const LiveChartParts parts = setUpLiveChart(this, m_plot, setup);
    m_placeholder = parts.placeholder;
    parts.actions->setTooltipProvider([this](const QPoint &pos) {
        if (!m_rateRect->rect().contains(pos) && !m_latencyRect->rect().contains(pos))
            return QString();
        return textAt(m_latencyRect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x()));
    });
    connect(m_plot, &QCustomPlot::beforeReplot, this, &LoadedLatencyChart::fitLabels);
    setMinimumHeight(200); // fits a 1024x768 or 1280x720 window beside the rest (review M3)
    applyPalette();
    startTest(nb::TestParams());
    setPlaceholderText(tr("Throughput and probe latency of a latency-under-load test appear here"));
}

void LoadedLatencyChart::clearBands()
{
    for (QCPItemRect *r : std::as_const(m_bands))
        m_plot->removeItem(r);
    for (QCPItemText *t : std::as_const(m_labels))
        m_plot->removeItem(t);
    m_bands.clear();
    m_labels.clear();
}

void LoadedLatencyChart::startTest(const nb::TestParams &params)
{
    ChartZoom::resetOf(m_plot); // a new test shows itself whole
    for (BoundedGraph *g : {&m_upload, &m_download, &m_p50, &m_p99})
        g->clear();
    clearBands();
    m_schedule = params.isLoadedLatency() ? params.loadSchedule() : nb::LoadSchedule();
    m_planned = m_schedule.size() > 0 ? m_schedule.total() : 10.0;
    m_lastX = 0;
    m_peakRate = 0;
    m_peakLatency = 0;
    m_minLatency = 0;
    m_samples = 0;
    for (int i = 0; i < m_schedule.size(); ++i) {
        for (QCPAxisRect *rect : {m_rateRect, m_latencyRect}) {
            auto *band = new QCPItemRect(m_plot);
            band->setLayer(QStringLiteral("bands"));
            band->setClipAxisRect(rect);
            for (QCPItemPosition *p : {band->topLeft, band->bottomRight}) {
                p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
                p->setAxisRect(rect);
                p->setTypeX(QCPItemPosition::ptPlotCoords);
                p->setTypeY(QCPItemPosition::ptAxisRectRatio);
            }
            band->topLeft->setCoords(m_schedule.phaseStart(i), 0);
            band->bottomRight->setCoords(m_schedule.phaseEnd(i), 1);
            band->setProperty("nbPhase", int(m_schedule.phases().at(i)));
            m_bands.append(band);
        }
        auto *label = new QCPItemText(m_plot);
        label->setClipAxisRect(m_rateRect);
        label->position->setAxes(m_rateRect->axis(QCPAxis::atBottom), m_rateRect->axis(QCPAxis::atLeft));
        label->position->setAxisRect(m_rateRect);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords((m_schedule.phaseStart(i) + m_schedule.phaseEnd(i)) / 2, 0);
        label->setPositionAlignment(Qt::AlignTop | Qt::AlignHCenter);
        label->setPadding(QMargins(2, 2, 2, 1));
        label->setText(loadPhaseTitle(m_schedule.phases().at(i)));
        label->setProperty("nbPhase", int(m_schedule.phases().at(i)));
        m_labels.append(label);
    }
    applyPalette();
    setPlaceholderText(tr("Waiting for the first report..."));
    updateAxes();
}

void LoadedLatencyChart::addIntervals(const QList<nb::IntervalReport> &reports)
{
    for (const nb::IntervalReport &r : reports)
        addInterval(r);
    updateAxes();
}

void LoadedLatencyChart::addInterval(const nb::IntervalReport &report)
{
    double x = -1;
    // The client sent on its upload streams and received on its download streams.
    if (report.hasDirection(true)) {
        const nb::IntervalSum up = report.sum(true);
        if (up.end > up.start) {
            m_upload.append(up.end, up.bitsPerSecond());
            m_peakRate = std::max(m_peakRate, up.bitsPerSecond());
            x = std::max(x, up.end);
        }
    }
    if (report.hasDirection(false)) {
        const nb::IntervalSum down = report.sum(false);
        if (down.end > down.start) {
            m_download.append(down.end, down.bitsPerSecond());
            m_peakRate = std::max(m_peakRate, down.bitsPerSecond());
            x = std::max(x, down.end);
        }
    }
    if (report.hasRr && report.rr.end > report.rr.start && report.rr.latencyUs.count > 0) {
        const nb::LatencySummary &l = report.rr.latencyUs;
        m_p50.append(report.rr.end, l.p50);
        m_p99.append(report.rr.end, l.p99);
        m_peakLatency = std::max(m_peakLatency, l.p99);
        if (l.p50 > 0) {
            m_minLatency = m_minLatency > 0 ? std::min(m_minLatency, l.p50) : l.p50;
        }
        x = std::max(x, report.rr.end);
    }
    if (x < 0)
        return;
    ++m_samples;
    m_lastX = std::max(m_lastX, x);
    m_placeholder->setVisible(false);
}

void LoadedLatencyChart::setPlaceholderText(const QString &text)
{
    m_placeholder->setText(text);
    m_placeholder->setVisible(m_samples == 0 && !text.isEmpty());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool LoadedLatencyChart::latencyAxisIsLog() const
{
    return m_latencyRect->axis(QCPAxis::atLeft)->scaleType() == QCPAxis::stLogarithmic;
}

QString LoadedLatencyChart::latencyAxisLabel() const
{
    return m_latencyRect->axis(QCPAxis::atLeft)->label();
}

QStringList LoadedLatencyChart::bandLabels() const
{
    QStringList out;
    for (const QCPItemText *t : m_labels)
        out.append(t->text());
    return out;
}

QList<QRect> LoadedLatencyChart::labelRects() const
{
    QList<QRect> out;
    for (const QCPItemText *t : m_labels) {
        if (t->visible())
            out.append(QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).toAlignedRect());
    }
    return out;
}

QString LoadedLatencyChart::textAt(double seconds) const
{
    if (m_schedule.size() == 0 || seconds < 0 || seconds > std::max(m_planned, m_lastX))
        return {};
    const int phase = m_schedule.phaseAt(seconds);
    QStringList lines{
        tr("%1 s, %2").arg(nb::formatFixed(seconds, 1), loadPhaseTitle(m_schedule.phases().at(phase)).toLower())};
    const std::pair<const BoundedGraph *, QString> rows[] = {
        {&m_upload, tr("Upload")}, {&m_download, tr("Download")}, {&m_p50, tr("Probe p50")}, {&m_p99, tr("Probe p99")}};
    for (const auto &[g, name] : rows) {
        const std::optional<double> v = valueAt(g->graph, seconds);
        if (!v)
            continue;
        const bool rate = g == &m_upload || g == &m_download;
        lines.append(QStringLiteral("%1: %2").arg(name, rate ? nb::formatBitrate(*v) : nb::formatMicroseconds(*v)));
    }
    return lines.size() > 1 ? lines.join(QLatin1Char('\n')) : QString();
}

void LoadedLatencyChart::fitLabels()
{
    // A label that does not fit its band gets the short name, then its first letter, then none: never two
    // labels over each other, and never one cut off by the band's edge.
    const QCPAxis *x = m_rateRect->axis(QCPAxis::atBottom);
    for (QCPItemText *t : std::as_const(m_labels)) {
        const auto phase = nb::LoadPhase(t->property("nbPhase").toInt());
        const double mid = t->position->coords().x();
        const double half = m_schedule.phaseSeconds() / 2;
        const double width = x->coordToPixel(mid + half) - x->coordToPixel(mid - half);
        const QFontMetrics fm(t->font());
        const QMargins pad = t->padding();
        const auto fits = [&](const QString &s) {
            return fm.horizontalAdvance(s) + pad.left() + pad.right() + 2 * kLabelMargin <= width;
        };
        const QString full = loadPhaseTitle(phase);
        const QString brief = shortPhaseTitle(phase);
        const QString letter = brief.left(1);
        t->setText(fits(full) ? full : fits(brief) ? brief : letter);
        t->setVisible(fits(t->text()));
    }
}

void LoadedLatencyChart::updateAxes()
{
    QCPAxis *rate = m_rateRect->axis(QCPAxis::atLeft);
    const double rateTop = throughputAxisMax(m_peakRate > 0 ? m_peakRate : 1e9);
    const RateUnit rateUnit = rateUnitFor(rateTop);
    static_cast<RateTicker *>(rate->ticker().data())->setUnit(rateUnit);
    rate->setLabel(rateUnit.name);
    // Room above the curves for the phase labels.
    rate->setRange(0, rateTop * 1.2);

    // Unlike RrChart, the span over the whole test counts, not one interval's: idle and
    // loaded latency often differ by orders of magnitude, and a linear axis would flatten
    // the idle baseline (what every increase is measured from) onto the floor.
    const bool log = m_minLatency > 0 && m_peakLatency > kLoadedLogSkew * m_minLatency;
    setLatencyAxis(m_latencyRect->axis(QCPAxis::atLeft), log, m_minLatency, m_peakLatency, tr("Probe"));
    const double right = std::max({m_planned, m_lastX, 1.0});
    m_latencyRect->axis(QCPAxis::atBottom)->setRange(0, right);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void LoadedLatencyChart::applyPalette()
{
    const QPalette pal = palette();
    applyLiveChartPalette(m_plot, m_placeholder, pal);
    copyAxisRectStyle(m_rateRect, m_latencyRect);
    m_upload.graph->setPen(sendPen(pal));
    m_download.graph->setPen(receivePen(pal));
    m_p50.graph->setPen(QPen(seriesColor(pal, 0), 2.0, Qt::SolidLine));
    m_p99.graph->setPen(QPen(seriesColor(pal, 1), 1.6, Qt::DotLine));
    // Bands: light tints of the direction colours, grey for both ways; idle stays the plain
    // background.
    const int alpha = isDarkPalette(pal) ? 46 : 34;
    const auto tint = [alpha](QColor c) {
        c.setAlpha(alpha);
        return c;
    };
    for (QCPItemRect *band : std::as_const(m_bands)) {
        QColor fill = Qt::transparent;
        switch (nb::LoadPhase(band->property("nbPhase").toInt())) {
        case nb::LoadPhase::Idle:
            break;
        case nb::LoadPhase::Download:
            fill = tint(receiveColor(pal));
            break;
        case nb::LoadPhase::Upload:
            fill = tint(sendColor(pal));
            break;
        case nb::LoadPhase::Bidir:
            fill = tint(pal.color(QPalette::WindowText));
            fill.setAlpha(alpha / 2);
            break;
        }
        band->setBrush(fill);
        band->setPen(Qt::NoPen);
    }
    for (QCPItemText *t : std::as_const(m_labels)) {
        t->setColor(pal.color(QPalette::WindowText));
        t->setBrush(Qt::NoBrush);
        t->setPen(Qt::NoPen);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace nb::ui
