// SPDX-License-Identifier: GPL-3.0-or-later
// Ground-truth accuracy tests on emulated adapters (scripts/testbed, docs/testbed.md).
//
// Each test builds its own namespaces with a unique prefix (scripts/testbed up), runs
// `nicbench-cli -s` in the server namespace and `nicbench-cli -c ... -J` in the client
// namespace, and compares what NicBench measured with what the link is known to allow:
//   - throughput through tbf = rate x TCP payload / frame on the wire, within 2%;
//   - RR through a delay link: p50 and transactions/s of a plain ping-pong over it, within 5%;
//   - utilization of the shaped interface = the configured rate, within 3%;
//   - the carrying interface is the veth, and a wrongly bound test gets the wrong-path warning;
//   - comparisons of emulated adapters give the right verdicts.
// Needs root and working `ip netns`; skips with the reason otherwise (CI runs as root).
// Set NICBENCH_REQUIRE_TESTBED=1 to turn a skip into a failure.

#include "core/statistics.h"

#include "plainpingpong.h"
#include "testbedfixture.h"

class TestTestbed : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void throughputMatchesShaper();
    void requestResponseMatchesDelay();
    void utilizationMatchesRate();
    void adapterIdentifiedAndWrongPathWarned();
    void comparisonVerdicts();
    void cleanupTestCase();

private:
    QString m_skipReason;
};

void TestTestbed::initTestCase()
{
    if (const QString why = testbedUnavailable(); !why.isEmpty()) {
        noteUnavailable(why, &m_skipReason);
        return;
    }
    if (!QFileInfo(delaylinkPath()).isExecutable())
        qWarning("delaylink not built at %s; delay tests need it unless the kernel has netem",
                 qPrintable(delaylinkPath()));
}

void TestTestbed::cleanupTestCase() {}

#define TESTBED_OR_SKIP()                                                                                              \
    do {                                                                                                               \
        if (!m_skipReason.isEmpty())                                                                                   \
            QSKIP(qPrintable(m_skipReason));                                                                           \
    } while (false)

// (a) Throughput through tbf-shaped veth pairs, two rates x two MTUs, within 2% of the
// goodput the shaper allows.
void TestTestbed::throughputMatchesShaper()
{
    TESTBED_OR_SKIP();
    Testbed tb(QStringLiteral("tp"));
    QString error;
    QVERIFY2(tb.up(QStringLiteral("r200 rate=200mbit mtu=1500\n"
                                  "r500 rate=500mbit mtu=1500\n"
                                  "j200 rate=200mbit mtu=9000\n"
                                  "j500 rate=500mbit mtu=9000\n"),
                   &error),
             qPrintable(error));
    QVERIFY2(tb.startServer(&error), qPrintable(error));

    struct Case {
        const char *name;
        const char *server;
        double rate;
        int mtu;
    };
    const Case cases[] = {{"r200", "198.18.1.2", 200e6, 1500},
                          {"r500", "198.18.2.2", 500e6, 1500},
                          {"j200", "198.18.3.2", 200e6, 9000},
                          {"j500", "198.18.4.2", 500e6, 9000}};
    QStringList failures;
    for (const Case &c : cases) {
        const Attempt result = retryWithinTolerance(kAttempts, kPauseMs, [&](int attempt) {
            QJsonObject doc;
            if (!tb.client({QStringLiteral("-c"), QLatin1String(c.server), QStringLiteral("-t"), QStringLiteral("3"),
                            QStringLiteral("-O"), QStringLiteral("1")},
                           &doc, &error))
                return Attempt::error(error);
            const double expected = expectedGoodput(c.rate, c.mtu);
            const double measured = receivedBps(doc);
            const double e = relErr(measured, expected);
            qInfo("throughput %-5s rate %4.0f Mbit/s MTU %4d: expected %7.2f Mbit/s, measured %7.2f Mbit/s (%s)%s",
                  c.name, c.rate / 1e6, c.mtu, expected / 1e6, measured / 1e6, qPrintable(pct(e)),
                  qPrintable(retryTag(attempt)));
            return std::abs(e) <= 0.02
                       ? Attempt::within()
                       : Attempt::outside(QStringLiteral("%1: %2 off").arg(QLatin1String(c.name), pct(e)));
        });
        QVERIFY2(result.kind != Attempt::Error, qPrintable(result.text));
        if (result.kind == Attempt::Outside)
            failures << result.text;
    }
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral(", "))));
}

