// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// gzip (RFC 1952) through zlib. Qt's qCompress writes zlib data with a length prefix, not
// gzip, so files compressed with it would not open with gunzip and vice versa.

#include <QByteArray>
#include <QString>

namespace nb {

// True when `data` starts with the gzip magic bytes 1f 8b.
bool isGzip(const QByteArray &data);

// Compresses to a single gzip member. Returns an empty array (and sets *error) only when
// zlib fails, which in practice means out of memory.
QByteArray gzipCompress(const QByteArray &data, QString *error = nullptr, int level = 6);

// Decompresses every member of a gzip stream. Fails with a clear message on a bad header,
// a corrupt or truncated stream, trailing garbage, or output beyond `maxOutputBytes`
// (stops as soon as the limit is crossed, so a gzip bomb costs at most that much memory).
bool gzipDecompress(const QByteArray &data, qint64 maxOutputBytes, QByteArray *out, QString *error);

} // namespace nb
