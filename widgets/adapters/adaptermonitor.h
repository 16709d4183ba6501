// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Live send/receive rates of every adapter, like Task Manager's Performance tab. Polls
// all interface counters at 10 Hz with a QTimer on the GUI thread: one poll reads
// /proc/net/dev once (~40 us for all interfaces), so 10 Hz costs well under 0.1% of a
// core, while a worker thread would add locking and a second hand-off for no gain; the
// widgets that draw the figures must run on the GUI thread anyway. The slower adapter
// details (driver, offloads, addresses) are re-read every few seconds.

#include "adapters/ratehistory.h"

#include <platform/adapterinfo.h>

#include <QElapsedTimer>
#include <QList>
#include <QMap>
#include <QObject>
#include <QTimer>

#include <deque>
#include <optional>

namespace nb::ui {

class AdapterMonitor : public QObject {
    Q_OBJECT
public:
    static constexpr int kPollIntervalMs = 100;
    // What the tiles and the graph show unless asked for more (RateHistory keeps the day).
    static constexpr double kHistorySeconds = RateHistory::kEverySampleSeconds;

    explicit AdapterMonitor(QObject *parent = nullptr);

    void start();
    void stop();
    bool isActive() const { return m_timer.isActive(); }
    // Re-reads the adapter list now (new interfaces, changed addresses or link speed).
    void refreshAdapters();

    const QList<nb::AdapterInfo> &adapters() const { return m_adapters; }
    std::optional<nb::AdapterInfo> adapter(const QString &name) const;
    // The last 60 seconds of one adapter, every sample, oldest first.
    const std::deque<RatePoint> &history(const QString &name) const;
    // Everything kept of one adapter (up to a day, coarser further back), oldest first.
    std::vector<RatePoint> sessionHistory(const QString &name) const;
    // Dropped and error packets of one adapter since the monitor first read it.
    double droppedSinceStart(const QString &name) const;
    double errorsSinceStart(const QString &name) const;
    // Average over the last `seconds` (steadier than one 100 ms sample for text); dropped and
    // errors are the counts in that span.
    RatePoint recentAverage(const QString &name, double seconds = 1.0) const;
    // Seconds since start(); the time of the newest point.
    double now() const;

    // Feeds a counter reading as if polled (tests drive the monitor with made-up counters).
    void addReading(const QMap<QString, nb::InterfaceCounters> &counters);

Q_SIGNALS:
    void adaptersChanged();
    // New points for every adapter; emitted once per poll.
    void updated();

private:
    void poll();

    QTimer m_timer;
    QElapsedTimer m_clock;
    int m_pollsSinceRefresh = 0;
    QList<nb::AdapterInfo> m_adapters;
    QMap<QString, nb::InterfaceCounters> m_last;
    QMap<QString, RateHistory> m_history;
};

} // namespace nb::ui
