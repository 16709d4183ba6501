// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/cpuchart.h"
#include "core/format.h"

#include "common/chartactions.h"
#include "common/chartstyle.h"
#include "common/chartzoom.h"
#include "common/ratescale.h"

#include <qcustomplot.h>

#include <QRegularExpression>
#include <QVBoxLayout>

#include <algorithm>

namespace nb::ui {

namespace {

// text as set when every line fits in width, else its words flowed into lines that do
// (the set line breaks would leave a lone word); a word wider than width stays whole.
QString cpuPlaceholderLines(const QString &text, const QFontMetrics &fm, int width)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    if (std::all_of(lines.begin(), lines.end(), [&](const QString &l) { return fm.horizontalAdvance(l) <= width; }))
        return text;
    QStringList out;
    QString current;
    for (const QString &word : text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
        const QString joined = current.isEmpty() ? word : current + QLatin1Char(' ') + word;
        if (!current.isEmpty() && fm.horizontalAdvance(joined) > width) {
            out.append(current);
            current = word;
        } else {
            current = joined;
        }
    }
    out.append(current);
    return out.join(QLatin1Char('\n'));
}

} // namespace

CpuChart::CpuChart(QWidget *parent) : LiveChart(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    setMinimumHeight(140);

    m_plot->setObjectName(QStringLiteral("cpuPlot"));
    m_plot->xAxis->setLabel(tr("Time (s)"));
    m_plot->yAxis->setLabel(tr("CPU (% of all cores)"));
    m_system.graph = m_plot->addGraph();
    m_system.graph->setName(tr("Local busy"));
    m_process.graph = m_plot->addGraph();
    // Short names: the CPU column is narrow and the legend should take two rows at most.
    m_process.graph->setName(tr("Process"));
    m_remote.graph = m_plot->addGraph();
    m_remote.graph->setName(tr("Server busy"));
    m_plot->legend->setIconSize(28, 10);
    placeLegendAbove(m_plot, 2);
    // The CPU column is narrow and its width varies: as many legend entries per row as
    // fit, so "Process (% of 1 core)" is never cut at the right edge.
    connect(m_plot, &QCustomPlot::beforeReplot, m_plot,
            [this] { fitLegendToWidth(m_plot, m_plot->viewport().width()); });

    m_placeholder = new QCPItemText(m_plot);
    m_placeholder->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_placeholder->position->setCoords(0.5, 0.5);
    m_placeholder->setPositionAlignment(Qt::AlignCenter);
    m_placeholder->setTextAlignment(Qt::AlignCenter);
    // Inside the axis rect only: a narrow CPU column must not push it over the axis. The
    // text is wrapped to the rect's width once the layout is known, so it is not clipped.
    m_placeholder->setClipToAxisRect(true);
    connect(m_plot, &QCustomPlot::afterLayout, m_plot, [this] { fitPlaceholder(); });

    auto *actions = new ChartActions(m_plot, QStringLiteral("cpu"));
    actions->setValueFormatter([this](const QCPGraph *graph, double value) {
        QString text = QStringLiteral("%1%").arg(nb::formatSignificant(value, 3));
        if (graph == m_process.graph && m_cpuCount > 1)
            text += tr(" (%1% of one core)").arg(nb::formatSignificant(value * m_cpuCount, 3));
        return text;
    });
    applyPalette();
    startTest(10);
    setPlaceholderText(tr("CPU use appears here\nduring a test"));
}

