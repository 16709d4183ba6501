// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonmatrix.h"

#include "core/units.h"
#include "model/parameters.h"
#include "session/testarguments.h"

#include <QRegularExpression>

#include <utility>

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

QString adapterModelName(AdapterFamily family)
{
    switch (family) {
    case AdapterFamily::E1000:
        return QStringLiteral("E1000");
    case AdapterFamily::E1000e:
        return QStringLiteral("E1000E");
    case AdapterFamily::Vmxnet3:
        return QStringLiteral("VMXNET3");
    case AdapterFamily::Virtio:
        return QStringLiteral("virtio");
    case AdapterFamily::HyperV:
        return QStringLiteral("Hyper-V");
    case AdapterFamily::Ena:
        return QStringLiteral("ENA");
    default:
        return {};
    }
}

QString MatrixEndpoint::defaultLabel() const
{
    if (!label.isEmpty())
        return label;
    if (!from.isEmpty())
        return QStringLiteral("%1 -> %2").arg(from, target);
    if (adapter) {
        const QString model = adapterModelName(adapter->family);
        return model.isEmpty() ? adapter->name : model;
    }
    if (!bindAddress.isEmpty())
        return bindAddress;
    return target;
}

QStringList defaultLabels(const QList<MatrixEndpoint> &endpoints)
{
    QStringList out;
    for (const MatrixEndpoint &e : endpoints)
        out.append(e.defaultLabel());
    const auto collides = [&](int i) { return out.count(out[i]) > 1; };
    for (int pass = 0; pass < 2; ++pass) {
        QList<int> clashing;
        for (int i = 0; i < out.size(); ++i)
            if (endpoints[i].label.isEmpty() && collides(i))
                clashing.append(i);
        for (int i : clashing) {
            const MatrixEndpoint &e = endpoints[i];
            const QString extra = pass == 0 && e.adapter && out[i] != e.adapter->name ? e.adapter->name : e.target;
            if (!extra.isEmpty() && !out[i].endsWith(extra))
                out[i] = QStringLiteral("%1 %2").arg(out[i], extra);
        }
    }
    return out;
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
    if (phaseSeconds)
        p->phaseSeconds = *phaseSeconds;
    if (udp)
        p->udp = *udp;
    if (bandwidth)
        p->bandwidth = *bandwidth;
    if (p->isLoadedLatency()) {
        // Its phases set the directions and the length (TestParams::validate).
        p->direction = Direction::Upload;
        p->omit = 0;
        p->bytes = 0;
    }
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
    v.udp = false;
    return v;
}

MatrixVariant MatrixVariant::requestResponse(int connections)
{
    MatrixVariant v;
    v.name = connections == 1 ? QStringLiteral("TCP_RR") : QStringLiteral("TCP_RR (%1 conn.)").arg(connections);
    v.kind = TestKind::Rr;
    v.udp = false;
    v.streams = connections;
    return v;
}

MatrixVariant MatrixVariant::latencyUnderLoad(int streams, double phaseSeconds)
{
    MatrixVariant v;
    v.name = QStringLiteral("Latency under load");
    v.kind = TestKind::LoadedLatency;
    v.udp = false;
    v.streams = streams;
    v.phaseSeconds = phaseSeconds;
    return v;
}

QString MatrixVariant::rateText(std::uint64_t bps)
{
    if (bps == 0)
        return QStringLiteral("unlimited");
    constexpr std::pair<double, char> units[] = {{1e12, 'T'}, {1e9, 'G'}, {1e6, 'M'}, {1e3, 'K'}};
    for (const auto &[scale, suffix] : units)
        if (double(bps) >= scale)
            return QString::number(double(bps) / scale, 'g', 4) + QLatin1Char(suffix);
    return QString::number(bps);
}

MatrixVariant MatrixVariant::udpStream(std::uint64_t bitsPerSecond, std::uint32_t datagramSize, int streams)
{
    MatrixVariant v;
    v.name = QStringLiteral("UDP %1").arg(rateText(bitsPerSecond));
    v.kind = TestKind::Stream;
    v.udp = true;
    v.bandwidth = bitsPerSecond;
    // 128K is TestParams' "-l not given" (udpDatagramSizeUnset): the client takes the MSS.
    v.blockSize = datagramSize > 0 ? datagramSize : 128 * 1024;
    if (datagramSize > 0)
        v.name += QStringLiteral(" %1B").arg(datagramSize);
    v.streams = streams;
    if (streams > 1)
        v.name += QStringLiteral(" P=%1").arg(streams);
    return v;
}

MatrixVariant MatrixVariant::udpRequestResponse()
{
    MatrixVariant v;
    v.name = QStringLiteral("UDP_RR");
    v.kind = TestKind::Rr;
    v.udp = true;
    v.streams = 1;
    return v;
}

bool udpRatesFromText(const QString &text, QList<std::uint64_t> *out, QString *error)
{
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    const param::Parameter &row = param::parameter(param::Id::Bitrate);
    QList<std::uint64_t> rates;
    for (const QString &part : text.split(separators, Qt::SkipEmptyParts)) {
        const std::optional<double> r = parseRate(part);
        if (!r || !param::inRange(row, *r)) {
            *error = QStringLiteral("UDP rates: \"%1\" is not a rate from %2 (100M, 1G; 0: unlimited)")
                         .arg(part.left(40), param::rangeText(row));
            return false;
        }
        if (!rates.contains(std::uint64_t(*r)))
            rates.append(std::uint64_t(*r));
    }
    if (rates.isEmpty()) {
        *error = QStringLiteral("UDP rates: give at least one rate (100M, 1G; 0: unlimited)");
        return false;
    }
    *out = rates;
    return true;
}

QList<Configuration> buildMatrix(const TestParams &base, const QList<MatrixEndpoint> &endpoints,
                                 const QList<MatrixVariant> &variants)
{
    QList<Configuration> out;
    const QList<MatrixVariant> effective = variants.isEmpty() ? QList<MatrixVariant>{MatrixVariant{}} : variants;
    const QStringList labels = defaultLabels(endpoints);
    for (int i = 0; i < endpoints.size(); ++i) {
        const MatrixEndpoint &e = endpoints[i];
        for (const MatrixVariant &v : effective) {
            Configuration c;
            c.params = base;
            if (!e.target.isEmpty())
                c.params.host = e.target;
            if (e.port > 0)
                c.params.port = e.port;
            c.params.bindAddress = e.bindAddress;
            v.apply(&c.params);
            c.adapter = labels[i];
            c.variant = v.name;
            c.label = Configuration::joinLabel(c.adapter, c.variant);
            if (!e.from.isEmpty() && agentProblem(c, e.from).isEmpty()) {
                QString ignored;
                AgentFrom::fromText(e.from, &c.from, &ignored);
                givenOptions(c.params, &c.from.given, &ignored);
            }
            out.append(c);
        }
    }
    return out;
}

QString agentProblem(const Configuration &configuration, const QString &from)
{
    AgentFrom agent;
    QList<GivenOption> given;
    QString error;
    if (!AgentFrom::fromText(from, &agent, &error))
        return QStringLiteral("\"%1\": from %2: %3").arg(configuration.label, from, error);
    if (!givenOptions(configuration.params, &given, &error))
        return QStringLiteral("\"%1\": %2").arg(configuration.label, error);
    return {};
}

} // namespace nb
