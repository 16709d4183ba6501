// SPDX-License-Identifier: GPL-3.0-or-later
// iperf-style command line: what valid flags set, and the one-line error for each
// kind of mistake.
#include "model/testparams.h"
#include "net/socket.h"
#include "session/commandline.h"
#include "session/testarguments.h"

#include <QTest>

Q_DECLARE_METATYPE(nb::CommandLine::Mode)
Q_DECLARE_METATYPE(nb::Direction)

namespace {

QStringList split(const char *args)
{
    return QString::fromLatin1(args).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT

private slots:
    void valid_data();
    void valid();
    void invalid_data();
    void invalid();
    void socketAndProtocolOptions();
    void tcpRate_data();
    void tcpRate();
    void serverOptions();
    void extraFlags();
    void helpMentionsEveryFlag();
    void testArgumentsReadBack_data();
    void testArgumentsReadBack();
    void settingsNoFlagSaysAreRefused();
};

void TestCommandLine::valid_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<nb::CommandLine::Mode>("mode");
    QTest::addColumn<int>("streams");
    QTest::addColumn<quint64>("window");
    QTest::addColumn<quint64>("blockSize");
    QTest::addColumn<double>("duration");
    QTest::addColumn<quint64>("bytes");
    QTest::addColumn<nb::Direction>("direction");
    QTest::addColumn<double>("interval");

    using M = nb::CommandLine::Mode;
    using D = nb::Direction;
    QTest::newRow("iperf3 habit") << split("-c host -P 16 -w 64k -l 128k -t 30") << M::Client << 16 << quint64(65536)
                                  << quint64(131072) << 30.0 << quint64(0) << D::Upload << 1.0;
    QTest::newRow("defaults") << split("-c host") << M::Client << 1 << quint64(0) << quint64(131072) << 10.0
                              << quint64(0) << D::Upload << 1.0;
    QTest::newRow("-R") << split("-c host -R") << M::Client << 1 << quint64(0) << quint64(131072) << 10.0 << quint64(0)
                        << D::Download << 1.0;
    QTest::newRow("--reverse") << split("-c host --reverse") << M::Client << 1 << quint64(0) << quint64(131072) << 10.0
                               << quint64(0) << D::Download << 1.0;
    QTest::newRow("--bidir") << split("-c host --bidir -P 4") << M::Client << 4 << quint64(0) << quint64(131072) << 10.0
                             << quint64(0) << D::Bidirectional << 1.0;
    QTest::newRow("-n without -t runs by bytes") << split("-c host -n 10M") << M::Client << 1 << quint64(0)
                                                 << quint64(131072) << 0.0 << quint64(10485760) << D::Upload << 1.0;
    QTest::newRow("-n with -t keeps both") << split("-c host -t 5 -n 1G") << M::Client << 1 << quint64(0)
                                           << quint64(131072) << 5.0 << quint64(1073741824) << D::Upload << 1.0;
    QTest::newRow("glued values") << split("-chost -P8 -l16K -t2 -i0.5") << M::Client << 8 << quint64(0)
                                  << quint64(16384) << 2.0 << quint64(0) << D::Upload << 0.5;
    QTest::newRow("long options with =") << split("--client=host --parallel=3 --window=1M --time=1.5") << M::Client << 3
                                         << quint64(1048576) << quint64(131072) << 1.5 << quint64(0) << D::Upload
                                         << 1.0;
    QTest::newRow("-P 1 and -P 128 bounds") << split("-c host -P 128 -P 1") << M::Client << 1 << quint64(0)
                                            << quint64(131072) << 10.0 << quint64(0) << D::Upload << 1.0;
    QTest::newRow("-P128") << split("-c host -P128") << M::Client << 128 << quint64(0) << quint64(131072) << 10.0
                           << quint64(0) << D::Upload << 1.0;
    QTest::newRow("-i 0.1 is the minimum") << split("-c host -i 0.1") << M::Client << 1 << quint64(0) << quint64(131072)
                                           << 10.0 << quint64(0) << D::Upload << 0.1;
    QTest::newRow("-i 60 is the maximum") << split("-c host -i 60") << M::Client << 1 << quint64(0) << quint64(131072)
                                          << 10.0 << quint64(0) << D::Upload << 60.0;
    QTest::newRow("-l 1M is the maximum") << split("-c host -l 1M") << M::Client << 1 << quint64(0) << quint64(1048576)
                                          << 10.0 << quint64(0) << D::Upload << 1.0;
    QTest::newRow("server") << split("-s") << M::Server << 1 << quint64(0) << quint64(131072) << 10.0 << quint64(0)
                            << D::Upload << 1.0;
    QTest::newRow("--help") << split("--help") << M::Help << 1 << quint64(0) << quint64(131072) << 10.0 << quint64(0)
                            << D::Upload << 1.0;
    QTest::newRow("-v") << split("-v") << M::Version << 1 << quint64(0) << quint64(131072) << 10.0 << quint64(0)
                        << D::Upload << 1.0;
    QTest::newRow("nothing") << QStringList() << M::None << 1 << quint64(0) << quint64(131072) << 10.0 << quint64(0)
                             << D::Upload << 1.0;
}

