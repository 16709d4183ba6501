// SPDX-License-Identifier: GPL-3.0-or-later
// Values through the parameter table: a row's TestParams member read and written, whether a
// row applies to a test kind, and the range checks.
#include "model/parameters.h"

#include <QJsonValue>

#include <algorithm>
#include <cmath>

namespace nb::param {

namespace {

unsigned kindBit(TestKind k)
{
    switch (k) {
    case TestKind::Stream:
        break;
    case TestKind::Rr:
        return Rr;
    case TestKind::Crr:
        return Crr;
    case TestKind::LoadedLatency:
        return LoadedLatency;
    }
    return Stream;
}

bool writtenFor(const Parameter &p, const TestParams &t)
{
    switch (p.written) {
    case Written::Always:
        return true;
    case Written::ForKinds:
        return p.kinds & kindBit(t.kind);
    case Written::WhenSet:
        if (const auto text = std::get_if<QString TestParams::*>(&p.field))
            return !(t.**text).isEmpty();
        if (const auto flag = std::get_if<bool TestParams::*>(&p.field))
            return t.**flag;
        return true;
    case Written::Udp:
        return t.udp;
    case Written::UdpStream:
        return t.udp && t.kind == TestKind::Stream;
    case Written::UdpRr:
        return t.udp && t.kind == TestKind::Rr;
    case Written::Rated:
        return (t.udp && t.kind == TestKind::Stream) || t.pacesTcp();
    case Written::RequestResponse:
        return t.isRequestResponse();
    }
    return false;
}

// A row's value as JSON: whole numbers for integer fields, text, flags; nothing for the
// enumerations, which paramsJson names.
QJsonValue jsonValue(const Parameter &p, const TestParams &t)
{
    return std::visit(
        [&t](auto member) -> QJsonValue {
            using M = decltype(member);
            if constexpr (std::is_same_v<M, std::monostate>) {
                return QJsonValue::Undefined;
            } else {
                using V = std::remove_cvref_t<decltype(t.*member)>;
                if constexpr (std::is_same_v<V, bool> || std::is_same_v<V, QString>)
                    return QJsonValue(t.*member);
                else if constexpr (std::is_integral_v<V>)
                    return QJsonValue(qint64(t.*member));
                else if constexpr (std::is_floating_point_v<V>)
                    return QJsonValue(double(t.*member));
                else
                    return QJsonValue::Undefined;
            }
        },
        p.field);
}

} // namespace

QJsonObject paramsJson(const TestParams &t)
{
    QJsonObject o;
    for (const Parameter &p : parameters()) {
        if (!p.jsonKey || !writtenFor(p, t))
            continue;
        const QString key = QLatin1String(p.jsonKey);
        if (const QJsonValue v = jsonValue(p, t); !v.isUndefined() && !o.contains(key))
            o.insert(key, v);
    }
    o.insert(QStringLiteral("family"), t.family == AddressFamily::IPv4   ? QStringLiteral("ipv4")
                                       : t.family == AddressFamily::IPv6 ? QStringLiteral("ipv6")
                                                                         : QStringLiteral("any"));
    o.insert(QStringLiteral("direction"), directionName(t.direction));
    o.insert(QStringLiteral("peer_protocol"),
             t.protocol == PeerProtocol::Iperf2 ? QStringLiteral("iperf2") : QStringLiteral("iperf3"));
    o.insert(QStringLiteral("kind"), testKindName(t.kind));
    return o;
}

bool isNumeric(const Parameter &p)
{
    return p.type == Type::Int || p.type == Type::Size || p.type == Type::Seconds || p.type == Type::Rate;
}

double numericValue(const TestParams &t, const Parameter &p)
{
    return std::visit(
               [&t](auto member) -> double {
                   using M = decltype(member);
                   if constexpr (std::is_same_v<M, std::monostate>) {
                       return 0;
                   } else {
                       using V = std::remove_cvref_t<decltype(t.*member)>;
                       if constexpr (std::is_arithmetic_v<V>)
                           return double(t.*member);
                       else
                           return 0;
                   }
               },
               p.field) /
           p.scale;
}

void setNumericValue(TestParams *t, const Parameter &p, double value)
{
    const double stored = value * p.scale;
    std::visit(
        [t, stored](auto member) {
            if constexpr (!std::is_same_v<decltype(member), std::monostate>) {
                using V = std::remove_cvref_t<decltype(t->*member)>;
                if constexpr (std::is_floating_point_v<V>)
                    t->*member = stored;
                else if constexpr (std::is_same_v<V, bool>)
                    t->*member = stored != 0;
                else if constexpr (std::is_integral_v<V>) // all counts are >= 0, range-checked before
                    t->*member = V(std::uint64_t(std::max(0.0, std::round(stored))));
            }
        },
        p.field);
}

void setFlag(TestParams *t, const Parameter &p)
{
    std::visit(
        [t, &p](auto member) {
            if constexpr (!std::is_same_v<decltype(member), std::monostate>) {
                using V = std::remove_cvref_t<decltype(t->*member)>;
                if constexpr (std::is_enum_v<V>)
                    t->*member = V(p.flagValue);
                else if constexpr (std::is_same_v<V, bool>)
                    t->*member = p.flagValue != 0;
            }
        },
        p.field);
}

void setText(TestParams *t, const Parameter &p, const QString &value)
{
    if (auto member = std::get_if<QString TestParams::*>(&p.field))
        t->**member = value;
}

bool inRange(const Parameter &p, double value)
{
    return (p.zeroIsNone && value == 0) || (value >= p.min && value <= p.max);
}

bool appliesTo(const Parameter &p, TestKind kind)
{
    if (p.kinds & kindBit(kind))
        return true;
    return std::ranges::none_of(
        parameters(), [&](const Parameter &q) { return &q != &p && q.field == p.field && (q.kinds & kindBit(kind)); });
}

QString checkRanges(const TestParams &t)
{
    const unsigned kind = kindBit(t.kind);
    for (const Parameter &p : parameters()) {
        if (!isNumeric(p) || !(p.kinds & kind) || std::holds_alternative<std::monostate>(p.field))
            continue;
        const double v = numericValue(t, p);
        if (!inRange(p, v))
            return QStringLiteral("%1 (%2) must be %3%4%5")
                .arg(QString::fromLatin1(p.help).section(QLatin1Char(';'), 0, 0), flagName(p),
                     p.zeroIsNone ? QStringLiteral("0 or ") : QString(), rangeText(p),
                     *p.unit == 's' ? QStringLiteral(" seconds") : QString());
    }
    return {};
}

} // namespace nb::param
