// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/commandline.h"

#include "core/units.h"
#include "test/parameters.h"

#include <QHash>

namespace nb {

namespace {

// One setter per value type; messages name the option as the user would type it.
bool setSize(const param::Parameter &p, const QString &v, TestParams *params, QString *error)
{
    const QString flag = param::flagName(p);
    QString e;
    const auto s = parseSize(v, &e);
    if (!s) {
        *error = QStringLiteral("%1: %2").arg(flag, e);
        return false;
    }
    if (double(*s) > p.max) {
        *error = QStringLiteral("%1: %2 is too large (at most %3)").arg(flag, v).arg(std::uint64_t(p.max));
        return false;
    }
    if (double(*s) < p.min) {
        *error = QStringLiteral("%1: %2").arg(flag, QLatin1String(p.tooSmall));
        return false;
    }
    param::setNumericValue(params, p, double(*s));
    return true;
}

bool setInt(const param::Parameter &p, const QString &v, TestParams *params, QString *error)
{
    bool ok = false;
    const int n = v.toInt(&ok);
    if (!ok || n < p.min || n > p.max) {
        *error = QStringLiteral("%1: '%2' must be a whole number from %3 to %4")
                     .arg(param::flagName(p), v)
                     .arg(p.min)
                     .arg(p.max);
        return false;
    }
    param::setNumericValue(params, p, n);
    return true;
}

bool setSeconds(const param::Parameter &p, const QString &v, TestParams *params, QString *error)
{
    const QString flag = param::flagName(p);
    QString e;
    const auto s = parseSeconds(v, &e);
    if (!s || *s < p.min || *s > p.max) {
        *error = s ? QStringLiteral("%1: %2 must be between %3 and %4 seconds").arg(flag, v).arg(p.min).arg(p.max)
                   : QStringLiteral("%1: %2").arg(flag, e);
        return false;
    }
    param::setNumericValue(params, p, *s);
    return true;
}

bool setValue(const param::Parameter &p, const QString &v, TestParams *params, QString *error)
{
    switch (p.type) {
    case param::Type::Flag:
        param::setFlag(params, p);
        return true;
    case param::Type::Text:
        param::setText(params, p, v);
        return true;
    case param::Type::Int:
        return setInt(p, v, params, error);
    case param::Type::Size:
        return setSize(p, v, params, error);
    case param::Type::Seconds:
        return setSeconds(p, v, params, error);
    }
    return false;
}

} // namespace

bool parseCommandLine(const QStringList &args, CommandLine *out, QString *error, const QStringList &extraFlags)
{
    CommandLine cl;
    QHash<QString, const param::Parameter *> byShort, byLong;
    for (const param::Parameter &p : param::parameters()) {
        if (p.shortFlag)
            byShort.insert(QString(QLatin1Char(p.shortFlag)), &p);
        byLong.insert(QLatin1String(p.longFlag), &p);
    }
    bool timeGiven = false, bytesGiven = false, server = false, client = false;

    // The value is checked against the row's type and range, stored in the row's field,
    // then the few options that also set the server's options or the mode are handled.
    auto apply = [&](const param::Parameter &o, const QString &value) -> bool {
        if (!setValue(o, value, &cl.params, error))
            return false;
        switch (o.id) {
        case param::Id::Server:
            server = true;
            break;
        case param::Id::Client:
            client = true;
            break;
        case param::Id::Port:
            cl.server.port = cl.params.port;
            break;
        case param::Id::Bind:
            cl.server.bindAddress = value;
            break;
        case param::Id::OneOff:
            cl.server.oneOff = true;
            break;
        case param::Id::IPv4:
        case param::Id::IPv6:
            cl.server.family = cl.params.family;
            break;
        case param::Id::Duration:
            timeGiven = true;
            break;
        case param::Id::Bytes:
            bytesGiven = true;
            break;
        case param::Id::Json:
            cl.json = true;
            break;
        case param::Id::JsonStream:
            cl.jsonStream = true;
            break;
        case param::Id::Verbose:
            cl.verbose = true;
            break;
        case param::Id::Interfaces:
            cl.mode = CommandLine::Mode::Interfaces;
            break;
        case param::Id::Help:
            cl.mode = CommandLine::Mode::Help;
            break;
        case param::Id::Version:
            cl.mode = CommandLine::Mode::Version;
            break;
        default:
            break;
        }
        return true;
    };

    for (int i = 0; i < args.size(); ++i) {
        const QString a = args.at(i);
        const param::Parameter *spec = nullptr;
        QString value;
        bool inlineValue = false;
        if (a.startsWith(QLatin1String("--"))) {
            QString name = a.mid(2);
            const qsizetype eq = name.indexOf(QLatin1Char('='));
            if (eq >= 0) {
                value = name.mid(eq + 1);
                name = name.left(eq);
                inlineValue = true;
            }
            if (extraFlags.contains(name)) {
                cl.extraArgs.append(name);
                continue;
            }
            spec = byLong.value(name);
            if (!spec) {
                *error = QStringLiteral("unknown option '%1' (see --help)").arg(a);
                return false;
            }
        } else if (a.startsWith(QLatin1Char('-')) && a.size() >= 2) {
            spec = byShort.value(a.mid(1, 1));
            if (!spec) {
                *error = QStringLiteral("unknown option '%1' (see --help)").arg(a);
                return false;
            }
            if (a.size() > 2) {
                if (!spec->valueName) {
                    *error = QStringLiteral("unknown option '%1' (see --help)").arg(a);
                    return false;
                }
                value = a.mid(2);
                inlineValue = true;
            }
        } else {
            *error = QStringLiteral("unexpected argument '%1' (see --help)").arg(a);
            return false;
        }
        if (spec->valueName && !inlineValue) {
            if (i + 1 >= args.size()) {
                *error = QStringLiteral("option '%1' needs a value").arg(a);
                return false;
            }
            value = args.at(++i);
        } else if (!spec->valueName && inlineValue) {
            *error = QStringLiteral("option '%1' takes no value").arg(a);
            return false;
        }
        if (!apply(*spec, value))
            return false;
    }

    if (cl.mode == CommandLine::Mode::None) {
        if (server && client) {
            *error = QStringLiteral("choose either -s (server) or -c HOST (client)");
            return false;
        }
        if (server)
            cl.mode = CommandLine::Mode::Server;
        else if (client)
            cl.mode = CommandLine::Mode::Client;
    }
    if (bytesGiven && !timeGiven)
        cl.params.duration = 0;
    if (cl.mode == CommandLine::Mode::Client) {
        if (cl.params.host.isEmpty()) {
            *error = QStringLiteral("-c needs a host name or address");
            return false;
        }
        const QString invalid = cl.params.validate();
        if (!invalid.isEmpty()) {
            *error = invalid;
            return false;
        }
    }
    *out = cl;
    return true;
}

QString commandLineHelp(const QString &program, bool gui)
{
    QString h;
    if (gui)
        h += QStringLiteral("Usage: %1 [--run -c HOST [test options] [--quit-when-done]]\n\n"
                            "Starts the NicBench window. With --run, starts the given test at once.\n\n")
                 .arg(program);
    else
        h += QStringLiteral("Usage: %1 -s [options]\n       %1 -c HOST [options]\n       %1 --interfaces [-c HOST [-p "
                            "PORT] [-B ADDR]] [-J]\n\n")
                 .arg(program);
    h += param::optionsHelp();
    return h;
}

} // namespace nb
