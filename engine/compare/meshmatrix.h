// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A mesh's grid (compare/mesh.h): sources x destinations, each cell one pair's statistics of
// one metric (mean, 95% interval, runs), or its failure. Derived from the comparison's runs;
// the CLI prints it (`mesh`, `report`), the window colours it.

#include "compare/comparison.h"
#include "compare/comparisonstatistics.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace nb {

struct MeshCell {
    int configIndex = -1; // -1: the pair is not in the mesh (the diagonal, a ring's gaps)
    int runs = 0;         // runs recorded
    int failedRuns = 0;
    QString failure;        // the last failed run's error
    stats::Summary summary; // of the matrix's metric over the successful runs; empty when none
};

struct MeshMatrix {
    Metric metric = Metric::Throughput;
    QStringList hosts;            // rows (sources) and columns (destinations) alike, in order of appearance
    QList<QList<MeshCell>> cells; // [source][destination]

    // True when every configuration runs on an agent (a mesh, or a spec of "from" pairs).
    static bool isMesh(const Comparison &c);
    // The grid of `metric`; hosts named as MeshHost::text names them.
    static MeshMatrix of(const Comparison &c, const ComparisonStatistics &stats, Metric metric);
    // The metric a mesh shows unless told: the first of throughput, transactions/s, UDP
    // goodput, UDP transactions/s, bidir p99 increase that some pair measured.
    static Metric defaultMetric(const ComparisonStatistics &stats);

    // "9.41 Gbit/s ± 0.2", "3 of 3 failed", "-": one cell as the text grid shows it.
    QString cellText(int source, int destination) const;
    // The grid with a header row and column, for a terminal.
    QString toText() const;
};

} // namespace nb
