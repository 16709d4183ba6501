// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/boundedgraph.h"

#include <qcustomplot.h>

namespace nb::ui {

void BoundedGraph::append(double x, double y)
{
    const BoundedSeries::Change change = series.append(x, y);
    if (!graph || change == BoundedSeries::Change::None)
        return;
    if (change == BoundedSeries::Change::Appended) {
        const QPointF &p = series.points().constLast();
        graph->addData(p.x(), p.y());
        return;
    }
    QVector<double> keys, values;
    keys.reserve(series.points().size());
    values.reserve(series.points().size());
    for (const QPointF &p : series.points()) {
        keys.append(p.x());
        values.append(p.y());
    }
    graph->setData(keys, values, true);
}

void BoundedGraph::clear()
{
    series.clear();
    if (graph)
        graph->data()->clear();
}

} // namespace nb::ui
