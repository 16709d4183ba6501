// SPDX-License-Identifier: GPL-3.0-or-later
// The results parser: an iperf3 -J document (ours or a stock iperf3's) read by
// iperf3json::fromJson, as `--compare` inputs and version 0 snapshots are. A document it
// accepts must survive what NicBench does with it next: written out again (-J, snapshots)
// and read back.

#include "model/iperf3json.h"
#include "model/results.h"

#include <QJsonDocument>

#include <cstdio>
#include <cstdlib>

using namespace nb;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (!doc.isObject())
        return 0;
    TestResult result;
    QString err;
    if (!iperf3json::fromJson(doc.object(), &result, &err))
        return 0;
    (void)result.sum(true);
    (void)result.sum(false);
    (void)result.bytesDelivered();
    TestResult again;
    if (!iperf3json::fromJson(iperf3json::toJson(result), &again, &err)) {
        // A result we accepted and then wrote is one we cannot read back: lost data.
        std::fprintf(stderr, "re-reading a written result failed: %s\n", qPrintable(err));
        std::abort();
    }
    return 0;
}
