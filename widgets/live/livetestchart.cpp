// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/livetestchart.h"
#include "core/format.h"

#include "common/chartactions.h"
#include "common/chartstyle.h"
#include "common/chartzoom.h"
#include "common/rateticker.h"

#include <qcustomplot.h>

#include <QMenu>

#include <algorithm>

namespace nb::ui {

namespace {

constexpr int kReplotIntervalMs = 33; // at most ~30 redraws a second
constexpr int kMaxStreamsInLegend = 8;

QString seriesName(bool sender, int streamId)
{
    const QString dir = sender ? QStringLiteral("Send") : QStringLiteral("Receive");
    if (streamId == 0)
        return dir;
    return QStringLiteral("Stream %1 %2").arg(streamId).arg(dir.toLower());
}

} // namespace

LiveTestChart::LiveTestChart(QWidget *parent) : LiveChart(parent), m_plot(new QCustomPlot(this))
{
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->addLayer(QStringLiteral("streams"), m_plot->layer(QStringLiteral("grid")), QCustomPlot::limAbove);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new RateTicker));
    m_plot->xAxis->setLabel(tr("Time (s)"));
    m_plot->xAxis->setRange(0, 10);
    m_plot->yAxis->setRange(0, 1);

    LiveChartSetup setup;
    setup.objectName = QStringLiteral("liveTestPlot");
    setup.legendIconSize = QSize(32, 12);
    setup.placeholderAt = QPointF(0.5, 0.45);
    setup.exportName = QStringLiteral("throughput");
    setup.csv = [this] { return toCsv(); };
    setup.formatValue = [](const QCPGraph *, double value) { return nb::formatBitrate(value); };
    const LiveChartParts parts = setUpLiveChart(this, m_plot, setup);
    parts.actions->setMenuExtender([this](QMenu *menu) {
        QAction *streams = menu->addAction(tr("Show each stream"));
        streams->setCheckable(true);
        streams->setChecked(m_showStreams);
        connect(streams, &QAction::toggled, this, &LiveTestChart::setShowStreams);
    });
    m_placeholder = parts.placeholder;
    setPlaceholderText(tr("Click Run to measure throughput"));
    m_unit = rateUnitFor(1);
    updateAxes();
    applyPalette();

    m_replotTimer.setInterval(kReplotIntervalMs);
    connect(&m_replotTimer, &QTimer::timeout, this, &LiveTestChart::replotNow);
}

LiveTestChart::~LiveTestChart() = default;

void LiveTestChart::startTest(double plannedSeconds)
{
    ChartZoom::resetOf(m_plot); // a new test shows itself whole
    m_plot->clearGraphs();
    m_totals.clear();
    m_streams.clear();
    m_plannedSeconds = plannedSeconds;
    m_lastX = 0;
    m_sampleCount = 0;
    setPlaceholderText(tr("Waiting for the first report..."));
    updateAxes();
    scheduleReplot();
}

void LiveTestChart::setSeriesCapacity(int points)
{
    m_capacity = std::max(points, 4);
}

LiveTestChart::Series &LiveTestChart::totalSeries(bool sender)
{
    auto it = m_totals.find(sender);
    if (it == m_totals.end()) {
        it = m_totals.emplace(sender, Series{BoundedSeries(m_capacity), nullptr, sender, 0}).first;
        ensureGraph(it->second);
    }
    return it->second;
}

LiveTestChart::Series &LiveTestChart::streamSeries(int id, bool sender)
{
    const auto key = std::make_pair(id, sender);
    auto it = m_streams.find(key);
    if (it == m_streams.end()) {
        it = m_streams.emplace(key, Series{BoundedSeries(m_capacity), nullptr, sender, id}).first;
        if (m_showStreams)
            ensureGraph(it->second);
    }
    return it->second;
}

void LiveTestChart::addIntervals(const QList<nb::IntervalReport> &reports)
{
    for (const nb::IntervalReport &report : reports)
        addInterval(report);
}

void LiveTestChart::addInterval(const nb::IntervalReport &report)
{
    // Warm-up (omitted) intervals are not part of the result, so not part of the chart.
    for (bool sender : {true, false}) {
        if (!report.hasDirection(sender))
            continue;
        const nb::IntervalSum sum = report.sum(sender);
        if (sum.omitted || sum.seconds() <= 0)
            continue;
        push(totalSeries(sender), sum.end, sum.bitsPerSecond());
        m_lastX = std::max(m_lastX, sum.end);
    }
    for (const nb::StreamInterval &s : report.streams) {
        if (s.omitted || s.seconds() <= 0)
            continue;
        push(streamSeries(s.id, s.sender), s.end, s.bitsPerSecond());
    }
    trimLegend();
    m_placeholder->setVisible(m_sampleCount == 0);
    updateAxes();
    scheduleReplot();
}

void LiveTestChart::setPlaceholderText(const QString &text)
{
    m_placeholder->setText(text);
    m_placeholder->setVisible(m_sampleCount == 0 && !text.isEmpty());
    scheduleReplot();
}