void TestCommandLine::valid()
{
    QFETCH(QStringList, args);
    QFETCH(nb::CommandLine::Mode, mode);
    QFETCH(int, streams);
    QFETCH(quint64, window);
    QFETCH(quint64, blockSize);
    QFETCH(double, duration);
    QFETCH(quint64, bytes);
    QFETCH(nb::Direction, direction);
    QFETCH(double, interval);

    nb::CommandLine cl;
    QString error;
    QVERIFY2(nb::parseCommandLine(args, &cl, &error), qPrintable(error));
    QVERIFY(error.isEmpty());
    QCOMPARE(cl.mode, mode);
    if (mode == nb::CommandLine::Mode::Client)
        QCOMPARE(cl.params.host, QStringLiteral("host"));
    QCOMPARE(cl.params.streams, streams);
    QCOMPARE(quint64(cl.params.window), window);
    QCOMPARE(quint64(cl.params.blockSize), blockSize);
    QCOMPARE(cl.params.duration, duration);
    QCOMPARE(quint64(cl.params.bytes), bytes);
    QCOMPARE(cl.params.direction, direction);
    QCOMPARE(cl.params.interval, interval);
    if (mode == nb::CommandLine::Mode::Client)
        QVERIFY2(cl.params.validate().isEmpty(), qPrintable(cl.params.validate()));
}

