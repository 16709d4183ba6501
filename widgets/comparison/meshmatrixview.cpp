// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison/meshmatrixview.h"

#include "comparison/comparisonanswerpanel.h"

#include <common/chartstyle.h>
#include <compare/comparisontable.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace nb::ui {

namespace {

constexpr int Margin = 4;

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// Black or white, whichever reads better on the colour.
QColor textOn(const QColor &background)
{
    const double luminance = 0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return luminance > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace

MeshGrid::MeshGrid(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("meshGrid"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void MeshGrid::setMatrix(const nb::MeshMatrix &matrix, const QString &)
{
    m_matrix = matrix;
    bool any = false;
    for (const auto &row : m_matrix.cells)
        for (const nb::MeshCell &c : row)
            if (!c.summary.isEmpty()) {
                m_low = any ? std::min(m_low, c.summary.mean) : c.summary.mean;
                m_high = any ? std::max(m_high, c.summary.mean) : c.summary.mean;
                any = true;
            }
    updateGeometry();
    adjustSize();
    update();
}

int MeshGrid::headerWidth() const
{
    int w = fontMetrics().horizontalAdvance(tr("from \\ to"));
    for (const QString &h : m_matrix.hosts)
        w = std::max(w, fontMetrics().horizontalAdvance(h));
    return std::min(w, fontMetrics().averageCharWidth() * 28) + 2 * Margin;
}

int MeshGrid::cellWidth() const
{
    int w = fontMetrics().horizontalAdvance(QStringLiteral("9.99 Gbit/s (9 failed)"));
    for (const QString &h : m_matrix.hosts)
        w = std::max(w, fontMetrics().horizontalAdvance(h));
    return std::min(w, fontMetrics().averageCharWidth() * 28) + 2 * Margin;
}

int MeshGrid::cellHeight() const
{
    return fontMetrics().height() * 2;
}

QSize MeshGrid::sizeHint() const
{
    const int n = int(m_matrix.hosts.size());
    return QSize(headerWidth() + n * cellWidth() + 1, cellHeight() * (n + 1) + 1);
}

QRect MeshGrid::cellRect(int source, int destination) const
{
    const int n = int(m_matrix.hosts.size());
    if (source < 0 || destination < 0 || source >= n || destination >= n)
        return {};
    return QRect(headerWidth() + destination * cellWidth(), cellHeight() * (source + 1), cellWidth(), cellHeight());
}

std::pair<int, int> MeshGrid::cellAt(const QPoint &p) const
{
    const int n = int(m_matrix.hosts.size());
    if (p.x() < headerWidth() || p.y() < cellHeight())
        return {-1, -1};
    const int d = (p.x() - headerWidth()) / cellWidth();
    const int s = p.y() / cellHeight() - 1;
    if (s >= n || d >= n)
        return {-1, -1};
    return {s, d};
}

double MeshGrid::shade(int source, int destination) const
{
    const nb::MeshCell &c = m_matrix.cells[source][destination];
    if (c.configIndex < 0 || c.summary.isEmpty())
        return -1;
    if (m_high <= m_low)
        return 1;
    const double t = (c.summary.mean - m_low) / (m_high - m_low);
    return nb::metricBetter(m_matrix.metric) == nb::stats::Better::Higher ? t : 1 - t;
}

QString MeshGrid::toolTipText(int s, int d) const
{
    const nb::MeshCell &c = m_matrix.cells[s][d];
    const QString pair = QStringLiteral("%1 \u2192 %2").arg(m_matrix.hosts[s], m_matrix.hosts[d]);
    if (c.configIndex < 0)
        return tr("%1: not in this mesh").arg(pair);
    QStringList lines{pair};
    const QString unit = nb::metricUnit(m_matrix.metric);
    if (!c.summary.isEmpty()) {
        lines << tr("%1: %2").arg(nb::metricName(m_matrix.metric),
                                  nb::ComparisonTable::formatValue(m_matrix.metric, c.summary.mean, unit));
        if (c.summary.spreadKnown)
            lines << tr("95% interval of the mean: %1")
                         .arg(nb::ComparisonTable::formatInterval(m_matrix.metric, c.summary, unit));
    }
    lines << tr("%n run(s)", nullptr, c.runs) +
                 (c.failedRuns ? tr(", %n failed: ", nullptr, c.failedRuns) + c.failure : QString());
    lines << tr("Click to see this pair in the table.");
    return lines.join(QLatin1Char('\n'));
}

void MeshGrid::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette &pal = palette();
    const int n = int(m_matrix.hosts.size());
    p.fillRect(rect(), pal.base());
    const QColor best = seriesColor(pal, 2);
    const QColor worst = mix(pal.base().color(), best, 0.12);
    const QColor gridLine = pal.mid().color();
    p.setPen(pal.text().color());
    const QRect corner(0, 0, headerWidth(), cellHeight());
    p.drawText(corner.adjusted(Margin, 0, -Margin, 0), Qt::AlignVCenter | Qt::AlignLeft, tr("from \\ to"));
    for (int i = 0; i < n; ++i) {
        const QString name = m_matrix.hosts[i];
        const QRect col(headerWidth() + i * cellWidth(), 0, cellWidth(), cellHeight());
        const QRect row(0, cellHeight() * (i + 1), headerWidth(), cellHeight());
        p.setPen(pal.text().color());
        p.drawText(col.adjusted(Margin, 0, -Margin, 0), Qt::AlignCenter,
                   fontMetrics().elidedText(name, Qt::ElideMiddle, col.width() - 2 * Margin));
        p.drawText(row.adjusted(Margin, 0, -Margin, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   fontMetrics().elidedText(name, Qt::ElideMiddle, row.width() - 2 * Margin));
    }
    for (int s = 0; s < n; ++s) {
        for (int d = 0; d < n; ++d) {
            const QRect r = cellRect(s, d);
            const nb::MeshCell &c = m_matrix.cells[s][d];
            const double t = shade(s, d);
            QColor fill = pal.window().color();
            if (t >= 0)
                fill = mix(worst, best, 0.15 + 0.85 * t);
            p.fillRect(r, fill);
            if (c.configIndex >= 0 && c.failedRuns > 0 && c.summary.isEmpty())
                p.fillRect(r, QBrush(verdictTextColor(false, pal), Qt::BDiagPattern));
            p.setPen(gridLine);
            p.drawRect(r.adjusted(0, 0, -1, -1));
            p.setPen(t >= 0 ? textOn(fill) : pal.text().color());
            p.drawText(r.adjusted(Margin, 0, -Margin, 0), Qt::AlignCenter,
                       fontMetrics().elidedText(m_matrix.cellText(s, d), Qt::ElideRight, r.width() - 2 * Margin));
        }
    }
}

bool MeshGrid::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(e);
        const auto [s, d] = cellAt(help->pos());
        if (s >= 0)
            QToolTip::showText(help->globalPos(), toolTipText(s, d), this, cellRect(s, d));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void MeshGrid::mouseReleaseEvent(QMouseEvent *e)
{
    const auto [s, d] = cellAt(e->position().toPoint());
    if (s >= 0 && m_matrix.cells[s][d].configIndex >= 0)
        emit pairActivated(m_matrix.cells[s][d].configIndex);
    QWidget::mouseReleaseEvent(e);
}

MeshMatrixView::MeshMatrixView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("meshMatrixView"));
    m_metric = new QComboBox;
    m_metric->setObjectName(QStringLiteral("meshMetricCombo"));
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_caption = new QLabel;
    m_caption->setWordWrap(true);
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    m_grid = new MeshGrid;
    m_scroll = new QScrollArea;
    m_scroll->setWidget(m_grid);
    m_scroll->setWidgetResizable(false);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto *label = new QLabel(tr("&Metric:"));
    label->setBuddy(m_metric);
    auto *top = new QHBoxLayout;
    top->addWidget(label);
    top->addWidget(m_metric);
    top->addWidget(m_caption, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_scroll, 1);
    connect(m_metric, &QComboBox::activated, this, [this] { showMetric(); });
    connect(m_grid, &MeshGrid::pairActivated, this, &MeshMatrixView::pairActivated);
}

void MeshMatrixView::setComparison(const nb::Comparison &comparison)
{
    m_hasMesh = nb::MeshMatrix::isMesh(comparison);
    m_comparison = comparison;
    m_stats = nb::computeStatistics(comparison);
    const nb::Metric before = metric();
    const bool hadItems = m_metric->count() > 0;
    m_metric->clear();
    if (!m_hasMesh) {
        m_grid->setMatrix(nb::MeshMatrix());
        return;
    }
    for (nb::Metric m : m_stats.presentMetrics())
        m_metric->addItem(nb::metricName(m), int(m));
    const int keep = hadItems ? m_metric->findData(int(before)) : -1;
    m_metric->setCurrentIndex(keep >= 0 ? keep : m_metric->findData(int(nb::MeshMatrix::defaultMetric(m_stats))));
    showMetric();
}

QSize MeshMatrixView::sizeHint() const
{
    const QSize grid = m_grid->sizeHint();
    const int top = std::max(m_metric->sizeHint().height(), m_caption->sizeHint().height());
    const QMargins margins = contentsMargins() + layout()->contentsMargins();
    return QSize(grid.width(), grid.height() + top + layout()->spacing()) +
           QSize(margins.left() + margins.right() + 2, margins.top() + margins.bottom() + 2);
}

void MeshMatrixView::setMetric(nb::Metric metric)
{
    const int i = m_metric->findData(int(metric));
    if (i >= 0) {
        m_metric->setCurrentIndex(i);
        showMetric();
    }
}

nb::Metric MeshMatrixView::metric() const
{
    return m_metric->count() ? nb::Metric(m_metric->currentData().toInt()) : nb::Metric::Throughput;
}

void MeshMatrixView::showMetric()
{
    const nb::MeshMatrix matrix = nb::MeshMatrix::of(m_comparison, m_stats, metric());
    m_grid->setMatrix(matrix);
    m_caption->setText(tr("%1 agents, %2 pairs, %3 run(s) each. Rows: the source that ran the test; columns: the "
                          "destination. The stronger the colour, the better (%4 is better).")
                           .arg(matrix.hosts.size())
                           .arg(m_comparison.configurations.size())
                           .arg(m_comparison.repeats)
                           .arg(nb::metricBetter(metric()) == nb::stats::Better::Higher ? tr("higher") : tr("lower")));
}

} // namespace nb::ui
