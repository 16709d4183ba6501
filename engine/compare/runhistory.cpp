// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/runhistory.h"

#include "compare/rundescription.h"
#include "core/jsonfields.h"
#include "core/sanitize.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTimeZone>

#include <algorithm>
#include <new>

namespace nb {

namespace {

const QString kRunFormat = QStringLiteral("nicbench-run");
const QString kIndexFormat = QStringLiteral("nicbench-history-index");
const QString kIndexFile = QStringLiteral("index.json");
const QString kRunSuffix = QStringLiteral(".json");
constexpr qsizetype kMaxLabelLength = 200;

QString historyTime(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QDateTime historyTimeFrom(const QString &text)
{
    const QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    return t.isValid() ? t.toUTC() : QDateTime();
}

// The time an id names: "20261205T031200123Z-3f2a".
QDateTime timeOfId(const QString &id)
{
    QDateTime t = QDateTime::fromString(id.left(19), QStringLiteral("yyyyMMdd'T'HHmmsszzz'Z'"));
    t.setTimeZone(QTimeZone::utc());
    return t;
}

QJsonObject entryJson(const HistoryEntry &e)
{
    return {{QStringLiteral("id"), e.id},
            {QStringLiteral("finished_at"), historyTime(e.finishedAt)},
            {QStringLiteral("label"), e.label},
            {QStringLiteral("kind"), e.kind},
            {QStringLiteral("headline"), e.headline},
            {QStringLiteral("adapter"), e.adapter},
            {QStringLiteral("target"), e.target},
            {QStringLiteral("ok"), e.ok},
            {QStringLiteral("readable"), e.readable},
            {QStringLiteral("bytes"), double(e.fileBytes)}};
}

// An index entry; false when it is not usable (the run file is read instead).
bool entryFromJson(const QJsonObject &o, HistoryEntry *out)
{
    using namespace json;
    HistoryEntry e;
    QString finished;
    std::int64_t bytes = -1;
    QString *error = nullptr;
    const bool read =
        readString(o, QStringLiteral("id"), &e.id, QString(), error, Need::Required, 64) &&
        readString(o, QStringLiteral("finished_at"), &finished, QString(), error, Need::Required, 64) &&
        readString(o, QStringLiteral("label"), &e.label, QString(), error, Need::Optional, kMaxLabelLength) &&
        readString(o, QStringLiteral("kind"), &e.kind, QString(), error, Need::Required, 1000) &&
        readString(o, QStringLiteral("headline"), &e.headline, QString(), error, Need::Required, 1000) &&
        readString(o, QStringLiteral("adapter"), &e.adapter, QString(), error, Need::Optional, 1000) &&
        readString(o, QStringLiteral("target"), &e.target, QString(), error, Need::Optional, 1000) &&
        readBool(o, QStringLiteral("ok"), &e.ok, QString(), error, Need::Required) &&
        readBool(o, QStringLiteral("readable"), &e.readable, QString(), error, Need::Optional) &&
        readInt64(o, QStringLiteral("bytes"), &bytes, QString(), error, Need::Required, 0, 9e15);
    e.finishedAt = historyTimeFrom(finished);
    if (!read || !RunHistory::isRunId(e.id) || !e.finishedAt.isValid())
        return false;
    e.fileBytes = bytes;
    *out = e;
    return true;
}

bool readBytes(const QString &path, qint64 cap, QByteArray *out, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return json::fail(error, QString(), file.errorString());
    if (file.size() > cap)
        return json::fail(error, QString(), QStringLiteral("larger than the %1 MiB limit").arg(cap / (1024 * 1024)));
    *out = file.read(cap + 1);
    return true;
}

bool writeAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return json::fail(error, QDir::toNativeSeparators(path), file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        file.commit();
        return json::fail(error, QDir::toNativeSeparators(path), why);
    }
    if (!file.commit())
        return json::fail(error, QDir::toNativeSeparators(path), file.errorString());
    return true;
}

bool decodeRun(const QByteArray &bytes, HistoryRun *out, QString *error)
{
    using namespace json;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (doc.isNull())
        return fail(error, QString(),
                    QStringLiteral("not JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return fail(error, QString(), QStringLiteral("not a NicBench run (no JSON object)"));
    const QJsonObject o = doc.object();
    QString format, finished;
    int version = 0;
    if (!readString(o, QStringLiteral("format"), &format, QString(), error, Need::Required, 64))
        return false;
    if (format != kRunFormat)
        return fail(error, QStringLiteral("format"),
                    QStringLiteral("\"%1\" is not a NicBench run").arg(printable(format, 64)));
    if (!readInt(o, QStringLiteral("version"), &version, QString(), error, Need::Required, 1, 1 << 20))
        return false;
    if (version > RunHistory::kFormatVersion)
        return fail(
            error, QStringLiteral("version"),
            QStringLiteral("%1 is newer than this NicBench reads (%2)").arg(version).arg(RunHistory::kFormatVersion));
    HistoryRun run;
    QJsonObject host;
    QJsonArray results;
    if (!readString(o, QStringLiteral("finished_at"), &finished, QString(), error, Need::Required, 64) ||
        !readString(o, QStringLiteral("label"), &run.entry.label, QString(), error, Need::Optional, kMaxLabelLength) ||
        !readObject(o, QStringLiteral("host"), &host, QString(), error, Need::Optional) ||
        !readArray(o, QStringLiteral("results"), &results, QString(), error, Need::Required,
                   RunHistory::kMaxResultsPerRun))
        return false;
    run.entry.finishedAt = historyTimeFrom(finished);
    if (!run.entry.finishedAt.isValid())
        return fail(error, QStringLiteral("finished_at"), QStringLiteral("is not an ISO 8601 time"));
    if (results.isEmpty())
        return fail(error, QStringLiteral("results"), QStringLiteral("is empty"));
    if (!host.isEmpty() && !HostEnvironment::fromJson(host, &run.host, error))
        return false;
    if (!readObjects(results, &run.results, QStringLiteral("results"), error,
                     [](const QJsonObject &r, TestResult *t, QString *e) { return TestResult::fromJson(r, t, e); }))
        return false;
    RunHistory::describe(&run);
    *out = run;
    return true;
}

} // namespace

RunHistory::RunHistory(const QString &directory, HistoryLimits limits) : m_directory(directory), m_limits(limits) {}

bool RunHistory::isRunId(const QString &id)
{
    static const QRegularExpression pattern(QStringLiteral("^\\d{8}T\\d{9}Z-[0-9a-f]{4}$"));
    return pattern.match(id).hasMatch();
}

QString RunHistory::runPath(const QString &id) const
{
    return QDir(m_directory).filePath(id + kRunSuffix);
}

QString RunHistory::newId(const QDateTime &finishedAt) const
{
    const QString stamp = finishedAt.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmsszzz'Z'"));
    for (int attempt = 0; attempt < 64; ++attempt) {
        const QString id = QStringLiteral("%1-%2").arg(stamp).arg(QRandomGenerator::global()->bounded(0x10000), 4, 16,
                                                                  QLatin1Char('0'));
        if (!QFileInfo::exists(runPath(id)))
            return id;
    }
    return {};
}

void RunHistory::describe(HistoryRun *run)
{
    HistoryEntry &e = run->entry;
    e.kind = runKindLabel(run->results);
    e.headline = runHeadline(run->results);
    e.adapter = runAdapterLabel(run->results);
    e.target = runTargetLabel(run->results);
    e.ok = std::all_of(run->results.cbegin(), run->results.cend(), [](const TestResult &r) { return r.ok(); });
    e.readable = true;
}

QByteArray RunHistory::encode(const HistoryRun &run)
{
    QJsonArray results;
    for (const TestResult &r : run.results)
        results.append(r.toJson());
    HostEnvironment host = run.host;
    host.adapters.clear(); // each result names the adapter that carried it
    const QJsonObject o{
        {QStringLiteral("format"), kRunFormat},
        {QStringLiteral("version"), kFormatVersion},
        {QStringLiteral("generator"), QStringLiteral("nicbench %1").arg(QStringLiteral(NICBENCH_VERSION))},
        {QStringLiteral("finished_at"), historyTime(run.entry.finishedAt)},
        {QStringLiteral("label"), run.entry.label},
        {QStringLiteral("host"), host.toJson()},
        {QStringLiteral("results"), results}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

bool RunHistory::decode(const QByteArray &bytes, HistoryRun *out, QString *error)
{
    // A file inside the size cap may still need more memory than there is: the file's error.
    try {
        return decodeRun(bytes, out, error);
    } catch (const std::bad_alloc &) {
        return json::fail(error, QString(), QStringLiteral("not enough memory to read this run"));
    }
}

bool RunHistory::add(const QList<TestResult> &results, const HostEnvironment &host, HistoryEntry *added, QString *error,
                     const QDateTime &finishedAt)
{
    if (results.isEmpty() || results.size() > kMaxResultsPerRun)
        return json::fail(error, QString(), QStringLiteral("a run holds 1 to %1 tests").arg(kMaxResultsPerRun));
    if (!QDir().mkpath(m_directory))
        return json::fail(error, QDir::toNativeSeparators(m_directory), QStringLiteral("cannot create the folder"));
    HistoryRun run;
    run.entry.finishedAt = (finishedAt.isValid() ? finishedAt : QDateTime::currentDateTimeUtc()).toUTC();
    run.entry.id = newId(run.entry.finishedAt);
    if (run.entry.id.isEmpty())
        return json::fail(error, QDir::toNativeSeparators(m_directory), QStringLiteral("no free file name"));
    run.host = host;
    run.results = results;
    describe(&run);
    const QByteArray bytes = encode(run);
    if (bytes.size() > kMaxRunFileBytes)
        return json::fail(
            error, QString(),
            QStringLiteral("the run is larger than the %1 MiB limit").arg(kMaxRunFileBytes / (1024 * 1024)));
    if (!writeAtomically(runPath(run.entry.id), bytes, error))
        return false;
    run.entry.fileBytes = bytes.size();
    refresh();
    prune(run.entry.id);
    if (added)
        *added = run.entry;
    return true;
}

QList<HistoryEntry> RunHistory::entries()
{
    refresh();
    return m_entries;
}

qint64 RunHistory::totalBytes() const
{
    qint64 total = 0;
    for (const HistoryEntry &e : m_entries)
        total += e.fileBytes;
    return total;
}

void RunHistory::readIndex(QHash<QString, HistoryEntry> *cached) const
{
    QByteArray bytes;
    if (!readBytes(QDir(m_directory).filePath(kIndexFile), kMaxIndexBytes, &bytes, nullptr))
        return;
    const QJsonObject o = QJsonDocument::fromJson(bytes).object();
    if (o.value(QStringLiteral("format")).toString() != kIndexFormat ||
        o.value(QStringLiteral("version")).toInt() != kFormatVersion)
        return; // rebuilt from the run files
    const QJsonArray runs = o.value(QStringLiteral("runs")).toArray();
    for (const QJsonValue &v : runs) {
        HistoryEntry e;
        if (v.isObject() && entryFromJson(v.toObject(), &e))
            cached->insert(e.id, e);
    }
}

HistoryEntry RunHistory::readEntry(const QString &id, qint64 bytes) const
{
    HistoryRun run;
    QString error;
    if (!load(id, &run, &error)) {
        run.entry = HistoryEntry();
        run.entry.finishedAt = timeOfId(id);
        run.entry.ok = false;
        run.entry.readable = false;
        run.entry.headline = QStringLiteral("unreadable: %1").arg(error);
    }
    run.entry.id = id;
    run.entry.fileBytes = bytes;
    return run.entry;
}

void RunHistory::refresh()
{
    QHash<QString, HistoryEntry> cached;
    readIndex(&cached);
    const QFileInfoList files =
        QDir(m_directory).entryInfoList({QStringLiteral("*") + kRunSuffix}, QDir::Files | QDir::NoSymLinks, QDir::Name);
    QList<HistoryEntry> entries;
    bool changed = false; // the index misses a file, or names one that is gone
    qsizetype fromIndex = 0;
    for (const QFileInfo &file : files) {
        const QString id = file.completeBaseName();
        if (!isRunId(id))
            continue;
        const auto it = cached.constFind(id);
        if (it != cached.cend() && it->fileBytes == file.size()) {
            entries.append(*it);
            ++fromIndex;
            continue;
        }
        entries.append(readEntry(id, file.size()));
        changed = true;
    }
    changed = changed || fromIndex != cached.size();
    // Newest first: ids sort by time.
    std::sort(entries.begin(), entries.end(), [](const HistoryEntry &a, const HistoryEntry &b) { return a.id > b.id; });
    m_entries = entries;
    if (changed)
        writeIndex();
}

void RunHistory::writeIndex() const
{
    QJsonArray runs;
    for (const HistoryEntry &e : m_entries)
        runs.append(entryJson(e));
    const QJsonObject o{{QStringLiteral("format"), kIndexFormat},
                        {QStringLiteral("version"), kFormatVersion},
                        {QStringLiteral("runs"), runs}};
    // A cache: when it cannot be written the next listing reads the run files again.
    writeAtomically(QDir(m_directory).filePath(kIndexFile), QJsonDocument(o).toJson(QJsonDocument::Compact), nullptr);
}

bool RunHistory::load(const QString &id, HistoryRun *out, QString *error) const
{
    if (!isRunId(id))
        return json::fail(error, printable(id, 64), QStringLiteral("not a run of the history"));
    QByteArray bytes;
    if (!readBytes(runPath(id), kMaxRunFileBytes, &bytes, error) || !decode(bytes, out, error))
        return json::fail(error, QDir::toNativeSeparators(runPath(id)), error ? *error : QString());
    out->entry.id = id;
    out->entry.fileBytes = bytes.size();
    return true;
}

bool RunHistory::remove(const QStringList &ids, QString *error)
{
    bool allOk = true;
    for (const QString &id : ids) {
        if (!isRunId(id)) {
            allOk = allOk && json::fail(error, printable(id, 64), QStringLiteral("not a run of the history"));
            continue;
        }
        QFile file(runPath(id));
        if (file.exists() && !file.remove())
            allOk = allOk && json::fail(error, QDir::toNativeSeparators(runPath(id)), file.errorString());
    }
    refresh();
    writeIndex();
    return allOk;
}

bool RunHistory::setLabel(const QString &id, const QString &label, QString *error)
{
    HistoryRun run;
    if (!load(id, &run, error))
        return false;
    run.entry.label = printable(label.trimmed(), int(kMaxLabelLength));
    if (!writeAtomically(runPath(id), encode(run), error))
        return false;
    refresh();
    return true;
}

QStringList RunHistory::prune(const QString &keep)
{
    QList<HistoryEntry> oldestFirst = m_entries;
    std::reverse(oldestFirst.begin(), oldestFirst.end());
    qint64 bytes = totalBytes();
    qsizetype count = oldestFirst.size();
    QStringList removed;
    for (const HistoryEntry &e : std::as_const(oldestFirst)) {
        if (count <= m_limits.maxRuns && bytes <= m_limits.maxBytes)
            break;
        if (e.id == keep)
            continue;
        if (!QFile::remove(runPath(e.id)) && QFileInfo::exists(runPath(e.id)))
            continue; // still there: it still counts
        removed << e.id;
        --count;
        bytes -= e.fileBytes;
    }
    if (!removed.isEmpty()) {
        m_entries.erase(std::remove_if(m_entries.begin(), m_entries.end(),
                                       [&removed](const HistoryEntry &e) { return removed.contains(e.id); }),
                        m_entries.end());
        writeIndex();
    }
    return removed;
}

} // namespace nb