void TestCommandLine::invalid_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");

    QTest::newRow("-P0") << split("-c host -P0") << QStringLiteral("-P: '0' must be a whole number from 1 to 1024");
    QTest::newRow("-P1025") << split("-c host -P1025")
                            << QStringLiteral("-P: '1025' must be a whole number from 1 to 1024");
    QTest::newRow("--connections 10001") << split("-c host --rr --connections 10001")
                                         << QStringLiteral(
                                                "--connections: '10001' must be a whole number from 1 to 10000");
    QTest::newRow("-P abc") << split("-c host -P abc")
                            << QStringLiteral("-P: 'abc' must be a whole number from 1 to 1024");
    QTest::newRow("-P 1.5") << split("-c host -P 1.5")
                            << QStringLiteral("-P: '1.5' must be a whole number from 1 to 1024");
    QTest::newRow("-i 0.05") << split("-c host -i 0.05")
                             << QStringLiteral("-i: 0.05 must be between 0.1 and 60 seconds");
    QTest::newRow("-i 61") << split("-c host -i 61") << QStringLiteral("-i: 61 must be between 0.1 and 60 seconds");
    QTest::newRow("-t abc") << split("-c host -t abc")
                            << QStringLiteral("-t: invalid time 'abc': expected seconds, e.g. 10 or 0.5");
    QTest::newRow("-t -5") << split("-c host -t -5")
                           << QStringLiteral("-t: invalid time '-5': expected seconds, e.g. 10 or 0.5");
    QTest::newRow("-t 0 and no -n") << split("-c host -t 0")
                                    << QStringLiteral("give a duration (-t) or a byte count (-n)");
    QTest::newRow("-n 0") << split("-c host -n 0") << QStringLiteral("-n: byte count must be positive");
    QTest::newRow("-n garbage") << split("-c host -n 12Q")
                                << QStringLiteral("-n: invalid size '12Q': not a number (use e.g. 128K, 1M, 2G)");
    QTest::newRow("-l 2M") << split("-c host -l 2M") << QStringLiteral("-l: 2M is too large (at most 1048576)");
    QTest::newRow("-l 0") << split("-c host -l 0") << QStringLiteral("-l: buffer length must be at least 1 byte");
    QTest::newRow("-w 2G") << split("-c host -w 2G") << QStringLiteral("-w: 2G is too large (at most 1073741824)");
    QTest::newRow("-w -1") << split("-c host -w -1") << QStringLiteral("-w: invalid size '-1': must not be negative");
    QTest::newRow("-p 0") << split("-c host -p 0") << QStringLiteral("-p: '0' must be a whole number from 1 to 65535");
    QTest::newRow("-p 70000") << split("-c host -p 70000")
                              << QStringLiteral("-p: '70000' must be a whole number from 1 to 65535");
    QTest::newRow("-M 10") << split("-c host -M 10")
                           << QStringLiteral("-M: '10' must be a whole number from 88 to 36864");
    QTest::newRow("-O -1") << split("-c host -O -1")
                           << QStringLiteral("-O: invalid time '-1': expected seconds, e.g. 10 or 0.5");
    QTest::newRow("unknown long") << split("-c host --frobnicate")
                                  << QStringLiteral("unknown option '--frobnicate' (see --help)");
    QTest::newRow("unknown short") << split("-c host -x") << QStringLiteral("unknown option '-x' (see --help)");
    QTest::newRow("udp rate out of range")
        << split("-c host -u -b 5T") << QStringLiteral("-b: 5T is out of range (0 to 1e+12 bit/s)");
    QTest::newRow("-b with --rr") << split("-c host --rr -b 10M")
                                  << QStringLiteral("-b sets the rate of a stream test; request/response and latency "
                                                    "under load are not paced");
    QTest::newRow("-b with -u --rr") << split("-c host -u --rr -b 10M")
                                     << QStringLiteral(
                                            "-b sets the rate of a stream test; request/response and latency "
                                            "under load are not paced");
    QTest::newRow("--latency-under-load with --rr")
        << split("-c host --latency-under-load --rr")
        << QStringLiteral("--latency-under-load and --rr are different tests: give one of them");
    QTest::newRow("--crr with --latency-under-load")
        << split("-c host --crr --latency-under-load")
        << QStringLiteral("--crr and --latency-under-load are different tests: give one of them");
    QTest::newRow("--dont-fragment without -u")
        << split("-c host --dont-fragment")
        << QStringLiteral("--dont-fragment is for UDP datagrams (-u); TCP segments to the path's MTU itself");
    QTest::newRow("glued flags") << split("-c host -RN") << QStringLiteral("unknown option '-RN' (see --help)");
    QTest::newRow("-c without host") << split("-c") << QStringLiteral("option '-c' needs a value");
    QTest::newRow("-t without value") << split("-c host -t") << QStringLiteral("option '-t' needs a value");
    QTest::newRow("-P without value") << split("-c host -P") << QStringLiteral("option '-P' needs a value");
    QTest::newRow("--time without value") << split("-c host --time") << QStringLiteral("option '--time' needs a value");
    QTest::newRow("flag with value") << split("-c host --reverse=1")
                                     << QStringLiteral("option '--reverse=1' takes no value");
    QTest::newRow("stray argument") << split("-c host 5201")
                                    << QStringLiteral("unexpected argument '5201' (see --help)");
    QTest::newRow("-s with -c") << split("-s -c host")
                                << QStringLiteral("choose either -s (server) or -c HOST (client)");
    QTest::newRow("-c with -s") << split("-c host -t 1 -s")
                                << QStringLiteral("choose either -s (server) or -c HOST (client)");
    QTest::newRow("empty host") << QStringList{QStringLiteral("-c"), QString()}
                                << QStringLiteral("-c needs a host name or address");
    QTest::newRow("iperf2 download") << split("-c host --iperf2 -R")
                                     << QStringLiteral("only upload tests are supported against an iperf2 server");
}

void TestCommandLine::invalid()
{
    QFETCH(QStringList, args);
    QFETCH(QString, expected);

    nb::CommandLine cl;
    cl.params.streams = 99; // untouched on failure
    QString error;
    QVERIFY(!nb::parseCommandLine(args, &cl, &error));
    QCOMPARE(error, expected);
    QVERIFY(!error.contains(QLatin1Char('\n')));
    QCOMPARE(cl.params.streams, 99);
}

// TCP -b: paced only when asked (iperf3's 1 Mbit/s default is UDP's), the rate on the wire
// as iperf3 sends it, and kept through the snapshot JSON.
void TestCommandLine::tcpRate_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<bool>("paced");
    QTest::addColumn<double>("wireBandwidth"); // -1: no "bandwidth" key
    QTest::newRow("no -b") << split("-c host") << false << -1.0;
    QTest::newRow("-b 10M") << split("-c host -b 10M -P 2") << true << 10e6;
    QTest::newRow("-b 1M (UDP's default, asked)") << split("-c host -R -b 1M") << true << 1e6;
    QTest::newRow("-b 0 (unlimited)") << split("-c host -b 0") << false << -1.0;
    QTest::newRow("UDP, no -b") << split("-c host -u -l 1400") << false << 1e6;
}

