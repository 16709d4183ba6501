// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The selected adapter, as Task Manager's Performance tab shows it: a Send/Receive graph
// (most of the panel: the last 60 s, or up to the day kept) scaled to the recent peak or the
// link speed, the current utilization, rates, packets/s and drops, and the adapter's details
// (link speed, MTU, driver, addresses, offloads). The figures count all traffic on the adapter, not only a test's.

#include "adapters/adaptermonitor.h"
#include "common/utilizationscale.h"

#include <QWidget>

class QBoxLayout;
class QComboBox;
class QLabel;

namespace nb::ui {

class ElidedLabel;
class UtilizationChart;

class AdapterPanel : public QWidget {
    Q_OBJECT
public:
    explicit AdapterPanel(QWidget *parent = nullptr);

    void setMonitor(AdapterMonitor *monitor);
    void setAdapter(const QString &name);
    QString adapterName() const { return m_name; }
    UtilizationChart *chart() const { return m_chart; }

    // QSettings key of the graph's scale ("peak" or "link").
    static constexpr const char *kScaleKey = "adapterPanel/scale";
    UtilizationScale scale() const;
    // Sets the graph's scale and the panel's toggle, and remembers it.
    void setScale(UtilizationScale scale);

    // Expanded: the graph takes the details' room too (double-click on the graph).
    bool isExpanded() const { return m_expanded; }
    void setExpanded(bool expanded);

    // Shown figures, for tests and the clipboard.
    QString utilizationText() const;
    QString mtuText() const;
    QString packetsText() const; // "1,000 / 500", "81.2 k / 40.1 k": sent / received per second
    QString droppedText() const; // "0", "12 + 3 errors": since the monitor started

Q_SIGNALS:
    // The window may give the panel more room while it is expanded.
    void expandedChanged(bool expanded);

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyCaptionColors();
    void refreshDetails();
    void refreshRates();
    QLabel *addFigure(QBoxLayout *row, QLabel *caption, const QString &objectName);

    AdapterMonitor *m_monitor = nullptr;
    QString m_name;
    unsigned m_refreshes = 0;
    bool m_expanded = false;
    nb::AdapterInfo m_info;
    QLabel *m_title;
    QLabel *m_subtitle;
    QComboBox *m_scale;
    UtilizationChart *m_chart;
    QLabel *m_utilization;
    QLabel *m_sendCaption = nullptr;
    QLabel *m_receiveCaption = nullptr;
    QLabel *m_send;
    QLabel *m_receive;
    QLabel *m_packets;
    QLabel *m_dropped;
    ElidedLabel *m_details;
    ElidedLabel *m_allTraffic;
};

} // namespace nb::ui
