// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/chartactions.h"
#include "common/chartzoom.h"
#include "core/format.h"

#include <qcustomplot.h>

#include <QAbstractScrollArea>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QToolTip>
#include <QWheelEvent>

#ifdef NICBENCH_HAVE_SVG
#include <QSvgGenerator>
#endif

#include <algorithm>
#include <map>

namespace nb::ui {

namespace {

constexpr int kMaxTooltipLines = 10;

// Hands wheel events on a chart to the scroll area around it (see forwardWheelToScrollArea).
class WheelForwarder : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Wheel || !watched->isWidgetType())
            return false;
        auto *widget = static_cast<QWidget *>(watched);
        if (auto *plot = qobject_cast<QCustomPlot *>(widget); plot && plot->interactions().testFlag(QCP::iRangeZoom))
            return false; // the chart zooms with the wheel
        QAbstractScrollArea *area = nullptr;
        for (QWidget *p = widget->parentWidget(); p && !area; p = p->parentWidget())
            area = qobject_cast<QAbstractScrollArea *>(p);
        if (!area)
            return false;
        const auto *wheel = static_cast<QWheelEvent *>(event);
        QWidget *target = area->viewport();
        QWheelEvent copy(target->mapFromGlobal(wheel->globalPosition()), wheel->globalPosition(), wheel->pixelDelta(),
                         wheel->angleDelta(), wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(),
                         wheel->source());
        QCoreApplication::sendEvent(target, &copy);
        return true;
    }
};

// The context-menu key and Shift+F10 open the menu of a focused chart, and a focused chart
// shows a frame in the highlight colour so keyboard users see where they are.
class KeyboardMenu : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (!watched->isWidgetType())
            return false;
        auto *widget = static_cast<QWidget *>(watched);
        if (event->type() == QEvent::KeyPress) {
            const auto *key = static_cast<QKeyEvent *>(event);
            const bool menuKey =
                key->key() == Qt::Key_Menu || (key->key() == Qt::Key_F10 && key->modifiers() == Qt::ShiftModifier);
            if (!menuKey)
                return false;
            const QPoint centre = widget->rect().center();
            QContextMenuEvent menu(QContextMenuEvent::Keyboard, centre, widget->mapToGlobal(centre));
            QCoreApplication::sendEvent(widget, &menu);
            return true;
        }
        if (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut) {
            widget->update();
            return false;
        }
        if (event->type() == QEvent::Paint && widget->hasFocus()) {
            // Let the chart paint itself first, then draw the focus frame over it.
            static_cast<QObject *>(widget)->event(event);
            QPainter painter(widget);
            painter.setPen(QPen(widget->palette().color(QPalette::Highlight), 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(widget->rect()).adjusted(1, 1, -1, -1));
            return true;
        }
        return false;
    }
};

} // namespace

void forwardWheelToScrollArea(QWidget *widget)
{
    // Found by name: the filters have no meta-object of their own for findChild to tell apart.
    const QString name = QStringLiteral("nbWheelForwarder");
    if (!widget || widget->findChild<QObject *>(name, Qt::FindDirectChildrenOnly))
        return;
    auto *filter = new WheelForwarder(widget);
    filter->setObjectName(name);
    widget->installEventFilter(filter);
}

void makeMenuReachableByKeyboard(QWidget *widget)
{
    const QString name = QStringLiteral("nbKeyboardMenu");
    if (!widget || widget->findChild<QObject *>(name, Qt::FindDirectChildrenOnly))
        return;
    widget->setFocusPolicy(Qt::StrongFocus);
    auto *filter = new KeyboardMenu(widget);
    filter->setObjectName(name);
    widget->installEventFilter(filter);
}

ChartActions::ChartActions(QCustomPlot *plot, const QString &baseName, CsvFunction csv)
    : QObject(plot)
    , m_plot(plot)
    , m_zoom(nullptr)
    , m_baseName(baseName)
    , m_csv(std::move(csv))
{
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &ChartActions::showMenu);
    connect(m_plot, &QCustomPlot::mouseMove, this, &ChartActions::showTooltip);
    m_keyFormatter = [](double key) { return tr("%1 s").arg(nb::formatFixed(key, 1)); };
    forwardWheelToScrollArea(m_plot);
    makeMenuReachableByKeyboard(m_plot);
    // After the wheel forwarder: event filters installed later see events first, so
    // Ctrl+wheel zooms and only the plain wheel goes on to the page.
    m_zoom = new ChartZoom(m_plot);
}