// (b) Request/response through a delay link, 10 ms each way. The truth is a plain blocking
// ping-pong over the same link in the same attempt (plainPingPong): NicBench's TCP_RR p50 and
// transactions/s must match it within 5%. The reference itself must show the configured
// 20 ms round trip (at least 20 ms, at most 25% more), which proves the link delays.
// Comparing with the configured delay plus the zero-delay path's RTT, as this test once did,
// missed by 5-8% on a fresh CI machine: a process that sleeps 10 ms between packets wakes
// up slower there than one in a busy ping-pong, for NicBench and any other program alike.
void TestTestbed::requestResponseMatchesDelay()
{
    TESTBED_OR_SKIP();
    Testbed tb(QStringLiteral("rr"));
    QString error;
    QVERIFY2(tb.up(QStringLiteral("d10 mtu=1500 delay=10ms\n"), &error), qPrintable(error));
    tb.setRealtime(true);
    QVERIFY2(tb.startServer(&error), qPrintable(error));
    const double configuredUs = 2 * 10000.0;
    const char *server = "198.18.1.2";
    // Retried: when the delay link or a test process loses its CPU on a shared 2-core VM,
    // transactions take 30+ ms for a few seconds, in one of the two runs and not the other.
    // The tolerance stays 5%.
    const Attempt result = retryWithinTolerance(kAttempts, kPauseMs, [&](int attempt) {
        const testbed::PingPong ref =
            testbed::plainPingPong(tb.clientNs(), tb.serverNs(), server, quint16(5299 + attempt), 3.0, tb.realtime());
        if (!ref.error.isEmpty())
            return Attempt::error(ref.error);
        if (ref.p50Us < configuredUs || ref.p50Us > configuredUs * 1.25)
            return Attempt::outside(
                QStringLiteral("the plain ping-pong's p50 is %1 us on a %2 us link").arg(ref.p50Us).arg(configuredUs));
        QJsonObject delayed;
        if (!tb.client({QStringLiteral("-c"), QLatin1String(server), QStringLiteral("--rr"), QStringLiteral("-t"),
                        QStringLiteral("3")},
                       &delayed, &error))
            return Attempt::error(error);
        const QJsonObject rr = nicbench(delayed).value(QStringLiteral("rr")).toObject();
        if (rr.isEmpty())
            return Attempt::error(QStringLiteral("no nicbench.rr in the RR result"));
        const double tps = rr.value(QStringLiteral("transactions_per_second")).toDouble();
        const QJsonObject lat = rr.value(QStringLiteral("latency_us")).toObject();
        const double p50 = lat.value(QStringLiteral("p50")).toDouble();
        qInfo("rr: plain ping-pong p50 %.1f us, mean %.1f us, %.2f transactions/s (%s vs the configured %.0f us); "
              "nicbench p50 %.1f us (%s), mean %.1f us, p99 %.1f us, %.2f transactions/s (%s)%s",
              ref.p50Us, ref.meanUs, ref.tps, qPrintable(pct(relErr(ref.p50Us, configuredUs))), configuredUs, p50,
              qPrintable(pct(relErr(p50, ref.p50Us))), lat.value(QStringLiteral("mean")).toDouble(),
              lat.value(QStringLiteral("p99")).toDouble(), tps, qPrintable(pct(relErr(tps, ref.tps))),
              qPrintable(retryTag(attempt)));
        if (std::abs(relErr(p50, ref.p50Us)) > 0.05)
            return Attempt::outside(QStringLiteral("p50 %1 us, the plain ping-pong's %2 us").arg(p50).arg(ref.p50Us));
        if (std::abs(relErr(tps, ref.tps)) > 0.05)
            return Attempt::outside(
                QStringLiteral("%1 transactions/s, the plain ping-pong's %2").arg(tps).arg(ref.tps));
        return Attempt::within();
    });
    QVERIFY2(result.kind == Attempt::Within, qPrintable(result.text));
}

