// SPDX-License-Identifier: GPL-3.0-or-later
// The server's policy as pure functions: allow-list matching, the per-client rate limit
// and the log limiter on a clock the test drives, the parameter checks, the command-line
// options (and the shipped environment file), and the text sanitizer for peer strings.
#include "core/sanitize.h"
#include "net/socket.h"
#include "platform/hostenvironment.h"
#include "session/commandline.h"
#include "session/serverinfo.h"
#include "session/serverpolicy.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace nb;

namespace {

QStringList split(const QString &args)
{
    return args.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

ServerPolicy allowOnly(const QString &networks)
{
    ServerPolicy p;
    QString error;
    if (!networks.isEmpty())
        p.allow = parseAllowList(networks, &error).value_or(QList<Subnet>{});
    return p;
}

} // namespace

class TestServerPolicy : public QObject {
    Q_OBJECT

private slots:
    void printable_data();
    void printable();
    void terminalSafe_data();
    void terminalSafe();
    void allowList_data();
    void allowList();
    void allowed_data();
    void allowed();
    void rateLimitSyntax_data();
    void rateLimitSyntax();
    void rateLimit();
    void rateLimitTableStaysBounded();
    void rateLimitKeysIpv6By64();
    void repeatHoldersAreRefused();
    void checkParams_data();
    void checkParams();
    void requestedBitrate_data();
    void requestedBitrate();
    void logCollapsesRefusals();
    void logBudgetAndManyClients();
    void commandLine();
    void commandLineErrors_data();
    void commandLineErrors();
    void shippedEnvironmentFile();
    void helloHostCarriesNoMac();
};

void TestServerPolicy::terminalSafe_data()
{
    QTest::addColumn<QString>("in");
    QTest::addColumn<QString>("out");
    QTest::newRow("plain, lines kept") << QStringLiteral("a\tb\nc") << QStringLiteral("a\tb\nc");
    QTest::newRow("CSI shown") << QStringLiteral("x\x1b[2Jy") << QStringLiteral("x\\x1b[2Jy");
    QTest::newRow("C1 CSI shown") << QString(QChar(0x9b)) + QStringLiteral("31m") << QStringLiteral("\\x9b31m");
    QTest::newRow("carriage return shown") << QStringLiteral("ok\rFAIL") << QStringLiteral("ok\\x0dFAIL");
    QTest::newRow("bidi override shown") << QString(QChar(0x202e)) + QStringLiteral("txt.exe")
                                         << QStringLiteral("\\u202etxt.exe");
    QTest::newRow("accents and CJK kept") << QStringLiteral("Ethernet-Verbindung \u00e9 \u7f51\u5361")
                                          << QStringLiteral("Ethernet-Verbindung \u00e9 \u7f51\u5361");
}

void TestServerPolicy::terminalSafe()
{
    QFETCH(QString, in);
    QFETCH(QString, out);
    QCOMPARE(nb::terminalSafe(in), out);
}

void TestServerPolicy::printable_data()
{
    QTest::addColumn<QString>("in");
    QTest::addColumn<int>("maxLen");
    QTest::addColumn<QString>("out");
    QTest::newRow("plain") << QStringLiteral("nicbench 0.1.0") << 200 << QStringLiteral("nicbench 0.1.0");
    QTest::newRow("CSI colour") << QStringLiteral("3.12\x1b[31mred\x1b[0m") << 200
                                << QStringLiteral("3.12?[31mred?[0m");
    QTest::newRow("OSC title") << QStringLiteral("\x1b]0;owned\x07x") << 200 << QStringLiteral("?]0;owned?x");
    QTest::newRow("newline and tab") << QStringLiteral("a\nb\tc\r") << 200 << QStringLiteral("a?b?c?");
    QTest::newRow("C1 CSI and DEL") << QString(QChar(0x9b)) + QStringLiteral("2J") + QChar(0x7f) << 200
                                    << QStringLiteral("?2J?");
    QTest::newRow("bidi override") << QStringLiteral("abc") + QChar(0x202e) + QStringLiteral("fed") << 200
                                   << QStringLiteral("abc?fed");
    QTest::newRow("zero-width space") << QStringLiteral("a") + QChar(0x200b) + QStringLiteral("b") << 200
                                      << QStringLiteral("a?b");
    QTest::newRow("accents kept") << QStringLiteral("Müller – café") << 200 << QStringLiteral("Müller – café");
    QTest::newRow("emoji kept, one character") << QStringLiteral("x\U0001F600y") << 3 << QStringLiteral("x\U0001F600y");
    QTest::newRow("lone surrogate") << QStringLiteral("a") + QChar(0xd800) + QStringLiteral("b") << 200
                                    << QStringLiteral("a?b");
    QTest::newRow("cut") << QStringLiteral("abcdef") << 3 << QStringLiteral("abc...");
    QTest::newRow("no cut with 0") << QString(300, QLatin1Char('a')) << 0 << QString(300, QLatin1Char('a'));
    QTest::newRow("empty") << QString() << 10 << QString();
}

void TestServerPolicy::printable()
{
    QFETCH(QString, in);
    QFETCH(int, maxLen);
    QFETCH(QString, out);
    QCOMPARE(nb::printable(in, maxLen), out);
}

void TestServerPolicy::allowList_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("networks"); // -1: refused
    QTest::newRow("one v4") << QStringLiteral("10.0.0.0/8") << 1;
    QTest::newRow("v4 and v6") << QStringLiteral("10.0.0.0/8,2001:db8::/32") << 2;
    QTest::newRow("host without prefix") << QStringLiteral("192.0.2.7") << 1;
    QTest::newRow("v6 host") << QStringLiteral("::1") << 1;
    QTest::newRow("spaces and empty items") << QStringLiteral(" 10.0.0.0/8 ,, 192.168.0.0/16") << 2;
    QTest::newRow("empty") << QString() << -1;
    QTest::newRow("name") << QStringLiteral("example.com") << -1;
    QTest::newRow("prefix too long v4") << QStringLiteral("10.0.0.0/33") << -1;
    QTest::newRow("prefix too long v6") << QStringLiteral("2001:db8::/129") << -1;
    QTest::newRow("bad address") << QStringLiteral("10.0.0.300/8") << -1;
    QTest::newRow("one bad item") << QStringLiteral("10.0.0.0/8,nonsense") << -1;
}

