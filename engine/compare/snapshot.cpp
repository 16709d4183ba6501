// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/snapshot.h"

#include "compare/comparisonstatistics.h"
#include "compare/udpmetrics.h"
#include "core/gzip.h"
#include "core/jsonfields.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSaveFile>
#include <QTimeZone>

#include <new>

namespace nb {

namespace {

const QString kFormatName = QStringLiteral("nicbench-snapshot");

QString isoTime(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

bool readTime(const QJsonObject &o, const QString &key, QDateTime *out, QString *error)
{
    QString text;
    if (!json::readString(o, key, &text, QString(), error, json::Need::Optional, 64))
        return false;
    if (text.isEmpty())
        return true;
    const QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid())
        return json::fail(error, key, QStringLiteral("\"%1\" is not an ISO 8601 time").arg(text));
    *out = t.toUTC();
    return true;
}

// Version 0: what users collected before snapshots existed, a JSON array of -J result
// documents (iperf3's or ours), or a single one. Runs with the same title (or, untitled,
// the same target and parameters) become one configuration, in order of first appearance.
QString configurationKey(const TestParams &p)
{
    if (!p.title.isEmpty())
        return p.title;
    QString key = QStringLiteral("%1 P=%2 %3").arg(p.host).arg(p.streams).arg(testKindName(p.kind));
    if (p.kind == TestKind::Stream)
        key += QLatin1Char(' ') + directionName(p.direction);
    if (!p.bindAddress.isEmpty())
        key += QStringLiteral(" from %1").arg(p.bindAddress);
    return key;
}

// Before version 4, TestParams::toJson did not write the UDP flag, so a UDP run saved then
// reads as TCP. Its figures say what it was: datagram counts (UDP stream) or lost requests
// (UDP request/response). A configuration whose runs are all UDP is UDP too. The rate and
// the pacing timer are not in the figures and keep their defaults.
void restoreUdpFlags(Comparison *c)
{
    QList<int> udpRuns(c->configurations.size(), 0), allRuns(c->configurations.size(), 0);
    for (Run &run : c->runs) {
        TestResult &r = run.result;
        const bool udp = r.params.udp || isUdpStreamRun(r) || isUdpRrRun(r);
        r.params.udp = r.params.udp || (udp && (r.params.kind == TestKind::Stream || r.params.kind == TestKind::Rr));
        if (run.configIndex < 0 || run.configIndex >= c->configurations.size() || !r.ok())
            continue;
        ++allRuns[run.configIndex];
        if (r.params.udp)
            ++udpRuns[run.configIndex];
    }
    for (int i = 0; i < c->configurations.size(); ++i) {
        TestParams &p = c->configurations[i].params;
        if (allRuns[i] > 0 && udpRuns[i] == allRuns[i] && (p.kind == TestKind::Stream || p.kind == TestKind::Rr))
            p.udp = true;
    }
}

bool migrateVersion0(const QJsonArray &results, Comparison *out, QString *error)
{
    if (results.isEmpty())
        return json::fail(error, QString(), QStringLiteral("the file holds no results"));
    if (results.size() > Snapshot::kMaxRuns)
        return json::fail(error, QString(), QStringLiteral("too many results (%1)").arg(results.size()));
    Comparison c;
    c.title = QStringLiteral("Imported results");
    QHash<QString, int> configByKey;
    QList<int> repeatsSeen;
    for (qsizetype i = 0; i < results.size(); ++i) {
        if (!results[i].isObject())
            return json::fail(error, QStringLiteral("results[%1]").arg(i), QStringLiteral("must be an object"));
        Run run;
        QString resultError;
        if (!TestResult::fromJson(results[i].toObject(), &run.result, &resultError))
            return json::fail(error, QStringLiteral("results[%1]").arg(i), resultError);
        const QString key = configurationKey(run.result.params);
        auto it = configByKey.find(key);
        if (it == configByKey.end()) {
            if (c.configurations.size() >= Snapshot::kMaxConfigurations)
                return json::fail(error, QString(), QStringLiteral("too many distinct configurations"));
            Configuration conf;
            conf.label = key;
            conf.params = run.result.params;
            it = configByKey.insert(key, int(c.configurations.size()));
            c.configurations.append(conf);
            repeatsSeen.append(0);
        }
        run.configIndex = it.value();
        run.repeatIndex = repeatsSeen[run.configIndex]++;
        run.orderIndex = int(i);
        if (run.result.timestampSecs > 0)
            run.startedAt = QDateTime::fromSecsSinceEpoch(run.result.timestampSecs, QTimeZone::utc());
        c.runs.append(run);
    }
    c.repeats = std::max(1, *std::max_element(repeatsSeen.cbegin(), repeatsSeen.cend()));
    if (c.repeats > 1000)
        return json::fail(error, QString(), QStringLiteral("more than 1000 results of one configuration"));
    c.pauseSeconds = 0;
    if (!c.runs.isEmpty())
        c.createdAt = c.runs.first().startedAt;
    c.warnings.append(QStringLiteral("migrated from snapshot version 0 (a list of -J results): configurations "
                                     "were inferred from titles and parameters; no environment was recorded"));
    *out = c;
    return true;
}

bool fromVersion1To4(const QJsonObject &o, Comparison *out, QString *error)
{
    using namespace json;
    Comparison c;
    QJsonObject order, environment, statistics;
    QJsonArray configs, runs, warnings;
    QString policy = QStringLiteral("interleaved");
    QString cpuSide = QStringLiteral("auto"); // snapshots before 2026-12-05 have none
    const compareopt::Option &equivalence =
        compareopt::option(compareopt::Id::Equivalence); // none before 2026-12-05: 2%
    double seed = 0;
    if (!readString(o, QStringLiteral("title"), &c.title, QString(), error, Need::Optional, 10000) ||
        !readTime(o, QStringLiteral("created_at"), &c.createdAt, error) ||
        !readTime(o, QStringLiteral("finished_at"), &c.finishedAt, error) ||
        !readInt(o, QStringLiteral("repeats"), &c.repeats, QString(), error, Need::Required, 1, 1000) ||
        !readObject(o, QStringLiteral("order"), &order, QString(), error, Need::Required) ||
        !readString(order, QStringLiteral("policy"), &policy, QStringLiteral("order"), error, Need::Required, 32) ||
        !readDouble(order, QStringLiteral("seed"), &seed, QStringLiteral("order"), error, Need::Optional, 0,
                    9007199254740991.0) ||
        !readDouble(o, QStringLiteral("pause_seconds"), &c.pauseSeconds, QString(), error, Need::Optional, 0, 3600) ||
        !readString(o, QStringLiteral("cpu_side"), &cpuSide, QString(), error, Need::Optional, 32) ||
        !readDouble(o, QStringLiteral("equivalence_percent"), &c.equivalencePercent, QString(), error, Need::Optional,
                    equivalence.min, equivalence.max) ||
        !readInt(o, QStringLiteral("baseline"), &c.baselineIndex, QString(), error, Need::Required, 0,
                 Snapshot::kMaxConfigurations - 1) ||
        !readArray(o, QStringLiteral("configurations"), &configs, QString(), error, Need::Required,
                   Snapshot::kMaxConfigurations) ||
        !readArray(o, QStringLiteral("runs"), &runs, QString(), error, Need::Required, Snapshot::kMaxRuns) ||
        !readObject(o, QStringLiteral("environment"), &environment, QString(), error) ||
        !readArray(o, QStringLiteral("warnings"), &warnings, QString(), error, Need::Optional, 100000) ||
        !readObject(o, QStringLiteral("statistics"), &statistics, QString(), error))
        return false;
    if (!orderPolicyFromName(policy, &c.order))
        return fail(error, QStringLiteral("order.policy"), QStringLiteral("unknown policy \"%1\"").arg(policy));
    if (!cpuSideFromName(cpuSide, &c.cpuSide))
        return fail(error, QStringLiteral("cpu_side"), QStringLiteral("is auto, client or server"));
    if (seed != std::floor(seed))
        return fail(error, QStringLiteral("order.seed"), QStringLiteral("must be an integer"));
    c.seed = quint64(seed);
    if (!readObjects(configs, &c.configurations, QStringLiteral("configurations"), error, Configuration::fromJson) ||
        !readObjects(runs, &c.runs, QStringLiteral("runs"), error, Run::fromJson))
        return false;
    if (!environment.isEmpty() && !Environment::fromJson(environment, &c.environment, error))
        return false;
    for (const QJsonValue &w : warnings) {
        if (!w.isString())
            return fail(error, QStringLiteral("warnings[]"), QStringLiteral("must be strings"));
        c.warnings.append(w.toString());
    }
    const QString problem = c.validate();
    if (!problem.isEmpty())
        return fail(error, QString(), problem);
    *out = c;
    return true;
}

} // namespace

namespace {

// Snapshots are mailed to vendors and colleagues: no MAC address of either machine goes in
// (the server leaves them out of its hello for the same reason, docs/protocol.md §2.2).
QJsonValue withoutHardwareAddresses(const QJsonValue &v)
{
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : v.toArray())
            out.append(withoutHardwareAddresses(item));
        return out;
    }
    if (!v.isObject())
        return v;
    QJsonObject o = v.toObject();
    o.remove(QStringLiteral("hardware_address"));
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.value().isObject() || it.value().isArray())
            it.value() = withoutHardwareAddresses(it.value());
    }
    return o;
}

} // namespace