void TestCommandLine::tcpRate()
{
    QFETCH(QStringList, args);
    QFETCH(bool, paced);
    QFETCH(double, wireBandwidth);
    nb::CommandLine cl;
    QString error;
    // Without a per-socket TCP rate (the Windows build) any TCP -b is refused, not ignored.
    if (!nb::net::CanPaceTcp && !args.contains(QStringLiteral("-u")) && args.contains(QStringLiteral("-b"))) {
        QVERIFY(!nb::parseCommandLine(args, &cl, &error));
        QVERIFY2(error.contains(QStringLiteral("only on this system")), qPrintable(error));
        return;
    }
    QVERIFY2(nb::parseCommandLine(args, &cl, &error), qPrintable(error));
    QCOMPARE(cl.params.pacesTcp(), paced);
    const QJsonObject wire = cl.params.toIperfParams();
    QCOMPARE(wire.value(QStringLiteral("bandwidth")).toDouble(-1), wireBandwidth);
    // What a server reads from it, and what a snapshot keeps.
    nb::TestParams server, stored;
    QVERIFY2(nb::TestParams::fromIperfParams(wire, &server, &error), qPrintable(error));
    QCOMPARE(server.pacesTcp(), paced);
    QVERIFY2(nb::TestParams::fromJson(cl.params.toJson(), &stored, &error), qPrintable(error));
    QCOMPARE(stored.pacesTcp(), paced);
    if (paced)
        QCOMPARE(double(stored.bandwidth), wireBandwidth);
}

void TestCommandLine::socketAndProtocolOptions()
{
    nb::CommandLine cl;
    QString error;
    QVERIFY2(nb::parseCommandLine(split("-c ::1 -p 5999 -B ::1 -6 -N -M 1400 -C cubic -O 2 -Z --rx-copy -J "
                                        "--connect-timeout 2.5 --title lab"),
                                  &cl, &error),
             qPrintable(error));
    QCOMPARE(cl.params.host, QStringLiteral("::1"));
    QCOMPARE(cl.params.port, quint16(5999));
    QCOMPARE(cl.params.bindAddress, QStringLiteral("::1"));
    QCOMPARE(cl.params.family, nb::AddressFamily::IPv6);
    QVERIFY(cl.params.noDelay);
    QCOMPARE(cl.params.mss, 1400);
    QCOMPARE(cl.params.congestion, QStringLiteral("cubic"));
    QCOMPARE(cl.params.omit, 2.0);
    QVERIFY(cl.params.zeroCopy);
    QVERIFY(!cl.params.skipRxCopy);
    QVERIFY(cl.json);
    QCOMPARE(cl.params.connectTimeoutMs, 2500);
    QCOMPARE(cl.params.title, QStringLiteral("lab"));

    QVERIFY(nb::parseCommandLine(split("-c host --iperf2 -4 --json-stream"), &cl, &error));
    QCOMPARE(cl.params.protocol, nb::PeerProtocol::Iperf2);
    QCOMPARE(cl.params.family, nb::AddressFamily::IPv4);
    QVERIFY(cl.jsonStream);
    QVERIFY(!cl.json);
}

void TestCommandLine::serverOptions()
{
    nb::CommandLine cl;
    QString error;
    QVERIFY2(nb::parseCommandLine(split("-s -p 5999 -B 127.0.0.1 -1"), &cl, &error), qPrintable(error));
    QCOMPARE(cl.mode, nb::CommandLine::Mode::Server);
    QCOMPARE(cl.server.port, quint16(5999));
    QCOMPARE(cl.server.bindAddress, QStringLiteral("127.0.0.1"));
    QVERIFY(cl.server.oneOff);

    QVERIFY(nb::parseCommandLine(split("--server"), &cl, &error));
    QCOMPARE(cl.server.port, quint16(5201));
    QVERIFY(!cl.server.oneOff);
    QVERIFY(cl.server.bindAddress.isEmpty());
}

void TestCommandLine::extraFlags()
{
    nb::CommandLine cl;
    QString error;
    QVERIFY(nb::parseCommandLine(split("--run -c host --quit-when-done"), &cl, &error,
                                 {QStringLiteral("run"), QStringLiteral("quit-when-done")}));
    QCOMPARE(cl.extraArgs, QStringList({QStringLiteral("run"), QStringLiteral("quit-when-done")}));
    // Without being declared they are unknown.
    QVERIFY(!nb::parseCommandLine(split("--run -c host"), &cl, &error));
    QCOMPARE(error, QStringLiteral("unknown option '--run' (see --help)"));
}

