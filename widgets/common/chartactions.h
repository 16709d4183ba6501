// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every NicBench chart offers: a right-click menu (copy image, save PNG/SVG/PDF,
// copy data as CSV, reset zoom, plus chart-specific actions), a tooltip with the time and
// value of the nearest point under the mouse, and zoom and pan (common/chartzoom.h).

#include <QObject>
#include <QPoint>
#include <QSize>
#include <QString>

#include <functional>

class QCPGraph;
class QCustomPlot;
class QMenu;
class QMouseEvent;
class QWidget;

namespace nb::ui {

// QCustomPlot takes every wheel event, so a page of charts does not scroll while the mouse
// is over one. This makes `widget` hand wheel events to the nearest enclosing scroll area
// (a QAbstractScrollArea ancestor) unless the widget is a QCustomPlot with range zoom on,
// which needs the wheel itself. Without a scroll area around it, nothing changes.
// ChartActions calls it for its plot; call it for charts without ChartActions. Idempotent.
void forwardWheelToScrollArea(QWidget *widget);

// Lets the keyboard reach a chart: it takes focus (click or Tab) and the context-menu key
// or Shift+F10 opens its right-click menu. ChartActions calls it for its plot.
void makeMenuReachableByKeyboard(QWidget *widget);

class ChartZoom;

class ChartActions : public QObject {
    Q_OBJECT
public:
    using CsvFunction = std::function<QString()>;
    // Text for one value of one graph in the tooltip ("941 Mbit/s", "45%").
    using ValueFormatter = std::function<QString(const QCPGraph *graph, double value)>;
    using MenuExtender = std::function<void(QMenu *menu)>;
    // Tooltip for charts whose values are not QCPGraph points (bars, boxes): the text for a
    // widget position, or empty to fall back to the nearest graph points.
    using TooltipProvider = std::function<QString(const QPoint &pos)>;

    // Installs itself on the plot (which becomes its parent). baseName names saved files.
    ChartActions(QCustomPlot *plot, const QString &baseName, CsvFunction csv = {});

    void setValueFormatter(ValueFormatter formatter) { m_formatter = std::move(formatter); }
    void setMenuExtender(MenuExtender extender) { m_extender = std::move(extender); }
    void setTooltipProvider(TooltipProvider provider) { m_tooltipProvider = std::move(provider); }
    // File name (without suffix) the save dialog proposes.
    void setBaseName(const QString &baseName) { m_baseName = baseName; }
    QString baseName() const { return m_baseName; }
    // Size the chart is laid out at for "Save image..." and "Copy image" (empty: its size
    // on screen), so saved charts look the same whatever the window size.
    void setExportSize(const QSize &size) { m_exportSize = size; }
    // Time label for a key ("12.5 s", "45 s ago").
    void setKeyFormatter(std::function<QString(double)> formatter) { m_keyFormatter = std::move(formatter); }

    // Zoom and pan (Ctrl+wheel, drag, Shift+drag, Reset), made with the actions; a chart
    // whose categories run along the bottom sets it to zoom its values instead.
    ChartZoom *zoom() const { return m_zoom; }

    // The tooltip text for a position in the plot; empty when nothing is near.
    QString tooltipAt(const QPoint &pos) const;
    QString csv() const;
    // Saves by extension: .png (2x for HiDPI), .pdf, .svg (when built with Qt Svg), .jpg.
    // Atomic (QSaveFile): on failure it returns false and leaves no partial file behind.
    static bool saveImage(QCustomPlot *plot, const QString &path);
    // Same, with the reason of a failure, and the size in pixels the plot is laid out at
    // (empty: the widget's size). Bitmaps are that size times `scale`; PDF and SVG are
    // vector output of that size.
    static bool saveImage(QCustomPlot *plot, const QString &path, QString *error, const QSize &size = QSize(),
                          double scale = 2.0);
    // Every visible graph as CSV columns keyed by time (the default for csv()).
    static QString graphsToCsv(const QCustomPlot *plot);
    static QString imageFilters();

    // Opens the chart's menu at a position in the plot (what right-click and the
    // context-menu key do). Blocks until the menu closes.
    void showMenu(const QPoint &pos);

private:
    void showTooltip(QMouseEvent *event);
    void saveWithDialog();

    QCustomPlot *m_plot;
    ChartZoom *m_zoom;
    QString m_baseName;
    CsvFunction m_csv;
    ValueFormatter m_formatter;
    MenuExtender m_extender;
    std::function<QString(double)> m_keyFormatter;
    TooltipProvider m_tooltipProvider;
    QSize m_exportSize;
};

} // namespace nb::ui