// (c) The shaped interface's utilization during a test equals the configured rate: from the
// engine's own adapter counters over the test, and from the veth's sysfs counters read
// directly over the middle of the test.
void TestTestbed::utilizationMatchesRate()
{
    TESTBED_OR_SKIP();
    Testbed tb(QStringLiteral("ut"));
    QString error;
    QVERIFY2(tb.up(QStringLiteral("u500 rate=500mbit mtu=1500\n"), &error), qPrintable(error));
    QVERIFY2(tb.startServer(&error), qPrintable(error));

    // Retried for the reason given at retryWithinTolerance: the review's run missed by
    // -3.14% against the 3% bound once, with nothing wrong but load.
    const Attempt result = retryWithinTolerance(kAttempts, kPauseMs, [&](int attempt) {
        // Client in the background; sample the counters from 1.5 s to 3.0 s after its start
        // (after slow start and the 1 s omit, well before the end at 4 s).
        QProcess client;
        client.start(QStringLiteral("ip"),
                     {QStringLiteral("netns"), QStringLiteral("exec"), tb.clientNs(), cliPath(), QStringLiteral("-c"),
                      QStringLiteral("198.18.1.2"), QStringLiteral("-t"), QStringLiteral("3"), QStringLiteral("-O"),
                      QStringLiteral("1"), QStringLiteral("-J")});
        if (!client.waitForStarted(5000))
            return Attempt::error(QStringLiteral("cannot start the client"));
        QElapsedTimer t;
        t.start();
        QTest::qWait(1500);
        const qint64 tx0 = tb.clientCounter(QStringLiteral("u500"), QStringLiteral("tx_bytes"));
        const qint64 t0 = t.nsecsElapsed();
        QTest::qWait(1500);
        const qint64 tx1 = tb.clientCounter(QStringLiteral("u500"), QStringLiteral("tx_bytes"));
        const qint64 t1 = t.nsecsElapsed();
        if (!client.waitForFinished(20000))
            return Attempt::error(QStringLiteral("the client did not finish"));
        if (tx0 < 0 || tx1 <= tx0)
            return Attempt::error(QStringLiteral("cannot read the veth's tx_bytes"));
        const QJsonDocument doc = QJsonDocument::fromJson(client.readAllStandardOutput());
        if (client.exitCode() != 0 || !doc.isObject())
            return Attempt::error(QString::fromLocal8Bit(client.readAllStandardError()));

        const double rate = 500e6;
        const double sysfsBps = double(tx1 - tx0) * 8 / (double(t1 - t0) / 1e9);
        const QJsonObject ad = nicbench(doc.object()).value(QStringLiteral("adapters")).toObject();
        const double seconds = doc.object()
                                   .value(QStringLiteral("end"))
                                   .toObject()
                                   .value(QStringLiteral("sum_sent"))
                                   .toObject()
                                   .value(QStringLiteral("seconds"))
                                   .toDouble();
        if (!ad.contains(QStringLiteral("local_tx_bytes")) || seconds <= 0)
            return Attempt::error(QStringLiteral("no nicbench.adapters.local_tx_bytes"));
        const double engineBps = ad.value(QStringLiteral("local_tx_bytes")).toDouble() * 8 / seconds;
        qInfo("utilization of u500 (500 Mbit/s): sysfs mid-test %.2f Mbit/s (%s), engine local_tx_bytes %.2f Mbit/s "
              "(%s)%s",
              sysfsBps / 1e6, qPrintable(pct(relErr(sysfsBps, rate))), engineBps / 1e6,
              qPrintable(pct(relErr(engineBps, rate))), qPrintable(retryTag(attempt)));
        if (std::abs(relErr(sysfsBps, rate)) > 0.03)
            return Attempt::outside(QStringLiteral("sysfs: %1").arg(pct(relErr(sysfsBps, rate))));
        if (std::abs(relErr(engineBps, rate)) > 0.03)
            return Attempt::outside(QStringLiteral("engine: %1").arg(pct(relErr(engineBps, rate))));
        return Attempt::within();
    });
    QVERIFY2(result.kind == Attempt::Within, qPrintable(result.text));
}

