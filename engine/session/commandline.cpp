// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/commandline.h"

#include "core/hostport.h"
#include "core/units.h"
#include "model/parameters.h"
#include "net/socket.h"
#include "session/authoptions.h"
#include "session/serverpolicy.h"

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

bool setRate(const param::Parameter &p, const QString &v, TestParams *params, QString *error)
{
    QString e;
    const auto r = parseRate(v, &e);
    if (!r || *r < p.min || *r > p.max) {
        *error = r ? QStringLiteral("%1: %2 is out of range (0 to %3 bit/s)").arg(param::flagName(p), v).arg(p.max)
                   : QStringLiteral("%1: %2").arg(param::flagName(p), e);
        return false;
    }
    param::setNumericValue(params, p, *r);
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
    case param::Type::Rate:
        return setRate(p, v, params, error);
    }
    return false;
}

// --from AGENT[:PORT]: the agent's server port unless given.
bool parseFrom(const QString &text, QString *host, quint16 *port, QString *error)
{
    int p = 0;
    QString why;
    if (!splitHostPort(text, host, &p, &why) || host->isEmpty()) {
        *error = QStringLiteral("--from: %1")
                     .arg(why.isEmpty() ? QStringLiteral("needs an agent's host name or address") : why);
        return false;
    }
    if (p > 0)
        *port = quint16(p);
    return true;
}

} // namespace

namespace {

// One pass over the arguments: each option is looked up in the parameter table, its value
// checked against the row's type and range and stored in the row's field; then the few
// options that also set the server's options or the mode are noted.
class Parser {
public:
    Parser(const QStringList &args, const QStringList &extraFlags, QString *error)
        : m_args(args)
        , m_extraFlags(extraFlags)
        , m_error(error)
    {
        for (const param::Parameter &p : param::parameters()) {
            if (p.shortFlag)
                m_byShort.insert(QString(QLatin1Char(p.shortFlag)), &p);
            m_byLong.insert(QLatin1String(p.longFlag), &p);
        }
    }

    bool run(CommandLine *out)
    {
        for (int i = 0; i < m_args.size(); ++i) {
            const param::Parameter *spec = nullptr;
            QString value;
            if (!nextOption(&i, &spec, &value))
                return false;
            if (spec && !apply(*spec, value))
                return false;
        }
        if (!finish())
            return false;
        *out = m_cl;
        return true;
    }

private:
    bool fail(const QString &message)
    {
        *m_error = message;
        return false;
    }

    // Reads the option at *i (and its value, which may be the next argument). *spec stays
    // null for an extra flag the caller handles itself.
    bool nextOption(int *i, const param::Parameter **spec, QString *value)
    {
        const QString a = m_args.at(*i);
        bool inlineValue = false;
        if (a.startsWith(QLatin1String("--"))) {
            QString name = a.mid(2);
            const qsizetype eq = name.indexOf(QLatin1Char('='));
            if (eq >= 0) {
                *value = name.mid(eq + 1);
                name = name.left(eq);
                inlineValue = true;
            }
            if (m_extraFlags.contains(name)) {
                m_cl.extraArgs.append(name);
                return true;
            }
            *spec = m_byLong.value(name);
            if (!*spec)
                return fail(QStringLiteral("unknown option '%1' (see --help)").arg(a));
        } else if (a.startsWith(QLatin1Char('-')) && a.size() >= 2) {
            *spec = m_byShort.value(a.mid(1, 1));
            if (!*spec)
                return fail(QStringLiteral("unknown option '%1' (see --help)").arg(a));
            if (a.size() > 2) {
                if (!(*spec)->valueName)
                    return fail(QStringLiteral("unknown option '%1' (see --help)").arg(a));
                *value = a.mid(2);
                inlineValue = true;
            }
        } else {
            return fail(QStringLiteral("unexpected argument '%1' (see --help)").arg(a));
        }
        if ((*spec)->valueName && !inlineValue) {
            if (*i + 1 >= m_args.size())
                return fail(QStringLiteral("option '%1' needs a value").arg(a));
            *value = m_args.at(++*i);
        } else if (!(*spec)->valueName && inlineValue) {
            return fail(QStringLiteral("option '%1' takes no value").arg(a));
        }
        return true;
    }

