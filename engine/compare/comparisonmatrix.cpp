// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonmatrix.h"

namespace nb {

MatrixEndpoint MatrixEndpoint::fromBindAddress(const QString &bindAddress, const QString &target)
{
    MatrixEndpoint e;
    e.bindAddress = bindAddress;
    e.target = target;
    const QHostAddress local(bindAddress);
    if (!local.isNull())
        e.adapter = adapterForLocalAddress(local);
    return e;
}

QString MatrixEndpoint::defaultLabel() const
{
    if (!label.isEmpty())
        return label;
    if (adapter)
        return QStringLiteral("%1 %2").arg(familyName(adapter->family), adapter->name);
    if (!bindAddress.isEmpty())
        return bindAddress;
    return target;
}

void MatrixVariant::apply(TestParams *p) const
{
    if (streams)
        p->streams = *streams;
    if (kind)
        p->kind = *kind;
    if (direction)
        p->direction = *direction;
    if (blockSize)
        p->blockSize = *blockSize;
    if (window)
        p->window = *window;
    if (inFlight)
        p->inFlight = *inFlight;
    if (requestSize)
        p->requestSize = *requestSize;
    if (responseSize)
        p->responseSize = *responseSize;
}

MatrixVariant MatrixVariant::withStreams(int n)
{
    MatrixVariant v;
    v.name = QStringLiteral("P=%1").arg(n);
    v.streams = n;
    return v;
}

MatrixVariant MatrixVariant::throughput()
{
    MatrixVariant v;
    v.name = QStringLiteral("TCP_STREAM");
    v.kind = TestKind::Stream;
    return v;
}

MatrixVariant MatrixVariant::requestResponse()
{
    MatrixVariant v;
    v.name = QStringLiteral("TCP_RR");
    v.kind = TestKind::Rr;
    return v;
}

QList<Configuration> buildMatrix(const TestParams &base, const QList<MatrixEndpoint> &endpoints,
                                 const QList<MatrixVariant> &variants)
{
    QList<Configuration> out;
    const QList<MatrixVariant> effective = variants.isEmpty() ? QList<MatrixVariant>{MatrixVariant{}} : variants;
    for (const MatrixEndpoint &e : endpoints) {
        for (const MatrixVariant &v : effective) {
            Configuration c;
            c.params = base;
            if (!e.target.isEmpty())
                c.params.host = e.target;
            c.params.bindAddress = e.bindAddress;
            v.apply(&c.params);
            c.label = v.name.isEmpty() ? e.defaultLabel() : QStringLiteral("%1, %2").arg(e.defaultLabel(), v.name);
            out.append(c);
        }
    }
    return out;
}

} // namespace nb