// (d) The carrying interface is the veth (on both sides), and a test bound to another
// pair's address, whose packets really leave through this pair (the route to the server
// address is this pair's subnet), is flagged as having taken another path.
void TestTestbed::adapterIdentifiedAndWrongPathWarned()
{
    TESTBED_OR_SKIP();
    Testbed tb(QStringLiteral("id"));
    QString error;
    QVERIFY2(tb.up(QStringLiteral("pa rate=500mbit mtu=1500\n"
                                  "pb rate=500mbit mtu=9000\n"),
                   &error),
             qPrintable(error));
    QVERIFY2(tb.startServer(&error), qPrintable(error));

    QJsonObject right;
    QVERIFY2(tb.client({QStringLiteral("-c"), QStringLiteral("198.18.1.2"), QStringLiteral("-t"), QStringLiteral("2")},
                       &right, &error),
             qPrintable(error));
    const QJsonObject ad = nicbench(right).value(QStringLiteral("adapters")).toObject();
    const QJsonObject local = ad.value(QStringLiteral("local")).toObject();
    const QJsonObject remote = ad.value(QStringLiteral("remote")).toObject();
    QCOMPARE(local.value(QStringLiteral("name")).toString(), QStringLiteral("pa"));
    QCOMPARE(local.value(QStringLiteral("family")).toString(), QStringLiteral("veth"));
    QCOMPARE(local.value(QStringLiteral("mtu")).toInt(), 1500);
    QCOMPARE(remote.value(QStringLiteral("name")).toString(), QStringLiteral("pa"));
    for (const QJsonValue &w : nicbench(right).value(QStringLiteral("warnings")).toArray())
        QVERIFY2(!w.toString().contains(QStringLiteral("another path")), qPrintable(w.toString()));

    // Bound to pb's client address, aimed at pa's server address: the kernel routes by
    // destination, so the data leaves through pa while the socket's address belongs to pb
    // (the server's replies come back through pb). rp_filter is off in the testbed.
    QJsonObject wrong;
    QVERIFY2(tb.client({QStringLiteral("-B"), QStringLiteral("198.18.2.1"), QStringLiteral("-c"),
                        QStringLiteral("198.18.1.2"), QStringLiteral("-t"), QStringLiteral("2")},
                       &wrong, &error),
             qPrintable(error));
    const QJsonObject wad = nicbench(wrong).value(QStringLiteral("adapters")).toObject();
    QCOMPARE(wad.value(QStringLiteral("local")).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("pb"));
    QStringList warnings;
    for (const QJsonValue &w : nicbench(wrong).value(QStringLiteral("warnings")).toArray())
        warnings << w.toString();
    qInfo("wrong path: %s", qPrintable(warnings.join(QStringLiteral(" | "))));
    bool warned = false;
    for (const QString &w : warnings)
        warned = warned || (w.contains(QStringLiteral("another path")) && w.contains(QStringLiteral("pb")));
    QVERIFY2(warned, "no wrong-path warning naming pb");
}

