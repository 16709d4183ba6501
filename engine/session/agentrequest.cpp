// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/agentrequest.h"

#include "core/sanitize.h"
#include "protocol/agentwire.h"

#include <QJsonArray>

namespace nb {

namespace {

const param::Parameter *rowByName(const QString &name)
{
    for (const param::Parameter &p : param::parameters())
        if (QLatin1String(p.longFlag) == name)
            return &p;
    return nullptr;
}

// One [name, value] pair of the request as command-line arguments.
bool appendOption(const QJsonValue &v, QStringList *args, QString *error)
{
    const QJsonArray pair = v.toArray();
    const QString name = pair.at(0).toString();
    const param::Parameter *p = rowByName(name);
    if (!v.isArray() || pair.size() != 2 || name.isEmpty() || !p || !travelsToAgent(*p)) {
        *error = QStringLiteral("the option '%1' is not a test parameter an agent takes").arg(printable(name, 60));
        return false;
    }
    args->append(QStringLiteral("--") + name);
    if (!p->valueName) {
        if (pair.at(1) != QJsonValue(true)) {
            *error = QStringLiteral("--%1 takes no value").arg(name);
            return false;
        }
        return true;
    }
    if (!pair.at(1).isString() || pair.at(1).toString().size() > MaxAgentOptionChars) {
        *error =
            QStringLiteral("--%1 needs a value as text of at most %2 characters").arg(name).arg(MaxAgentOptionChars);
        return false;
    }
    args->append(pair.at(1).toString());
    return true;
}

} // namespace

bool travelsToAgent(const param::Parameter &p)
{
    return p.kinds != param::NoKind && p.id != param::Id::Client && p.id != param::Id::Username &&
           p.id != param::Id::RsaPublicKeyPath;
}

QJsonObject agentRequestJson(const CommandLine &cl, const QString &controllerHost)
{
    QJsonArray options;
    for (const GivenOption &g : cl.given) {
        const param::Parameter &p = param::parameter(g.id);
        if (travelsToAgent(p))
            options.append(QJsonArray{QLatin1String(p.longFlag), p.valueName ? QJsonValue(g.value) : QJsonValue(true)});
    }
    return QJsonObject{{QStringLiteral("type"), QLatin1String(proto::agent::message::Run)},
                       {QStringLiteral("version"), QStringLiteral(NICBENCH_VERSION)},
                       {QStringLiteral("target"), cl.params.host},
                       {QStringLiteral("options"), options},
                       {QStringLiteral("controller_host"), controllerHost}};
}

bool testFromAgentRequest(const QJsonObject &request, TestParams *out, QString *error)
{
    const QString target = request.value(QStringLiteral("target")).toString();
    const QJsonArray options = request.value(QStringLiteral("options")).toArray();
    if (target.isEmpty() || target.size() > 255 || target.startsWith(QLatin1Char('-'))) {
        *error = QStringLiteral("the request names no host to test toward");
        return false;
    }
    if (options.size() > MaxAgentOptions) {
        *error = QStringLiteral("the request has %1 options (at most %2)").arg(options.size()).arg(MaxAgentOptions);
        return false;
    }
    QStringList args{QStringLiteral("-c"), target};
    for (const QJsonValue &v : options)
        if (!appendOption(v, &args, error))
            return false;
    CommandLine cl;
    QString e;
    if (!parseCommandLine(args, &cl, &e)) {
        *error = printable(e, 300);
        return false;
    }
    if (cl.mode != CommandLine::Mode::Client) {
        *error = QStringLiteral("the request is not a test");
        return false;
    }
    *out = cl.params;
    return true;
}

} // namespace nb
