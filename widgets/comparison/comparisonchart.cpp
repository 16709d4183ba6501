// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison/comparisonchart.h"

#include "common/chartactions.h"
#include "common/chartstyle.h"
#include "common/chartzoom.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QWheelEvent>

#include <algorithm>

namespace nb::ui {

ComparisonChart::ComparisonChart(const QString &objectName, const QString &exportName, QWidget *parent)
    : QCustomPlot(parent)
{
    setObjectName(objectName);
    setMinimumSize(260, 200);
    placeLegendAbove(this, 4);
    legend->setIconSize(18, 10);
    legend->setMargins(QMargins(4, 4, 4, 2));

    m_placeholder = new QCPItemText(this);
    m_placeholder->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_placeholder->position->setCoords(0.5, 0.5);
    m_placeholder->setPositionAlignment(Qt::AlignCenter);
    m_placeholder->setClipToAxisRect(false);
    m_placeholder->setVisible(false);

    m_actions = new ChartActions(this, exportName, [this] { return toCsv(); });
    m_actions->setExportSize(kExportSize);
    m_actions->setTooltipProvider([this](const QPoint &pos) { return tooltipAt(pos); });
    // Labels depend on the size: fit them before every screen layout (exports: draw()).
    connect(this, &QCustomPlot::beforeReplot, this, [this] {
        if (m_fitting)
            return;
        m_fitting = true;
        fitLayout();
        m_fitting = false;
        if (ChartZoom *zoom = m_actions ? m_actions->zoom() : nullptr)
            zoom->reapply(); // the user's zoom over the fitted headroom
    });
}

void ComparisonChart::fitLayout()
{
    // Legend names elided to what a row can hold; the full name stays in the plottable's
    // "fullName" property (tooltips, CSV and tests read it).
    // With more than two entries, two columns: each name gets half the row, so a legend
    // of four long names takes two rows of the chart's height, not four.
    const QFontMetricsF fm(legend->font());
    const int columns = legend->itemCount() > 2 ? 2 : 1;
    const double room = std::max(60.0, (viewport().width() - 40.0) / columns - legend->iconSize().width() - 12.0);
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i));
        if (!item)
            continue;
        QCPAbstractPlottable *p = item->plottable();
        if (!p->property("fullName").isValid())
            p->setProperty("fullName", p->name());
        p->setName(fm.elidedText(p->property("fullName").toString(), Qt::ElideMiddle, room));
    }
    fitLegendToWidth(this, viewport().width());
}

QString ComparisonChart::tooltipAt(const QPoint &) const
{
    return QString();
}

void ComparisonChart::draw(QCPPainter *painter)
{
    // Exports lay the plot out at their own size (the viewport): fit the labels to it.
    if (!m_fitting) {
        m_fitting = true;
        fitLayout();
        m_fitting = false;
    }
    QCustomPlot::draw(painter);
}

void ComparisonChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        rebuild();
    QCustomPlot::changeEvent(event);
}

void ComparisonChart::wheelEvent(QWheelEvent *event)
{
    // The plain wheel belongs to the page around it (a QScrollArea); Ctrl+wheel never gets
    // here (ChartZoom's event filter takes it).
    if (!interactions().testFlag(QCP::iRangeZoom)) {
        event->ignore();
        return;
    }
    QCustomPlot::wheelEvent(event);
}

void ComparisonChart::setPlaceholder(const QString &text)
{
    const bool show = !text.isEmpty();
    m_placeholder->setText(text);
    m_placeholder->setVisible(show);
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setVisible(!show);
        axis->grid()->setVisible(!show && axis == yAxis);
    }
    if (show)
        yAxis2->setVisible(false);
}

void ComparisonChart::styleCommon()
{
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    m_placeholder->setColor(palette().color(QPalette::PlaceholderText));
    QFont f = font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 1.2);
    m_placeholder->setFont(f);
}

QRectF ComparisonChart::itemTextRect(const QCPItemText *item)
{
    // As QCPItemText::draw places it: the text's bounding box plus padding, aligned at the
    // anchor by the position alignment.
    const QFontMetricsF fm(item->font());
    const QRectF text = fm.boundingRect(QRectF(), Qt::TextDontClip | item->textAlignment(), item->text());
    const QMargins pad = item->padding();
    QRectF box(0, 0, text.width() + pad.left() + pad.right(), text.height() + pad.top() + pad.bottom());
    const QPointF at = item->position->pixelPosition();
    const Qt::Alignment a = item->positionAlignment();
    double x = at.x(), y = at.y();
    if (a & Qt::AlignHCenter)
        x -= box.width() / 2;
    else if (a & Qt::AlignRight)
        x -= box.width();
    if (a & Qt::AlignVCenter)
        y -= box.height() / 2;
    else if (a & Qt::AlignBottom)
        y -= box.height();
    box.moveTopLeft(QPointF(x, y));
    return box;
}

QCPTextElement *ComparisonChart::addTitleRow()
{
    auto *title = new QCPTextElement(this);
    title->setMargins(QMargins(4, 3, 4, 2));
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, title);
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowSpacing(0);
    return title;
}

QList<QRectF> ComparisonChart::labelRects() const
{
    QList<QRectF> out;
    // X tick labels: centred on their tick below the axis rect, as QCPAxisPainter places them.
    if (xAxis->visible() && xAxis->tickLabels()) {
        const QFontMetricsF fm(xAxis->tickLabelFont());
        const QVector<double> ticks = xAxis->tickVector();
        const QVector<QString> labels = xAxis->tickVectorLabels();
        const double top =
            axisRect()->rect().bottom() + xAxis->offset() + xAxis->tickLengthOut() + xAxis->tickLabelPadding();
        for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
            if (labels[i].isEmpty() || !xAxis->range().contains(ticks[i]))
                continue;
            const QRectF r = fm.boundingRect(QRectF(), Qt::TextDontClip | Qt::AlignHCenter, labels[i]);
            const double x = xAxis->coordToPixel(ticks[i]);
            out.append(QRectF(x - r.width() / 2, top, r.width(), r.height()));
        }
    }
    if (legend->visible()) {
        for (int i = 0; i < legend->itemCount(); ++i)
            if (QCPAbstractLegendItem *item = legend->item(i); item && item->visible())
                out.append(QRectF(item->rect()));
    }
    out += annotationRects();
    return out;
}

bool ComparisonChart::exportTo(const QString &path, QString *error)
{
    return exportImage(this, path, error);
}

bool ComparisonChart::exportImage(QCustomPlot *chart, const QString &path, QString *error)
{
    const bool ok = ChartActions::saveImage(chart, path, error, kExportSize);
    // The export laid the chart out at its own size: lay it out again for the screen.
    chart->replot(QCustomPlot::rpQueuedReplot);
    return ok;
}

} // namespace nb::ui