QString ChartActions::imageFilters()
{
    QStringList filters{tr("PNG image (*.png)")};
#ifdef NICBENCH_HAVE_SVG
    filters.append(tr("SVG image (*.svg)"));
#endif
    filters.append(tr("PDF document (*.pdf)"));
    return filters.join(QStringLiteral(";;"));
}

bool ChartActions::saveImage(QCustomPlot *plot, const QString &path)
{
    return saveImage(plot, path, nullptr);
}

bool ChartActions::saveImage(QCustomPlot *plot, const QString &path, QString *error, const QSize &size, double scale)
{
    const auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    const QSize layout = size.isValid() && !size.isEmpty() ? size : plot->size();
    if (layout.isEmpty())
        return fail(tr("The chart has no size"));
    const QString suffix = QFileInfo(path).suffix().toLower();
#ifdef NICBENCH_HAVE_SVG
    const bool svg = suffix == QLatin1String("svg");
#else
    const bool svg = false;
    if (suffix == QLatin1String("svg"))
        return fail(tr("This build cannot write SVG (Qt Svg was not available)"));
#endif
    const bool pdf = suffix == QLatin1String("pdf");
    const bool jpg = suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg");

    // Everything is written into a QSaveFile and only renamed over `path` when complete, so
    // a failure (full disk, painter error) never leaves a truncated image behind.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(tr("Cannot write %1: %2").arg(path, file.errorString()));

    bool painted = false;
    if (pdf) {
        QPdfWriter writer(&file);
        writer.setCreator(QStringLiteral("NicBench"));
        writer.setTitle(plot->objectName());
        // The page is exactly the chart, at the screen's resolution so text has the same
        // size relative to the chart as on screen.
        const int dpi = std::max(plot->logicalDpiX(), 1);
        writer.setResolution(dpi);
        writer.setPageLayout(
            QPageLayout(QPageSize(QSizeF(layout) * 72.0 / dpi, QPageSize::Point, QString(), QPageSize::ExactMatch),
                        QPageLayout::Portrait, QMarginsF()));
        QCPPainter painter;
        if (painter.begin(&writer)) {
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            plot->toPainter(&painter, layout.width(), layout.height());
            painted = painter.end();
        }
    } else if (svg) {
#ifdef NICBENCH_HAVE_SVG
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(layout);
        generator.setResolution(std::max(plot->logicalDpiX(), 1));
        generator.setViewBox(QRect(QPoint(0, 0), layout));
        generator.setTitle(plot->objectName());
        QCPPainter painter;
        if (painter.begin(&generator)) {
            painter.setMode(QCPPainter::pmVectorized);
            plot->toPainter(&painter, layout.width(), layout.height());
            painted = painter.end();
        }
#endif
    } else {
        const QPixmap pixmap = plot->toPixmap(layout.width(), layout.height(), scale);
        painted = !pixmap.isNull() && pixmap.save(&file, jpg ? "JPG" : "PNG");
    }
    if (!painted) {
        file.cancelWriting();
        return fail(tr("Could not draw the chart into %1").arg(path));
    }
    if (!file.commit())
        return fail(tr("Cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

QString ChartActions::graphsToCsv(const QCustomPlot *plot)
{
    QList<QCPGraph *> graphs;
    for (int i = 0; i < plot->graphCount(); ++i) {
        if (plot->graph(i)->visible() && plot->graph(i)->dataCount() > 0)
            graphs.append(plot->graph(i));
    }
    std::map<double, QStringList> rows;
    for (qsizetype c = 0; c < graphs.size(); ++c) {
        const auto data = graphs.at(c)->data();
        for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
            QStringList &row = rows[it->key];
            row.resize(graphs.size());
            row[c] = QString::number(it->value, 'g', 6);
        }
    }
    QString csv = QStringLiteral("time_s");
    for (const QCPGraph *g : std::as_const(graphs)) {
        QString name = g->name().toLower();
        name.replace(QLatin1Char(' '), QLatin1Char('_'))
            .remove(QLatin1Char(','))
            .remove(QLatin1Char('('))
            .remove(QLatin1Char(')'));
        csv += QLatin1Char(',') + name;
    }
    csv += QLatin1Char('\n');
    for (auto &[key, row] : rows) {
        row.resize(graphs.size());
        csv += QString::number(key, 'f', 3) + QLatin1Char(',') + row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

QString ChartActions::csv() const
{
    return m_csv ? m_csv() : graphsToCsv(m_plot);
}

void ChartActions::showMenu(const QPoint &pos)
{
    QMenu menu(m_plot);
    menu.addAction(tr("Copy image"), this, [this] {
        const QPixmap image =
            m_exportSize.isEmpty() ? m_plot->toPixmap() : m_plot->toPixmap(m_exportSize.width(), m_exportSize.height());
        QApplication::clipboard()->setPixmap(image);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    menu.addAction(tr("Save image..."), this, &ChartActions::saveWithDialog);
    menu.addAction(tr("Copy data as CSV"), this, [this] { QApplication::clipboard()->setText(csv()); });
    menu.addSeparator();
    // The key is the chart's own (ChartZoom), named after a tab as menus show shortcuts.
    QAction *reset = menu.addAction(tr("Reset Zoom\tHome"), m_zoom, &ChartZoom::reset);
    reset->setEnabled(m_zoom->isZoomed());
    QAction *hint = menu.addAction(tr("Zoom: Ctrl+wheel or Shift+drag · Pan: drag"));
    hint->setEnabled(false);
    if (m_extender) {
        menu.addSeparator();
        m_extender(&menu);
    }
    menu.exec(m_plot->mapToGlobal(pos));
}

void ChartActions::saveWithDialog()
{
    const QString path =
        QFileDialog::getSaveFileName(m_plot, tr("Save chart"), m_baseName + QStringLiteral(".png"), imageFilters());
    QString error;
    if (!path.isEmpty() && !saveImage(m_plot, path, &error, m_exportSize))
        QMessageBox::warning(m_plot, tr("Save chart"), error);
}

QString ChartActions::tooltipAt(const QPoint &pos) const
{
    if (m_tooltipProvider) {
        const QString text = m_tooltipProvider(pos);
        if (!text.isEmpty())
            return text;
    }
    QCPAxisRect *rect = m_plot->axisRectAt(pos);
    if (!rect || !rect->rect().contains(pos))
        return QString();
    QStringList lines;
    double shownKey = 0;
    bool haveKey = false;
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph *g = m_plot->graph(i);
        if (!g->visible() || g->dataCount() == 0 || g->keyAxis()->axisRect() != rect)
            continue;
        const double key = g->keyAxis()->pixelToCoord(pos.x());
        auto data = g->data();
        auto it = data->findBegin(key, false);
        if (it == data->constEnd())
            --it;
        auto next = it + 1;
        if (next != data->constEnd() && std::abs(next->key - key) < std::abs(it->key - key))
            it = next;
        // Only points within a few pixels of the mouse count as "hovered".
        if (std::abs(g->keyAxis()->coordToPixel(it->key) - pos.x()) > 24)
            continue;
        if (!haveKey) {
            shownKey = it->key;
            haveKey = true;
        }
        const QString value = m_formatter ? m_formatter(g, it->value) : nb::formatCompact(it->value);
        if (lines.size() == kMaxTooltipLines) {
            lines.append(tr("..."));
            break;
        }
        lines.append(QStringLiteral("%1: %2").arg(g->name(), value));
    }
    if (lines.isEmpty())
        return QString();
    lines.prepend(m_keyFormatter(shownKey));
    return lines.join(QLatin1Char('\n'));
}

void ChartActions::showTooltip(QMouseEvent *event)
{
    const QString text = tooltipAt(event->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

} // namespace nb::ui
