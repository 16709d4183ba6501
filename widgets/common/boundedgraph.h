// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A QCPGraph fed through a BoundedSeries, so a chart's memory stays bounded however long
// the test runs: new points are appended, a compaction replaces the graph's data.

#include "common/boundedseries.h"

class QCPGraph;

namespace nb::ui {

struct BoundedGraph {
    BoundedSeries series;
    QCPGraph *graph = nullptr;

    explicit BoundedGraph(int capacity = 3600) : series(capacity) {}
    void append(double x, double y);
    void clear();
};

} // namespace nb::ui
