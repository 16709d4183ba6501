// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/chartzoom.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QRubberBand>
#include <QToolButton>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace nb::ui {

namespace {

constexpr double kWheelStepFactor = 0.85; // one wheel notch shows 85% of the span
constexpr double kKeyZoomFactor = 0.8;
constexpr double kKeyPanFraction = 0.1; // of the axis rect
// How far from the chart's own span a view may go: a 60 s graph zooms out to about 16 hours
// and in to a few milliseconds, and never to an empty or non-finite range.
constexpr double kMaxZoomOut = 1000;
constexpr double kMaxZoomIn = 1e-4;

QPair<double, double> rangeOf(const QCPAxis *axis)
{
    return {axis->range().lower, axis->range().upper};
}

} // namespace

ChartZoom::ChartZoom(QCustomPlot *plot) : QObject(plot), m_plot(plot)
{
    setObjectName(QStringLiteral("nbChartZoom"));
    m_plot->installEventFilter(this);
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] {
        watchAxes();
        if (m_zoomed)
            applyHeld();
    });
    connect(m_plot, &QCustomPlot::afterReplot, this, &ChartZoom::placeResetButton);

    m_resetButton = new QToolButton(m_plot);
    m_resetButton->setObjectName(QStringLiteral("resetZoomButton"));
    m_resetButton->setText(tr("Reset zoom"));
    m_resetButton->setToolTip(tr("Show the whole chart again (Home)"));
    m_resetButton->setCursor(Qt::ArrowCursor);
    m_resetButton->setFocusPolicy(Qt::NoFocus);
    m_resetButton->hide();
    connect(m_resetButton, &QToolButton::clicked, this, &ChartZoom::reset);
}

ChartZoom *ChartZoom::of(const QCustomPlot *plot)
{
    return plot ? plot->findChild<ChartZoom *>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

void ChartZoom::resetOf(const QCustomPlot *plot)
{
    if (ChartZoom *zoom = of(plot))
        zoom->reset();
}

bool ChartZoom::heldRange(const QCPAxis *axis, double *lower, double *upper) const
{
    const auto it = m_held.constFind(const_cast<QCPAxis *>(axis));
    if (!m_zoomed || it == m_held.constEnd())
        return false;
    *lower = it->first;
    *upper = it->second;
    return true;
}

void ChartZoom::setOrientation(Qt::Orientation orientation)
{
    if (orientation == m_orientation)
        return;
    reset();
    m_orientation = orientation;
}

QList<QCPAxis *> ChartZoom::zoomAxes() const
{
    QList<QCPAxis *> axes;
    const QCPAxis::AxisTypes types =
        m_orientation == Qt::Horizontal ? QCPAxis::AxisTypes(QCPAxis::atBottom) : (QCPAxis::atLeft | QCPAxis::atRight);
    for (QCPAxisRect *rect : m_plot->axisRects()) {
        for (QCPAxis *axis : rect->axes(types)) {
            // A hidden right axis carries no figures; the bottom axis always zooms.
            if (axis->visible() || axis->axisType() == QCPAxis::atBottom || axis->axisType() == QCPAxis::atLeft)
                axes.append(axis);
        }
    }
    return axes;
}

// Records every range the chart sets, so Reset can go back to the latest.
void ChartZoom::watchAxes()
{
    for (QCPAxis *axis : zoomAxes()) {
        if (m_watched.contains(axis))
            continue;
        m_watched.insert(axis);
        if (!m_zoomed)
            m_automatic.insert(axis, rangeOf(axis));
        connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this, [this, axis](const QCPRange &r) {
            if (!m_applying)
                m_automatic.insert(axis, {r.lower, r.upper});
        });
        connect(axis, &QObject::destroyed, this, [this, axis] {
            m_watched.remove(axis);
            m_automatic.remove(axis);
            m_held.remove(axis);
            m_dragStart.remove(axis);
        });
    }
}

void ChartZoom::applyHeld()
{
    m_applying = true;
    for (auto it = m_held.constBegin(); it != m_held.constEnd(); ++it)
        it.key()->setRange(it.value().first, it.value().second);
    m_applying = false;
}