// (e) Verdicts: a faster emulated adapter is "faster", two identical ones are not
// significantly different. Runs are interleaved (A B A B A B) so drift cannot favour a side.
void TestTestbed::comparisonVerdicts()
{
    TESTBED_OR_SKIP();
    Testbed tb(QStringLiteral("cmp"));
    QString error;
    QVERIFY2(tb.up(QStringLiteral("c200a rate=200mbit mtu=1500\n"
                                  "c500 rate=500mbit mtu=1500\n"
                                  "c200b rate=200mbit mtu=1500\n"),
                   &error),
             qPrintable(error));
    QVERIFY2(tb.startServer(&error), qPrintable(error));
    const QString servers[] = {QStringLiteral("198.18.1.2"), QStringLiteral("198.18.2.2"),
                               QStringLiteral("198.18.3.2")};
    // Retried like the accuracy cases, at most three times (nine runs each): at alpha 0.01
    // two identical links are called different in one comparison of a hundred by
    // construction, and a CPU-starved run makes that likelier.
    const Attempt result = retryWithinTolerance(3, kPauseMs, [&](int attempt) {
        QList<double> samples[3];
        for (int repeat = 0; repeat < 3; ++repeat) {
            for (int i = 0; i < 3; ++i) {
                QJsonObject doc;
                if (!tb.client({QStringLiteral("-c"), servers[i], QStringLiteral("-t"), QStringLiteral("2"),
                                QStringLiteral("-O"), QStringLiteral("1")},
                               &doc, &error))
                    return Attempt::error(error);
                samples[i].append(receivedBps(doc));
            }
        }
        auto list = [](const QList<double> &v) {
            QStringList s;
            for (double x : v)
                s << QString::number(x / 1e6, 'f', 2);
            return s.join(QLatin1Char(' '));
        };
        qInfo("compare samples (Mbit/s): c200a %s | c500 %s | c200b %s%s", qPrintable(list(samples[0])),
              qPrintable(list(samples[1])), qPrintable(list(samples[2])), qPrintable(retryTag(attempt)));
        const nb::stats::Summary a = nb::stats::summarize(samples[0]);
        const nb::stats::Summary fast = nb::stats::summarize(samples[1]);
        const nb::stats::Summary b = nb::stats::summarize(samples[2]);
        // alpha = 0.01: with identical links a 5% test would call a difference in 1 run of
        // 20 by construction; the 200 vs 500 Mbit/s difference is significant at any level.
        const auto faster = nb::stats::compareToBaseline(a, fast, nb::stats::Better::Higher, 0.01);
        const auto same = nb::stats::compareToBaseline(a, b, nb::stats::Better::Higher, 0.01);
        qInfo("compare: c200a %.2f +/- %.2f, c500 %.2f +/- %.2f, c200b %.2f +/- %.2f Mbit/s", a.mean / 1e6,
              a.ciHalfWidth() / 1e6, fast.mean / 1e6, fast.ciHalfWidth() / 1e6, b.mean / 1e6, b.ciHalfWidth() / 1e6);
        qInfo("compare: c500 vs c200a: %s (%+.1f%%, p=%.3g); c200b vs c200a: %s (%+.2f%%, p=%.3g)",
              qPrintable(nb::stats::verdictText(faster.verdict, nb::stats::Better::Higher)),
              faster.difference.relative * 100, faster.welch.pValue,
              qPrintable(nb::stats::verdictText(same.verdict, nb::stats::Better::Higher)),
              same.difference.relative * 100, same.welch.pValue);
        if (nb::stats::verdictKey(faster.verdict) != QStringLiteral("faster"))
            return Attempt::outside(QStringLiteral("c500 vs c200a: %1").arg(nb::stats::verdictKey(faster.verdict)));
        if (nb::stats::verdictKey(same.verdict) != QStringLiteral("no_difference"))
            return Attempt::outside(QStringLiteral("c200b vs c200a: %1").arg(nb::stats::verdictKey(same.verdict)));
        return Attempt::within();
    });
    QVERIFY2(result.kind == Attempt::Within, qPrintable(result.text));
}

QTEST_GUILESS_MAIN(TestTestbed)
#include "tst_testbed.moc"
