// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The selected adapter, as Task Manager's Performance tab shows it: a 60-second
// Send/Receive graph scaled to the link speed, the current utilization and rates, and
// the adapter's details (link speed, MTU, driver, addresses, offloads).

#include "adaptermonitor.h"

#include <QWidget>

class QGridLayout;
class QLabel;

namespace nb::ui {

class UtilizationChart;

class AdapterPanel : public QWidget {
    Q_OBJECT
public:
    explicit AdapterPanel(QWidget *parent = nullptr);

    void setMonitor(AdapterMonitor *monitor);
    void setAdapter(const QString &name);
    QString adapterName() const { return m_name; }
    UtilizationChart *chart() const { return m_chart; }

    // Shown figures, for tests and the clipboard.
    QString utilizationText() const;
    QString mtuText() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyCaptionColors();
    void refreshDetails();
    void refreshRates();
    QLabel *addFigure(QGridLayout *grid, int column, const QString &caption, const QString &objectName);

    AdapterMonitor *m_monitor = nullptr;
    QString m_name;
    unsigned m_refreshes = 0;
    nb::AdapterInfo m_info;
    QLabel *m_title;
    QLabel *m_subtitle;
    UtilizationChart *m_chart;
    QLabel *m_utilization;
    QLabel *m_sendCaption = nullptr;
    QLabel *m_receiveCaption = nullptr;
    QLabel *m_send;
    QLabel *m_receive;
    QLabel *m_link;
    QLabel *m_mtu;
    QLabel *m_details;
};

} // namespace nb::ui
