// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The .nicbench snapshot file: one versioned JSON document holding a whole comparison
// (configurations, every run with its full result, order, environment, warnings) plus the
// statistics computed from it. Optionally gzip-compressed; recognised by its magic bytes
// on load. Layout and version history: docs/snapshot-format.md.
//
// Loading treats the file as hostile: size caps before and after decompression, strict
// type and range checks, bounded array sizes, and Qt's JSON parser nesting limit. Anything
// wrong gives a one-line error naming the offending field; nothing crashes or hangs.

#include "compare/comparison.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace nb {

enum class SnapshotCompression { Auto, None, Gzip }; // Auto: gzip when the path ends in ".gz"

struct SnapshotSaveOptions {
    SnapshotCompression compression = SnapshotCompression::Auto;
    // For tests: abandon the write half-way, as a full disk would, to show that the
    // previous file survives.
    bool simulateWriteFailure = false;
};

// What loading learnt about a file besides its content.
struct SnapshotLoadInfo {
    int version = 1; // the file's schema version (before migration)
    bool compressed = false;
    bool migrated = false;
};

class Snapshot {
public:
    // 2: configurations carry "adapter" and "variant" (version 1 files get them from
    // their labels on load, Configuration::splitLabel).
    // 3: runs may be latency-under-load tests (params "test": "loaded_latency", the phases in
    // the result's nicbench.loaded_latency, the probe's percentile summary per interval in
    // intervals[].rr) and statistics carry the loaded_* metrics. A version 2 reader would
    // take such runs for plain throughput tests, so the bump makes it refuse them instead;
    // version 1 and 2 files hold no such runs and load unchanged.
    // 4: runs may be UDP tests (-u, -u --rr): params carry "udp" (and a stream's "bitrate",
    // "pacing_timer_us", "udp_counters_64bit"; UDP request/response's "udp_rr_timeout_ms"),
    // intervals and streams their UDP figures, and statistics the udp_* metrics. Version 3
    // and older params never held the UDP flag: on load a run with UDP figures (datagram
    // counts in its streams, or UDP request/response's lost requests) gets it back, and so
    // does a configuration whose runs all have it.
    static constexpr int kFormatVersion = 4;
    static constexpr qint64 kMaxFileBytes = qint64(64) * 1024 * 1024; // as stored
    static constexpr qint64 kMaxJsonBytes = qint64(64) * 1024 * 1024; // after gunzip
    static constexpr int kMaxConfigurations = 1024;
    static constexpr int kMaxRuns = 100000;
    // Latency histogram buckets kept for a whole file (each histogram keeps those from its
    // lowest to its highest used one): 64 MiB of counts at most.
    static constexpr std::int64_t kMaxHistogramBuckets = std::int64_t(8) * 1024 * 1024;

    // The document (with a "statistics" object computed from the runs).
    static QJsonObject toJson(const Comparison &comparison);
    // Accepts version 4, 3, 2 and 1 objects and version 0 documents (a bare array of -J results, or a
    // single -J result); validates everything.
    static bool fromJson(const QJsonValue &document, Comparison *out, QString *error, SnapshotLoadInfo *info = nullptr);

    static QByteArray encode(const Comparison &comparison, bool gzip);
    static bool decode(const QByteArray &bytes, Comparison *out, QString *error, SnapshotLoadInfo *info = nullptr,
                       qint64 maxJsonBytes = kMaxJsonBytes);

    // Atomic: writes a temporary file next to `path` and renames it over `path` only when
    // everything was written, so a failed save leaves the previous file untouched.
    static bool save(const Comparison &comparison, const QString &path, QString *error,
                     SnapshotSaveOptions options = {});
    static bool load(const QString &path, Comparison *out, QString *error, SnapshotLoadInfo *info = nullptr);
};

} // namespace nb
