// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One adapter in the adapter list: name, family label, live send/receive figures and a
// sparkline, like a tile in Task Manager's Performance tab.

#include "adapters/adaptermonitor.h"

#include <QFrame>

class QLabel;

namespace nb::ui {

class ElidedLabel;
class Sparkline;

class AdapterTile : public QFrame {
    Q_OBJECT
public:
    explicit AdapterTile(const nb::AdapterInfo &adapter, QWidget *parent = nullptr);

    QString adapterName() const { return m_adapter.name; }
    const nb::AdapterInfo &adapter() const { return m_adapter; }
    void setAdapter(const nb::AdapterInfo &adapter);
    void setSelected(bool selected);
    bool isSelected() const { return m_selected; }
    void updateRates(const AdapterMonitor &monitor);
    // "Send 5.14 Gbit/s" and "Receive 35.4 Mbit/s": each figure in its own unit.
    QString sendText() const;
    QString receiveText() const;

    // "loopback", "virtio", "e1000e": the label users compare by (driver when "other").
    static QString familyLabel(const nb::AdapterInfo &adapter);

Q_SIGNALS:
    void clicked();

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    nb::AdapterInfo m_adapter;
    bool m_selected = false;
    QLabel *m_name;
    QLabel *m_family;
    ElidedLabel *m_send;
    ElidedLabel *m_receive;
    Sparkline *m_sparkline;
};

} // namespace nb::ui