    bool apply(const param::Parameter &o, const QString &value)
    {
        if (!setValue(o, value, &m_cl.params, m_error))
            return false;
        m_cl.given.append({o.id, value});
        if (isPolicyOption(o.id))
            return setPolicyOption(o.id, value, &m_cl.server.policy, m_error);
        switch (o.id) {
        case param::Id::Server:
            m_server = true;
            break;
        case param::Id::Client:
            m_client = true;
            break;
        case param::Id::Port:
            m_cl.server.port = m_cl.params.port;
            break;
        case param::Id::Bind:
            m_cl.server.bindAddress = value;
            break;
        case param::Id::OneOff:
            m_cl.server.oneOff = true;
            break;
        case param::Id::Threads:
            m_cl.server.threads = m_cl.params.threads;
            break;
        case param::Id::RsaPrivateKeyPath:
            m_cl.server.rsaPrivateKeyPath = value;
            break;
        case param::Id::AuthorizedUsersPath:
            m_cl.server.authorizedUsersPath = value;
            break;
        case param::Id::TimeSkewThreshold:
            m_cl.server.timeSkewSeconds = value.toInt(); // range-checked by setValue
            break;
        case param::Id::RcvTimeout:
            m_cl.server.rcvTimeoutMs = m_cl.params.rcvTimeoutMs;
            break;
        case param::Id::IdleTimeout:
            m_cl.server.idleTimeoutSecs = parseSeconds(value).value_or(m_cl.server.idleTimeoutSecs);
            break;
        case param::Id::IPv4:
        case param::Id::IPv6:
            m_cl.server.family = m_cl.params.family;
            break;
        case param::Id::Duration:
            m_timeGiven = true;
            break;
        case param::Id::Bytes:
            m_bytesGiven = true;
            break;
        case param::Id::Bitrate:
            m_bitrateGiven = true;
            break;
        case param::Id::Rr:
        case param::Id::Crr:
        case param::Id::LatencyUnderLoad:
            // Each names a kind of test; the last one silently won before (issue 30).
            if (!m_kindFlag.isEmpty() && m_kindFlag != QLatin1String(o.longFlag))
                return fail(QStringLiteral("--%1 and --%2 are different tests: give one of them")
                                .arg(m_kindFlag, QLatin1String(o.longFlag)));
            m_kindFlag = QLatin1String(o.longFlag);
            break;
        case param::Id::AgentKey:
            m_cl.agentKeyPath = value;
            m_cl.server.agentKeyPath = value;
            break;
        case param::Id::AgentTargets: {
            const auto targets = parseNetworks(value, QStringLiteral("--agent-targets"), m_error);
            if (!targets)
                return false;
            m_cl.server.agentTargets = m_cl.server.agentTargets.value_or(QList<Subnet>()) + *targets;
            break;
        }
        case param::Id::From:
            return parseFrom(value, &m_cl.fromHost, &m_cl.fromPort, m_error);
        case param::Id::Json:
            m_cl.json = true;
            break;
        case param::Id::JsonStream:
            m_cl.jsonStream = true;
            break;
        case param::Id::Verbose:
            m_cl.verbose = true;
            break;
        case param::Id::Interfaces:
            m_cl.mode = CommandLine::Mode::Interfaces;
            break;
        case param::Id::Help:
            m_cl.mode = CommandLine::Mode::Help;
            break;
        case param::Id::Version:
            m_cl.mode = CommandLine::Mode::Version;
            break;
        default:
            break;
        }
        return true;
    }

