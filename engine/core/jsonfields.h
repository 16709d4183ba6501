// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one way the engine reads JSON fields (results, snapshots, CPU samples, host and
// adapter descriptions, comparison specs, test parameters). Each reader checks presence,
// type and range and, on failure, writes "where: what" to *error and returns false.
// How strict it is depends on Need:
// - Required: absent is an error;
// - Optional: absent keeps the caller's default, present is still type- and range-checked;
// - Tolerant: for documents other programs write (stock iperf3 -J of many versions, which
//   leaves out, nulls or prints unsigned what it does not know): absent, null, mistyped or
//   out-of-range keeps the default and is no error; a fraction where an integer belongs is
//   truncated.
// A flat value type can list its fields once in a Field table that drives both writing
// (writeFields) and reading (readFields).

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <variant>

namespace nb::json {

enum class Need { Required, Optional, Tolerant };

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

// A present value that is unusable: an error, except in Tolerant mode.
inline bool reject(Need need, QString *error, const QString &where, const QString &key, const QString &what)
{
    return need == Need::Tolerant || fail(error, path(where, key), what);
}

// The value at `key` when it is there and of `type`. Otherwise nothing, and *ok says whether
// that is fine under `need`: absent is an error only when Required, mistyped unless Tolerant.
inline std::optional<QJsonValue> typed(const QJsonObject &o, const QString &key, QJsonValue::Type type,
                                       const QString &typeError, Need need, const QString &where, QString *error,
                                       bool *ok)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined())
        *ok = need != Need::Required || fail(error, path(where, key), QStringLiteral("missing"));
    else if (v.type() != type)
        *ok = reject(need, error, where, key, typeError);
    else
        return v;
    return std::nullopt;
}

inline bool readString(const QJsonObject &o, const QString &key, QString *out, const QString &where, QString *error,
                       Need need = Need::Optional, qsizetype maxLength = 1 << 20)
{
    bool ok = true;
    const auto v = typed(o, key, QJsonValue::String, QStringLiteral("must be a string"), need, where, error, &ok);
    if (!v)
        return ok;
    if (v->toString().size() > maxLength)
        return reject(need, error, where, key, QStringLiteral("string too long"));
    *out = v->toString();
    return true;
}

inline bool readDouble(const QJsonObject &o, const QString &key, double *out, const QString &where, QString *error,
                       Need need = Need::Optional, double min = -1e300, double max = 1e300)
{
    bool ok = true;
    const auto v = typed(o, key, QJsonValue::Double, QStringLiteral("must be a number"), need, where, error, &ok);
    if (!v)
        return ok;
    const double d = v->toDouble();
    if (!std::isfinite(d) || d < min || d > max)
        return reject(need, error, where, key, QStringLiteral("%1 is out of range [%2, %3]").arg(d).arg(min).arg(max));
    *out = d;
    return true;
}

inline bool readInt(const QJsonObject &o, const QString &key, int *out, const QString &where, QString *error,
                    Need need = Need::Optional, int min = 0, int max = 1 << 30)
{
    double d = *out;
    if (!readDouble(o, key, &d, where, error, need, min, max))
        return false;
    if (d != std::trunc(d) && need != Need::Tolerant) // Tolerant truncates, as iperf3's own reader does
        return fail(error, path(where, key), QStringLiteral("must be an integer"));
    *out = int(d);
    return true;
}

// Byte counts and other 64-bit figures. JSON numbers are doubles, so max stays below 2^63;
// a C program that prints -1 unsigned (iperf3 3.12) gives 2^64-1, which is out of range.
inline bool readInt64(const QJsonObject &o, const QString &key, std::int64_t *out, const QString &where, QString *error,
                      Need need = Need::Optional, double min = 0, double max = 9.2e18)
{
    double d = double(*out);
    if (!readDouble(o, key, &d, where, error, need, min, max))
        return false;
    if (d != std::trunc(d) && need != Need::Tolerant) // Tolerant truncates, as iperf3's own reader does
        return fail(error, path(where, key), QStringLiteral("must be an integer"));
    *out = std::int64_t(d);
    return true;
}

inline bool readBool(const QJsonObject &o, const QString &key, bool *out, const QString &where, QString *error,
                     Need need = Need::Optional)
{
    bool ok = true;
    const auto v = typed(o, key, QJsonValue::Bool, QStringLiteral("must be true or false"), need, where, error, &ok);
    if (!v)
        return ok;
    *out = v->toBool();
    return true;
}

inline bool readObject(const QJsonObject &o, const QString &key, QJsonObject *out, const QString &where, QString *error,
                       Need need = Need::Optional)
{
    bool ok = true;
    const auto v = typed(o, key, QJsonValue::Object, QStringLiteral("must be an object"), need, where, error, &ok);
    if (!v)
        return ok;
    *out = v->toObject();
    return true;
}

inline bool readArray(const QJsonObject &o, const QString &key, QJsonArray *out, const QString &where, QString *error,
                      Need need = Need::Optional, qsizetype maxSize = 1 << 20)
{
    bool ok = true;
    const auto v = typed(o, key, QJsonValue::Array, QStringLiteral("must be an array"), need, where, error, &ok);
    if (!v)
        return ok;
    const QJsonArray a = v->toArray();
    if (a.size() > maxSize)
        return reject(need, error, where, key,
                      QStringLiteral("has %1 entries, more than the %2 allowed").arg(a.size()).arg(maxSize));
    *out = a;
    return true;
}

