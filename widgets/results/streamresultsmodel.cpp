// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/streamresultsmodel.h"
#include "core/format.h"

#include "common/ratescale.h"
#include "common/udpformat.h"

#include <core/units.h>

#include <algorithm>

namespace nb::ui {

namespace {

double throughputOf(const nb::StreamSummary &s)
{
    // What arrived is the honest figure; a peer that never reported leaves only the
    // sender's count.
    return s.bytesReceived > 0 ? s.receivedBitsPerSecond() : s.sentBitsPerSecond();
}

QString unknownText()
{
    return QStringLiteral("n/a");
}

} // namespace

StreamResultsModel::StreamResultsModel(QObject *parent) : QAbstractTableModel(parent) {}

void StreamResultsModel::setResult(const nb::TestResult &result)
{
    beginResetModel();
    m_streams = result.streams;
    m_udp = std::any_of(m_streams.cbegin(), m_streams.cend(), [](const nb::StreamSummary &s) { return s.udp; });
    QList<int> ids;
    for (const nb::StreamSummary &s : std::as_const(m_streams))
        ids.append(s.id);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    m_ordinals.clear();
    for (qsizetype i = 0; i < ids.size(); ++i)
        m_ordinals.insert(ids.at(i), int(i) + 1);
    endResetModel();
}

void StreamResultsModel::clear()
{
    beginResetModel();
    m_streams.clear();
    m_ordinals.clear();
    m_udp = false;
    endResetModel();
}

int StreamResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_streams.size());
}

int StreamResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StreamResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const nb::StreamSummary &s = m_streams.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(s, index.column());
    case SortRole:
        return sortValue(s, index.column());
    case IperfIdRole:
        return s.id;
    case Qt::TextAlignmentRole:
        if (index.column() == Direction)
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == StreamId)
            return tr("Stream %1 of %2; iperf3 calls it stream %3").arg(ordinal(s)).arg(m_ordinals.size()).arg(s.id);
        if (index.column() == Throughput || index.column() == Received)
            return tr("Sent %1 at %2, received %3 at %4")
                .arg(nb::formatBytes(double(s.bytesSent)), nb::formatBitrate(s.sentBitsPerSecond()),
                     nb::formatBytes(double(s.bytesReceived)), nb::formatBitrate(s.receivedBitsPerSecond()));
        return {};
    default:
        return {};
    }
}

QVariant StreamResultsModel::displayText(const nb::StreamSummary &s, int column) const
{
    switch (column) {
    case StreamId:
        return ordinal(s);
    case Direction:
        return s.sender ? tr("Upload") : tr("Download");
    case Received:
        return nb::formatBytes(double(s.bytesReceived));
    case Throughput:
        return nb::formatBitrate(throughputOf(s));
    case Retransmits:
        if (m_udp) // the receiver's lost/total, iperf3's figure
            return s.packetsReceived == 0 ? unknownText()
                                          : tr("%1/%2 (%3)")
                                                .arg(s.lostPackets)
                                                .arg(s.packetsReceived)
                                                .arg(nb::formatLossPercent(s.lostPercent()));
        return s.retransmits < 0 ? unknownText() : QString::number(s.retransmits);
    case MeanRtt:
        if (m_udp)
            return s.packetsReceived == 0 ? unknownText() : nb::formatJitterMs(s.jitterMs);
        return s.meanRttUs < 0 ? unknownText() : tr("%1 ms").arg(nb::formatSignificant(s.meanRttUs / 1000.0, 3));
    case MaxCwnd:
        if (m_udp)
            return s.packetsReceived == 0 ? unknownText() : QString::number(s.outOfOrder);
        return s.maxCwndBytes < 0 ? unknownText() : nb::formatBytes(double(s.maxCwndBytes));
    default:
        return {};
    }
}

QVariant StreamResultsModel::sortValue(const nb::StreamSummary &s, int column) const
{
    switch (column) {
    case StreamId:
        return ordinal(s);
    case Direction:
        return s.sender ? 0 : 1;
    case Received:
        return qulonglong(s.bytesReceived);
    case Throughput:
        return throughputOf(s);
    case Retransmits:
        return m_udp ? QVariant(s.lostPercent()) : QVariant(qlonglong(s.retransmits));
    case MeanRtt:
        return m_udp ? QVariant(s.jitterMs) : QVariant(qlonglong(s.meanRttUs));
    case MaxCwnd:
        return m_udp ? QVariant(qulonglong(s.outOfOrder)) : QVariant(qlonglong(s.maxCwndBytes));
    default:
        return {};
    }
}

QVariant StreamResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case StreamId:
        return tr("Stream");
    case Direction:
        return tr("Direction");
    case Received:
        return tr("Data");
    case Throughput:
        return tr("Throughput");
    // A UDP test's streams have no TCP figures: the same columns hold its own.
    case Retransmits:
        return m_udp ? tr("Lost") : tr("Retransmits");
    case MeanRtt:
        return m_udp ? tr("Jitter") : tr("Mean RTT");
    case MaxCwnd:
        return m_udp ? tr("Out of order") : tr("Max cwnd");
    default:
        return {};
    }
}

} // namespace nb::ui