void TestServerPolicy::allowList()
{
    QFETCH(QString, text);
    QFETCH(int, networks);
    QString error;
    const auto list = parseAllowList(text, &error);
    if (networks < 0) {
        QVERIFY(!list);
        QVERIFY(error.startsWith(QLatin1String("--allow")));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    } else {
        QVERIFY2(list, qPrintable(error));
        QCOMPARE(list->size(), networks);
    }
}

void TestServerPolicy::allowed_data()
{
    QTest::addColumn<QString>("networks");
    QTest::addColumn<QString>("peer");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("no list: everyone") << QString() << QStringLiteral("203.0.113.9") << true;
    QTest::newRow("v4 inside") << QStringLiteral("10.0.0.0/8") << QStringLiteral("10.1.2.3") << true;
    QTest::newRow("v4 outside") << QStringLiteral("10.0.0.0/8") << QStringLiteral("11.0.0.1") << false;
    QTest::newRow("v4 edge") << QStringLiteral("192.168.1.0/24") << QStringLiteral("192.168.1.255") << true;
    QTest::newRow("v4 past edge") << QStringLiteral("192.168.1.0/24") << QStringLiteral("192.168.2.0") << false;
    QTest::newRow("mapped v4 inside") << QStringLiteral("10.0.0.0/8") << QStringLiteral("::ffff:10.1.2.3") << true;
    QTest::newRow("mapped v4 outside") << QStringLiteral("10.0.0.0/8") << QStringLiteral("::ffff:11.1.2.3") << false;
    QTest::newRow("mapped network") << QStringLiteral("::ffff:0:0/96") << QStringLiteral("::ffff:10.1.2.3") << true;
    QTest::newRow("v6 inside") << QStringLiteral("2001:db8::/32") << QStringLiteral("2001:db8:1::5") << true;
    QTest::newRow("v6 outside") << QStringLiteral("2001:db8::/32") << QStringLiteral("2001:db9::1") << false;
    QTest::newRow("v6 loopback is not 127/8") << QStringLiteral("127.0.0.0/8") << QStringLiteral("::1") << false;
    QTest::newRow("v4 is not in a v6 list") << QStringLiteral("2001:db8::/32") << QStringLiteral("10.0.0.1") << false;
    QTest::newRow("single host") << QStringLiteral("127.0.0.2") << QStringLiteral("127.0.0.2") << true;
    QTest::newRow("single host, neighbour") << QStringLiteral("127.0.0.2") << QStringLiteral("127.0.0.1") << false;
    QTest::newRow("second network") << QStringLiteral("10.0.0.0/8,::1") << QStringLiteral("::1") << true;
}

