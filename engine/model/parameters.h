// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one table of every option and test parameter. The command-line parser, --help,
// TestParams::validate, the iperf3 and snapshot JSON readers, the GUI's fields (ranges,
// tooltips) and a man page generator all walk it, so a range or a default is written
// once. To add a parameter, add a TestParams member and one row in parameters.cpp.

#include "model/testparams.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <span>
#include <variant>

namespace nb::param {

// How a value is written on the command line.
enum class Type {
    Flag,    // no value: sets the field to the row's flagValue
    Int,     // a whole number
    Size,    // bytes with K/M/G suffixes (1K = 1024)
    Seconds, // a decimal number of seconds
    Rate,    // bits per second with K/M/G suffixes (1K = 1000), as iperf3's -b
    Text,    // free text
};

// The --help (and man page) section a row is listed in, in this order.
enum class Section { Common, Server, Client, RequestResponse, LoadedLatency, Agent, Other };

// The test kinds that read a parameter (a bit set).
enum Kinds : unsigned { NoKind = 0, Stream = 1, Rr = 2, Crr = 4, LoadedLatency = 8, AllKinds = 15 };

// One per row, so callers (the GUI's fields, the command line's own options) can name one.
enum class Id {
    Port,
    Bind,
    IPv4,
    IPv6,
    Interval,
    Json,
    JsonStream,
    Verbose,
    Server,
    OneOff,
    RsaPrivateKeyPath,
    AuthorizedUsersPath,
    TimeSkewThreshold,
    MaxDuration,
    MaxStreams,
    MaxBitrate,
    Allow,
    RateLimit,
    NoInfo,
    Client,
    Duration,
    Bytes,
    Omit,
    Streams,
    Reverse,
    Bidir,
    BlockSize,
    Udp,
    Bitrate,
    PacingTimer,
    UdpCounters64,
    DontFragment,
    UdpRrTimeout,
    Window,
    Mss,
    NoDelay,
    Congestion,
    ZeroCopy,
    RxCopy,
    Iperf2,
    ConnectTimeout,
    RcvTimeout,
    IdleTimeout,
    Threads,
    Title,
    Rr,
    Crr,
    RequestSize,
    ResponseSize,
    Connections,
    InFlight,
    LatencyUnderLoad,
    PhaseSeconds,
    Phases,
    ProbeDscp,
    Interfaces,
    Username,
    RsaPublicKeyPath,
    AgentKey,
    AgentTargets,
    From,
    Help,
    Version,
};

// When the results and snapshots (TestParams::toJson) carry a row's JSON key; the readers
// take every row whose kinds include the test's.
enum class Written : unsigned char {
    Always,          // every test
    ForKinds,        // tests of the row's kinds
    WhenSet,         // a non-empty text or a true flag
    Udp,             // UDP tests, streams and request/response
    UdpStream,       // UDP streams
    UdpRr,           // UDP request/response
    Rated,           // UDP streams and paced TCP streams: the rate
    RequestResponse, // TCP_RR, TCP_CRR and UDP_RR
};

// The TestParams member a row sets: generic setters and range checks go through it.
using Field = std::variant<std::monostate, int TestParams::*, quint16 TestParams::*, std::uint32_t TestParams::*,
                           std::uint64_t TestParams::*, double TestParams::*, bool TestParams::*, QString TestParams::*,
                           Direction TestParams::*, TestKind TestParams::*, AddressFamily TestParams::*,
                           PeerProtocol TestParams::*>;

struct Parameter {
    Id id;
    char shortFlag;        // 'P', or 0 when there is only a long flag
    const char *longFlag;  // "parallel"
    const char *valueName; // "N", "SECS"; nullptr for flags
    Type type;
    const char *unit;        // "s", "bytes", "" (for the man page and range texts)
    double min, max;         // accepted range of a given value, in the unit
    bool zeroIsNone;         // 0 also accepted, meaning "not set / system default"
    const char *defaultText; // as --help shows it; "" for none
    const char *help;        // one line; a '\n' continues on an indented second line
    Section section;
    unsigned kinds;       // Kinds bits; NoKind for options that are no test parameter
    const char *iperfKey; // key in iperf3's parameter JSON ("nicbench.x": in our extension)
    const char *jsonKey;  // key in TestParams::toJson (results, snapshots)
    Field field;
    int flagValue = 1;                 // Flag rows: the value stored (an enum value or 0/1)
    double scale = 1;                  // stored = given * scale (seconds given, milliseconds kept)
    const char *tooSmall = nullptr;    // command-line message for a size below min
    Written written = Written::Always; // when TestParams::toJson writes jsonKey
};

std::span<const Parameter> parameters();
// The row of an option.
const Parameter &parameter(Id id);

// "-P" or "--connections": how messages name the option.
QString flagName(const Parameter &p);
// "128K", "1M", "1G": the inverse of nb::parseSize for whole multiples, else the number.
QString sizeText(double bytes);
// "1 to 128", "0.1 to 60", "1 to 1M": the range as --help and tooltips write it.
QString rangeText(const Parameter &p);
// The help text plus range and default, for tooltips: "Parallel streams, 1 to 128 (-P)."
QString toolTip(const Parameter &p);

// Int, Size, Seconds and Rate rows: a value that is a number (with a range).
bool isNumeric(const Parameter &p);
// A numeric field's value as a double, and the reverse (rounded to the field's type).
double numericValue(const TestParams &t, const Parameter &p);
void setNumericValue(TestParams *t, const Parameter &p, double value);
// Flag rows: stores the row's flagValue; Text rows: stores the text.
void setFlag(TestParams *t, const Parameter &p);
void setText(TestParams *t, const Parameter &p, const QString &value);
// Whether value lies in the row's range (0 included when zeroIsNone).
bool inRange(const Parameter &p, double value);
// Whether readers of a test of this kind take the row. -P and --connections fill the same
// field with their own limits, so each speaks for its kinds only; every other row is read
// whatever the kind.
bool appliesTo(const Parameter &p, TestKind kind);
// The first numeric parameter of the test's kind that is out of range, as a one-line
// message; empty when all are in range.
QString checkRanges(const TestParams &t);

// The table's JSON keys of a test (results' and snapshots' "params"), each row by its
// Written rule; the enumerations (family, direction, peer_protocol, kind) as names.
QJsonObject paramsJson(const TestParams &t);

// --help text for the options, generated from the table.
// The option lines of --help. For the window (`window`): without the server's and the
// agents' options, which it refuses (its server is the built-in one on loopback).
QString optionsHelp(bool window = false);

} // namespace nb::param