QJsonObject Snapshot::toJson(const Comparison &c)
{
    QJsonObject o;
    o.insert(QStringLiteral("format"), kFormatName);
    o.insert(QStringLiteral("version"), kFormatVersion);
    o.insert(QStringLiteral("generator"), QStringLiteral("nicbench %1").arg(QStringLiteral(NICBENCH_VERSION)));
    o.insert(QStringLiteral("title"), c.title);
    o.insert(QStringLiteral("created_at"), isoTime(c.createdAt));
    o.insert(QStringLiteral("finished_at"), isoTime(c.finishedAt));
    o.insert(QStringLiteral("repeats"), c.repeats);
    QJsonObject order;
    order.insert(QStringLiteral("policy"), orderPolicyName(c.order));
    // JSON numbers are doubles: keep seeds within 2^53 so they survive the round trip.
    order.insert(QStringLiteral("seed"), double(c.seed & ((quint64(1) << 53) - 1)));
    o.insert(QStringLiteral("order"), order);
    o.insert(QStringLiteral("pause_seconds"), c.pauseSeconds);
    o.insert(QStringLiteral("cpu_side"), cpuSideName(c.cpuSide));
    o.insert(QStringLiteral("equivalence_percent"), c.equivalencePercent);
    o.insert(QStringLiteral("baseline"), c.baselineIndex);
    QJsonArray configs;
    for (const Configuration &conf : c.configurations)
        configs.append(conf.toJson());
    o.insert(QStringLiteral("configurations"), configs);
    QJsonArray runs;
    for (const Run &r : c.runs)
        runs.append(withoutHardwareAddresses(r.toJson()));
    o.insert(QStringLiteral("runs"), runs);
    o.insert(QStringLiteral("environment"), withoutHardwareAddresses(c.environment.toJson()));
    o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(c.warnings));
    o.insert(QStringLiteral("statistics"), computeStatistics(c).toJson());
    return o;
}

