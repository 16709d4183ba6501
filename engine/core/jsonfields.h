// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Strict readers for fields of untrusted JSON (snapshots, comparison specs): each checks
// presence, type and range and, on failure, writes "where: what" to *error and returns
// false. Optional fields keep the caller's default when absent but are still type-checked.

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cmath>

namespace nb::json {

enum class Need { Required, Optional };

inline bool fail(QString *error, const QString &where, const QString &what)
{
    if (error)
        *error = where.isEmpty() ? what : QStringLiteral("%1: %2").arg(where, what);
    return false;
}

inline QString path(const QString &where, const QString &key)
{
    return where.isEmpty() ? key : QStringLiteral("%1.%2").arg(where, key);
}

inline bool readString(const QJsonObject &o, const QString &key, QString *out, const QString &where, QString *error,
                       Need need = Need::Optional, qsizetype maxLength = 1 << 20)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        return need == Need::Optional || fail(error, path(where, key), QStringLiteral("missing"));
    if (!v.isString())
        return fail(error, path(where, key), QStringLiteral("must be a string"));
    if (v.toString().size() > maxLength)
        return fail(error, path(where, key), QStringLiteral("string too long"));
    *out = v.toString();
    return true;
}

inline bool readDouble(const QJsonObject &o, const QString &key, double *out, const QString &where, QString *error,
                       Need need = Need::Optional, double min = -1e300, double max = 1e300)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        return need == Need::Optional || fail(error, path(where, key), QStringLiteral("missing"));
    if (!v.isDouble())
        return fail(error, path(where, key), QStringLiteral("must be a number"));
    const double d = v.toDouble();
    if (!std::isfinite(d) || d < min || d > max)
        return fail(error, path(where, key), QStringLiteral("%1 is out of range [%2, %3]").arg(d).arg(min).arg(max));
    *out = d;
    return true;
}

inline bool readInt(const QJsonObject &o, const QString &key, int *out, const QString &where, QString *error,
                    Need need = Need::Optional, int min = 0, int max = 1 << 30)
{
    double d = *out;
    if (!readDouble(o, key, &d, where, error, need, min, max))
        return false;
    if (d != std::floor(d))
        return fail(error, path(where, key), QStringLiteral("must be an integer"));
    *out = int(d);
    return true;
}

inline bool readBool(const QJsonObject &o, const QString &key, bool *out, const QString &where, QString *error,
                     Need need = Need::Optional)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        return need == Need::Optional || fail(error, path(where, key), QStringLiteral("missing"));
    if (!v.isBool())
        return fail(error, path(where, key), QStringLiteral("must be true or false"));
    *out = v.toBool();
    return true;
}

inline bool readObject(const QJsonObject &o, const QString &key, QJsonObject *out, const QString &where,
                       QString *error, Need need = Need::Optional)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        return need == Need::Optional || fail(error, path(where, key), QStringLiteral("missing"));
    if (!v.isObject())
        return fail(error, path(where, key), QStringLiteral("must be an object"));
    *out = v.toObject();
    return true;
}

inline bool readArray(const QJsonObject &o, const QString &key, QJsonArray *out, const QString &where, QString *error,
                      Need need = Need::Optional, qsizetype maxSize = 1 << 20)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        return need == Need::Optional || fail(error, path(where, key), QStringLiteral("missing"));
    if (!v.isArray())
        return fail(error, path(where, key), QStringLiteral("must be an array"));
    const QJsonArray a = v.toArray();
    if (a.size() > maxSize)
        return fail(error, path(where, key), QStringLiteral("has %1 entries, more than the %2 allowed")
                                                 .arg(a.size()).arg(maxSize));
    *out = a;
    return true;
}

} // namespace nb::json