void TestServerPolicy::allowed()
{
    QFETCH(QString, networks);
    QFETCH(QString, peer);
    QFETCH(bool, allowed);
    const ServerPolicy p = allowOnly(networks);
    QCOMPARE(networks.isEmpty(), p.allow.isEmpty());
    QCOMPARE(isAllowed(p, QHostAddress(peer)), allowed);
    Admission a(p);
    QCOMPARE(a.admit(QHostAddress(peer), 0) == Admission::Verdict::Admit, allowed);
    QCOMPARE(a.notAllowed(), allowed ? 0 : 1);
}

void TestServerPolicy::rateLimitSyntax_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("count"); // -1: refused
    QTest::addColumn<double>("seconds");
    QTest::newRow("per minute") << QStringLiteral("60/60") << 60 << 60.0;
    QTest::newRow("seconds suffix") << QStringLiteral("10/1s") << 10 << 1.0;
    QTest::newRow("minute suffix") << QStringLiteral("100/1m") << 100 << 60.0;
    QTest::newRow("min word") << QStringLiteral("100/min") << 100 << 60.0;
    QTest::newRow("hour") << QStringLiteral("1000/2h") << 1000 << 7200.0;
    QTest::newRow("fraction") << QStringLiteral("5/0.5") << 5 << 0.5;
    QTest::newRow("off") << QStringLiteral("0") << 0 << 60.0;
    QTest::newRow("no period") << QStringLiteral("60") << -1 << 0.0;
    QTest::newRow("zero period") << QStringLiteral("60/0") << -1 << 0.0;
    QTest::newRow("negative") << QStringLiteral("-1/60") << -1 << 0.0;
    QTest::newRow("too long a period") << QStringLiteral("1/2d") << -1 << 0.0;
    QTest::newRow("garbage") << QStringLiteral("lots") << -1 << 0.0;
}

void TestServerPolicy::rateLimitSyntax()
{
    QFETCH(QString, text);
    QFETCH(int, count);
    QFETCH(double, seconds);
    QString error;
    const auto r = parseRateLimit(text, &error);
    if (count < 0) {
        QVERIFY(!r);
        QVERIFY(error.startsWith(QLatin1String("--rate-limit")));
        return;
    }
    QVERIFY2(r, qPrintable(error));
    QCOMPARE(r->count, count);
    QCOMPARE(r->seconds, seconds);
}

