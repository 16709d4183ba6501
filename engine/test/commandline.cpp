// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/commandline.h"

#include "core/units.h"

#include <QHash>

#include <functional>

namespace nb {

namespace {

struct OptionSpec {
    QString shortName; // without dash, may be empty
    QString longName;  // without dashes, may be empty
    bool takesValue;
};

// Table of every option; iperf3's letters wherever they overlap.
const QList<OptionSpec> &specs()
{
    static const QList<OptionSpec> s = {
        {QStringLiteral("s"), QStringLiteral("server"), false},
        {QStringLiteral("c"), QStringLiteral("client"), true},
        {QStringLiteral("p"), QStringLiteral("port"), true},
        {QStringLiteral("B"), QStringLiteral("bind"), true},
        {QStringLiteral("1"), QStringLiteral("one-off"), false},
        {QStringLiteral("P"), QStringLiteral("parallel"), true},
        {QStringLiteral("l"), QStringLiteral("length"), true},
        {QStringLiteral("w"), QStringLiteral("window"), true},
        {QStringLiteral("M"), QStringLiteral("set-mss"), true},
        {QStringLiteral("N"), QStringLiteral("no-delay"), false},
        {QStringLiteral("C"), QStringLiteral("congestion"), true},
        {QStringLiteral("t"), QStringLiteral("time"), true},
        {QStringLiteral("n"), QStringLiteral("bytes"), true},
        {QStringLiteral("O"), QStringLiteral("omit"), true},
        {QStringLiteral("i"), QStringLiteral("interval"), true},
        {QStringLiteral("4"), QStringLiteral("version4"), false},
        {QStringLiteral("6"), QStringLiteral("version6"), false},
        {QStringLiteral("R"), QStringLiteral("reverse"), false},
        {QString(), QStringLiteral("bidir"), false},
        {QStringLiteral("J"), QStringLiteral("json"), false},
        {QString(), QStringLiteral("json-stream"), false},
        {QStringLiteral("Z"), QStringLiteral("zerocopy"), false},
        {QString(), QStringLiteral("rx-copy"), false},
        {QString(), QStringLiteral("iperf2"), false},
        {QString(), QStringLiteral("connect-timeout"), true},
        {QString(), QStringLiteral("title"), true},
        {QString(), QStringLiteral("interfaces"), false},
        {QString(), QStringLiteral("rr"), false},
        {QString(), QStringLiteral("crr"), false},
        {QString(), QStringLiteral("request-size"), true},
        {QString(), QStringLiteral("response-size"), true},
        {QString(), QStringLiteral("connections"), true},
        {QString(), QStringLiteral("in-flight"), true},
        {QStringLiteral("V"), QStringLiteral("verbose"), false},
        {QStringLiteral("h"), QStringLiteral("help"), false},
        {QStringLiteral("v"), QStringLiteral("version"), false},
    };
    return s;
}

bool setSize(const QString &v, const char *flag, std::uint64_t max, std::uint64_t *out, QString *error)
{
    QString e;
    const auto s = parseSize(v, &e);
    if (!s) {
        *error = QStringLiteral("%1: %2").arg(QLatin1String(flag), e);
        return false;
    }
    if (*s > max) {
        *error = QStringLiteral("%1: %2 is too large (at most %3)").arg(QLatin1String(flag), v).arg(max);
        return false;
    }
    *out = *s;
    return true;
}

bool setInt(const QString &v, const char *flag, int lo, int hi, int *out, QString *error)
{
    bool ok = false;
    const int n = v.toInt(&ok);
    if (!ok || n < lo || n > hi) {
        *error = QStringLiteral("%1: '%2' must be a whole number from %3 to %4").arg(QLatin1String(flag), v).arg(lo).arg(hi);
        return false;
    }
    *out = n;
    return true;
}

bool setSeconds(const QString &v, const char *flag, double lo, double hi, double *out, QString *error)
{
    QString e;
    const auto s = parseSeconds(v, &e);
    if (!s || *s < lo || *s > hi) {
        *error = s ? QStringLiteral("%1: %2 must be between %3 and %4 seconds").arg(QLatin1String(flag), v).arg(lo).arg(hi)
                   : QStringLiteral("%1: %2").arg(QLatin1String(flag), e);
        return false;
    }
    *out = *s;
    return true;
}

} // namespace

bool parseCommandLine(const QStringList &args, CommandLine *out, QString *error, const QStringList &extraFlags)
{
    CommandLine cl;
    QHash<QString, const OptionSpec *> byShort, byLong;
    for (const OptionSpec &s : specs()) {
        if (!s.shortName.isEmpty())
            byShort.insert(s.shortName, &s);
        if (!s.longName.isEmpty())
            byLong.insert(s.longName, &s);
    }
    bool timeGiven = false, bytesGiven = false, server = false, client = false;

    auto apply = [&](const OptionSpec &o, const QString &value) -> bool {
        const QString name = o.longName;
        std::uint64_t size = 0;
        int n = 0;
        if (name == QLatin1String("server")) server = true;
        else if (name == QLatin1String("client")) { client = true; cl.params.host = value; }
        else if (name == QLatin1String("port")) {
            if (!setInt(value, "-p", 1, 65535, &n, error)) return false;
            cl.params.port = quint16(n); cl.server.port = quint16(n);
        } else if (name == QLatin1String("bind")) { cl.params.bindAddress = value; cl.server.bindAddress = value; }
        else if (name == QLatin1String("one-off")) cl.server.oneOff = true;
        else if (name == QLatin1String("parallel")) { if (!setInt(value, "-P", 1, 128, &cl.params.streams, error)) return false; }
        else if (name == QLatin1String("length")) {
            if (!setSize(value, "-l", 1024 * 1024, &size, error)) return false;
            if (size == 0) { *error = QStringLiteral("-l: buffer length must be at least 1 byte"); return false; }
            cl.params.blockSize = std::uint32_t(size);
        } else if (name == QLatin1String("window")) {
            if (!setSize(value, "-w", 1024ull * 1024 * 1024, &size, error)) return false;
            cl.params.window = std::uint32_t(size);
        } else if (name == QLatin1String("set-mss")) { if (!setInt(value, "-M", 88, 9216 * 4, &cl.params.mss, error)) return false; }
        else if (name == QLatin1String("no-delay")) cl.params.noDelay = true;
        else if (name == QLatin1String("congestion")) cl.params.congestion = value;
        else if (name == QLatin1String("time")) {
            if (!setSeconds(value, "-t", 0, 86400, &cl.params.duration, error)) return false;
            timeGiven = true;
        } else if (name == QLatin1String("bytes")) {
            if (!setSize(value, "-n", ~0ull, &size, error)) return false;
            if (size == 0) { *error = QStringLiteral("-n: byte count must be positive"); return false; }
            cl.params.bytes = size; bytesGiven = true;
        } else if (name == QLatin1String("omit")) { if (!setSeconds(value, "-O", 0, 600, &cl.params.omit, error)) return false; }
        else if (name == QLatin1String("interval")) { if (!setSeconds(value, "-i", 0.1, 60, &cl.params.interval, error)) return false; }
        else if (name == QLatin1String("version4")) { cl.params.family = AddressFamily::IPv4; cl.server.family = AddressFamily::IPv4; }
        else if (name == QLatin1String("version6")) { cl.params.family = AddressFamily::IPv6; cl.server.family = AddressFamily::IPv6; }
        else if (name == QLatin1String("reverse")) cl.params.direction = Direction::Download;
        else if (name == QLatin1String("bidir")) cl.params.direction = Direction::Bidirectional;
        else if (name == QLatin1String("json")) cl.json = true;
        else if (name == QLatin1String("json-stream")) cl.jsonStream = true;
        else if (name == QLatin1String("zerocopy")) cl.params.zeroCopy = true;
        else if (name == QLatin1String("rx-copy")) cl.params.skipRxCopy = false;
        else if (name == QLatin1String("iperf2")) cl.params.protocol = PeerProtocol::Iperf2;
        else if (name == QLatin1String("connect-timeout")) {
            double s = 0;
            if (!setSeconds(value, "--connect-timeout", 0.1, 600, &s, error)) return false;
            cl.params.connectTimeoutMs = int(s * 1000);
        } else if (name == QLatin1String("title")) cl.params.title = value;
        else if (name == QLatin1String("interfaces")) cl.mode = CommandLine::Mode::Interfaces;
        else if (name == QLatin1String("rr")) cl.params.kind = TestKind::Rr;
        else if (name == QLatin1String("crr")) cl.params.kind = TestKind::Crr;
        else if (name == QLatin1String("request-size") || name == QLatin1String("response-size")) {
            if (!setSize(value, name == QLatin1String("request-size") ? "--request-size" : "--response-size", 1024 * 1024, &size, error)) return false;
            if (size == 0) { *error = QStringLiteral("--%1: must be at least 1 byte").arg(name); return false; }
            (name == QLatin1String("request-size") ? cl.params.requestSize : cl.params.responseSize) = std::uint32_t(size);
        } else if (name == QLatin1String("connections")) { if (!setInt(value, "--connections", 1, 128, &cl.params.streams, error)) return false; }
        else if (name == QLatin1String("in-flight")) { if (!setInt(value, "--in-flight", 1, 1024, &cl.params.inFlight, error)) return false; }
        else if (name == QLatin1String("verbose")) cl.verbose = true;
        else if (name == QLatin1String("help")) cl.mode = CommandLine::Mode::Help;
        else if (name == QLatin1String("version")) cl.mode = CommandLine::Mode::Version;
        return true;
    };

    for (int i = 0; i < args.size(); ++i) {
        const QString a = args.at(i);
        const OptionSpec *spec = nullptr;
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
                if (!spec->takesValue) {
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
        if (spec->takesValue && !inlineValue) {
            if (i + 1 >= args.size()) {
                *error = QStringLiteral("option '%1' needs a value").arg(a);
                return false;
            }
            value = args.at(++i);
        } else if (!spec->takesValue && inlineValue) {
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
                            "Starts the NicBench window. With --run, starts the given test at once.\n\n").arg(program);
    else
        h += QStringLiteral("Usage: %1 -s [options]\n       %1 -c HOST [options]\n       %1 --interfaces [-c HOST [-p PORT] [-B ADDR]] [-J]\n\n").arg(program);
    h += QStringLiteral(
        "Server or client:\n"
        "  -p, --port N            server port to listen on / connect to (default 5201)\n"
        "  -B, --bind ADDR         bind to this local address\n"
        "  -4, --version4          IPv4 only        -6, --version6   IPv6 only\n"
        "  -i, --interval SECS     seconds between reports, 0.1 to 60 (default 1)\n"
        "  -J, --json              one JSON document at the end (a superset of iperf3 -J)\n"
        "      --json-stream       one JSON object per line as the test runs\n"
        "  -V, --verbose           more messages\n"
        "Server:\n"
        "  -s, --server            run as a server (iperf3-compatible)\n"
        "  -1, --one-off           serve one test, then exit\n"
        "Client:\n"
        "  -c, --client HOST       run a test against HOST (NicBench, iperf3, or iperf2 with --iperf2)\n"
        "  -t, --time SECS         test duration (default 10)\n"
        "  -n, --bytes N[KMG]      send this many bytes in total instead of -t\n"
        "  -O, --omit SECS         warm-up seconds left out of the results\n"
        "  -P, --parallel N        parallel streams, 1 to 128 (default 1)\n"
        "  -R, --reverse           download: the server sends\n"
        "      --bidir             both directions at once\n"
        "  -l, --length N[KMG]     buffer length per write (default 128K)\n"
        "  -w, --window N[KMG]     socket buffer size\n"
        "  -M, --set-mss N         TCP maximum segment size\n"
        "  -N, --no-delay          set TCP_NODELAY\n"
        "  -C, --congestion ALGO   congestion control (Linux), e.g. cubic, bbr\n"
        "  -Z, --zerocopy          send with sendfile() (no copy from user space)\n"
        "      --rx-copy           copy received data to user space (default: discard in the kernel)\n"
        "      --iperf2            the server is a stock iperf2 (iperf -s)\n"
        "      --connect-timeout S give up connecting after S seconds (default 5)\n"
        "      --title TEXT        label for the result\n"
        "Request/response (needs a NicBench server):\n"
        "      --rr                TCP request/response on persistent connections (netperf TCP_RR)\n"
        "      --crr               a new connection per transaction (netperf TCP_CRR)\n"
        "      --request-size N    request bytes (default 1)\n"
        "      --response-size N   response bytes (default 1)\n"
        "      --connections N     concurrent connections, 1 to 128 (default 1; same as -P)\n"
        "      --in-flight N       transactions outstanding per connection (default 1, --rr only)\n"
        "Other:\n"
        "      --interfaces        list network adapters; with -c HOST, the NicBench server's machine and\n"
        "                          adapters, and which local adapter reaches which (-B/-c pairs)\n"
        "  -h, --help              this help       -v, --version   version\n"
        "Sizes take K/M/G suffixes (1K = 1024), as in iperf.\n");
    return h;
}

} // namespace nb
