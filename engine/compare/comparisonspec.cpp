// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonspec.h"

#include "compare/comparisonoptions.h"
#include "core/jsonfields.h"
#include "session/commandline.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>

namespace nb {

bool paramsFromArgs(const QStringList &args, const QString &label, TestParams *out, QString *error, AgentFrom *from)
{
    CommandLine cl;
    QString e;
    if (!parseCommandLine(args, &cl, &e)) {
        *error = QStringLiteral("configuration \"%1\": %2").arg(label, e);
        return false;
    }
    if (cl.mode != CommandLine::Mode::Client) {
        *error = QStringLiteral("configuration \"%1\": args must describe a client test (-c HOST ...)").arg(label);
        return false;
    }
    if (!cl.fromHost.isEmpty() && !from) {
        *error = QStringLiteral("configuration \"%1\": --from (a test run by an agent) is not taken here").arg(label);
        return false;
    }
    if (from) {
        from->given = cl.given;
        if (!cl.fromHost.isEmpty()) {
            from->host = cl.fromHost;
            from->port = cl.fromPort;
            from->keyPath = cl.agentKeyPath;
        }
    }
    *out = cl.params;
    return true;
}

bool resolveBaseline(const QString &text, const Comparison &c, int *out, QString *error)
{
    for (int i = 0; i < c.configurations.size(); ++i) {
        if (c.configurations[i].label == text) {
            *out = i;
            return true;
        }
    }
    for (int i = 0; i < c.configurations.size(); ++i) {
        if (c.configurations[i].adapterName() == text) {
            *out = i;
            return true;
        }
    }
    bool ok = false;
    const int i = text.toInt(&ok);
    if (ok && i >= 0 && i < c.configurations.size()) {
        *out = i;
        return true;
    }
    *error = QStringLiteral("baseline \"%1\" is neither an adapter, a configuration label nor an index").arg(text);
    return false;
}

bool configurationFromFlag(const QString &flag, Configuration *out, QString *error)
{
    // LABEL=ARGS, where the label may hold '=' itself ("E1000, P=4=-c HOST -P 4"): the
    // split is at the first '=' that the flags (which start with '-') follow.
    static const QRegularExpression split(QStringLiteral("=\\s*-"));
    const QRegularExpressionMatch m = split.match(flag);
    const qsizetype eq = m.hasMatch() ? m.capturedStart() : flag.indexOf(QLatin1Char('='));
    if (eq <= 0) {
        *error = QStringLiteral("--config \"%1\": expected LABEL=ARGS").arg(flag);
        return false;
    }
    Configuration c;
    c.label = flag.left(eq).trimmed();
    if (!paramsFromArgs(QProcess::splitCommand(flag.mid(eq + 1)), c.label, &c.params, error, &c.from))
        return false;
    c.completeFromLabel();
    *out = c;
    return true;
}

bool comparisonFromSpec(const QByteArray &specJson, Comparison *out, QString *error)
{
    using namespace json;
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(specJson, &pe);
    if (pe.error != QJsonParseError::NoError)
        return json::fail(error, QString(),
                          QStringLiteral("not valid JSON at byte %1: %2").arg(pe.offset).arg(pe.errorString()));
    if (!doc.isObject())
        return json::fail(error, QString(), QStringLiteral("a spec is a JSON object"));
    const QJsonObject o = doc.object();
    Comparison c;
    QJsonArray configs;
    QString orderName = QStringLiteral("interleaved");
    QString cpuSide = QStringLiteral("auto");
    double seed = 0;
    // Keys and ranges of the comparison options: their table (compare/comparisonoptions.h).
    const auto key = [](compareopt::Id id) { return QLatin1String(compareopt::option(id).specKey); };
    const compareopt::Option &repeats = compareopt::option(compareopt::Id::Repeats);
    const compareopt::Option &seedRow = compareopt::option(compareopt::Id::Seed);
    const compareopt::Option &pause = compareopt::option(compareopt::Id::Pause);
    const compareopt::Option &equivalence = compareopt::option(compareopt::Id::Equivalence);
    if (!readString(o, QStringLiteral("title"), &c.title, QString(), error) ||
        !readInt(o, key(repeats.id), &c.repeats, QString(), error, Need::Optional, int(repeats.min),
                 int(repeats.max)) ||
        !readString(o, key(compareopt::Id::Order), &orderName, QString(), error) ||
        !readDouble(o, key(seedRow.id), &seed, QString(), error, Need::Optional, seedRow.min, seedRow.max) ||
        !readDouble(o, key(pause.id), &c.pauseSeconds, QString(), error, Need::Optional, pause.min, pause.max) ||
        !readDouble(o, key(equivalence.id), &c.equivalencePercent, QString(), error, Need::Optional, equivalence.min,
                    equivalence.max) ||
        !readString(o, key(compareopt::Id::CpuSide), &cpuSide, QString(), error) ||
        !readString(o, QStringLiteral("agent_key"), &c.agentKeyPath, QString(), error, Need::Optional, 4096) ||
        !readArray(o, QStringLiteral("configurations"), &configs, QString(), error, Need::Required, 1024))
        return false;
    if (!orderPolicyFromName(orderName, &c.order))
        return json::fail(error, key(compareopt::Id::Order), QStringLiteral("is interleaved or shuffled"));
    if (!cpuSideFromName(cpuSide, &c.cpuSide))
        return json::fail(error, key(compareopt::Id::CpuSide), QStringLiteral("is auto, client or server"));
    c.seed = quint64(seed);
    for (qsizetype i = 0; i < configs.size(); ++i) {
        const QString where = QStringLiteral("configurations[%1]").arg(i);
        if (!configs[i].isObject())
            return json::fail(error, where, QStringLiteral("must be an object"));
        const QJsonObject co = configs[i].toObject();
        Configuration conf;
        if (!readString(co, QStringLiteral("label"), &conf.label, where, error, Need::Optional, 1000) ||
            !readString(co, QStringLiteral("adapter"), &conf.adapter, where, error, Need::Optional, 1000) ||
            !readString(co, QStringLiteral("variant"), &conf.variant, where, error, Need::Optional, 1000) ||
            !readString(co, QStringLiteral("notes"), &conf.notes, where, error))
            return false;
        if (conf.label.isEmpty())
            conf.label = Configuration::joinLabel(conf.adapter, conf.variant);
        if (conf.label.isEmpty())
            return json::fail(error, where, QStringLiteral("needs a \"label\" or an \"adapter\""));
        conf.completeFromLabel();
        QStringList args;
        const QJsonValue av = co.value(QStringLiteral("args"));
        if (av.isString()) {
            args = QProcess::splitCommand(av.toString());
        } else if (av.isArray()) {
            for (const QJsonValue &v : av.toArray()) {
                if (!v.isString())
                    return json::fail(error, where + QStringLiteral(".args"),
                                      QStringLiteral("array entries must be strings"));
                args << v.toString();
            }
        } else {
            return json::fail(error, where + QStringLiteral(".args"),
                              QStringLiteral("must be a string or an array of strings"));
        }
        QString fromText;
        if (!paramsFromArgs(args, conf.label, &conf.params, error, &conf.from) ||
            !readString(co, QStringLiteral("from"), &fromText, where, error, Need::Optional, 300))
            return false;
        QString why;
        if (!fromText.isEmpty() && conf.from.isSet())
            return json::fail(error, where, QStringLiteral("gives \"from\" and --from in its args: give one"));
        if (!fromText.isEmpty() && !AgentFrom::fromText(fromText, &conf.from, &why))
            return json::fail(error, where + QStringLiteral(".from"), why);
        c.configurations.append(conf);
    }
    const QJsonValue b = o.value(QStringLiteral("baseline"));
    if (b.isString()) {
        if (!resolveBaseline(b.toString(), c, &c.baselineIndex, error))
            return false;
    } else if (b.isDouble()) {
        if (!resolveBaseline(QString::number(b.toInt(-1)), c, &c.baselineIndex, error))
            return false;
    } else if (!b.isUndefined()) {
        return json::fail(error, QStringLiteral("baseline"), QStringLiteral("must be a label or an index"));
    }
    *out = c;
    return true;
}

bool comparisonFromSpecFile(const QString &path, Comparison *out, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return false;
    }
    if (f.size() > 16 * 1024 * 1024) {
        *error = QStringLiteral("%1: a spec file larger than 16 MiB is not a spec").arg(path);
        return false;
    }
    QString e;
    if (!comparisonFromSpec(f.readAll(), out, &e)) {
        *error = QStringLiteral("%1: %2").arg(path, e);
        return false;
    }
    return true;
}

} // namespace nb