void TestCommandLine::helpMentionsEveryFlag()
{
    const QString help = nb::commandLineHelp(QStringLiteral("nicbench-cli"));
    for (const char *flag :
         {"-s,", "-c,", "-p,", "-B,", "-1,", "-P,",     "-l,", "-w,",           "-M,", "-N,", "-C,",
          "-t,", "-n,", "-O,", "-i,", "-R,", "--bidir", "-J,", "--json-stream", "-4,", "-6,", "--iperf2"})
        QVERIFY2(help.contains(QLatin1String(flag)), flag);
}

// What the window sends an agent (session/testarguments.h): the flags of a test read back
// as that same test, whatever kind it is, and the options that travel never name -c.
void TestCommandLine::testArgumentsReadBack_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("defaults") << split("-c h");
    QTest::newRow("stream") << split("-c h -P 4 -R -t 2 -i 0.5");
    QTest::newRow("tcp options") << split("-c h --bidir -l 64K -w 4M -M 1400 -N -C cubic -O 1 --title a-title");
    QTest::newRow("bytes only") << split("-c h -n 100M");
    QTest::newRow("time and bytes") << split("-c h -n 1G -t 30");
    QTest::newRow("rr") << split("-c h --rr -t 2 --connections 8 --in-flight 4 --request-size 64 --response-size 1K");
    QTest::newRow("crr") << split("-c h --crr -t 2 --connections 3");
    QTest::newRow("udp") << split("-c h -u -b 100M -l 1400 -P 2 --dont-fragment");
    QTest::newRow("udp unlimited") << split("-c h -u -b 0");
    QTest::newRow("udp rr") << split("-c h -u --rr -t 2 --udp-rr-timeout 500");
    QTest::newRow("latency under load") << split("-c h --latency-under-load --phase-seconds 2 -P 2 --probe-dscp 46");
    QTest::newRow("system") << split("-c h -4 -B 127.0.0.1 -p 5300 --connect-timeout 2.5 --threads 2 -Z --rx-copy");
    QTest::newRow("iperf2") << split("-c h --iperf2 -t 5");
    if (nb::net::CanPaceTcp)
        QTest::newRow("paced tcp") << split("-c h -b 500M -t 2");
}

void TestCommandLine::testArgumentsReadBack()
{
    QFETCH(QStringList, args);
    nb::CommandLine given;
    QString error;
    QVERIFY2(nb::parseCommandLine(args, &given, &error), qPrintable(error));
    const QStringList flags = nb::testArguments(given.params);
    nb::CommandLine back;
    QVERIFY2(nb::parseCommandLine(QStringList{QStringLiteral("-c"), QStringLiteral("h")} + flags, &back, &error),
             qPrintable(error + QLatin1Char(' ') + flags.join(QLatin1Char(' '))));
    QCOMPARE(back.params.toJson(), given.params.toJson());
    QCOMPARE(back.params.tcpPaced, given.params.tcpPaced);

    QList<nb::GivenOption> options;
    QVERIFY2(nb::givenOptions(given.params, &options, &error), qPrintable(error));
    for (const nb::GivenOption &o : std::as_const(options))
        QVERIFY(o.id != nb::param::Id::Client);
    QCOMPARE(options.isEmpty(), flags.isEmpty());

    nb::CommandLine agent;
    QVERIFY2(
        nb::agentCommandLine(given.params, QStringLiteral("agent.example:5300"), QStringLiteral("/k"), &agent, &error),
        qPrintable(error));
    QCOMPARE(agent.mode, nb::CommandLine::Mode::Client);
    QCOMPARE(agent.fromHost, QStringLiteral("agent.example"));
    QCOMPARE(agent.fromPort, quint16(5300));
    QCOMPARE(agent.agentKeyPath, QStringLiteral("/k"));
    QCOMPARE(agent.params.toJson(), given.params.toJson());
}

// What cannot travel is refused, not left out of the test the agent runs.
void TestCommandLine::settingsNoFlagSaysAreRefused()
{
    nb::TestParams p;
    p.host = QStringLiteral("h");
    p.username = QStringLiteral("bob"); // credentials never travel to an agent
    QList<nb::GivenOption> options;
    QString error;
    QVERIFY(!nb::givenOptions(p, &options, &error));
    QVERIFY2(error.contains(QStringLiteral("cannot go through an agent")), qPrintable(error));
    nb::CommandLine cl;
    p.username.clear();
    QVERIFY(!nb::agentCommandLine(p, QStringLiteral("agent"), QString(), &cl, &error));
    QVERIFY2(error.contains(QStringLiteral("--agent-key")), qPrintable(error));
    QVERIFY(!nb::agentCommandLine(p, QStringLiteral("agent:99999"), QStringLiteral("/k"), &cl, &error));
}

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
