// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/serverpolicy.h"

#include "core/format.h"
#include "core/sanitize.h"
#include "core/units.h"
#include "net/socket.h"
#include "protocol/protocol.h"

#include <QJsonValue>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace nb {

namespace {

// iperf3's own numbers for these refusals: what a stock client prints best ("test duration
// too long", "number of parallel streams too large", "total required bandwidth is larger
// than server limit"). Its texts name iperf3's own maximums, so ours carry the real one.
constexpr int IeDuration = 5;
constexpr int IeNumStreams = 6;
constexpr int IeTotalRate = 27;
// IESETPACING, "unable to set socket pacing": a stock client's words for a TCP rate this
// server does not pace.
constexpr int IeSetPacing = 140;

// Tables of clients in LogLimiter stay this small whatever arrives.
constexpr int MaxLogKeys = 4096;

QString seconds(double s)
{
    return QString::number(s, 'g', 10);
}

QString grouped(int n)
{
    QLocale english(QLocale::English);
    return english.toString(n);
}

// The address a dual-stack socket reports for an IPv4 client is ::ffff:a.b.c.d.
QHostAddress unmapped(const QHostAddress &a)
{
    bool isV4 = false;
    const quint32 v4 = a.toIPv4Address(&isV4);
    return isV4 ? QHostAddress(v4) : a;
}

} // namespace

QString clientKey(const QHostAddress &peer)
{
    const QHostAddress plain = unmapped(peer);
    if (plain.protocol() != QAbstractSocket::IPv6Protocol)
        return plain.toString();
    Q_IPV6ADDR bytes = plain.toIPv6Address();
    std::fill(std::begin(bytes.c) + 8, std::end(bytes.c), quint8(0));
    return QHostAddress(bytes).toString() + QStringLiteral("/64");
}

std::optional<QList<Subnet>> parseNetworks(const QString &text, const QString &option, QString *error)
{
    QList<Subnet> out;
    const QStringList items = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (items.isEmpty()) {
        *error = QStringLiteral("%1 needs at least one network, e.g. 10.0.0.0/8,2001:db8::/32").arg(option);
        return std::nullopt;
    }
    for (QString item : items) {
        item = item.trimmed();
        Subnet s{QHostAddress(), -1};
        if (item.contains(QLatin1Char('/'))) {
            s = QHostAddress::parseSubnet(item);
        } else if (QHostAddress a; a.setAddress(item)) {
            s = {a, a.protocol() == QAbstractSocket::IPv6Protocol ? 128 : 32};
        }
        if (s.first.isNull() || s.second < 0) {
            *error = QStringLiteral("%1: '%2' is not a network (ADDRESS/PREFIX, e.g. 10.0.0.0/8)")
                         .arg(option, printable(item, 60));
            return std::nullopt;
        }
        out.append(s);
    }
    return out;
}

std::optional<QList<Subnet>> parseAllowList(const QString &text, QString *error)
{
    return parseNetworks(text, QStringLiteral("--allow"), error);
}

std::optional<RateLimit> parseRateLimit(const QString &text, QString *error)
{
    const QString t = text.trimmed();
    if (t == QLatin1String("0"))
        return RateLimit{0, 60};
    static const QRegularExpression re(QStringLiteral("^(\\d{1,9})/(\\d*\\.?\\d*)\\s*(s|m|min|h)?$"));
    const QRegularExpressionMatch m = re.match(t);
    const auto bad = [&] {
        *error = QStringLiteral("--rate-limit: '%1' is not N/SECS (e.g. 60/60, 10/1s, 100/1m, or 0 for no limit)")
                     .arg(printable(t, 60));
        return std::nullopt;
    };
    if (!m.hasMatch() || (m.captured(2).isEmpty() && m.captured(3).isEmpty()))
        return bad();
    const double number = m.captured(2).isEmpty() ? 1 : m.captured(2).toDouble();
    const QString unit = m.captured(3);
    const double scale = unit == QLatin1String("h") ? 3600 : unit.startsWith(QLatin1Char('m')) ? 60 : 1;
    RateLimit r{m.captured(1).toInt(), number * scale};
    if (r.count < 0 || !(r.seconds > 0) || r.seconds > 86400) {
        *error = QStringLiteral("--rate-limit: the period must be more than 0 and at most one day");
        return std::nullopt;
    }
    return r;
}

