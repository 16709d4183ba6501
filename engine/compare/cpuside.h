// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whose CPU a comparison's answer quotes as the cost of throughput. Host -> guest: the adapter
// under test sits at the server (the guest), and the client's CPU is the host's, not the
// adapter's. Auto takes the side where the configurations' adapters differ.

#include "compare/comparison.h"
#include "compare/comparisonstatistics.h"

#include <QList>
#include <QString>

namespace nb {

struct CpuSideChoice {
    bool server = false;        // quote the server's CPU
    QString reason;             // "the configurations differ in the server's adapter"
    bool clientIsAgent = false; // the client ran on an agent (a mesh, --from), not here
};

// The side for the configurations of one variant. Server (asked, or Auto) needs the server's
// CPU in every configuration: a stock iperf3 server reports none, and the answer says so.
CpuSideChoice chooseCpuSide(const Comparison &c, const QList<int> &configs, const ComparisonStatistics &statistics,
                            Metric serverCost);

// "CPU cost is the server's (the configurations differ in the server's adapter; ...)."
QString cpuSideLine(const CpuSideChoice &choice);

// The server's counterpart of a local CPU cost metric (LocalCpuPerGbps -> RemoteCpuPerGbps);
// the metric itself when it has none.
Metric serverCostMetric(Metric localCost);

} // namespace nb
