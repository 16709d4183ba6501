// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The left column: one tile per adapter with live figures and a sparkline, fed by an
// AdapterMonitor. Selecting a tile (click, or Up/Down with focus) makes it current.
// Adapters that are down are hidden unless asked for, as Task Manager does.

#include "adapters/adaptermonitor.h"

#include <QScrollArea>

class QVBoxLayout;

namespace nb::ui {

class AdapterTile;

class AdapterList : public QScrollArea {
    Q_OBJECT
public:
    explicit AdapterList(QWidget *parent = nullptr);

    void setMonitor(AdapterMonitor *monitor);
    QStringList adapterNames() const; // in display order
    QString currentAdapter() const { return m_current; }
    bool selectAdapter(const QString &name);
    AdapterTile *tile(const QString &name) const;

    bool showsDisconnected() const { return m_showDisconnected; }
    void setShowDisconnected(bool show);

    QSize sizeHint() const override;

Q_SIGNALS:
    void currentAdapterChanged(const QString &name);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void rebuild();
    void refreshRates();

    AdapterMonitor *m_monitor = nullptr;
    QWidget *m_content;
    QVBoxLayout *m_tiles;
    QList<AdapterTile *> m_tileList;
    QString m_current;
    bool m_showDisconnected = false;
};

} // namespace nb::ui
