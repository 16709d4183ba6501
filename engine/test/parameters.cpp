// SPDX-License-Identifier: GPL-3.0-or-later
#include "test/parameters.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace nb::param {

namespace {

using P = TestParams;
constexpr double KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
constexpr double MaxU64 = 18446744073709551615.0;
// Streams (-P) and request/response connections (--connections) share the TestParams field,
// each with its own limit between NicBench ends. A stock iperf3 server takes at most
// proto::MaxStreams streams; the client says so when it meets one (throughputclient.cpp).
constexpr double MaxStreams = 1024;
constexpr double MaxConnections = 10000;

// iperf3's letters wherever they overlap. Columns: id, short, long, value name, type, unit,
// min, max, zero is "none", default, help, section, kinds, iperf3 key, JSON key, field,
// [flag value, scale, message for a size below min].
const std::array<Parameter, 60> kTable = {{
    {Id::Port, 'p', "port", "N", Type::Int, "", 1, 65535, false, "5201", "server port to listen on / connect to",
     Section::Common, AllKinds, nullptr, "port", &P::port},
    {Id::Bind, 'B', "bind", "ADDR", Type::Text, "", 0, 0, false, "", "bind to this local address", Section::Common,
     AllKinds, nullptr, "bind_address", &P::bindAddress},
    {Id::IPv4, '4', "version4", nullptr, Type::Flag, "", 0, 0, false, "", "IPv4 only", Section::Common, AllKinds,
     nullptr, "family", &P::family, int(AddressFamily::IPv4)},
    {Id::IPv6, '6', "version6", nullptr, Type::Flag, "", 0, 0, false, "", "IPv6 only", Section::Common, AllKinds,
     nullptr, "family", &P::family, int(AddressFamily::IPv6)},
    {Id::Interval, 'i', "interval", "SECS", Type::Seconds, "s", 0.1, 60, false, "1", "seconds between reports",
     Section::Common, AllKinds, nullptr, "interval", &P::interval},
    {Id::Json,
     'J',
     "json",
     nullptr,
     Type::Flag,
     "",
     0,
     0,
     false,
     "",
     "one JSON document at the end (a superset of iperf3 -J)",
     Section::Common,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::JsonStream,
     0,
     "json-stream",
     nullptr,
     Type::Flag,
     "",
     0,
     0,
     false,
     "",
     "one JSON object per line as the test runs",
     Section::Common,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::Verbose,
     'V',
     "verbose",
     nullptr,
     Type::Flag,
     "",
     0,
     0,
     false,
     "",
     "more messages",
     Section::Common,
     NoKind,
     nullptr,
     nullptr,
     {}},

    {Id::Server,
     's',
     "server",
     nullptr,
     Type::Flag,
     "",
     0,
     0,
     false,
     "",
     "run as a server (iperf3-compatible)",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::OneOff,
     '1',
     "one-off",
     nullptr,
     Type::Flag,
     "",
     0,
     0,
     false,
     "",
     "serve one test, then exit",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    // Authentication as in iperf3 (protocol/auth.h): server-only, set into ServerOptions by
    // commandline.cpp. A build without OpenSSL lists them and refuses them.
    {Id::RsaPrivateKeyPath,
     0,
     "rsa-private-key-path",
     "FILE",
     Type::Text,
     "",
     0,
     0,
     false,
     "",
     "RSA private key (PEM, no passphrase) that decrypts clients' credentials;\n"
     "with --authorized-users-path, only the users listed there may test",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::AuthorizedUsersPath,
     0,
     "authorized-users-path",
     "FILE",
     Type::Text,
     "",
     0,
     0,
     false,
     "",
     "users allowed to test: lines of user,sha256 of \"{user}password\"",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::TimeSkewThreshold,
     0,
     "time-skew-threshold",
     "SECS",
     Type::Int,
     "s",
     1,
     3600,
     false,
     "10",
     "how far a client's clock may be from the server's when it authenticates",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    // Server policy (test/serverpolicy.h): no test parameter, so no field; the command line
    // stores them in ServerOptions::policy.
    {Id::MaxDuration,
     0,
     "max-duration",
     "SECS",
     Type::Seconds,
     "s",
     0,
     604800,
     true,
     "3600",
     "longest test taken (-O plus -t); -n tests end there; 0: no limit",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::MaxStreams,
     0,
     "max-streams",
     "N",
     Type::Int,
     "",
     0,
     10000,
     true,
     "no limit",
     "most streams or connections a test may open (-P, --connections); 0: no limit",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::MaxBitrate,
     0,
     "max-bitrate",
     "RATE",
     Type::Text,
     "bit/s",
     0,
     0,
     false,
     "no limit",
     "most bit/s a test may ask in all: iperf3's -b times -P, K/M/G = 1000s\n"
     "(refused: no -b, and tests in which this server sends: it does not pace)",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::Allow,
     0,
     "allow",
     "NET[,NET]",
     Type::Text,
     "",
     0,
     0,
     false,
     "everyone",
     "serve only clients in these networks, e.g. 10.0.0.0/8,2001:db8::/32;\n"
     "others get ACCESS_DENIED at once",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::RateLimit,
     0,
     "rate-limit",
     "N/SECS",
     Type::Text,
     "",
     0,
     0,
     false,
     "60/60",
     "new connections a client address may open in SECS, e.g. 10/1s, 100/1m;\n"
     "more are closed at once; 0: no limit",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::NoInfo,
     0,
     "no-info",
     nullptr,
     Type::Flag,
     "",
     0,
     0,
     false,
     "",
     "refuse the info query (--interfaces -c HOST); tests still work",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},

    {Id::Client, 'c', "client", "HOST", Type::Text, "", 0, 0, false, "",
     "run a test against HOST (NicBench, iperf3, or iperf2 with --iperf2)", Section::Client, AllKinds, nullptr, "host",
     &P::host},
    {Id::Duration, 't', "time", "SECS", Type::Seconds, "s", 0, 86400, false, "10", "test duration; 0: none, with -n",
     Section::Client, AllKinds, "time", "duration", &P::duration},
    {Id::Bytes, 'n', "bytes", "N[KMG]", Type::Size, "bytes", 1, MaxU64, true, "",
     "send this many bytes in total; with -t, the first limit reached ends the test", Section::Client, Stream, "num",
     "bytes", &P::bytes, 1, 1, "byte count must be positive"},
    {Id::Omit, 'O', "omit", "SECS", Type::Seconds, "s", 0, 600, false, "0", "warm-up seconds left out of the results",
     Section::Client, AllKinds, "omit", "omit", &P::omit},
    {Id::Streams, 'P', "parallel", "N", Type::Int, "", 1, MaxStreams, false, "1",
     "parallel streams; a stock iperf3 server takes up to 128;\n"
     "with --latency-under-load, the streams each way",
     Section::Client, Stream | LoadedLatency, "parallel", "streams", &P::streams},
    {Id::Reverse, 'R', "reverse", nullptr, Type::Flag, "", 0, 0, false, "", "download: the server sends",
     Section::Client, Stream, "reverse", "direction", &P::direction, int(Direction::Download)},
    {Id::Bidir, 0, "bidir", nullptr, Type::Flag, "", 0, 0, false, "", "both directions at once", Section::Client,
     Stream, "bidirectional", "direction", &P::direction, int(Direction::Bidirectional)},
    {Id::BlockSize, 'l', "length", "N[KMG]", Type::Size, "bytes", 1, MiB, false, "128K", "buffer length per write",
     Section::Client, Stream | LoadedLatency, "len", "block_size", &P::blockSize, 1, 1,
     "buffer length must be at least 1 byte"},
    {Id::Udp, 'u', "udp", nullptr, Type::Flag, "", 0, 0, false, "",
     "UDP (iperf3 -u): datagrams at -b bit/s; -l defaults to the path's MSS", Section::Client, Stream, "udp", "udp",
     &P::udp},
    {Id::Bitrate, 'b', "bitrate", "RATE", Type::Rate, "bit/s", 0, 1e12, false, "1M",
     "UDP target bit/s per stream, K/M/G = 1000s; 0: unlimited", Section::Client, Stream, "bandwidth", "bitrate",
     &P::bandwidth},
    {Id::PacingTimer, 0, "pacing-timer", "USECS", Type::Int, "us", 1, 1000000, false, "1000",
     "UDP: shortest sleep between bursts of datagrams", Section::Client, Stream, "pacing_timer", "pacing_timer_us",
     &P::pacingTimerUs},
    {Id::UdpCounters64, 0, "udp-counters-64bit", nullptr, Type::Flag, "", 0, 0, false, "",
     "UDP: 64-bit sequence numbers (for very long or fast tests)", Section::Client, Stream, "udp_counters_64bit",
     "udp_counters_64bit", &P::udpCounters64},
    {Id::DontFragment, 0, "dont-fragment", nullptr, Type::Flag, "", 0, 0, false, "",
     "UDP: set DF; a datagram over the path's MTU fails (EMSGSIZE)", Section::Client, Stream | Rr, "dont_fragment",
     "dont_fragment", &P::dontFragment},
    {Id::UdpRrTimeout, 0, "udp-rr-timeout", "MS", Type::Int, "ms", 1, 60000, false, "1000",
     "-u --rr: a request with no response after MS ms is lost (counted, sent anew)", Section::RequestResponse, Rr,
     nullptr, "udp_rr_timeout_ms", &P::udpRrTimeoutMs},
    {Id::Window, 'w', "window", "N[KMG]", Type::Size, "bytes", 0, GiB, false, "", "socket buffer size", Section::Client,
     AllKinds, "window", "window", &P::window},
    {Id::Mss, 'M', "set-mss", "N", Type::Int, "bytes", 88, 9216 * 4, true, "", "TCP maximum segment size",
     Section::Client, AllKinds, "MSS", "mss", &P::mss},
    {Id::NoDelay, 'N', "no-delay", nullptr, Type::Flag, "", 0, 0, false, "", "set TCP_NODELAY", Section::Client,
     AllKinds, "nodelay", "no_delay", &P::noDelay},
    {Id::Congestion, 'C', "congestion", "ALGO", Type::Text, "", 0, 0, false, "",
     "congestion control (Linux), e.g. cubic, bbr", Section::Client, AllKinds, "congestion", "congestion",
     &P::congestion},
    {Id::ZeroCopy, 'Z', "zerocopy", nullptr, Type::Flag, "", 0, 0, false, "",
     "send with sendfile() (no copy from user space)", Section::Client, Stream | LoadedLatency, nullptr, "zerocopy",
     &P::zeroCopy},
    {Id::RxCopy, 0, "rx-copy", nullptr, Type::Flag, "", 0, 0, false, "",
     "copy received data to user space (default: discard in the kernel)", Section::Client, Stream | LoadedLatency,
     "nicbench.rx_copy", "skip_rx_copy", &P::skipRxCopy, 0},
    {Id::Iperf2, 0, "iperf2", nullptr, Type::Flag, "", 0, 0, false, "", "the server is a stock iperf2 (iperf -s)",
     Section::Client, Stream, nullptr, "peer_protocol", &P::protocol, int(PeerProtocol::Iperf2)},
    {Id::ConnectTimeout, 0, "connect-timeout", "S", Type::Seconds, "s", 0.1, 600, false, "5",
     "give up connecting after S seconds", Section::Client, AllKinds, nullptr, nullptr, &P::connectTimeoutMs, 1, 1000},
    // iperf3's names and units: --rcv-timeout in milliseconds, --idle-timeout in seconds.
    {Id::RcvTimeout, 0, "rcv-timeout", "MS", Type::Int, "ms", 100, 86400000, false, "120000",
     "end the test with an error after MS milliseconds in which no data moved", Section::Common, AllKinds, nullptr,
     nullptr, &P::rcvTimeoutMs},
    {Id::IdleTimeout,
     0,
     "idle-timeout",
     "SECS",
     Type::Seconds,
     "s",
     0.5,
     86400,
     false,
     "30",
     "drop a client that takes longer to send a control message",
     Section::Server,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::Threads, 0, "threads", "N", Type::Int, "", 1, 1024, true, "one per core",
     "data threads, each an event loop over its share of the connections; 0: one per core", Section::Common, AllKinds,
     nullptr, "threads", &P::threads},
    {Id::Title, 0, "title", "TEXT", Type::Text, "", 0, 0, false, "", "label for the result", Section::Client, AllKinds,
     "title", "title", &P::title},

    {Id::Rr, 0, "rr", nullptr, Type::Flag, "", 0, 0, false, "",
     "TCP request/response on persistent connections (netperf TCP_RR)", Section::RequestResponse, Rr, "nicbench.test",
     "kind", &P::kind, int(TestKind::Rr)},
    {Id::Crr, 0, "crr", nullptr, Type::Flag, "", 0, 0, false, "", "a new connection per transaction (netperf TCP_CRR)",
     Section::RequestResponse, Crr, "nicbench.test", "kind", &P::kind, int(TestKind::Crr)},
    {Id::RequestSize, 0, "request-size", "N", Type::Size, "bytes", 1, MiB, false, "1", "request bytes",
     Section::RequestResponse, Rr | Crr | LoadedLatency, "nicbench.request_size", "request_size", &P::requestSize, 1, 1,
     "must be at least 1 byte"},
    {Id::ResponseSize, 0, "response-size", "N", Type::Size, "bytes", 1, MiB, false, "1", "response bytes",
     Section::RequestResponse, Rr | Crr | LoadedLatency, "nicbench.response_size", "response_size", &P::responseSize, 1,
     1, "must be at least 1 byte"},
    // The same field as -P: request/response tests count connections, not streams.
    {Id::Connections, 0, "connections", "N", Type::Int, "", 1, MaxConnections, false, "1",
     "concurrent connections; same as -P", Section::RequestResponse, Rr | Crr, "parallel", "streams", &P::streams},
    {Id::InFlight, 0, "in-flight", "N", Type::Int, "", 1, 1024, false, "1",
     "transactions outstanding per connection; --rr only", Section::RequestResponse, Rr, "nicbench.in_flight",
     "in_flight", &P::inFlight},

    {Id::LatencyUnderLoad, 0, "latency-under-load", nullptr, Type::Flag, "", 0, 0, false, "",
     "a request/response probe on its own connection for the whole test while load\n"
     "phases run (download, upload, both); -P streams each way",
     Section::LoadedLatency, LoadedLatency, "nicbench.test", "kind", &P::kind, int(TestKind::LoadedLatency)},
    {Id::PhaseSeconds, 0, "phase-seconds", "SECS", Type::Seconds, "s", 1, 3600, false, "5", "length of each phase",
     Section::LoadedLatency, LoadedLatency, "nicbench.phase_seconds", "phase_seconds", &P::phaseSeconds},
    {Id::Phases, 0, "phases", "LIST", Type::Text, "", 0, 0, false, LoadSchedule::DefaultOrder,
     "the phases in order, from idle, download, upload and bidir", Section::LoadedLatency, LoadedLatency,
     "nicbench.phases", "phases", &P::phases},
    {Id::ProbeDscp, 0, "probe-dscp", "N", Type::Int, "", 0, 63, false, "0",
     "DSCP of the probe's packets (46: EF); 0: unmarked", Section::LoadedLatency, LoadedLatency, "nicbench.probe_dscp",
     "probe_dscp", &P::probeDscp},

    // Credentials for a server that requires authentication; never written to results.
    {Id::Username, 0, "username", "USER", Type::Text, "", 0, 0, false, "",
     "user name for a server that requires authentication (with --rsa-public-key-path);\n"
     "the password comes from IPERF3_PASSWORD, else it is asked for on the terminal",
     Section::Client, AllKinds, nullptr, nullptr, &P::username},
    {Id::RsaPublicKeyPath, 0, "rsa-public-key-path", "FILE", Type::Text, "", 0, 0, false, "",
     "the server's RSA public key (PEM) that encrypts the credentials", Section::Client, AllKinds, nullptr, nullptr,
     &P::rsaPublicKeyPath},

    {Id::Interfaces,
     0,
     "interfaces",
     nullptr,
     Type::Flag,
     "",
     0,
     0,
     false,
     "",
     "list network adapters; with -c HOST, the NicBench server's machine and\n"
     "adapters, and which local adapter reaches which (-B/-c pairs)",
     Section::Other,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::Help,
     'h',
     "help",
     nullptr,
     Type::Flag,
     "",
     0,
     0,
     false,
     "",
     "this help",
     Section::Other,
     NoKind,
     nullptr,
     nullptr,
     {}},
    {Id::Version,
     'v',
     "version",
     nullptr,
     Type::Flag,
     "",
     0,
     0,
     false,
     "",
     "version",
     Section::Other,
     NoKind,
     nullptr,
     nullptr,
     {}},
}};

QString numberText(double v)
{
    return QString::number(v, 'g', 12);
}

QString sectionTitle(Section s)
{
    switch (s) {
    case Section::Common:
        return QStringLiteral("Server or client:");
    case Section::Server:
        return QStringLiteral("Server:");
    case Section::Client:
        return QStringLiteral("Client:");
    case Section::RequestResponse:
        return QStringLiteral("Request/response (needs a NicBench server):");
    case Section::LoadedLatency:
        return QStringLiteral("Latency under load (the probe needs a NicBench server):");
    case Section::Other:
        return QStringLiteral("Other:");
    }
    return {};
}

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

bool isNumeric(const Parameter &p)
{
    return p.type == Type::Int || p.type == Type::Size || p.type == Type::Seconds || p.type == Type::Rate;
}

} // namespace

std::span<const Parameter> parameters()
{
    return kTable;
}

const Parameter &parameter(Id id)
{
    for (const Parameter &p : kTable)
        if (p.id == id)
            return p;
    return kTable.front(); // unreachable: every Id has a row
}

QString flagName(const Parameter &p)
{
    return p.shortFlag ? QStringLiteral("-%1").arg(QLatin1Char(p.shortFlag))
                       : QStringLiteral("--%1").arg(QLatin1String(p.longFlag));
}

QString sizeText(double bytes)
{
    static const std::array<std::pair<double, char>, 3> units = {{{GiB, 'G'}, {MiB, 'M'}, {KiB, 'K'}}};
    for (const auto &[factor, suffix] : units)
        if (bytes >= factor && std::fmod(bytes, factor) == 0)
            return numberText(bytes / factor) + QLatin1Char(suffix);
    return numberText(bytes);
}

QString rangeText(const Parameter &p)
{
    if (p.type == Type::Size)
        return QStringLiteral("%1 to %2").arg(sizeText(p.min), sizeText(p.max));
    return QStringLiteral("%1 to %2").arg(numberText(p.min), numberText(p.max));
}

QString toolTip(const Parameter &p)
{
    QString text = QString::fromLatin1(p.help).replace(QLatin1Char('\n'), QLatin1Char(' '));
    text[0] = text[0].toUpper();
    if (isNumeric(p) && p.max < MaxU64)
        text += QStringLiteral(", %1%2").arg(rangeText(p), *p.unit == 's' ? QStringLiteral(" s") : QString());
    return QStringLiteral("%1 (%2).").arg(text, flagName(p));
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
    return std::none_of(kTable.begin(), kTable.end(), [&](const Parameter &q) {
        return &q != &p && q.field == p.field && (q.kinds & kindBit(kind));
    });
}

QString checkRanges(const TestParams &t)
{
    const unsigned kind = kindBit(t.kind);
    for (const Parameter &p : kTable) {
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

QString optionsHelp()
{
    constexpr qsizetype column = 26;
    QString h;
    for (Section s : {Section::Common, Section::Server, Section::Client, Section::RequestResponse,
                      Section::LoadedLatency, Section::Other}) {
        h += sectionTitle(s) + QLatin1Char('\n');
        for (const Parameter &p : kTable) {
            if (p.section != s)
                continue;
            QString left =
                p.shortFlag ? QStringLiteral("  -%1, ").arg(QLatin1Char(p.shortFlag)) : QStringLiteral("      ");
            left += QStringLiteral("--") + QLatin1String(p.longFlag);
            if (p.valueName)
                left += QLatin1Char(' ') + QLatin1String(p.valueName);
            left = left.leftJustified(column - 1) + QLatin1Char(' ');
            QString text = QLatin1String(p.help);
            text.replace(QLatin1Char('\n'), QLatin1Char('\n') + QString(column, QLatin1Char(' ')));
            // Range and default go after the first clause: "test duration, 0 to 86400 (default 10); ..."
            qsizetype firstLineEnd = text.indexOf(QLatin1Char(';'));
            if (firstLineEnd < 0)
                firstLineEnd = text.indexOf(QLatin1Char('\n'));
            QString extra;
            if ((p.type == Type::Int || p.type == Type::Seconds) && p.id != Id::Port)
                extra += QStringLiteral(", ") + rangeText(p);
            if (*p.defaultText)
                extra += QStringLiteral(" (default %1)").arg(QLatin1String(p.defaultText));
            text.insert(firstLineEnd < 0 ? text.size() : firstLineEnd, extra);
            h += left + text + QLatin1Char('\n');
        }
    }
    h += QStringLiteral("Sizes take K/M/G suffixes (1K = 1024), as in iperf.\n");
    return h;
}

} // namespace nb::param