// The ranges now shown become the user's view.
void ChartZoom::takeUserView()
{
    m_held.clear();
    for (QCPAxis *axis : zoomAxes())
        m_held.insert(axis, rangeOf(axis));
    if (!m_zoomed) {
        m_zoomed = true;
        m_resetButton->show();
        Q_EMIT zoomedChanged(true);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ChartZoom::reapply()
{
    if (m_zoomed)
        applyHeld();
}

void ChartZoom::reset()
{
    if (!m_zoomed)
        return;
    m_zoomed = false;
    m_held.clear();
    m_applying = true;
    for (auto it = m_automatic.constBegin(); it != m_automatic.constEnd(); ++it)
        it.key()->setRange(it.value().first, it.value().second);
    m_applying = false;
    m_resetButton->hide();
    Q_EMIT zoomedChanged(false);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

double ChartZoom::coordAt(const QCPAxis *axis, const QPoint &pos) const
{
    return axis->pixelToCoord(axis->orientation() == Qt::Horizontal ? pos.x() : pos.y());
}

void ChartZoom::zoomAt(const QPoint &pos, double factor)
{
    if (!(factor > 0) || !std::isfinite(factor))
        return;
    watchAxes();
    m_applying = true;
    for (QCPAxis *axis : zoomAxes()) {
        const auto automatic = m_automatic.value(axis, rangeOf(axis));
        const double autoSpan = std::abs(automatic.second - automatic.first);
        const double span = axis->range().size() * factor;
        if (axis->scaleType() == QCPAxis::stLinear && autoSpan > 0 &&
            (span > autoSpan * kMaxZoomOut || span < autoSpan * kMaxZoomIn))
            continue;
        axis->scaleRange(factor, coordAt(axis, pos));
    }
    m_applying = false;
    takeUserView();
}

void ChartZoom::panBy(const QPoint &pixels)
{
    watchAxes();
    m_applying = true;
    for (QCPAxis *axis : zoomAxes()) {
        const double move = axis->orientation() == Qt::Horizontal ? pixels.x() : pixels.y();
        const auto start = m_drag == Drag::Pan ? m_dragStart.value(axis, rangeOf(axis)) : rangeOf(axis);
        axis->setRange(start.first, start.second);
        const double base = axis->coordToPixel(start.first);
        const double from = axis->pixelToCoord(base);
        const double to = axis->pixelToCoord(base + move);
        if (axis->scaleType() == QCPAxis::stLogarithmic) {
            if (from > 0 && to > 0)
                axis->setRange(start.first * from / to, start.second * from / to);
        } else {
            axis->setRange(start.first + from - to, start.second + from - to);
        }
    }
    m_applying = false;
    takeUserView();
}

void ChartZoom::zoomTo(const QPoint &from, const QPoint &to)
{
    watchAxes();
    m_applying = true;
    for (QCPAxis *axis : zoomAxes()) {
        const double a = coordAt(axis, from);
        const double b = coordAt(axis, to);
        if (std::isfinite(a) && std::isfinite(b) && a != b)
            axis->setRange(std::min(a, b), std::max(a, b));
    }
    m_applying = false;
    takeUserView();
}

void ChartZoom::placeResetButton()
{
    if (!m_resetButton->isVisible())
        return;
    const QList<QCPAxis *> axes = zoomAxes();
    const QRect area = axes.isEmpty() ? m_plot->rect() : axes.first()->axisRect()->rect();
    m_resetButton->adjustSize();
    m_resetButton->move(area.right() - m_resetButton->width() - 4, area.top() + 4);
    m_resetButton->raise();
}

void ChartZoom::endDrag()
{
    m_drag = Drag::None;
    m_dragMoved = false;
    m_dragStart.clear();
    if (m_band)
        m_band->hide();
    m_plot->unsetCursor();
}

bool ChartZoom::handleMouse(QEvent *event)
{
    const auto *mouse = static_cast<QMouseEvent *>(event);
    const QPoint pos = mouse->position().toPoint();
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        if (mouse->button() != Qt::LeftButton)
            return false;
        QCPAxisRect *rect = m_plot->axisRectAt(pos);
        if (!rect || !rect->rect().contains(pos))
            return false;
        const Qt::KeyboardModifiers mods = mouse->modifiers();
        if (mods == Qt::ShiftModifier)
            m_drag = Drag::Box;
        else if (mods == Qt::NoModifier)
            m_drag = Drag::Pan;
        else
            return false;
        watchAxes();
        m_pressPos = pos;
        m_dragMoved = false;
        m_dragStart.clear();
        for (QCPAxis *axis : zoomAxes())
            m_dragStart.insert(axis, rangeOf(axis));
        return false;
    }
    case QEvent::MouseMove: {
        if (m_drag == Drag::None || !(mouse->buttons() & Qt::LeftButton))
            return false;
        if (!m_dragMoved && (pos - m_pressPos).manhattanLength() < QApplication::startDragDistance())
            return false;
        m_dragMoved = true;
        QToolTip::hideText();
        if (m_drag == Drag::Pan) {
            m_plot->setCursor(Qt::ClosedHandCursor);
            panBy(pos - m_pressPos);
        } else {
            if (!m_band)
                m_band = new QRubberBand(QRubberBand::Rectangle, m_plot);
            QCPAxisRect *rect = m_plot->axisRectAt(m_pressPos);
            const QRect area = rect ? rect->rect() : m_plot->rect();
            QRect band = m_orientation == Qt::Horizontal
                             ? QRect(QPoint(std::min(pos.x(), m_pressPos.x()), area.top()),
                                     QPoint(std::max(pos.x(), m_pressPos.x()), area.bottom()))
                             : QRect(QPoint(area.left(), std::min(pos.y(), m_pressPos.y())),
                                     QPoint(area.right(), std::max(pos.y(), m_pressPos.y())));
            m_band->setGeometry(band.intersected(area));
            m_band->show();
        }
        return true; // no hover tooltip while dragging
    }
    case QEvent::MouseButtonRelease: {
        if (m_drag == Drag::None || mouse->button() != Qt::LeftButton)
            return false;
        const bool box = m_drag == Drag::Box && m_dragMoved;
        const QPoint press = m_pressPos;
        endDrag();
        const int along =
            m_orientation == Qt::Horizontal ? std::abs(pos.x() - press.x()) : std::abs(pos.y() - press.y());
        if (box && along >= 4)
            zoomTo(press, pos);
        return false;
    }
    default:
        return false;
    }
}

bool ChartZoom::handleKey(QEvent *event)
{
    const auto *key = static_cast<QKeyEvent *>(event);
    if (key->modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier))
        return false;
    const QList<QCPAxis *> axes = zoomAxes();
    const QRect area = axes.isEmpty() ? m_plot->rect() : axes.first()->axisRect()->rect();
    const int step = int((m_orientation == Qt::Horizontal ? area.width() : area.height()) * kKeyPanFraction);
    switch (key->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAt(area.center(), kKeyZoomFactor);
        return true;
    case Qt::Key_Minus:
        zoomAt(area.center(), 1 / kKeyZoomFactor);
        return true;
    case Qt::Key_Home:
        reset();
        return true;
    case Qt::Key_Left:
    case Qt::Key_Right:
        if (m_orientation != Qt::Horizontal)
            return false;
        panBy(QPoint(key->key() == Qt::Key_Left ? step : -step, 0));
        return true;
    case Qt::Key_Up:
    case Qt::Key_Down:
        if (m_orientation != Qt::Vertical)
            return false;
        panBy(QPoint(0, key->key() == Qt::Key_Up ? step : -step));
        return true;
    default:
        return false;
    }
}

bool ChartZoom::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_plot)
        return false;
    switch (event->type()) {
    case QEvent::Wheel: {
        auto *wheel = static_cast<QWheelEvent *>(event);
        if (!(wheel->modifiers() & Qt::ControlModifier))
            return false; // the page's (or nobody's)
        const QPoint delta = wheel->angleDelta();
        const double notches = (delta.y() != 0 ? delta.y() : delta.x()) / 120.0;
        if (notches != 0)
            zoomAt(wheel->position().toPoint(), std::pow(kWheelStepFactor, notches));
        wheel->accept();
        return true;
    }
    case QEvent::MouseButtonPress:
    case QEvent::MouseMove:
    case QEvent::MouseButtonRelease:
        return handleMouse(event);
    case QEvent::KeyPress:
        return handleKey(event);
    default:
        return false;
    }
}

} // namespace nb::ui