// 3 per 10 s: three at once, then one every 3.33 s; each address on its own.
void TestServerPolicy::rateLimit()
{
    ServerPolicy p;
    p.rateLimit = {3, 10};
    Admission a(p);
    const QHostAddress c1(QStringLiteral("192.0.2.1")), c2(QStringLiteral("2001:db8::2"));
    using V = Admission::Verdict;
    for (int i = 0; i < 3; ++i)
        QCOMPARE(a.admit(c1, 100.0), V::Admit);
    QCOMPARE(a.admit(c1, 100.0), V::RateLimited);
    QCOMPARE(a.admit(c1, 103.0), V::RateLimited); // 0.9 of a connection earned
    QCOMPARE(a.admit(c2, 103.0), V::Admit);       // another client is not affected
    QCOMPARE(a.admit(c1, 103.4), V::Admit);       // 1.02 earned by now
    QCOMPARE(a.admit(c1, 103.5), V::RateLimited);
    // A refused attempt costs nothing: after a full period the whole allowance is back.
    QCOMPARE(a.admit(c1, 200.0), V::Admit);
    QCOMPARE(a.admit(c1, 200.0), V::Admit);
    QCOMPARE(a.admit(c1, 200.0), V::Admit);
    QCOMPARE(a.admit(c1, 200.0), V::RateLimited);
    QCOMPARE(a.rateLimited(), 4);
    // The mapped form is the same client.
    QCOMPARE(a.admit(QHostAddress(QStringLiteral("::ffff:192.0.2.1")), 200.0), V::RateLimited);
    // Busy refusals check the allow-list only.
    QCOMPARE(a.admit(c1, 200.0, false), V::Admit);

    ServerPolicy off;
    off.rateLimit = {0, 60};
    Admission unlimited(off);
    for (int i = 0; i < 1000; ++i)
        QCOMPARE(unlimited.admit(c1, 0), V::Admit);
}

// Review minor: one IPv6 /64 is one client (4,096 addresses of it reset nothing), and a
// full table of active clients makes newcomers share one bucket instead of starting afresh.
void TestServerPolicy::rateLimitKeysIpv6By64()
{
    ServerPolicy p;
    p.rateLimit = {3, 60};
    Admission a(p);
    using V = Admission::Verdict;
    for (int i = 0; i < 3; ++i)
        QCOMPARE(a.admit(QHostAddress(QStringLiteral("2001:db8:1:2::%1").arg(i + 1, 0, 16)), 10.0), V::Admit);
    QCOMPARE(a.admit(QHostAddress(QStringLiteral("2001:db8:1:2:ffff::9")), 10.0), V::RateLimited);
    QCOMPARE(a.admit(QHostAddress(QStringLiteral("2001:db8:1:3::1")), 10.0), V::Admit); // another /64
    QCOMPARE(nb::clientKey(QHostAddress(QStringLiteral("2001:db8:1:2:abcd::1"))), QStringLiteral("2001:db8:1:2::/64"));
    QCOMPARE(nb::clientKey(QHostAddress(QStringLiteral("::ffff:192.0.2.7"))), QStringLiteral("192.0.2.7"));

    // A table full of active clients: an old client keeps its spent allowance.
    ServerPolicy one;
    one.rateLimit = {1, 60};
    Admission b(one);
    QCOMPARE(b.admit(QHostAddress(QStringLiteral("192.0.2.1")), 0.0), V::Admit);
    for (int i = 0; i < Admission::MaxTracked + 10; ++i)
        b.admit(QHostAddress(quint32(0x0a000000 + i)), 1.0);
    QCOMPARE(b.admit(QHostAddress(QStringLiteral("192.0.2.1")), 2.0), V::RateLimited);
}

// Review M1: three connections that held a place and started nothing within 60 s refuse
// their client for 60 s; others are not affected; the allow-list comes first.
void TestServerPolicy::repeatHoldersAreRefused()
{
    ServerPolicy unlimited;
    unlimited.rateLimit = {0, 60};
    Admission a(unlimited);
    using V = Admission::Verdict;
    const QHostAddress holder(QStringLiteral("192.0.2.9")), other(QStringLiteral("192.0.2.10"));
    QVERIFY(!a.held(holder, 100.0));
    QVERIFY(!a.held(holder, 110.0));
    QCOMPARE(a.admit(holder, 111.0), V::Admit);
    QVERIFY(a.held(holder, 120.0));
    QCOMPARE(a.admit(holder, 121.0), V::Held);
    QCOMPARE(a.admit(other, 121.0), V::Admit);
    QCOMPARE(a.admit(holder, 121.0, false), V::Admit); // busy refusals check the allow-list only
    QCOMPARE(a.admit(holder, 179.0), V::Held);
    QCOMPARE(a.admit(holder, 181.0), V::Admit);
    // Strikes further apart than the window never add up.
    QVERIFY(!a.held(other, 200.0));
    QVERIFY(!a.held(other, 270.0));
    QVERIFY(!a.held(other, 340.0));
    QCOMPARE(a.admit(other, 341.0), V::Admit);
    QCOMPARE(a.heldRefused(), 2);
}

