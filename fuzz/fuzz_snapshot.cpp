// SPDX-License-Identifier: GPL-3.0-or-later
// The snapshot loader: the bytes of a .nicbench file (plain JSON or gzip) through
// Snapshot::decode, as Snapshot::load reads them. The decompressed size cap is lowered to
// 8 MiB so a gzip bomb costs the fuzzer little; the code path is the same. A snapshot it
// accepts must save and load again (a save that cannot be reopened loses the comparison).

#include "compare/snapshot.h"

#include <cstdio>
#include <cstdlib>

using namespace nb;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
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
