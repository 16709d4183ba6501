// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/utilizationchart.h"
#include "core/format.h"

#include "common/chartactions.h"
#include "common/chartstyle.h"
#include "common/chartzoom.h"
#include "common/rateticker.h"
#include "common/utilizationscale.h"

#include <qcustomplot.h>

#include <QActionGroup>
#include <QMenu>
#include <QVBoxLayout>

namespace nb::ui {

namespace {

// "60 s" at the left edge, "0" at the right: time ago, as Task Manager labels it. Keys are
// the monitor's seconds, so a view the user holds stays on its data while time goes on;
// ticks fall on round ages counted back from the newest point.
class AgeTicker : public QCPAxisTicker {
public:
    explicit AgeTicker(const double *newest) : m_newest(newest) {}

protected:
    double getTickStep(const QCPRange &range) override
    {
        static constexpr double steps[] = {0.5, 1,   2,    5,    10,   15,    30,    60,    120,  300,
                                           600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
        for (double step : steps) {
            if (range.size() / step <= tickCount())
                return step;
        }
        return 86400;
    }
    QVector<double> createTickVector(double step, const QCPRange &range) override
    {
        QVector<double> ticks;
        const double newest = *m_newest;
        const double first = std::ceil((newest - range.upper) / step);
        const double last = std::floor((newest - range.lower) / step);
        for (double n = last; n >= first && ticks.size() < 1000; --n)
            ticks.append(newest - n * step);
        return ticks;
    }
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return UtilizationChart::ageText(*m_newest - tick);
    }

private:
    const double *m_newest;
};

// Percent of the link on the right-hand axis.
class PercentTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return QStringLiteral("%1%").arg(QString::number(tick, 'g', 4));
    }
};

} // namespace

UtilizationChart::UtilizationChart(QWidget *parent) : LiveChart(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);

    m_plot->setObjectName(QStringLiteral("utilizationPlot"));
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new AgeTicker(&m_newest)));
    m_plot->xAxis->ticker()->setTickCount(6);
    m_plot->xAxis->setRange(-m_span, 0);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new RateTicker));
    m_plot->yAxis2->setTicker(QSharedPointer<QCPAxisTicker>(new PercentTicker));
    m_plot->yAxis2->setTickLabels(true);

    m_send = m_plot->addGraph();
    m_send->setName(tr("Send"));
    m_send->setAntialiasedFill(false); // the fill is most of the drawing cost
    m_receive = m_plot->addGraph();
    m_receive->setName(tr("Receive"));
    // No legend inside the plot: the panel's Send/Receive figures below carry the line
    // styles, which leaves the few pixels of a 720-pixel screen to the curves.
    m_plot->legend->setVisible(false);
    m_plot->yAxis->ticker()->setTickCount(4);
    m_plot->yAxis2->ticker()->setTickCount(4);

    addOverlays();
    addChartActions();
    // The axis fits the busiest moment in view: the span shown, or the user's zoom.
    connect(m_plot->xAxis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this](const QCPRange &r) {
        const double peak = peakBetween(r.lower, r.upper);
        if (peak != m_peak) {
            m_peak = peak;
            updateAxes(m_peak, m_current);
        }
    });

    applyPalette();
    setLinkSpeed(-1);
}

// The link-speed line and its label, the "above link speed" note and the scale label.
void UtilizationChart::addOverlays()
{
    m_linkLine = new QCPItemStraightLine(m_plot);
    m_linkLine->setClipToAxisRect(true);
    m_linkLabel = new QCPItemText(m_plot);
    m_linkLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_linkLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_linkLabel->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_linkLabel->setClipToAxisRect(true);
    m_note = new QCPItemText(m_plot);
    m_note->setObjectName(QStringLiteral("aboveLinkNote"));
    m_note->position->setType(QCPItemPosition::ptAxisRectRatio);
    // Top left: the newest data is on the right, so the note hides the oldest seconds.
    m_note->position->setCoords(0.005, 0.03);
    m_note->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_note->setPadding(QMargins(4, 2, 4, 2));

    // The scale, top right above the graph as in Task Manager; a row of its own so it
    // never covers the newest data, which is at the right.
    m_scaleLabel = new QCPTextElement(m_plot);
    m_scaleLabel->setObjectName(QStringLiteral("scaleLabel"));
    m_scaleLabel->setTextFlags(Qt::AlignRight | Qt::AlignVCenter);
    m_scaleLabel->setMargins(QMargins(4, 0, 6, 0));
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_scaleLabel);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->plotLayout()->setRowSpacing(0);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent *) { Q_EMIT expandRequested(); });
}

