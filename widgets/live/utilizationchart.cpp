// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/utilizationchart.h"
#include "core/format.h"

#include "common/chartactions.h"
#include "common/chartstyle.h"
#include "common/rateticker.h"
#include "common/utilizationscale.h"

#include <qcustomplot.h>

#include <QActionGroup>
#include <QMenu>
#include <QVBoxLayout>

namespace nb::ui {

namespace {

// "60 s" at the left edge, "0" at the right: seconds ago, as Task Manager labels it.
class AgeTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        const int ago = int(std::lround(-tick));
        return ago == 0 ? QStringLiteral("0") : QStringLiteral("%1 s").arg(ago);
    }
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
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new AgeTicker));
    m_plot->xAxis->ticker()->setTickCount(6);
    m_plot->xAxis->setRange(-AdapterMonitor::kHistorySeconds, 0);
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
    actions->setKeyFormatter([](double key) {
        const int ago = int(std::lround(-key));
        return ago == 0 ? tr("now") : tr("%1 s ago").arg(ago);
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

void UtilizationChart::setHistory(const std::deque<RatePoint> &points)
{
    QVector<double> keys, send, receive;
    keys.reserve(int(points.size()));
    send.reserve(int(points.size()));
    receive.reserve(int(points.size()));
    double peak = 0;
    double current = 0;
    if (!points.empty()) {
        const double newest = points.back().time;
        for (const RatePoint &p : points) {
            const double age = p.time - newest;
            if (age < -AdapterMonitor::kHistorySeconds - 0.5)
                continue;
            keys.append(age);
            send.append(p.sendBps);
            receive.append(p.receiveBps);
            peak = std::max(peak, busierDirection(p.sendBps, p.receiveBps));
        }
        // The note uses the last second, not one 100 ms sample, so it does not flicker.
        int n = 0;
        for (auto it = points.crbegin(); it != points.crend() && n < 10; ++it, ++n)
            current += busierDirection(it->sendBps, it->receiveBps);
        current /= std::max(n, 1);
    }
    m_send->setData(keys, send, true);
    m_receive->setData(keys, receive, true);
    m_peak = peak;
    m_current = current;
    updateAxes(peak, current);
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
        m_linkLine->point1->setCoords(-1e9, m_link);
        m_linkLine->point2->setCoords(1e9, m_link);
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
    QString csv = QStringLiteral("seconds_ago,send_bps,receive_bps\n");
    const auto send = m_send->data();
    const auto receive = m_receive->data();
    for (int i = 0; i < send->size() && i < receive->size(); ++i) {
        const auto s = send->at(i);
        csv += QStringLiteral("%1,%2,%3\n")
                   .arg(QString::number(-s->key, 'f', 1), QString::number(s->value, 'f', 0),
                        QString::number(receive->at(i)->value, 'f', 0));
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
