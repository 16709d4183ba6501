// SPDX-License-Identifier: GPL-3.0-or-later
// The snapshot loader: the bytes of a .nicbench file (plain JSON or gzip) through
// Snapshot::decode, as Snapshot::load reads them. The decompressed size cap is lowered to
// 8 MiB so a gzip bomb costs the fuzzer little; the code path is the same. A snapshot it
// accepts must save and load again (a save that cannot be reopened loses the comparison).
//
// An input that starts with 'H' is one latency histogram's JSON instead (the reader deep
// inside a snapshot's RR results, corpus files histogram-*), read under a bucket budget as
// a snapshot reads it: one it accepts must report within its min and max, survive a merge
// and a record, and read back to the same figures. One target for both keeps the CI fuzz
// stage's time (60 s a target).

#include "compare/snapshot.h"
#include "core/latencyhistogram.h"

#include <QJsonDocument>

#include <cstdio>
#include <cstdlib>

using namespace nb;

namespace {

[[noreturn]] void failed(const char *what)
{
    std::fprintf(stderr, "latency histogram: %s\n", what);
    std::abort();
}

void histogram(const QByteArray &text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(text);
    if (!doc.isObject())
        return;
    LatencyHistogram h;
    QString err;
    {
        const LatencyHistogram::ReadBudget budget(4096);
        if (!LatencyHistogram::fromJson(doc.object(), &h, &err))
            return;
    }
    const LatencySummary s = h.summary();
    if (h.count() > 0 && (s.p50 * 1000 < double(h.min()) - 1 || s.p999 * 1000 > double(h.max()) + 1))
        failed("a percentile outside min and max");
    LatencyHistogram again;
    if (!LatencyHistogram::fromJson(h.toJson(), &again, &err) || !(again.summary() == s))
        failed("does not read back to the same figures");
    LatencyHistogram merged = h;
    merged.merge(again);
    merged.record(h.max() + 1);
    merged.record(0);
    if (merged.count() != h.count() * 2 + 2)
        failed("a merge lost samples");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    if (bytes.startsWith('H')) {
        histogram(bytes.mid(1));
        return 0;
    }
    Comparison comparison;
    QString err;
    SnapshotLoadInfo info;
    if (!Snapshot::decode(bytes, &comparison, &err, &info, qint64(8) * 1024 * 1024))
        return 0;
    Comparison again;
    if (!Snapshot::decode(Snapshot::encode(comparison, info.compressed), &again, &err)) {
        std::fprintf(stderr, "reloading a saved snapshot failed: %s\n", qPrintable(err));
        std::abort();
    }
    return 0;
}