void LiveTestChart::push(Series &series, double x, double y)
{
    ++m_sampleCount;
    const BoundedSeries::Change change = series.data.append(x, y);
    if (!series.graph || change == BoundedSeries::Change::None)
        return;
    if (change == BoundedSeries::Change::Appended) {
        const QPointF &p = series.data.points().constLast();
        series.graph->addData(QVector<double>{p.x()}, QVector<double>{p.y()}, true);
        return;
    }
    QVector<double> keys, values;
    keys.reserve(series.data.points().size());
    values.reserve(series.data.points().size());
    for (const QPointF &p : series.data.points()) {
        keys.append(p.x());
        values.append(p.y());
    }
    series.graph->setData(keys, values, true);
}

void LiveTestChart::ensureGraph(Series &series)
{
    if (series.graph)
        return;
    series.graph = m_plot->addGraph();
    series.graph->setName(seriesName(series.sender, series.streamId));
    if (series.streamId != 0) {
        series.graph->setLayer(QStringLiteral("streams"));
    }
    styleGraph(series);
    QVector<double> keys, values;
    for (const QPointF &p : series.data.points()) {
        keys.append(p.x());
        values.append(p.y());
    }
    series.graph->setData(keys, values, true);
}

void LiveTestChart::trimLegend()
{
    // Dozens of per-stream entries would hide the curves; the totals stay labelled.
    if (m_streams.size() <= kMaxStreamsInLegend)
        return;
    for (auto &[key, series] : m_streams) {
        if (series.graph)
            series.graph->removeFromLegend();
    }
}

void LiveTestChart::styleGraph(Series &series)
{
    if (!series.graph)
        return;
    const QPalette pal = palette();
    if (series.streamId == 0) {
        series.graph->setPen(series.sender ? sendPen(pal, 2.2) : receivePen(pal, 2.2));
        // A dot on each report: a few straight segments then read as a few measurements.
        series.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4.5));
        return;
    }
    QColor c = seriesColor(pal, series.streamId - 1);
    c.setAlpha(190);
    QPen pen(c, 1.2, series.sender ? Qt::SolidLine : Qt::DashLine);
    series.graph->setPen(pen);
}

void LiveTestChart::setShowStreams(bool show)
{
    if (show == m_showStreams)
        return;
    m_showStreams = show;
    for (auto &[key, series] : m_streams) {
        if (show) {
            ensureGraph(series);
            trimLegend();
        } else if (series.graph) {
            m_plot->removeGraph(series.graph);
            series.graph = nullptr;
        }
    }
    updateAxes();
    scheduleReplot();
}

double LiveTestChart::peakBitsPerSecond() const
{
    double peak = 0;
    for (const auto &[key, series] : m_totals)
        peak = std::max(peak, series.data.maxY());
    return peak;
}

void LiveTestChart::updateAxes()
{
    double peak = peakBitsPerSecond();
    if (m_showStreams) {
        for (const auto &[key, series] : m_streams)
            peak = std::max(peak, series.data.maxY());
    }
    const double top = throughputAxisMax(peak > 0 ? peak : 1e6);
    m_unit = rateUnitFor(top);
    static_cast<RateTicker *>(m_plot->yAxis->ticker().data())->setUnit(m_unit);
    m_plot->yAxis->setLabel(tr("Throughput (%1)").arg(m_unit.name));
    m_plot->yAxis->setRange(0, top);
    const double right = std::max({m_plannedSeconds, m_lastX, 1.0});
    m_plot->xAxis->setRange(0, m_plannedSeconds > 0 ? right : right * 1.1);
    // Dots only while they are sparse enough to tell apart (about 60 across the chart).
    for (auto &[key, series] : m_totals) {
        if (series.graph)
            series.graph->setScatterSkip(std::max(0, series.graph->dataCount() / 60 - 1));
    }
}

void LiveTestChart::scheduleReplot()
{
    m_dirty = true;
    if (!m_replotTimer.isActive())
        m_replotTimer.start();
}

void LiveTestChart::replotNow()
{
    if (!m_dirty) {
        m_replotTimer.stop();
        return;
    }
    m_dirty = false;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void LiveTestChart::applyPalette()
{
    if (!m_placeholder)
        return; // still constructing
    applyLiveChartPalette(m_plot, m_placeholder, palette());
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.2);
    m_placeholder->setFont(f);
    for (auto &[key, series] : m_totals)
        styleGraph(series);
    for (auto &[key, series] : m_streams)
        styleGraph(series);
    scheduleReplot();
}

QString LiveTestChart::toCsv() const
{
    QList<const Series *> columns;
    for (const auto &[key, series] : m_totals)
        columns.append(&series);
    if (m_showStreams) {
        for (const auto &[key, series] : m_streams)
            columns.append(&series);
    }
    // Rows are keyed by time; series may have different resolutions after compaction.
    std::map<double, QList<QString>> rows;
    for (qsizetype c = 0; c < columns.size(); ++c) {
        for (const QPointF &p : columns.at(c)->data.points()) {
            QList<QString> &row = rows[p.x()];
            row.resize(columns.size());
            row[c] = QString::number(p.y(), 'f', 0);
        }
    }
    QString csv = QStringLiteral("time_s");
    for (const Series *s : columns)
        csv += QStringLiteral(",%1_bps").arg(
            seriesName(s->sender, s->streamId).toLower().replace(QLatin1Char(' '), QLatin1Char('_')));
    csv += QLatin1Char('\n');
    for (auto &[x, row] : rows) {
        row.resize(columns.size());
        csv += QString::number(x, 'f', 3) + QLatin1Char(',') + row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

} // namespace nb::ui
