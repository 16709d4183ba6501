// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/resultexport.h"

#include "core/csv.h"
#include "core/jsonfields.h"

#include <QJsonArray>

namespace nb {

namespace {

constexpr qsizetype kMaxResultsPerDocument = 16;

// "" for the -1 that means "not known".
QString knownOrEmpty(std::int64_t v)
{
    return v < 0 ? QString() : QString::number(v);
}

QString exportKindName(const TestParams &p)
{
    if (p.isLoadedLatency())
        return QStringLiteral("loaded_latency");
    const QString kind = p.kind == TestKind::Crr  ? QStringLiteral("crr")
                         : p.kind == TestKind::Rr ? QStringLiteral("rr")
                                                  : QStringLiteral("stream");
    return p.udp ? QStringLiteral("udp_") + kind : kind;
}

struct CsvRowStart {
    int test = 0;
    QString kind;
    double start = 0, end = 0;
};

// The columns every row has, then the row's own figures (empty where it has none).
class CsvWriter {
public:
    void row(const CsvRowStart &at, const QString &rowKind, const QString &stream, const QString &direction,
             const QStringList &figures)
    {
        QStringList cells{
            QString::number(at.test), at.kind, csv::number(at.start), csv::number(at.end), rowKind, stream, direction};
        cells += figures;
        while (cells.size() < m_columns)
            cells.append(QString());
        for (QString &c : cells)
            c = csv::field(c);
        m_text += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    void setColumns(qsizetype n) { m_columns = n; }
    QString text() const { return m_text; }

private:
    QString m_text;
    qsizetype m_columns = 0;
};

// bytes .. out_of_order: the throughput columns of a stream or a direction's sum.
QStringList flowFigures(std::uint64_t bytes, double bps, std::int64_t retransmits, std::int64_t cwnd, std::int64_t rtt,
                        bool udp, std::uint64_t packets, std::uint64_t lost, double lostPercent, double jitterMs,
                        std::uint64_t outOfOrder)
{
    QStringList f{QString::number(bytes), csv::number(bps), knownOrEmpty(retransmits), knownOrEmpty(cwnd),
                  knownOrEmpty(rtt)};
    if (udp)
        f << QString::number(packets) << QString::number(lost) << csv::number(lostPercent) << csv::number(jitterMs)
          << QString::number(outOfOrder);
    else
        f << QString() << QString() << QString() << QString() << QString();
    return f;
}

QString cpuCell(const IntervalReport &r)
{
    return r.hasCpu && r.cpu.systemValid ? csv::number(r.cpu.systemBusyPct) : QString();
}

// Empty request/response cells, then the CPU and omitted columns.
QStringList tailCells(const QString &cpu, bool omitted)
{
    return {QString(), QString(), QString(), QString(),
            QString(), QString(), cpu,       omitted ? QStringLiteral("1") : QStringLiteral("0")};
}

void writeInterval(CsvWriter &out, CsvRowStart at, const TestResult &result, const IntervalReport &r)
{
    // Upload is what the client sent, whichever side wrote the result.
    const auto directionOf = [&result](bool sender) {
        return sender != result.isServerSide ? QStringLiteral("upload") : QStringLiteral("download");
    };
    for (bool sender : {true, false}) {
        if (!r.hasDirection(sender))
            continue;
        const IntervalSum s = r.sum(sender);
        at.start = s.start;
        at.end = s.end;
        out.row(at, QStringLiteral("sum"), QString(), directionOf(sender),
                flowFigures(s.bytes, s.bitsPerSecond(), s.retransmits, -1, -1, s.udp, s.packets, s.lostPackets,
                            s.lostPercent(), s.jitterMs, s.outOfOrder) +
                    tailCells(cpuCell(r), s.omitted));
    }
    for (const StreamInterval &s : r.streams) {
        at.start = s.start;
        at.end = s.end;
        out.row(at, QStringLiteral("stream"), QString::number(s.id), directionOf(s.sender),
                flowFigures(s.bytes, s.bitsPerSecond(), s.retransmits, s.cwndBytes, s.rttUs, s.udp, s.packets,
                            s.lostPackets, s.lostPercent(), s.jitterMs, s.outOfOrder) +
                    tailCells(QString(), s.omitted));
    }
    if (r.hasRr) {
        at.start = r.rr.start;
        at.end = r.rr.end;
        const LatencySummary &l = r.rr.latencyUs;
        QStringList f(10, QString());
        f << QString::number(r.rr.transactions) << csv::number(r.rr.transactionsPerSecond());
        if (l.count > 0)
            f << csv::number(l.p50) << csv::number(l.p90) << csv::number(l.p99) << csv::number(l.max);
        else
            f << QString() << QString() << QString() << QString();
        f << cpuCell(r) << QStringLiteral("0");
        out.row(at, QStringLiteral("rr"), QString(), QString(), f);
    }
}

} // namespace

QJsonObject resultsDocument(const QList<TestResult> &results)
{
    if (results.size() == 1)
        return results.constFirst().toJson();
    if (results.isEmpty())
        return {};
    QJsonArray all;
    for (const TestResult &r : results)
        all.append(r.toJson());
    return QJsonObject{{QStringLiteral("results"), all}};
}

bool resultsFromDocument(const QJsonObject &document, QList<TestResult> *out, QString *error)
{
    QList<TestResult> results;
    if (!document.contains(QStringLiteral("results"))) {
        TestResult r;
        if (!TestResult::fromJson(document, &r, error))
            return false;
        results.append(r);
    } else {
        QJsonArray array;
        if (!json::readArray(document, QStringLiteral("results"), &array, QString(), error, json::Need::Required,
                             kMaxResultsPerDocument))
            return false;
        if (array.isEmpty())
            return json::fail(error, QStringLiteral("results"), QStringLiteral("is empty"));
        if (!json::readObjects(
                array, &results, QStringLiteral("results"), error,
                [](const QJsonObject &o, TestResult *r, QString *e) { return TestResult::fromJson(o, r, e); }))
            return false;
    }
    *out = results;
    return true;
}

QStringList intervalCsvHeader()
{
    return {QStringLiteral("test"),
            QStringLiteral("kind"),
            QStringLiteral("start_s"),
            QStringLiteral("end_s"),
            QStringLiteral("row"),
            QStringLiteral("stream"),
            QStringLiteral("direction"),
            QStringLiteral("bytes"),
            QStringLiteral("bits_per_second"),
            QStringLiteral("retransmits"),
            QStringLiteral("cwnd_bytes"),
            QStringLiteral("rtt_us"),
            QStringLiteral("packets"),
            QStringLiteral("lost_packets"),
            QStringLiteral("lost_percent"),
            QStringLiteral("jitter_ms"),
            QStringLiteral("out_of_order"),
            QStringLiteral("transactions"),
            QStringLiteral("transactions_per_second"),
            QStringLiteral("latency_p50_us"),
            QStringLiteral("latency_p90_us"),
            QStringLiteral("latency_p99_us"),
            QStringLiteral("latency_max_us"),
            QStringLiteral("cpu_busy_percent"),
            QStringLiteral("omitted")};
}

QString intervalsCsv(const QList<TestResult> &results)
{
    const QStringList header = intervalCsvHeader();
    CsvWriter out;
    out.setColumns(header.size());
    QString text = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (qsizetype i = 0; i < results.size(); ++i) {
        const TestResult &result = results[i];
        const CsvRowStart at{int(i + 1), exportKindName(result.params)};
        for (const IntervalReport &r : result.intervals)
            writeInterval(out, at, result, r);
    }
    return text + out.text();
}

} // namespace nb