// The right-click menu: copy, export, and the scale (recent peak or link speed).
void UtilizationChart::addChartActions()
{
    auto *actions = new ChartActions(m_plot, QStringLiteral("utilization"), [this] { return toCsv(); });
    actions->setValueFormatter([this](const QCPGraph *, double value) {
        const double pct = utilizationPercent(value, m_link);
        return pct < 0 ? nb::formatBitrate(value)
                       : QStringLiteral("%1 (%2)").arg(nb::formatBitrate(value), nb::formatPercent(pct));
    });
    actions->setKeyFormatter([this](double key) {
        const double ago = m_newest - key;
        return ago < 0.5 ? tr("now") : tr("%1 ago").arg(ageText(ago));
    });
    actions->setMenuExtender([this](QMenu *menu) {
        auto *group = new QActionGroup(menu);
        const std::pair<UtilizationScale, QString> choices[] = {
            {UtilizationScale::RecentPeak, tr("Scale to Recent Peak")},
            {UtilizationScale::LinkSpeed, tr("Scale to Link Speed")}};
        for (const auto &[scale, text] : choices) {
            QAction *a = menu->addAction(text);
            a->setCheckable(true);
            a->setChecked(m_scale == scale);
            a->setEnabled(m_link > 0 || scale == UtilizationScale::RecentPeak);
            a->setActionGroup(group);
            connect(a, &QAction::triggered, this, [this, scale = scale] {
                setScale(scale);
                Q_EMIT scaleChosen(scale);
            });
        }
        menu->addSeparator();
        auto *spans = new QActionGroup(menu);
        for (const double span : kSpans) {
            QAction *a = menu->addAction(spanText(span));
            a->setCheckable(true);
            a->setChecked(m_span == span);
            a->setActionGroup(spans);
            connect(a, &QAction::triggered, this, [this, span] {
                setSpan(span);
                Q_EMIT spanChosen(span);
            });
        }
        menu->addSeparator();
        menu->addAction(tr("Larger Graph / Back (double-click)"), this, &UtilizationChart::expandRequested);
    });
}