void CpuChart::setLocalIsAgent(bool agent)
{
    m_system.graph->setName(agent ? tr("Agent busy") : tr("Local busy"));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CpuChart::startTest(double plannedSeconds)
{
    ChartZoom::resetOf(m_plot); // a new test shows itself whole
    m_system.clear();
    m_process.clear();
    m_remote.clear();
    m_remote.graph->removeFromLegend();
    setLocalIsAgent(false);
    m_planned = plannedSeconds;
    m_lastX = 0;
    m_samples = 0;
    setPlaceholderText(tr("Waiting for the first report..."));
    updateAxes();
}

void CpuChart::addSample(const nb::CpuSample &sample, double offsetSeconds)
{
    if (sample.seconds() <= 0)
        return;
    const double x = offsetSeconds + sample.end;
    if (sample.systemValid) {
        m_system.append(x, sample.systemBusyPct);
    }
    if (sample.processValid && sample.cpuCount > 0) {
        // One unit on the axis: the process in % of all cores, like the busy lines.
        m_cpuCount = sample.cpuCount;
        const double pct = sample.processPct / sample.cpuCount;
        m_process.append(x, pct);
    }
    ++m_samples;
    m_lastX = std::max(m_lastX, x);
    m_placeholder->setVisible(false);
    updateAxes();
}

void CpuChart::setRemote(const QList<nb::CpuSample> &intervals, const nb::CpuSample &total, double offsetSeconds)
{
    if (!intervals.isEmpty()) {
        // A last interval much shorter than the others is the server's wind-down after the
        // test's last full interval: mostly idle, it drew a dip that looked real (review minor).
        // The whole-test figures keep its CPU time.
        qsizetype count = intervals.size();
        if (count >= 2 && intervals.last().seconds() < 0.5 * intervals.at(count - 2).seconds())
            --count;
        for (qsizetype i = 0; i < count; ++i) {
            const nb::CpuSample &s = intervals.at(i);
            if (s.systemValid && s.seconds() > 0) {
                m_remote.append(offsetSeconds + s.end, s.systemBusyPct);
            }
        }
    } else if (total.systemValid && total.seconds() > 0) {
        // Only the whole-test figure: a flat line over the test.
        m_remote.append(offsetSeconds, total.systemBusyPct);
        m_remote.append(offsetSeconds + total.seconds(), total.systemBusyPct);
    }
    if (hasRemote())
        m_remote.graph->addToLegend();
    updateAxes();
}

bool CpuChart::hasRemote() const
{
    return m_remote.graph->dataCount() > 0;
}

void CpuChart::setPlaceholderText(const QString &text)
{
    m_placeholderText = text;
    fitPlaceholder();
    m_placeholder->setVisible(m_samples == 0 && !text.isEmpty());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CpuChart::fitPlaceholder()
{
    // A character's width of air on each side keeps the text off the axis line.
    const QFontMetrics fm(m_placeholder->font());
    const int width = m_plot->axisRect()->width() - 2 * fm.averageCharWidth();
    m_placeholder->setText(width > 0 ? cpuPlaceholderLines(m_placeholderText, fm, width) : m_placeholderText);
}

double CpuChart::axisMax() const
{
    return m_plot->yAxis->range().upper;
}

QString CpuChart::axisLabel() const
{
    return m_plot->yAxis->label();
}

void CpuChart::updateAxes()
{
    // Every line is % of all cores: 100% is the top. A little headroom keeps a line at
    // 100% off the frame, where it would hide in the axis rect's border.
    m_plot->yAxis->setRange(0, 105);
    // Markers mark at most ~30 points per line, or a long test turns them into a smear.
    for (QCPGraph *g : {m_system.graph, m_remote.graph})
        g->setScatterSkip(std::max(0, g->dataCount() / 30 - 1));
    const double right = std::max({m_planned, m_lastX, 1.0});
    m_plot->xAxis->setRange(0, m_planned > 0 ? right : right * 1.1);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CpuChart::applyPalette()
{
    const QPalette pal = palette();
    applyPaletteToPlot(m_plot, pal);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    // Local and server busy both sit at 100% on a saturated machine: besides colour, the
    // local line is solid with round markers, the server's dotted with square ones, drawn
    // on top and a little wider, so the two stay apart where they overlap.
    m_system.graph->setPen(QPen(sendColor(pal), 2.0));
    m_system.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    m_process.graph->setPen(QPen(seriesColor(pal, 1), 1.6, Qt::DashLine));
    m_process.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssNone));
    m_remote.graph->setPen(QPen(receiveColor(pal), 2.4, Qt::DotLine));
    m_remote.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 7));
    m_placeholder->setColor(pal.color(QPalette::PlaceholderText));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace nb::ui
