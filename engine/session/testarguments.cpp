// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/testarguments.h"

#include "model/parameters.h"
#include "session/agentrequest.h"

#include <QJsonObject>

#include <variant>

namespace nb {

namespace {

// A flag row is given when its field holds the row's value and the default does not.
bool flagDiffers(const param::Parameter &p, const TestParams &t, const TestParams &d)
{
    return std::visit(
        [&](auto member) -> bool {
            if constexpr (std::is_same_v<decltype(member), std::monostate>) {
                return false;
            } else {
                using V = std::remove_cvref_t<decltype(t.*member)>;
                if constexpr (std::is_enum_v<V> || std::is_same_v<V, bool>) {
                    const V value = V(p.flagValue);
                    return t.*member == value && d.*member != value;
                } else {
                    return false;
                }
            }
        },
        p.field);
}

QString flagValueText(const param::Parameter &p, double value)
{
    switch (p.type) {
    case param::Type::Size:
        return param::sizeText(value);
    case param::Type::Seconds:
        return QString::number(value, 'g', 12);
    default:
        return QString::number(qulonglong(value));
    }
}

// -b: a UDP stream's rate, or the pace of a paced TCP stream; any other test has none.
bool rateGiven(const TestParams &t, const TestParams &d)
{
    return t.pacesTcp() || (t.udp && t.kind == TestKind::Stream && t.bandwidth != d.bandwidth);
}

// One row's flag and value, or nothing when the row keeps its default.
void appendRow(const param::Parameter &p, const TestParams &t, const TestParams &d, QStringList *out)
{
    const QString flag = QStringLiteral("--") + QLatin1String(p.longFlag);
    if (p.id == param::Id::Bitrate) {
        if (rateGiven(t, d))
            *out << flag << QString::number(qulonglong(t.bandwidth));
        return;
    }
    if (!param::appliesTo(p, t.kind))
        return; // -P and --connections share a field: the test's kind says which one it is
    if (p.type == param::Type::Flag) {
        if (flagDiffers(p, t, d))
            *out << flag;
    } else if (param::isNumeric(p)) {
        const double value = param::numericValue(t, p);
        if (value != param::numericValue(d, p))
            *out << flag << flagValueText(p, value);
    } else if (const auto text = std::get_if<QString TestParams::*>(&p.field)) {
        if (t.**text != d.**text)
            *out << flag << t.**text;
    }
}

} // namespace

QStringList testArguments(const TestParams &t)
{
    const TestParams d;
    QStringList out;
    for (const param::Parameter &p : param::parameters()) {
        if (travelsToAgent(p) && !std::holds_alternative<std::monostate>(p.field))
            appendRow(p, t, d, &out);
    }
    return out;
}

namespace {

// Reads `args` as nicbench-cli does and checks that they say `t`.
bool parseAndCompare(const QStringList &args, const TestParams &t, CommandLine *out, QString *error)
{
    if (!t.username.isEmpty() || !t.rsaPublicKeyPath.isEmpty()) {
        *error = QStringLiteral("--username cannot go through an agent (it has no terminal to ask for the password, "
                                "and the agent's connection is not encrypted)");
        return false;
    }
    CommandLine cl;
    if (!parseCommandLine(args, &cl, error))
        return false;
    if (cl.params.toJson() != t.toJson() || cl.params.tcpPaced != t.tcpPaced) {
        *error = QStringLiteral("these settings cannot be sent to an agent as flags (%1)")
                     .arg(testArguments(t).join(QLatin1Char(' ')));
        return false;
    }
    *out = cl;
    return true;
}

} // namespace

bool givenOptions(const TestParams &t, QList<GivenOption> *out, QString *error)
{
    CommandLine cl;
    if (!parseAndCompare(QStringList{QStringLiteral("-c"), t.host} + testArguments(t), t, &cl, error))
        return false;
    out->clear();
    for (const GivenOption &g : std::as_const(cl.given)) {
        if (travelsToAgent(param::parameter(g.id)))
            out->append(g);
    }
    return true;
}

bool agentCommandLine(const TestParams &t, const QString &from, const QString &keyPath, CommandLine *out,
                      QString *error)
{
    return parseAndCompare(QStringList{QStringLiteral("-c"), t.host, QStringLiteral("--from"), from,
                                       QStringLiteral("--agent-key"), keyPath} +
                               testArguments(t),
                           t, out, error);
}

} // namespace nb