void UtilizationChart::setLinkSpeed(double linkBitsPerSecond)
{
    m_link = linkBitsPerSecond > 0 ? linkBitsPerSecond : -1;
    m_plot->yAxis2->setVisible(m_link > 0);
    updateAxes(m_peak, m_current);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void UtilizationChart::setScale(UtilizationScale scale)
{
    if (scale == m_scale)
        return;
    m_scale = scale;
    updateAxes(m_peak, m_current);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString UtilizationChart::scaleText() const
{
    return m_scaleLabel->text();
}

QSize UtilizationChart::sizeHint() const
{
    // Most of the adapter panel: Task Manager's graph is most of its page.
    return QSize(480, 260);
}

QSize UtilizationChart::minimumSizeHint() const
{
    // About 70 px of curves between the scale label and the time axis: the window fits a
    // 720-pixel screen with an error banner shown (review M3).
    return QSize(240, 120);
}

QString UtilizationChart::ageText(double seconds)
{
    const qint64 ago = std::llround(std::max(seconds, 0.0));
    if (ago == 0)
        return QStringLiteral("0");
    if (ago <= 60 || (ago < 120 && ago % 60 != 0))
        return tr("%1 s").arg(ago);
    if (ago < 3600)
        return ago % 60 == 0 ? tr("%1 min").arg(ago / 60) : tr("%1 min %2 s").arg(ago / 60).arg(ago % 60);
    const qint64 minutes = ago % 3600 / 60;
    return minutes == 0 ? tr("%1 h").arg(ago / 3600) : tr("%1 h %2 min").arg(ago / 3600).arg(minutes);
}

QString UtilizationChart::spanText(double seconds)
{
    if (seconds <= 0)
        return tr("Show Everything Kept (up to a day)");
    return tr("Show the Last %1").arg(ageText(seconds));
}

void UtilizationChart::setSpan(double seconds)
{
    if (seconds == m_span)
        return;
    m_span = seconds;
    ChartZoom::resetOf(m_plot);
    setHistory(m_points);
}

void UtilizationChart::setHistory(const std::deque<RatePoint> &points)
{
    setHistory(std::vector<RatePoint>(points.begin(), points.end()));
}

double UtilizationChart::peakBetween(double lower, double upper) const
{
    double peak = 0;
    for (const RatePoint &p : m_points) {
        if (p.time >= lower - 0.05 && p.time <= upper + 0.05)
            peak = std::max(peak, busierDirection(p.sendBps, p.receiveBps));
    }
    return peak;
}

void UtilizationChart::setHistory(std::vector<RatePoint> points)
{
    m_points = std::move(points);
    QVector<double> keys, send, receive;
    keys.reserve(int(m_points.size()));
    send.reserve(int(m_points.size()));
    receive.reserve(int(m_points.size()));
    double current = 0;
    m_newest = m_points.empty() ? 0 : m_points.back().time;
    for (const RatePoint &p : m_points) {
        keys.append(p.time);
        send.append(p.sendBps);
        receive.append(p.receiveBps);
    }
    // The note uses the last second, not one 100 ms sample, so it does not flicker.
    int n = 0;
    for (auto it = m_points.crbegin(); it != m_points.crend() && n < 10; ++it, ++n)
        current += busierDirection(it->sendBps, it->receiveBps);
    current /= std::max(n, 1);
    m_send->setData(keys, send, true);
    m_receive->setData(keys, receive, true);
    m_current = current;
    // The chart's own view: the chosen span up to now (everything kept: at least a minute).
    const double oldest = m_points.empty() ? m_newest : m_points.front().time;
    const double span = m_span > 0 ? m_span : std::max(m_newest - oldest, AdapterMonitor::kHistorySeconds);
    m_plot->xAxis->setRange(m_newest - span, m_newest);
    double lower = m_newest - span;
    double upper = m_newest;
    if (const ChartZoom *zoom = ChartZoom::of(m_plot))
        zoom->heldRange(m_plot->xAxis, &lower, &upper);
    m_peak = peakBetween(lower, upper);
    updateAxes(m_peak, current);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void UtilizationChart::updateAxes(double peak, double current)
{
    m_axisMax = utilizationAxisMax(peak, m_link, m_scale);
    m_scaleLabel->setText(utilizationScaleText(m_axisMax, m_link, m_scale));
    const RateUnit unit = rateUnitFor(m_axisMax);
    static_cast<RateTicker *>(m_plot->yAxis->ticker().data())->setUnit(unit);
    m_plot->yAxis->setRange(0, m_axisMax);
    m_plot->yAxis->setLabel(unit.name);
    if (m_link > 0) {
        m_plot->yAxis2->setRange(0, m_axisMax / m_link * 100.0);
        m_plot->yAxis2->setLabel(tr("% of link"));
    }
    const bool above = m_link > 0 && m_axisMax > m_link * 1.0001;
    m_linkLine->setVisible(above);
    m_linkLabel->setVisible(above);
    if (above) {
        m_linkLine->point1->setCoords(0, m_link);
        m_linkLine->point2->setCoords(1, m_link);
        m_linkLabel->position->setCoords(0.99, m_link);
        m_linkLabel->setText(tr("link speed %1 = 100%").arg(nb::formatBitrate(m_link)));
    }
    QString note;
    if (m_link > 0 && current > m_link)
        note = aboveLinkText(current, m_link);
    else if (m_link > 0 && peak > m_link)
        note = tr("was above link speed: peak %1").arg(nb::formatPercent(utilizationPercent(peak, m_link)));
    else if (m_link <= 0) // why there is no % of link; the "Max" label says the scale
        note = m_scale == UtilizationScale::LinkSpeed ? tr("link speed unknown: scaled to the peak")
                                                      : tr("link speed unknown");
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
    // Past the link speed is news and stands out; an unknown speed is only a remark.
    const QPalette pal = palette();
    const bool news = m_link > 0;
    m_note->setColor(pal.color(news ? QPalette::HighlightedText : QPalette::Text));
    QColor back = pal.color(QPalette::Base);
    back.setAlpha(200);
    m_note->setBrush(news ? pal.brush(QPalette::Highlight) : QBrush(back));
    QFont f = font();
    f.setBold(news);
    m_note->setFont(f);
}

QString UtilizationChart::noteText() const
{
    return m_note->visible() ? m_note->text() : QString();
}

QString UtilizationChart::toCsv() const
{
    // Everything kept, not only the view: averages further back, every sample of the last minute.
    QString csv = QStringLiteral("seconds_ago,send_bps,receive_bps,send_pps,receive_pps,dropped,errors\n");
    for (const RatePoint &p : m_points) {
        csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                   .arg(QString::number(m_newest - p.time, 'f', 1), QString::number(p.sendBps, 'f', 0),
                        QString::number(p.receiveBps, 'f', 0), QString::number(p.sendPps, 'f', 0),
                        QString::number(p.receivePps, 'f', 0), QString::number(p.dropped, 'f', 0),
                        QString::number(p.errors, 'f', 0));
    }
    return csv;
}

void UtilizationChart::applyPalette()
{
    const QPalette pal = palette();
    applyPaletteToPlot(m_plot, pal);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    for (QCPAxis *axis : {m_plot->yAxis2}) {
        axis->setBasePen(QPen(pal.color(QPalette::Text), 1));
        axis->setTickPen(QPen(pal.color(QPalette::Text), 1));
        axis->setSubTickPen(QPen(pal.color(QPalette::Text), 1));
        axis->setTickLabelColor(pal.color(QPalette::Text));
        axis->setLabelColor(pal.color(QPalette::Text));
    }
    m_send->setPen(sendPen(pal, 1.8));
    QColor fill = sendColor(pal);
    fill.setAlpha(isDarkPalette(pal) ? 60 : 40);
    m_send->setBrush(fill);
    m_receive->setPen(receivePen(pal, 1.8));
    QColor line = pal.color(QPalette::Text);
    line.setAlpha(150);
    m_linkLine->setPen(QPen(line, 1, Qt::DashDotLine));
    m_linkLabel->setColor(pal.color(QPalette::Text));
    m_scaleLabel->setTextColor(pal.color(QPalette::Text));
    updateAxes(m_peak, m_current);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace nb::ui
