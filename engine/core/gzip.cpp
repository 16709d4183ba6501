// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/gzip.h"

#include <zlib.h>

#include <algorithm>

namespace nb {

namespace {

constexpr int kGzipWindowBits = 15 + 16; // 2^15 window, gzip wrapper only
constexpr qsizetype kChunk = 256 * 1024;

bool setError(QString *error, const QString &message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

bool isGzip(const QByteArray &data)
{
    return data.size() >= 2 && quint8(data[0]) == 0x1f && quint8(data[1]) == 0x8b;
}

QByteArray gzipCompress(const QByteArray &data, QString *error, int level)
{
    z_stream zs{};
    if (deflateInit2(&zs, level, Z_DEFLATED, kGzipWindowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        setError(error, QStringLiteral("gzip: cannot initialise the compressor"));
        return {};
    }
    QByteArray out;
    out.resize(qsizetype(deflateBound(&zs, uLong(data.size()))) + 64);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = uInt(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    // deflateBound() guarantees one call suffices for inputs that fit in a uInt.
    const int rc = data.size() <= qsizetype(UINT_MAX / 2) ? deflate(&zs, Z_FINISH) : Z_STREAM_ERROR;
    const qsizetype produced = qsizetype(zs.total_out);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END) {
        setError(error, QStringLiteral("gzip: compression failed"));
        return {};
    }
    out.resize(produced);
    return out;
}

bool gzipDecompress(const QByteArray &data, qint64 maxOutputBytes, QByteArray *out, QString *error)
{
    if (!isGzip(data))
        return setError(error, QStringLiteral("not gzip data (no 1f 8b signature)"));
    if (data.size() > qsizetype(UINT_MAX / 2))
        return setError(error, QStringLiteral("gzip input too large"));
    z_stream zs{};
    if (inflateInit2(&zs, kGzipWindowBits) != Z_OK)
        return setError(error, QStringLiteral("gzip: cannot initialise the decompressor"));
    QByteArray result;
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = uInt(data.size());
    bool ok = false;
    QString message;
    for (;;) {
        if (qint64(result.size()) >= maxOutputBytes + 1) {
            message = QStringLiteral("decompressed data exceeds the %1 MiB limit").arg(maxOutputBytes / (1024 * 1024));
            break;
        }
        const qsizetype room = qsizetype(std::min<qint64>(kChunk, maxOutputBytes + 1 - result.size()));
        const qsizetype before = result.size();
        if (result.capacity() < before + room)
            result.reserve(std::max(before + room, result.capacity() * 2)); // amortised growth
        result.resize(before + room);
        zs.next_out = reinterpret_cast<Bytef *>(result.data() + before);
        zs.avail_out = uInt(room);
        const int rc = inflate(&zs, Z_NO_FLUSH);
        result.resize(before + room - qsizetype(zs.avail_out));
        if (rc == Z_STREAM_END) {
            if (zs.avail_in == 0) {
                ok = true;
                break;
            }
            // Another member follows (what `cat a.gz b.gz` produces), or garbage.
            if (zs.avail_in >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b) {
                inflateReset(&zs);
                continue;
            }
            message = QStringLiteral("unexpected data after the end of the gzip stream");
            break;
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
            message = QStringLiteral("the gzip stream is truncated");
            break;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            message = QStringLiteral("corrupt gzip data (%1)")
                          .arg(zs.msg ? QString::fromLatin1(zs.msg) : QStringLiteral("zlib error %1").arg(rc));
            break;
        }
        if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) {
            message = QStringLiteral("the gzip stream is truncated");
            break;
        }
    }
    inflateEnd(&zs);
    if (!ok)
        return setError(error, message);
    *out = result;
    return true;
}

} // namespace nb