void TestServerPolicy::rateLimitTableStaysBounded()
{
    ServerPolicy p;
    p.rateLimit = {2, 60};
    Admission a(p);
    // Many clients inside one period: the table never grows past its cap.
    for (int i = 0; i < Admission::MaxTracked * 2 + 10; ++i)
        a.admit(QHostAddress(quint32(0x0a000000 + i)), 10.0 + i * 0.001);
    QVERIFY(a.tracked() <= Admission::MaxTracked);
    // Clients whose allowance is full again are dropped first.
    for (int i = 0; i < 100; ++i)
        a.admit(QHostAddress(quint32(0x0b000000 + i)), 1000.0);
    QVERIFY(a.tracked() <= 200);
}

void TestServerPolicy::checkParams_data()
{
    QTest::addColumn<QString>("policyArgs");
    QTest::addColumn<QString>("testArgs");
    QTest::addColumn<double>("bitrate");
    QTest::addColumn<int>("iperfError"); // 0: accepted
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("default takes 10 s") << QString() << QStringLiteral("-t 10") << 0.0 << 0 << QString();
    QTest::newRow("default refuses a day")
        << QString() << QStringLiteral("-t 86400") << 0.0 << 5 << QStringLiteral("at most 3600 s (--max-duration)");
    QTest::newRow("omit counts") << QStringLiteral("--max-duration 60") << QStringLiteral("-t 50 -O 20") << 0.0 << 5
                                 << QStringLiteral("would run 70 s (-O 20 plus -t 50)");
    QTest::newRow("exactly the limit") << QStringLiteral("--max-duration 60") << QStringLiteral("-t 40 -O 20") << 0.0
                                       << 0 << QString();
    QTest::newRow("no limit") << QStringLiteral("--max-duration 0") << QStringLiteral("-t 86400 -O 600") << 0.0 << 0
                              << QString();
    QTest::newRow("-n is taken (capped while it runs)")
        << QStringLiteral("--max-duration 1") << QStringLiteral("-n 100G") << 0.0 << 0 << QString();
    QTest::newRow("streams at the limit")
        << QStringLiteral("--max-streams 4") << QStringLiteral("-P 4") << 0.0 << 0 << QString();
    QTest::newRow("streams above") << QStringLiteral("--max-streams 4") << QStringLiteral("-P 5") << 0.0 << 6
                                   << QStringLiteral("5 parallel streams asked (-P); this server allows at most 4");
    QTest::newRow("connections above") << QStringLiteral("--max-streams 4") << QStringLiteral("--rr --connections 100")
                                       << 0.0 << 6 << QStringLiteral("100 connections asked (--connections)");
    QTest::newRow("bitrate under cap") << QStringLiteral("--max-bitrate 100M") << QStringLiteral("-P 2") << 40e6 << 0
                                       << QString();
    QTest::newRow("bitrate times streams over cap") << QStringLiteral("--max-bitrate 100M") << QStringLiteral("-P 3")
                                                    << 40e6 << 27 << QStringLiteral("120 Mbit/s in total was asked");
    QTest::newRow("unlimited asked with a cap") << QStringLiteral("--max-bitrate 100M") << QString() << 0.0 << 27
                                                << QStringLiteral("an unlimited bitrate was asked");
    QTest::newRow("no cap: unlimited is fine") << QString() << QStringLiteral("-R") << 0.0 << 0 << QString();
    // TCP -b (ours or a stock iperf3 client's): each side paces its own sockets where the
    // system can (Linux); the Windows build refuses what it would have to send unpaced.
    if (nb::net::CanPaceTcp) {
        QTest::newRow("server would send, unpaced, with a cap")
            << QStringLiteral("--max-bitrate 100M") << QStringLiteral("-R") << 0.0 << 27
            << QStringLiteral("an unlimited bitrate was asked");
        QTest::newRow("TCP -b, client sends") << QString() << QStringLiteral("-P 2 -b 10M") << 10e6 << 0 << QString();
        QTest::newRow("TCP -b, server paces -R") << QString() << QStringLiteral("-R -b 10M") << 10e6 << 0 << QString();
        QTest::newRow("TCP -b --bidir under the cap")
            << QStringLiteral("--max-bitrate 100M") << QStringLiteral("--bidir -b 40M") << 40e6 << 0 << QString();
        QTest::newRow("TCP -b --bidir counts both directions")
            << QStringLiteral("--max-bitrate 100M") << QStringLiteral("--bidir -b 40M -P 2") << 40e6 << 27
            << QStringLiteral("times -P 2 times 2 directions); this server allows at most 100");
    } else {
        // A stock client's TCP "bandwidth" (ours refuses TCP -b here): its own sending is
        // paced by the client, what this server would send is refused.
        QTest::newRow("server would send, unpaced, with a cap")
            << QStringLiteral("--max-bitrate 100M") << QStringLiteral("-R") << 0.0 << 27
            << QStringLiteral("cannot pace its own TCP sending on this system");
        QTest::newRow("TCP rate, client sends") << QString() << QStringLiteral("-P 2") << 10e6 << 0 << QString();
        QTest::newRow("TCP rate, server would send -R")
            << QString() << QStringLiteral("-R") << 10e6 << 140 << QStringLiteral("does not pace TCP on this system");
        QTest::newRow("TCP rate, --bidir") << QString() << QStringLiteral("--bidir") << 10e6 << 140
                                           << QStringLiteral("does not pace TCP on this system");
    }
    QTest::newRow("UDP -R under the cap is paced")
        << QStringLiteral("--max-bitrate 100M") << QStringLiteral("-u -R -b 40M -P 2") << 40e6 << 0 << QString();
    QTest::newRow("UDP --bidir counts both directions")
        << QStringLiteral("--max-bitrate 100M") << QStringLiteral("-u --bidir -b 40M -P 2") << 40e6 << 27
        << QStringLiteral("times -P 2 times 2 directions); this server allows at most 100");
    QTest::newRow("UDP request/response with a cap")
        << QStringLiteral("--max-bitrate 100M") << QStringLiteral("-u --rr -t 3") << 1e6 << 27
        << QStringLiteral("cannot pace request/response tests");
}