    // The mode, -n without -t, and the client's checks once every option is in.
    bool finish()
    {
        if (m_cl.mode == CommandLine::Mode::None) {
            if (m_server && m_client)
                return fail(QStringLiteral("choose either -s (server) or -c HOST (client)"));
            if (m_server)
                m_cl.mode = CommandLine::Mode::Server;
            else if (m_client)
                m_cl.mode = CommandLine::Mode::Client;
        }
        if (m_bytesGiven && !m_timeGiven)
            m_cl.params.duration = 0;
        if (const QString authError = checkAuthOptions(m_cl.params, m_cl.server); !authError.isEmpty())
            return fail(authError);
        if (const QString agentError = checkAgentOptions(); !agentError.isEmpty())
            return fail(agentError);
        if (m_cl.mode == CommandLine::Mode::Client) {
            if (m_cl.params.host.isEmpty())
                return fail(QStringLiteral("-c needs a host name or address"));
            const QString invalid = m_cl.params.validate();
            if (!invalid.isEmpty())
                return fail(invalid);
        }
        // A client's -b (also the window's, which has no -c): TCP -b paces each stream's
        // socket where the system can; elsewhere a TCP test that ignored the rate would
        // report an unpaced figure as if it had been asked for.
        if (m_bitrateGiven && m_cl.mode != CommandLine::Mode::Server) {
            if (m_cl.params.kind != TestKind::Stream)
                return fail(QStringLiteral("-b sets the rate of a stream test; request/response and latency under load "
                                           "are not paced"));
            if (!m_cl.params.udp) {
                if (!net::CanPaceTcp)
                    return fail(QStringLiteral("-b paces UDP tests (-u) only on this system: it has no per-connection "
                                               "TCP rate; leave -b out, or shape the link for a TCP test at a rate"));
                m_cl.params.tcpPaced = true;
            }
        }
        return true;
    }

    // --agent-key, --agent-targets and --from: each with the mode it belongs to.
    QString checkAgentOptions() const
    {
        const bool server = m_cl.mode == CommandLine::Mode::Server;
        if (m_cl.server.agentTargets && (!server || m_cl.agentKeyPath.isEmpty()))
            return QStringLiteral("--agent-targets belongs to an agent: -s --agent-key FILE --agent-targets NET");
        if (!m_cl.fromHost.isEmpty()) {
            if (m_cl.mode != CommandLine::Mode::Client)
                return QStringLiteral("--from runs a test through an agent: give it with -c HOST");
            if (m_cl.agentKeyPath.isEmpty())
                return QStringLiteral("--from needs --agent-key FILE: the key the agent was started with");
            if (!m_cl.params.username.isEmpty() || !m_cl.params.rsaPublicKeyPath.isEmpty())
                return QStringLiteral("--username cannot go through an agent (it has no terminal to ask for the "
                                      "password, and the agent's connection is not encrypted)");
        } else if (!m_cl.agentKeyPath.isEmpty() && !server && m_cl.mode != CommandLine::Mode::None) {
            return QStringLiteral("--agent-key with -c needs --from AGENT, the agent that runs the test");
        }
        return {};
    }

    const QStringList &m_args;
    const QStringList &m_extraFlags;
    QString *m_error;
    QHash<QString, const param::Parameter *> m_byShort, m_byLong;
    CommandLine m_cl;
    bool m_timeGiven = false, m_bytesGiven = false, m_bitrateGiven = false, m_server = false, m_client = false;
    QString m_kindFlag; // --rr, --crr or --latency-under-load, the first given
};

} // namespace

bool parseCommandLine(const QStringList &args, CommandLine *out, QString *error, const QStringList &extraFlags)
{
    return Parser(args, extraFlags, error).run(out);
}

QString commandLineHelp(const QString &program, bool gui)
{
    QString h;
    if (gui)
        h += QStringLiteral("Usage: %1 [--run -c HOST [test options] [--quit-when-done]]\n\n"
                            "Starts the NicBench window. With --run, starts the given test at once.\n\n")
                 .arg(program);
    else
        h +=
            QStringLiteral("Usage: %1 -s [options]\n       %1 -c HOST [options]\n       %1 -c HOST --from AGENT[:PORT] "
                           "--agent-key FILE [options]\n       %1 --interfaces [-c HOST [-p PORT] [-B ADDR]] [-J]\n\n")
                .arg(program);
    h += param::optionsHelp(gui);
    return h;
}

} // namespace nb