// A field of a document other programs write, read with Need::Tolerant: its value when it
// has the right type and range, otherwise `fallback`. T is QString, bool, int, double,
// std::int64_t, QJsonObject or QJsonArray.
template <class T> T valueOr(const QJsonObject &o, const QString &key, T fallback)
{
    T v = fallback;
    if constexpr (std::is_same_v<T, QString>)
        readString(o, key, &v, QString(), nullptr, Need::Tolerant);
    else if constexpr (std::is_same_v<T, bool>)
        readBool(o, key, &v, QString(), nullptr, Need::Tolerant);
    else if constexpr (std::is_same_v<T, int>)
        readInt(o, key, &v, QString(), nullptr, Need::Tolerant, -2147483647 - 1, 2147483647);
    else if constexpr (std::is_same_v<T, double>)
        readDouble(o, key, &v, QString(), nullptr, Need::Tolerant);
    else if constexpr (std::is_same_v<T, std::int64_t>)
        readInt64(o, key, &v, QString(), nullptr, Need::Tolerant, -9.2e18);
    else if constexpr (std::is_same_v<T, QJsonObject>)
        readObject(o, key, &v, QString(), nullptr, Need::Tolerant);
    else
        readArray(o, key, &v, QString(), nullptr, Need::Tolerant);
    return v;
}

// Reads every element of an array of objects with `read(object, &item, &error)`, which
// returns false with an error; a failure is reported as "where[i]: error".
template <class T, class Read>
bool readObjects(const QJsonArray &array, QList<T> *out, const QString &where, QString *error, Read read)
{
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString at = QStringLiteral("%1[%2]").arg(where).arg(i);
        if (!array[i].isObject())
            return fail(error, at, QStringLiteral("must be an object"));
        T item;
        QString e;
        if (!read(array[i].toObject(), &item, &e))
            return fail(error, at, e);
        out->append(item);
    }
    return true;
}

// One row of a flat value type's field table: the JSON key, the member, and how reading
// checks it. Numbers take [min, max]; strings take max as their length limit.
template <class T> struct Field {
    const char *key;
    std::variant<QString T::*, bool T::*, int T::*, double T::*, std::int64_t T::*> member;
    Need need = Need::Optional;
    double min = -1e300;
    double max = 1e300;
};

// A table is a static array of rows, passed as a span.
template <class T> using Fields = std::span<const Field<T>>;

template <class T> void writeFields(const T &value, std::type_identity_t<Fields<T>> fields, QJsonObject *o)
{
    for (const Field<T> &f : fields) {
        std::visit(
            [&](auto member) {
                using V = std::remove_cvref_t<decltype(value.*member)>;
                if constexpr (std::is_same_v<V, std::int64_t>)
                    o->insert(QLatin1String(f.key), double(value.*member));
                else
                    o->insert(QLatin1String(f.key), value.*member);
            },
            f.member);
    }
}

template <class T>
bool readFields(const QJsonObject &o, T *value, std::type_identity_t<Fields<T>> fields, const QString &where,
                QString *error)
{
    for (const Field<T> &f : fields) {
        const QString key = QLatin1String(f.key);
        const bool ok = std::visit(
            [&](auto member) {
                auto *target = &(value->*member);
                using V = std::remove_cvref_t<decltype(*target)>;
                if constexpr (std::is_same_v<V, QString>)
                    return readString(o, key, target, where, error, f.need,
                                      f.max < 1e300 ? qsizetype(f.max) : qsizetype(1) << 20);
                else if constexpr (std::is_same_v<V, bool>)
                    return readBool(o, key, target, where, error, f.need);
                else if constexpr (std::is_same_v<V, int>)
                    return readInt(o, key, target, where, error, f.need, int(std::max(f.min, -2147483648.0)),
                                   int(std::min(f.max, 2147483647.0)));
                else if constexpr (std::is_same_v<V, double>)
                    return readDouble(o, key, target, where, error, f.need, f.min, f.max);
                else
                    return readInt64(o, key, target, where, error, f.need, std::max(f.min, -9.2e18),
                                     std::min(f.max, 9.2e18));
            },
            f.member);
        if (!ok)
            return false;
    }
    return true;
}

// A group of fields that is present entirely or not at all (a CPU sample's system figures,
// say): none present sets *present to false; some but not all is "incomplete" (a corrupt
// or truncated writer); all are read as the table says.
template <class T>
bool readFieldGroup(const QJsonObject &o, T *value, std::type_identity_t<Fields<T>> fields, const QString &where,
                    QString *error, bool *present)
{
    const auto found = std::count_if(fields.begin(), fields.end(),
                                     [&o](const Field<T> &f) { return o.contains(QLatin1String(f.key)); });
    *present = found == qsizetype(fields.size());
    if (found == 0)
        return true;
    if (!*present)
        return fail(error, where, QStringLiteral("incomplete figures"));
    return readFields(o, value, fields, where, error);
}

} // namespace nb::json
