// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a server takes from whom: the allow-list, the per-client connection rate, the
// limits on a test's duration, streams and bitrate, the info query, and how much of its
// connection chatter it logs. ServerPolicy is the value (ServerOptions::policy, set from
// the command line); the rest are pure functions and two small classes with state that
// take the time as an argument, so tests drive them with their own clock.

#include "model/parameters.h"
#include "model/testparams.h"

#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace nb {

// An allowed network: an address and its prefix length (10.0.0.0/8, 2001:db8::/32).
using Subnet = QPair<QHostAddress, int>;

// At most `count` new connections per client address in `seconds`: a client may open
// `count` at once, then one every seconds / count (a token bucket). count 0: no limit.
struct RateLimit {
    int count = 60;
    double seconds = 60;
    bool operator==(const RateLimit &) const = default;
};

struct ServerPolicy {
    double maxDurationSecs = 3600; // omit + time of a test, and the run time of a -n test; 0: no limit
    int maxStreams = 0;            // -P / --connections; 0: no limit
    double maxBitrate = 0;         // bit/s a client may ask with -b; 0: no limit
    QList<Subnet> allow;           // clients allowed; empty: everyone
    RateLimit rateLimit;           // connections per client address
    bool noInfo = false;           // refuse the info query (docs/protocol.md §2.6)
};

// "10.0.0.0/8,192.168.1.7,2001:db8::/32": comma-separated networks; an address without a
// prefix is that one host. nullopt and *error (naming the option) for anything else.
std::optional<QList<Subnet>> parseNetworks(const QString &text, const QString &option, QString *error);
std::optional<QList<Subnet>> parseAllowList(const QString &text, QString *error); // --allow
// Whether the address lies in one of the networks. IPv4-mapped IPv6 addresses
// (::ffff:10.1.2.3, what a dual-stack listener reports) match IPv4 networks.
bool inNetworks(const QList<Subnet> &networks, const QHostAddress &address);
// "60/60" (60 per 60 s), "10/1", "100/1m", "1000/1h"; "0": no limit.
std::optional<RateLimit> parseRateLimit(const QString &text, QString *error);
QString rateLimitText(const RateLimit &limit);

// The command line's policy options (rows of the parameter table with no TestParams field):
// whether a row is one, and storing its value (already checked against the row's type and
// range) in *policy. False with a one-line *error for a value the row cannot check.
bool isPolicyOption(param::Id id);
bool setPolicyOption(param::Id id, const QString &value, ServerPolicy *policy, QString *error);

// The key under which a client's connections are counted (rate limit, repeat holders): an
// IPv4 address (a mapped ::ffff:a.b.c.d too) as it is, an IPv6 address by its /64, the
// smallest network one host is usually given.
QString clientKey(const QHostAddress &peer);

// Whether the policy's allow-list takes this client. IPv4-mapped IPv6 addresses
// (::ffff:10.1.2.3, what a dual-stack listener reports) match IPv4 networks.
bool isAllowed(const ServerPolicy &policy, const QHostAddress &peer);

// The bitrate a client asks for (iperf3's "bandwidth" parameter, -b; 0 or absent:
// unlimited). nullopt for a value that is not a non-negative number.
std::optional<double> requestedBitrate(const QJsonObject &iperfParams);

// Why the policy refuses a test: iperf3's error number for SERVER_ERROR (the one a stock
// iperf3 client prints best) and a one-line message for people. Empty: accepted.
struct PolicyRefusal {
    int iperfError = 0;
    QString message;
    bool refused() const { return !message.isEmpty(); }
};
PolicyRefusal checkParams(const ServerPolicy &policy, const TestParams &params, double bitrate);
// A -n test (no -t) that is still running at the duration limit: the message it ends with.
PolicyRefusal durationReached(const ServerPolicy &policy);

// Who may open a control connection now: the allow-list, then repeat holders, then the
// rate limit, each client counted under clientKey(). Keeps one token bucket per client;
// at most MaxTracked of them (buckets that are full again are dropped first; when the
// table is still full of active clients, new ones share one bucket, so thousands of
// source addresses cannot reset anyone's allowance).
// A holder is a connection that took a place among the connections starting a test and
// sent no cookie and parameters in time (docs/protocol.md §2.9): HoldStrikes of them from
// one client within HoldWindowSecs refuse that client for HoldPenaltySecs.
class Admission {
public:
    enum class Verdict { Admit, NotAllowed, RateLimited, Held };
    static constexpr int MaxTracked = 4096;
    static constexpr int HoldStrikes = 3;
    static constexpr double HoldWindowSecs = 60;
    static constexpr double HoldPenaltySecs = 60;

    explicit Admission(ServerPolicy policy = {}) : m_policy(std::move(policy)) {}
    // countRate false: the allow-list only (a connection refused as busy costs no rate).
    Verdict admit(const QHostAddress &peer, double nowSecs, bool countRate = true);
    // A connection from peer held a place and started nothing before its deadline. True
    // when this strike refuses the client (at most once per client and HoldPenaltySecs).
    bool held(const QHostAddress &peer, double nowSecs);
    int notAllowed() const { return m_notAllowed; }
    int rateLimited() const { return m_rateLimited; }
    int heldRefused() const { return m_heldRefused; }
    int tracked() const { return int(m_buckets.size()); }

private:
    struct Bucket {
        double tokens = 0;
        double updated = 0;
    };
    struct Holder {
        int strikes = 0;
        double firstStrike = 0;
        double refusedUntil = 0;
    };
    void prune(double nowSecs);
    bool isHeldOut(const QString &key, double nowSecs);

    ServerPolicy m_policy;
    QHash<QString, Bucket> m_buckets;
    QHash<QString, Holder> m_holders;
    int m_notAllowed = 0;
    int m_rateLimited = 0;
    int m_heldRefused = 0;
};

// Keeps a server's log readable under a flood of connections. Within each window the
// first refusal per (client, reason) is logged and the rest only counted, and at most
// `budget` lines are logged in all; when the window is over, due() returns one summary
// per client ("Refused 1,998 more connections from 127.0.0.1 in the last 60 s: ...", the
// busiest MaxSummaries clients, then one line for the others) and one for the other lines
// held back. Every line is made printable (core/sanitize.h).
class LogLimiter {
public:
    static constexpr int MaxSummaries = 10;
    explicit LogLimiter(int budget = 60, double windowSecs = 60) : m_budget(budget), m_window(windowSecs) {}
    // The line to log now, or nullopt when it is only counted.
    std::optional<QString> refused(const QString &client, const QString &reason, double nowSecs);
    std::optional<QString> line(const QString &text, double nowSecs);
    // Summaries of the window that ended by nowSecs (empty while it runs).
    QStringList due(double nowSecs);

private:
    void open(double nowSecs);
    bool spend();

    int m_budget;
    double m_window;
    double m_start = -1; // -1: no window open
    int m_logged = 0;
    int m_heldLines = 0;
    QHash<QString, int> m_heldRefusals; // "client\nreason" -> refusals not logged
    QHash<QString, bool> m_seen;        // (client, reason) logged once in this window
};

} // namespace nb
