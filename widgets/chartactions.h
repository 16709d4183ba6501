// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every NicBench chart offers: a right-click menu (copy image, save PNG/SVG/PDF,
// copy data as CSV, plus chart-specific actions) and a tooltip with the time and value
// of the nearest point under the mouse.

#include <QObject>
#include <QPoint>
#include <QString>

#include <functional>

class QCPGraph;
class QCustomPlot;
class QMenu;
class QMouseEvent;

namespace nb::ui {

class ChartActions : public QObject {
    Q_OBJECT
public:
    using CsvFunction = std::function<QString()>;
    // Text for one value of one graph in the tooltip ("941 Mbit/s", "45%").
    using ValueFormatter = std::function<QString(const QCPGraph *graph, double value)>;
    using MenuExtender = std::function<void(QMenu *menu)>;

    // Installs itself on the plot (which becomes its parent). baseName names saved files.
    ChartActions(QCustomPlot *plot, const QString &baseName, CsvFunction csv = {});

    void setValueFormatter(ValueFormatter formatter) { m_formatter = std::move(formatter); }
    void setMenuExtender(MenuExtender extender) { m_extender = std::move(extender); }
    // Time label for a key ("12.5 s", "45 s ago").
    void setKeyFormatter(std::function<QString(double)> formatter) { m_keyFormatter = std::move(formatter); }

    // The tooltip text for a position in the plot; empty when nothing is near.
    QString tooltipAt(const QPoint &pos) const;
    QString csv() const;
    // Saves by extension: .png (2x for HiDPI), .pdf, .svg (when built with Qt Svg), .jpg.
    static bool saveImage(QCustomPlot *plot, const QString &path);
    // Every visible graph as CSV columns keyed by time (the default for csv()).
    static QString graphsToCsv(const QCustomPlot *plot);
    static QString imageFilters();

private:
    void showMenu(const QPoint &pos);
    void showTooltip(QMouseEvent *event);
    void saveWithDialog();

    QCustomPlot *m_plot;
    QString m_baseName;
    CsvFunction m_csv;
    ValueFormatter m_formatter;
    MenuExtender m_extender;
    std::function<QString(double)> m_keyFormatter;
};

} // namespace nb::ui