bool Snapshot::fromJson(const QJsonValue &document, Comparison *out, QString *error, SnapshotLoadInfo *info)
{
    const LatencyHistogram::ReadBudget histogramBudget(kMaxHistogramBuckets);
    SnapshotLoadInfo li;
    bool ok = false;
    if (document.isArray()) {
        li.version = 0;
        li.migrated = true;
        ok = migrateVersion0(document.toArray(), out, error);
    } else if (document.isObject()) {
        const QJsonObject o = document.toObject();
        if (!o.contains(QStringLiteral("format"))) {
            if (!o.value(QStringLiteral("start")).isObject() || !o.value(QStringLiteral("end")).isObject())
                return json::fail(error, QString(), QStringLiteral("not a NicBench snapshot (no \"format\" field)"));
            li.version = 0;
            li.migrated = true;
            ok = migrateVersion0(QJsonArray{o}, out, error);
        } else {
            const QJsonValue format = o.value(QStringLiteral("format"));
            if (format.toString() != kFormatName)
                return json::fail(error, QString(),
                                  QStringLiteral("not a NicBench snapshot (format is %1)")
                                      .arg(format.isString() ? format.toString() : QStringLiteral("not a string")));
            int version = -1;
            if (!json::readInt(o, QStringLiteral("version"), &version, QString(), error, json::Need::Required, 0,
                               1 << 30))
                return false;
            li.version = version;
            if (version > kFormatVersion)
                return json::fail(error, QString(),
                                  QStringLiteral("snapshot version %1 was written by a newer NicBench; this one reads "
                                                 "versions up to %2")
                                      .arg(version)
                                      .arg(kFormatVersion));
            if (version == 0) {
                QJsonArray results;
                if (!json::readArray(o, QStringLiteral("results"), &results, QString(), error, json::Need::Required,
                                     kMaxRuns))
                    return false;
                li.migrated = true;
                ok = migrateVersion0(results, out, error);
            } else {
                // Version 1 differs only in lacking each configuration's adapter and
                // variant, which Configuration::fromJson derives from the label; version 2
                // only in holding no latency-under-load runs; version 3 in params without
                // the UDP flag.
                li.migrated = version < kFormatVersion;
                ok = fromVersion1To4(o, out, error);
            }
        }
    } else {
        return json::fail(error, QString(), QStringLiteral("not a NicBench snapshot (neither an object nor an array)"));
    }
    if (ok && li.version < 4)
        restoreUdpFlags(out);
    if (ok && info)
        *info = li;
    return ok;
}