QString rateLimitText(const RateLimit &limit)
{
    if (limit.count <= 0)
        return QStringLiteral("no limit");
    return QStringLiteral("%1 connection%2 per %3 s")
        .arg(limit.count)
        .arg(limit.count == 1 ? QString() : QStringLiteral("s"), seconds(limit.seconds));
}

bool isPolicyOption(param::Id id)
{
    switch (id) {
    case param::Id::MaxDuration:
    case param::Id::MaxStreams:
    case param::Id::MaxBitrate:
    case param::Id::Allow:
    case param::Id::RateLimit:
    case param::Id::NoInfo:
        return true;
    default:
        return false;
    }
}

bool setPolicyOption(param::Id id, const QString &value, ServerPolicy *policy, QString *error)
{
    switch (id) {
    case param::Id::MaxDuration:
        policy->maxDurationSecs = parseSeconds(value).value_or(policy->maxDurationSecs);
        return true;
    case param::Id::MaxStreams:
        policy->maxStreams = value.toInt();
        return true;
    case param::Id::MaxBitrate: {
        QString e;
        const std::optional<double> rate = parseRate(value, &e);
        if (!rate) {
            *error = QStringLiteral("--max-bitrate: %1").arg(e);
            return false;
        }
        policy->maxBitrate = *rate;
        return true;
    }
    case param::Id::Allow: {
        const auto allow = parseAllowList(value, error);
        if (!allow)
            return false;
        policy->allow += *allow;
        return true;
    }
    case param::Id::RateLimit: {
        const auto limit = parseRateLimit(value, error);
        if (!limit)
            return false;
        policy->rateLimit = *limit;
        return true;
    }
    case param::Id::NoInfo:
        policy->noInfo = true;
        return true;
    default:
        return true;
    }
}

bool inNetworks(const QList<Subnet> &networks, const QHostAddress &address)
{
    const QHostAddress plain = unmapped(address);
    return std::any_of(networks.cbegin(), networks.cend(), [&](const Subnet &s) {
        // Both forms: an IPv4 network takes a mapped address, and a network written in the
        // mapped form (::ffff:0:0/96) still takes what it names.
        return plain.isInSubnet(s) || address.isInSubnet(s);
    });
}

bool isAllowed(const ServerPolicy &policy, const QHostAddress &peer)
{
    return policy.allow.isEmpty() || inNetworks(policy.allow, peer);
}

std::optional<double> requestedBitrate(const QJsonObject &iperfParams)
{
    const QJsonValue v = iperfParams.value(QStringLiteral("bandwidth"));
    if (v.isUndefined() || v.isNull())
        return 0.0;
    const std::optional<double> d = proto::toDouble(v);
    if (!d || !std::isfinite(*d) || *d < 0)
        return std::nullopt;
    return d;
}

