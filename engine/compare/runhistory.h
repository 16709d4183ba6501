// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run history: every test the window finished (success, or failure with its reason),
// kept on disk so it can be listed, reopened, deleted, compared and added to comparisons.
// One JSON file per run in one folder (the window uses QStandardPaths::AppDataLocation +
// "/history"), each written whole with QSaveFile, plus index.json, a cache of what the list
// shows so listing 500 runs reads one small file. The files are the truth: a run file the
// index does not know (another window wrote it, the index was lost) is read and added, an
// index entry without its file is dropped. Bounded: after every addition the oldest runs
// beyond HistoryLimits are deleted, never the one just added. Format: docs/run-history.md.
//
// Files are read as hostile input (size caps, strict checks through TestResult::fromJson);
// an unreadable run file is listed as such, so it can be deleted and counts for the limits.
// No Qt Widgets: the window's History view (app/gui/historyview) shows this.

#include "model/results.h"
#include "platform/hostenvironment.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace nb {

// What the list of past runs shows of one run, without its results.
struct HistoryEntry {
    QString id;           // the file name without ".json": "20261205T031200123Z-3f2a" (UTC; sorts by time)
    QDateTime finishedAt; // UTC
    QString label;        // the user's name for the run ("E1000 guest"); "" when none
    QString kind;         // runKindLabel: "TCP upload P=4", "TCP upload P=1 + TCP_RR"
    QString headline;     // runHeadline: "9.41 Gbit/s", "failed: connection refused"
    QString adapter;      // runAdapterLabel: "ens192 (vmxnet3)"
    QString target;       // runTargetLabel: "198.18.1.2:5201"
    bool ok = true;       // every test of the run succeeded
    bool readable = true; // false: the run file did not read (headline says why)
    qint64 fileBytes = 0;

    bool operator==(const HistoryEntry &) const = default;
};

// One stored run: its entry, this machine as it was (no adapter list: each result names the
// adapter that carried it) and the results (one test, or two for throughput + request/response).
struct HistoryRun {
    HistoryEntry entry;
    HostEnvironment host;
    QList<TestResult> results;
};

struct HistoryLimits {
    int maxRuns = 500;
    qint64 maxBytes = qint64(256) * 1024 * 1024;
};

class RunHistory {
public:
    static constexpr int kFormatVersion = 1;
    static constexpr qint64 kMaxRunFileBytes = qint64(64) * 1024 * 1024;
    static constexpr qint64 kMaxIndexBytes = qint64(16) * 1024 * 1024;
    static constexpr int kMaxResultsPerRun = 16;

    explicit RunHistory(const QString &directory, HistoryLimits limits = {});

    QString directory() const { return m_directory; }
    HistoryLimits limits() const { return m_limits; }
    void setLimits(HistoryLimits limits) { m_limits = limits; }

    // Stores a finished run (finishedAt invalid: now) and deletes the oldest runs beyond the
    // limits, never this one. False with *error when it could not be written (the folder
    // is not writable, the disk is full); nothing half-written is left.
    bool add(const QList<TestResult> &results, const HostEnvironment &host, HistoryEntry *added, QString *error,
             const QDateTime &finishedAt = {});
    // Every run, newest first (the folder and the index reconciled).
    QList<HistoryEntry> entries();
    // Runs and bytes on disk, as of the last entries() or add().
    int runCount() const { return int(m_entries.size()); }
    qint64 totalBytes() const;

    bool load(const QString &id, HistoryRun *out, QString *error) const;
    // Deletes the runs; tries them all and reports the first failure.
    bool remove(const QStringList &ids, QString *error);
    // Names a run ("" removes the name); rewrites its file atomically.
    bool setLabel(const QString &id, const QString &label, QString *error);
    // Deletes the oldest runs while there are more than maxRuns or more than maxBytes,
    // never `keep`. Returns the ids deleted.
    QStringList prune(const QString &keep = {});

    // The run file's bytes, and reading them back (with the entry's fields filled from the
    // results); for tests and for the index rebuild.
    static QByteArray encode(const HistoryRun &run);
    static bool decode(const QByteArray &bytes, HistoryRun *out, QString *error);
    // The entry fields that come from the results (kind, headline, adapter, target, ok).
    static void describe(HistoryRun *run);
    static bool isRunId(const QString &id);

private:
    QString runPath(const QString &id) const;
    QString newId(const QDateTime &finishedAt) const;
    void refresh();
    void readIndex(QHash<QString, HistoryEntry> *cached) const;
    void writeIndex() const;
    HistoryEntry readEntry(const QString &id, qint64 bytes) const;

    QString m_directory;
    HistoryLimits m_limits;
    QList<HistoryEntry> m_entries; // newest first
};

} // namespace nb