QByteArray Snapshot::encode(const Comparison &comparison, bool gzip)
{
    const QByteArray text = QJsonDocument(toJson(comparison)).toJson(QJsonDocument::Indented);
    return gzip ? gzipCompress(text) : text;
}

namespace {

bool decodeBytes(const QByteArray &bytes, Comparison *out, QString *error, SnapshotLoadInfo *info, qint64 maxJsonBytes)
{
    if (bytes.isEmpty())
        return json::fail(error, QString(), QStringLiteral("the file is empty"));
    QByteArray text;
    const bool compressed = isGzip(bytes);
    if (compressed) {
        QString e;
        if (!gzipDecompress(bytes, maxJsonBytes, &text, &e))
            return json::fail(error, QString(), QStringLiteral("cannot decompress: %1").arg(e));
    } else {
        if (bytes.size() > maxJsonBytes)
            return json::fail(
                error, QString(),
                QStringLiteral("the file is larger than the %1 MiB limit").arg(maxJsonBytes / (1024 * 1024)));
        text = bytes;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &pe);
    if (pe.error != QJsonParseError::NoError) {
        const bool truncated = pe.offset >= text.size() - 1 || pe.error == QJsonParseError::UnterminatedObject ||
                               pe.error == QJsonParseError::UnterminatedArray ||
                               pe.error == QJsonParseError::UnterminatedString;
        return json::fail(error, QString(),
                          QStringLiteral("not valid JSON%1 at byte %2: %3")
                              .arg(truncated ? QStringLiteral(" (truncated?)") : QString())
                              .arg(pe.offset)
                              .arg(pe.errorString()));
    }
    SnapshotLoadInfo li;
    const QJsonValue root = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    if (!Snapshot::fromJson(root, out, error, &li))
        return false;
    li.compressed = compressed;
    if (info)
        *info = li;
    return true;
}

} // namespace

bool Snapshot::decode(const QByteArray &bytes, Comparison *out, QString *error, SnapshotLoadInfo *info,
                      qint64 maxJsonBytes)
{
    // A file inside every limit may still need more memory than the system gives: that is
    // the file's error, not a crash.
    try {
        return decodeBytes(bytes, out, error, info, maxJsonBytes);
    } catch (const std::bad_alloc &) {
        return json::fail(error, QString(), QStringLiteral("not enough memory to read this snapshot"));
    }
}

bool Snapshot::save(const Comparison &comparison, const QString &path, QString *error, SnapshotSaveOptions options)
{
    const bool gzip =
        options.compression == SnapshotCompression::Gzip ||
        (options.compression == SnapshotCompression::Auto && path.endsWith(QLatin1String(".gz"), Qt::CaseInsensitive));
    const QByteArray bytes = encode(comparison, gzip);
    if (bytes.isEmpty())
        return json::fail(error, path, QStringLiteral("could not encode the snapshot"));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return json::fail(error, path, file.errorString());
    if (options.simulateWriteFailure) {
        file.write(bytes.left(bytes.size() / 2));
        file.cancelWriting();
        file.commit();
        return json::fail(error, path, QStringLiteral("write failed (simulated)"));
    }
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        file.commit();
        return json::fail(error, path, why);
    }
    if (!file.commit())
        return json::fail(error, path, file.errorString());
    return true;
}

bool Snapshot::load(const QString &path, Comparison *out, QString *error, SnapshotLoadInfo *info)
{
    QFile file(path);
    const QFileInfo fi(path);
    if (fi.isDir())
        return json::fail(error, path, QStringLiteral("is a folder, not a snapshot file"));
    if (!fi.exists())
        return json::fail(error, path, QStringLiteral("no such file"));
    if (!fi.isFile()) // a pipe or a device: never opened, a read could wait for ever
        return json::fail(error, path, QStringLiteral("is not a regular file"));
    if (!file.open(QIODevice::ReadOnly))
        return json::fail(error, path, file.errorString());
    if (file.size() > kMaxFileBytes)
        return json::fail(
            error, path, QStringLiteral("the file is larger than the %1 MiB limit").arg(kMaxFileBytes / (1024 * 1024)));
    const QByteArray bytes = file.read(kMaxFileBytes + 1);
    QString e;
    if (!decode(bytes, out, &e, info))
        return json::fail(error, path, e);
    return true;
}

} // namespace nb