PolicyRefusal checkParams(const ServerPolicy &policy, const TestParams &params, double bitrate)
{
    if (policy.maxDurationSecs > 0 && params.isTimed() && params.omit + params.duration > policy.maxDurationSecs)
        return {IeDuration,
                QStringLiteral("the test would run %1 s (-O %2 plus -t %3); this server allows at most %4 s "
                               "(--max-duration)")
                    .arg(seconds(params.omit + params.duration), seconds(params.omit), seconds(params.duration),
                         seconds(policy.maxDurationSecs))};
    if (policy.maxStreams > 0 && params.streams > policy.maxStreams) {
        const bool rr = params.isRequestResponse();
        return {IeNumStreams, QStringLiteral("%1 %2 asked (%3); this server allows at most %4 (--max-streams)")
                                  .arg(params.streams)
                                  .arg(rr ? QStringLiteral("connections") : QStringLiteral("parallel streams"),
                                       rr ? QStringLiteral("--connections") : QStringLiteral("-P"))
                                  .arg(policy.maxStreams)};
    }
    const bool serverSends = params.isReverse() || params.isBidir();
    // This server paces UDP, and TCP where the system can (net::CanPaceTcp): elsewhere a TCP
    // test asking a rate for what it sends would run unpaced and pass for the rate asked.
    const bool pacesItsSending = params.udp || net::CanPaceTcp;
    if (bitrate > 0 && !pacesItsSending && serverSends && params.kind == TestKind::Stream)
        return {IeSetPacing, QStringLiteral("this server does not pace TCP on this system: -b with -R or --bidir is "
                                            "taken for UDP tests (-u) only")};
    if (policy.maxBitrate > 0) {
        const QString cap = formatBitrate(policy.maxBitrate);
        // Request/response is never paced, and a sending test only where this server paces.
        if (params.isRequestResponse())
            return {IeTotalRate, QStringLiteral("this server limits the bitrate to %1 (--max-bitrate) and cannot pace "
                                                "request/response tests (--rr, --crr)")
                                     .arg(cap)};
        if (serverSends && !pacesItsSending)
            return {IeTotalRate, QStringLiteral("this server limits the bitrate to %1 (--max-bitrate) and cannot pace "
                                                "its own TCP sending on this system: only tests in which the client "
                                                "sends, or UDP tests, are taken")
                                     .arg(cap)};
        if (bitrate <= 0)
            return {IeTotalRate,
                    QStringLiteral("an unlimited bitrate was asked; this server allows at most %1 in total "
                                   "(--max-bitrate): ask a rate with -b")
                        .arg(cap)};
        const int directions = params.isBidir() ? 2 : 1;
        const double total = bitrate * params.streams * directions;
        if (total > policy.maxBitrate)
            return {IeTotalRate, QStringLiteral("%1 in total was asked (-b %2 times -P %3%4); this server allows at "
                                                "most %5 (--max-bitrate)")
                                     .arg(formatBitrate(total), formatBitrate(bitrate))
                                     .arg(params.streams)
                                     .arg(directions == 2 ? QStringLiteral(" times 2 directions") : QString())
                                     .arg(cap)};
    }
    return {};
}

PolicyRefusal durationReached(const ServerPolicy &policy)
{
    return {IeDuration, QStringLiteral("the test ran for %1 s, the most this server allows (--max-duration); a -n "
                                       "test ends there")
                            .arg(seconds(policy.maxDurationSecs))};
}

Admission::Verdict Admission::admit(const QHostAddress &peer, double nowSecs, bool countRate)
{
    if (!isAllowed(m_policy, peer)) {
        ++m_notAllowed;
        return Verdict::NotAllowed;
    }
    if (!countRate)
        return Verdict::Admit;
    QString key = clientKey(peer);
    if (isHeldOut(key, nowSecs)) {
        ++m_heldRefused;
        return Verdict::Held;
    }
    const RateLimit &r = m_policy.rateLimit;
    if (r.count <= 0)
        return Verdict::Admit;
    auto it = m_buckets.find(key);
    if (it == m_buckets.end()) {
        // One place is kept for the bucket the newcomers share when the table is still full
        // of clients inside their period.
        if (m_buckets.size() >= MaxTracked - 1)
            prune(nowSecs);
        if (m_buckets.size() >= MaxTracked - 1)
            key = QStringLiteral("other clients");
        it = m_buckets.find(key);
        if (it == m_buckets.end())
            it = m_buckets.insert(key, Bucket{double(r.count), nowSecs});
    }
    Bucket &b = *it;
    const double perSecond = r.count / r.seconds;
    b.tokens = std::min(double(r.count), b.tokens + std::max(0.0, nowSecs - b.updated) * perSecond);
    b.updated = nowSecs;
    if (b.tokens < 1) {
        ++m_rateLimited;
        return Verdict::RateLimited;
    }
    b.tokens -= 1;
    return Verdict::Admit;
}

void Admission::prune(double nowSecs)
{
    const RateLimit &r = m_policy.rateLimit;
    for (auto it = m_buckets.begin(); it != m_buckets.end();) {
        // Full again: the same as a client never seen.
        if (it->tokens + (nowSecs - it->updated) * r.count / r.seconds >= r.count)
            it = m_buckets.erase(it);
        else
            ++it;
    }
}

