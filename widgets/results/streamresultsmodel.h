// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One row per stream of a finished test. Display text is formatted for reading; the
// SortRole gives the raw number so a proxy sorts 9.8 Gbit/s above 980 Mbit/s. Streams
// are numbered 1..N in the order of their iperf3 ids (which skip numbers: 1, 3, 4, 5);
// the iperf3 id is in the Stream cell's tooltip and its IperfIdRole. A UDP test's last three
// columns are lost/total, jitter and out-of-order instead of retransmits, RTT and cwnd.

#include <model/results.h>

#include <QAbstractTableModel>
#include <QHash>

namespace nb::ui {

class StreamResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StreamId, Direction, Throughput, Received, Retransmits, MeanRtt, MaxCwnd, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int IperfIdRole = Qt::UserRole + 2;

    explicit StreamResultsModel(QObject *parent = nullptr);

    void setResult(const nb::TestResult &result);
    void clear();
    const nb::StreamSummary &stream(int row) const { return m_streams.at(row); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayText(const nb::StreamSummary &s, int column) const;
    QVariant sortValue(const nb::StreamSummary &s, int column) const;

    int ordinal(const nb::StreamSummary &s) const { return m_ordinals.value(s.id); }

    QList<nb::StreamSummary> m_streams;
    QHash<int, int> m_ordinals; // iperf3 id -> 1..N
    bool m_udp = false;         // a UDP test: the TCP columns show loss, jitter, out of order
};

} // namespace nb::ui