void TestServerPolicy::checkParams()
{
    QFETCH(QString, policyArgs);
    QFETCH(QString, testArgs);
    QFETCH(double, bitrate);
    QFETCH(int, iperfError);
    QFETCH(QString, messagePart);
    CommandLine server, client;
    QString error;
    QVERIFY2(parseCommandLine(split(QStringLiteral("-s ") + policyArgs), &server, &error), qPrintable(error));
    QVERIFY2(parseCommandLine(split(QStringLiteral("-c host ") + testArgs), &client, &error), qPrintable(error));
    const PolicyRefusal r = nb::checkParams(server.server.policy, client.params, bitrate);
    QCOMPARE(r.iperfError, iperfError);
    QCOMPARE(r.refused(), iperfError != 0);
    QVERIFY2(r.message.contains(messagePart), qPrintable(r.message));
    QVERIFY(!r.message.contains(QLatin1Char('\n')));
}

void TestServerPolicy::requestedBitrate_data()
{
    QTest::addColumn<QJsonObject>("params");
    QTest::addColumn<double>("bitrate"); // -1: refused
    QTest::newRow("absent") << QJsonObject{} << 0.0;
    QTest::newRow("number") << QJsonObject{{QStringLiteral("bandwidth"), 1e6}} << 1e6;
    QTest::newRow("3.12's unsigned print") << QJsonObject{{QStringLiteral("bandwidth"), 10000000.0}} << 1e7;
    QTest::newRow("negative") << QJsonObject{{QStringLiteral("bandwidth"), -5}} << -1.0;
    QTest::newRow("text") << QJsonObject{{QStringLiteral("bandwidth"), QStringLiteral("fast")}} << -1.0;
}

void TestServerPolicy::requestedBitrate()
{
    QFETCH(QJsonObject, params);
    QFETCH(double, bitrate);
    const std::optional<double> r = nb::requestedBitrate(params);
    QCOMPARE(r.has_value(), bitrate >= 0);
    if (r)
        QCOMPARE(*r, bitrate);
}

