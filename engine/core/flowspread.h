// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How evenly a test's work was spread over its flows (the connections of a request/response
// test, the streams of one direction of a stream test): the smallest, middle and largest
// amount one flow moved, and Jain's fairness index
//     J = (sum x)^2 / (n * sum x^2),
// which is 1 when every flow moved the same and 1/n when one flow moved everything. A
// virtual adapter that starves some of its queues shows a low minimum and a J below 1.

#include <QJsonObject>
#include <QList>
#include <QString>

namespace nb {

struct FlowSpread {
    int count = 0; // flows; 0: nothing known
    double min = 0;
    double median = 0; // the mean of the middle two for an even count
    double max = 0;
    double mean = 0;
    // In [1/n, 1]. Flows that all moved nothing are equal: 1. Empty: 0.
    double jain = 0;

    bool isEmpty() const { return count == 0; }
    // One sample per flow (transactions or bytes); negative samples are taken as 0.
    static FlowSpread fromSamples(QList<double> samples);

    // Keys: flows, min, median, max, mean, jain_index.
    QJsonObject toJson() const;
    // Every key must be there and consistent (min <= median <= max, 0 < jain <= 1).
    static bool fromJson(const QJsonObject &json, FlowSpread *out, QString *error);
    bool operator==(const FlowSpread &) const = default;
};

} // namespace nb