bool Admission::held(const QHostAddress &peer, double nowSecs)
{
    const QString key = clientKey(peer);
    if (!m_holders.contains(key) && m_holders.size() >= MaxTracked) {
        for (auto it = m_holders.begin(); it != m_holders.end();)
            it = nowSecs - it->firstStrike > HoldWindowSecs && it->refusedUntil < nowSecs ? m_holders.erase(it) : ++it;
        if (m_holders.size() >= MaxTracked)
            return false; // thousands of holders at once: the caps on waiting connections still hold
    }
    Holder &h = m_holders[key];
    if (nowSecs - h.firstStrike > HoldWindowSecs) {
        h.strikes = 0;
        h.firstStrike = nowSecs;
    }
    if (++h.strikes < HoldStrikes)
        return false;
    h.refusedUntil = nowSecs + HoldPenaltySecs;
    h.strikes = 0;
    h.firstStrike = nowSecs;
    return true;
}

bool Admission::isHeldOut(const QString &key, double nowSecs)
{
    const auto it = m_holders.constFind(key);
    return it != m_holders.cend() && nowSecs < it->refusedUntil;
}

void LogLimiter::open(double nowSecs)
{
    if (m_start < 0)
        m_start = nowSecs;
}

bool LogLimiter::spend()
{
    if (m_logged >= m_budget)
        return false;
    ++m_logged;
    return true;
}

std::optional<QString> LogLimiter::refused(const QString &client, const QString &reason, double nowSecs)
{
    open(nowSecs);
    QString key = client + QLatin1Char('\n') + reason;
    if (!m_seen.contains(key) && m_seen.size() < MaxLogKeys && spend()) {
        m_seen.insert(key, true);
        return printable(QStringLiteral("Refused a connection from %1: %2").arg(client, reason), 300);
    }
    if (!m_heldRefusals.contains(key) && m_heldRefusals.size() >= MaxLogKeys)
        key = QStringLiteral("other clients\n") + reason;
    ++m_heldRefusals[key];
    return std::nullopt;
}

std::optional<QString> LogLimiter::line(const QString &text, double nowSecs)
{
    open(nowSecs);
    if (spend())
        return printable(text, 500);
    ++m_heldLines;
    return std::nullopt;
}

QStringList LogLimiter::due(double nowSecs)
{
    QStringList out;
    if (m_start < 0 || nowSecs - m_start < m_window)
        return out;
    QList<QPair<int, QString>> held;
    for (auto it = m_heldRefusals.cbegin(); it != m_heldRefusals.cend(); ++it)
        held.append({it.value(), it.key()});
    std::sort(held.begin(), held.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    const QString window = seconds(std::round(nowSecs - m_start));
    int otherConnections = 0, otherClients = 0;
    for (int i = 0; i < held.size(); ++i) {
        if (i >= MaxSummaries) {
            otherConnections += held[i].first;
            ++otherClients;
            continue;
        }
        const QString client = held[i].second.section(QLatin1Char('\n'), 0, 0);
        const QString reason = held[i].second.section(QLatin1Char('\n'), 1);
        out.append(printable(QStringLiteral("Refused %1 more connection%2 from %3 in the last %4 s: %5")
                                 .arg(grouped(held[i].first), held[i].first == 1 ? QString() : QStringLiteral("s"),
                                      client, window, reason),
                             300));
    }
    if (otherClients > 0)
        out.append(QStringLiteral("Refused %1 more connections from %2 other clients in the last %3 s")
                       .arg(grouped(otherConnections), grouped(otherClients), window));
    if (m_heldLines > 0)
        out.append(QStringLiteral("Held back %1 more log line%2 about connections in the last %3 s")
                       .arg(grouped(m_heldLines), m_heldLines == 1 ? QString() : QStringLiteral("s"), window));
    m_start = -1;
    m_logged = 0;
    m_heldLines = 0;
    m_heldRefusals.clear();
    m_seen.clear();
    return out;
}

} // namespace nb