// 2,000 refusals of one client in a minute: one line at once, one summary after.
void TestServerPolicy::logCollapsesRefusals()
{
    LogLimiter log(60, 60);
    const QString reason = QStringLiteral("not in the allowed networks (--allow)");
    int logged = 0;
    for (int i = 0; i < 2000; ++i)
        logged += log.refused(QStringLiteral("192.0.2.1"), reason, 10.0 + i * 0.01) ? 1 : 0;
    QCOMPARE(logged, 1);
    QVERIFY(log.due(40.0).isEmpty()); // the window still runs
    const QStringList summary = log.due(70.0);
    QCOMPARE(summary.size(), 1);
    QCOMPARE(summary.first(),
             QStringLiteral("Refused 1,999 more connections from 192.0.2.1 in the last 60 s: ") + reason);
    QVERIFY(log.due(200.0).isEmpty()); // nothing held back since
    // A new window logs the first refusal again.
    QVERIFY(log.refused(QStringLiteral("192.0.2.1"), reason, 300.0).has_value());
    // Peer text in a log line is made printable.
    const auto line = log.refused(QStringLiteral("x\x1b[2Jy"), reason, 300.0);
    QVERIFY(line.has_value());
    QVERIFY(!line->contains(QChar(0x1b)));
}

void TestServerPolicy::logBudgetAndManyClients()
{
    LogLimiter log(60, 60);
    int logged = 0;
    for (int i = 0; i < 100; ++i)
        logged += log.line(QStringLiteral("Accepted connection %1").arg(i), 1.0) ? 1 : 0;
    QCOMPARE(logged, 60);
    for (int i = 0; i < 5000; ++i)
        logged += log.refused(QStringLiteral("10.0.%1.%2").arg(i / 256).arg(i % 256),
                              QStringLiteral("a test is running"), 2.0)
                      ? 1
                      : 0;
    QCOMPARE(logged, 60); // the budget was spent
    const QStringList summary = log.due(61.0);
    // The busiest clients one line each, one line for the rest, one for other lines.
    QCOMPARE(summary.size(), LogLimiter::MaxSummaries + 2);
    QVERIFY2(summary.at(LogLimiter::MaxSummaries).contains(QLatin1String("other clients")),
             qPrintable(summary.join(QLatin1Char('\n'))));
    QCOMPARE(summary.last(), QStringLiteral("Held back 40 more log lines about connections in the last 60 s"));
    int total = 0;
    static const QRegularExpression count(QStringLiteral("^Refused ([0-9,]+) more"));
    for (const QString &s : summary)
        if (const auto m = count.match(s); m.hasMatch())
            total += m.captured(1).remove(QLatin1Char(',')).toInt();
    QCOMPARE(total, 5000); // every refusal is counted somewhere
}

void TestServerPolicy::commandLine()
{
    CommandLine cl;
    QString error;
    QVERIFY2(parseCommandLine(split(QStringLiteral("-s --max-duration 120 --max-streams 8 --max-bitrate 1.5G "
                                                   "--allow 10.0.0.0/8 --allow ::1 --rate-limit 5/1s --no-info")),
                              &cl, &error),
             qPrintable(error));
    QCOMPARE(cl.mode, CommandLine::Mode::Server);
    const ServerPolicy &p = cl.server.policy;
    QCOMPARE(p.maxDurationSecs, 120.0);
    QCOMPARE(p.maxStreams, 8);
    QCOMPARE(p.maxBitrate, 1.5e9);
    QCOMPARE(p.allow.size(), 2); // --allow adds up
    QCOMPARE(p.rateLimit, (RateLimit{5, 1}));
    QVERIFY(p.noInfo);

    CommandLine defaults;
    QVERIFY(parseCommandLine(split(QStringLiteral("-s")), &defaults, &error));
    QCOMPARE(defaults.server.policy.maxDurationSecs, 3600.0);
    QCOMPARE(defaults.server.policy.maxStreams, 0);
    QCOMPARE(defaults.server.policy.maxBitrate, 0.0);
    QVERIFY(defaults.server.policy.allow.isEmpty());
    QCOMPARE(defaults.server.policy.rateLimit, (RateLimit{60, 60}));
    QVERIFY(!defaults.server.policy.noInfo);

    const QString help = commandLineHelp(QStringLiteral("nicbench-cli"));
    for (const char *flag : {"--max-duration SECS", "--max-streams N", "--max-bitrate RATE", "--allow NET[,NET]",
                             "--rate-limit N/SECS", "--no-info"})
        QVERIFY2(help.contains(QLatin1String(flag)), flag);
}

