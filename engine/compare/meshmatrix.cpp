// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/meshmatrix.h"

#include "compare/comparisontable.h"
#include "compare/mesh.h"

#include <algorithm>

namespace nb {

namespace {

QString sourceOf(const Configuration &conf)
{
    return MeshHost{conf.from.host, conf.from.port}.text();
}

QString destinationOf(const Configuration &conf)
{
    return MeshHost{conf.params.host, conf.params.port}.text();
}

int indexOf(QStringList *hosts, const QString &host)
{
    qsizetype i = hosts->indexOf(host);
    if (i < 0) {
        hosts->append(host);
        i = hosts->size() - 1;
    }
    return int(i);
}

} // namespace

bool MeshMatrix::isMesh(const Comparison &c)
{
    return !c.configurations.isEmpty() && std::all_of(c.configurations.cbegin(), c.configurations.cend(),
                                                      [](const Configuration &conf) { return conf.from.isSet(); });
}

Metric MeshMatrix::defaultMetric(const ComparisonStatistics &stats)
{
    const QList<Metric> present = stats.presentMetrics();
    for (Metric m : {Metric::Throughput, Metric::TransactionsPerSecond, Metric::UdpGoodput,
                     Metric::UdpRrTransactionsPerSecond, Metric::LoadedBidirP99Increase})
        if (present.contains(m))
            return m;
    return present.isEmpty() ? Metric::Throughput : present.first();
}

MeshMatrix MeshMatrix::of(const Comparison &c, const ComparisonStatistics &stats, Metric metric)
{
    MeshMatrix m;
    m.metric = metric;
    QList<std::pair<int, int>> where;
    for (const Configuration &conf : c.configurations) {
        const int from = indexOf(&m.hosts, sourceOf(conf));
        const int to = indexOf(&m.hosts, destinationOf(conf));
        where.append({from, to});
    }
    const int n = int(m.hosts.size());
    m.cells = QList<QList<MeshCell>>(n, QList<MeshCell>(n));
    for (int i = 0; i < where.size(); ++i) {
        MeshCell &cell = m.cells[where[i].first][where[i].second];
        cell.configIndex = i;
        for (const Run *r : c.runsOf(i, false)) {
            ++cell.runs;
            if (!r->ok()) {
                ++cell.failedRuns;
                cell.failure = r->result.error;
            }
        }
        if (const MetricStatistics *s = stats.find(i, metric))
            cell.summary = s->summary;
    }
    return m;
}

QString MeshMatrix::cellText(int source, int destination) const
{
    const MeshCell &cell = cells[source][destination];
    if (cell.configIndex < 0)
        return QStringLiteral("-");
    if (cell.summary.isEmpty())
        return cell.runs == 0 ? QStringLiteral("not run")
                              : QStringLiteral("%1 of %2 failed").arg(cell.failedRuns).arg(cell.runs);
    QString text = ComparisonTable::formatValue(metric, cell.summary.mean, metricUnit(metric));
    if (cell.summary.spreadKnown)
        text += QStringLiteral(" \u00b1 %1%")
                    .arg(100 * cell.summary.ciHalfWidth() / std::max(1e-12, cell.summary.mean), 0, 'f', 1);
    if (cell.failedRuns > 0)
        text += QStringLiteral(" (%1 failed)").arg(cell.failedRuns);
    return text;
}

QString MeshMatrix::toText() const
{
    const int n = int(hosts.size());
    QList<QStringList> rows;
    rows.append(QStringList{QStringLiteral("from \\ to")} + hosts);
    for (int s = 0; s < n; ++s) {
        QStringList row{hosts[s]};
        for (int d = 0; d < n; ++d)
            row.append(cellText(s, d));
        rows.append(row);
    }
    QList<qsizetype> widths(n + 1, 0);
    for (const QStringList &row : rows)
        for (int col = 0; col <= n; ++col)
            widths[col] = std::max(widths[col], row[col].size());
    QString out = QStringLiteral("%1, mean over the runs with its 95% interval:\n").arg(metricName(metric));
    for (const QStringList &row : rows) {
        QStringList padded;
        for (int col = 0; col <= n; ++col)
            padded.append(col == 0 ? row[col].leftJustified(widths[col]) : row[col].rightJustified(widths[col]));
        out += padded.join(QStringLiteral("  ")) + QLatin1Char('\n');
    }
    return out;
}

} // namespace nb
