// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The UDP fields of the result value types and of the -J document, where iperf3 3.12 puts
// them: per interval stream and sum "packets" (a sender) or "jitter_ms", "lost_packets",
// "packets", "lost_percent" (a receiver); per end stream an iperf3 "udp" object (next to
// our "sender"/"receiver" pair) and sum_sent / sum_received / sum with all four.

#include "model/results.h"

#include <QJsonObject>

namespace nb::udpresults {

void addIntervalFields(QJsonObject *o, const StreamInterval &s);
// Reads them back when present (sets s->udp); absent fields leave a TCP interval.
QString readIntervalFields(const QJsonObject &o, StreamInterval *s);
void addSumFields(QJsonObject *o, const IntervalSum &s);

// Sums as iperf3 does: counts added, jitter the mean over the streams.
void addToSum(IntervalSum *sum, const StreamInterval &s);
void finishSum(IntervalSum *sum);
void addToSum(DirectionSum *sum, const StreamSummary &s);
void finishSum(DirectionSum *sum);

// end.streams[].udp for one stream.
QJsonObject endStreamJson(const StreamSummary &s);
// Reads end.streams[].udp back into the summary (sets s->udp) when the entry has one.
QString readEndStream(const QJsonObject &entry, StreamSummary *s);
// The UDP fields of end.sum_sent and end.sum_received, and iperf3's end.sum (the sender's
// bytes and time with the receiver's jitter and loss). As iperf3 3.12 writes them for UDP,
// sum_sent says "sender": true and sum_received "sender": false whichever side prints them
// (for TCP both carry the local side's role; end.sum carries it for UDP).
void addDirectionFields(QJsonObject *sent, QJsonObject *received, const DirectionSum &d);
QJsonObject endSumJson(const DirectionSum &d, bool sender);

} // namespace nb::udpresults