void TestServerPolicy::commandLineErrors_data()
{
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("messageStart");
    QTest::newRow("negative duration") << QStringLiteral("-s --max-duration -5") << QStringLiteral("--max-duration");
    QTest::newRow("duration past a week")
        << QStringLiteral("-s --max-duration 700000") << QStringLiteral("--max-duration");
    QTest::newRow("streams garbage") << QStringLiteral("-s --max-streams many") << QStringLiteral("--max-streams");
    QTest::newRow("bitrate garbage") << QStringLiteral("-s --max-bitrate fast") << QStringLiteral("--max-bitrate");
    QTest::newRow("allow garbage") << QStringLiteral("-s --allow 10.0.0.0/99") << QStringLiteral("--allow");
    QTest::newRow("rate garbage") << QStringLiteral("-s --rate-limit 5") << QStringLiteral("--rate-limit");
}

void TestServerPolicy::commandLineErrors()
{
    QFETCH(QString, args);
    QFETCH(QString, messageStart);
    CommandLine cl;
    QString error;
    QVERIFY(!parseCommandLine(split(args), &cl, &error));
    QVERIFY2(error.startsWith(messageStart), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

// packaging/nicbench-server.env: NICBENCH_SERVER_ARGS split at white space (as systemd does
// with an unbraced $VAR) must be a valid server command line.
void TestServerPolicy::shippedEnvironmentFile()
{
    QFile f(QStringLiteral(NICBENCH_TEST_DATA "/../../packaging/nicbench-server.env"));
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    QString args;
    int assignments = 0;
    for (const QByteArray &raw : f.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        QVERIFY2(line.startsWith(QLatin1String("NICBENCH_SERVER_ARGS=\"")) && line.endsWith(QLatin1Char('"')),
                 qPrintable(line));
        args = line.mid(int(qstrlen("NICBENCH_SERVER_ARGS=\"")));
        args.chop(1);
        ++assignments;
    }
    QCOMPARE(assignments, 1);
    CommandLine cl;
    QString error;
    QVERIFY2(parseCommandLine(QStringList{QStringLiteral("-s")} + split(args), &cl, &error), qPrintable(error));
    QVERIFY(!cl.server.policy.allow.isEmpty());
    QVERIFY(cl.server.policy.maxDurationSecs > 0);
}

void TestServerPolicy::helloHostCarriesNoMac()
{
    HostEnvironment h;
    h.hostName = QStringLiteral("vm");
    AdapterInfo a;
    a.name = QStringLiteral("eth0");
    a.hardwareAddress = QStringLiteral("52:54:00:12:34:56");
    a.addresses.append({QHostAddress(QStringLiteral("192.0.2.1")), 24});
    h.adapters = {a, a};
    h.adapters[1].name = QStringLiteral("eth1");
    const QJsonObject json = helloHostJson(h);
    const QJsonArray adapters = json.value(QStringLiteral("adapters")).toArray();
    QCOMPARE(adapters.size(), 2);
    for (const QJsonValue &v : adapters) {
        QVERIFY(v.toObject().value(QStringLiteral("hardware_address")).toString().isEmpty());
        QCOMPARE(v.toObject().value(QStringLiteral("addresses")).toArray().size(), 1);
    }
    QVERIFY(!QString::fromUtf8(QJsonDocument(json).toJson()).contains(QLatin1String("52:54:00")));
}

QTEST_GUILESS_MAIN(TestServerPolicy)
#include "tst_serverpolicy.moc"
