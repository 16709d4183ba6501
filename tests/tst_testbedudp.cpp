// SPDX-License-Identifier: GPL-3.0-or-later
// UDP ground truth on emulated adapters (scripts/testbed, docs/testbed.md "UDP ground truth"):
//   - a tbf link offered twice its rate loses 1 - goodput/offered of the datagrams (within 2
//     points), and at half its rate none;
//   - a delay link with uniform +/-J jitter gives RFC 1889 jitter 2J/3 (within 10%);
//   - -u --rr over a link that drops p of the packets each way counts 1-(1-p)^2 of its
//     transactions lost, and still ends on time with transactions/s and percentiles;
//   - --dont-fragment over a path whose MTU is below the datagram: EMSGSIZE, one line naming
//     the size, a bounded time, a non-zero exit and the intervals measured before.
// Needs root and working `ip netns`; skips with the reason otherwise (CI runs as root).

#include "testbedfixture.h"

namespace {

QJsonObject endObject(const QJsonObject &doc, const char *key)
{
    return doc.value(QStringLiteral("end")).toObject().value(QLatin1String(key)).toObject();
}

double number(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toDouble();
}

// A client run whose failure is the expected outcome: exit code, stdout, stderr.
Run clientRaw(const Testbed &tb, const QStringList &args, int timeoutMs = 30000)
{
    return run(QStringLiteral("ip"), tb.nsCommand(tb.clientNs(), QStringList{cliPath()} + args), timeoutMs);
}

// Mean of the per-interval jitter values (ms) of a receiving client's -J document, from
// `fromSecs` on: RFC 1889's estimate starts at 0 and needs a few dozen datagrams (gain 1/16)
// to settle, so the first half second is left out.
double meanIntervalJitterMs(const QJsonObject &doc, double fromSecs, int *count)
{
    double sum = 0;
    *count = 0;
    for (const QJsonValue &iv : doc.value(QStringLiteral("intervals")).toArray()) {
        const QJsonObject s = iv.toObject().value(QStringLiteral("sum")).toObject();
        if (number(s, "start") < fromSecs - 1e-6)
            continue;
        sum += number(s, "jitter_ms");
        ++*count;
    }
    return *count > 0 ? sum / *count : 0;
}

} // namespace

class TestTestbedUdp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void lossMatchesShaper();
    void jitterMatchesDelayLink();
    void requestResponseCountsLoss();
    void datagramTooLargeForPath();

private:
    QString m_skipReason;
};

void TestTestbedUdp::initTestCase()
{
    if (const QString why = testbedUnavailable(); !why.isEmpty())
        noteUnavailable(why, &m_skipReason);
}

#define TESTBED_OR_SKIP()                                                                                              \
    do {                                                                                                               \
        if (!m_skipReason.isEmpty())                                                                                   \
            QSKIP(qPrintable(m_skipReason));                                                                           \
    } while (false)

// A 20 Mbit/s tbf link. Datagrams of -l 1448 cost 1448 + 8 (UDP) + 20 (IP) + 14 (Ethernet)
// bytes in tbf's count, so the link carries 20 x 1448/1490 = 19.44 Mbit/s of payload:
//   offered 40 Mbit/s: lost fraction = 1 - 19.44/offered (offered as the sender measured it),
//                      within 2 percentage points;
//   offered 10 Mbit/s: none lost, strictly 0. Both ends run under SCHED_FIFO (the sender
//   sleeps between bursts, never spins): a sender that loses its CPU on a loaded machine
//   makes up the schedule in one burst, larger than tbf's queue, which is a real loss on
//   the link but not the link's rate; and -w 1M gives the receiver half a second of buffer
//   at this rate (the default 208 KB holds ~90 datagrams of 2.3 KB truesize, 0.1 s), so a
//   receiver held up for a moment loses nothing either.
void TestTestbedUdp::lossMatchesShaper()
{
    TESTBED_OR_SKIP();
    Testbed tb(QStringLiteral("ul"));
    QString error;
    QVERIFY2(tb.up(QStringLiteral("t20 rate=20mbit mtu=1500\n"), &error), qPrintable(error));
    tb.setRealtime(true);
    QVERIFY2(tb.startServer(&error), qPrintable(error));
    const double rate = 20e6, payload = 1448, frame = payload + 42;
    const double carried = rate * payload / frame;
    for (const char *offered : {"40M", "10M"}) {
        const Attempt result = retryWithinTolerance(kAttempts, kPauseMs, [&](int attempt) {
            QJsonObject doc;
            if (!tb.client({QStringLiteral("-c"), QStringLiteral("198.18.1.2"), QStringLiteral("-u"),
                            QStringLiteral("-b"), QLatin1String(offered), QStringLiteral("-l"),
                            QString::number(payload), QStringLiteral("-w"), QStringLiteral("1M"), QStringLiteral("-t"),
                            QStringLiteral("3")},
                           &doc, &error))
                return Attempt::error(error);
            const QJsonObject sent = endObject(doc, "sum_sent"), got = endObject(doc, "sum_received");
            const double offeredBps = number(sent, "bits_per_second");
            const double packets = number(got, "packets"), lost = number(got, "lost_packets");
            if (packets <= 0)
                return Attempt::error(QStringLiteral("no datagrams counted: %1")
                                          .arg(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Compact))));
            // The shaper drops on the client's own queue, before its adapter counts: no
            // "another path" warning for that.
            for (const QJsonValue &w :
                 doc.value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("warnings")).toArray())
                if (w.toString().contains(QStringLiteral("another path")))
                    return Attempt::error(w.toString());
            const double expected = std::max(0.0, 1.0 - carried / offeredBps);
            const double measured = lost / packets;
            qInfo("loss: offered %.2f Mbit/s through 20 Mbit/s (%.2f of payload): goodput %.2f Mbit/s, lost %.0f of "
                  "%.0f = %.2f%%, expected %.2f%%, jitter %.3f ms%s",
                  offeredBps / 1e6, carried / 1e6, number(got, "bits_per_second") / 1e6, lost, packets, measured * 100,
                  expected * 100, number(got, "jitter_ms"), qPrintable(retryTag(attempt)));
            if (expected == 0.0)
                return lost == 0
                           ? Attempt::within()
                           : Attempt::outside(QStringLiteral("%1 datagrams lost at half the link's rate").arg(lost));
            return std::abs(measured - expected) <= 0.02
                       ? Attempt::within()
                       : Attempt::outside(QStringLiteral("offered %1: lost %2%, expected %3%")
                                              .arg(QLatin1String(offered))
                                              .arg(measured * 100, 0, 'f', 2)
                                              .arg(expected * 100, 0, 'f', 2));
        });
        QVERIFY2(result.kind == Attempt::Within, qPrintable(result.text));
    }
}

// Jitter through delay links of 5 ms each way, one with uniform +/-2 ms jitter and one with
// none (the baseline: the delay link's, the stack's and the receiver's own timing error).
// Datagrams of 1000 bytes at 1.6 Mbit/s leave every 5 ms, further apart than 2J = 4 ms, so
// the link's FIFO never holds one back behind another: the transit times are independent
// uniform +/-J, their consecutive differences D triangular on +/-2J, and E|D| = 2J/3 =
// 1.333 ms, which the RFC 1889 estimate (J += (|D| - J)/16) tracks. Its value at one moment
// spreads by ~13% (an average over ~16 differences), so the check takes the mean of the
// per-interval values (-i 0.1, -R: the client receives and reports them) from 0.5 s on,
// within 10% of 2J/3, with the baseline's mean below a tenth of that (else the machine's
// own timing would decide the result). Both ends under SCHED_FIFO: a receiver that waits
// for a CPU stamps the arrival late, and that is jitter too (2-4 ms on a busy machine).
void TestTestbedUdp::jitterMatchesDelayLink()
{
    TESTBED_OR_SKIP();
    Testbed tb(QStringLiteral("uj"));
    QString error;
    QVERIFY2(tb.up(QStringLiteral("j0 delay=5ms\nj2 delay=5ms jitter=2ms\n"), &error), qPrintable(error));
    tb.setRealtime(true);
    QVERIFY2(tb.startServer(&error), qPrintable(error));
    const double expectedMs = 2.0 * 2.0 / 3.0;
    const Attempt result = retryWithinTolerance(kAttempts, kPauseMs, [&](int attempt) {
        double means[2] = {0, 0}, finals[2] = {0, 0};
        const char *servers[2] = {"198.18.1.2", "198.18.2.2"};
        for (int i = 0; i < 2; ++i) {
            QJsonObject doc;
            if (!tb.client({QStringLiteral("-c"), QLatin1String(servers[i]), QStringLiteral("-R"), QStringLiteral("-u"),
                            QStringLiteral("-b"), QStringLiteral("1.6M"), QStringLiteral("-l"), QStringLiteral("1000"),
                            QStringLiteral("-t"), QStringLiteral("3"), QStringLiteral("-i"), QStringLiteral("0.1")},
                           &doc, &error))
                return Attempt::error(error);
            int count = 0;
            means[i] = meanIntervalJitterMs(doc, 0.5, &count);
            finals[i] = number(endObject(doc, "sum_received"), "jitter_ms");
            if (count < 10)
                return Attempt::error(QStringLiteral("only %1 intervals with jitter").arg(count));
        }
        qInfo("jitter: J = 2 ms: expected %.3f ms, mean of intervals %.3f ms (%s), final %.3f ms; baseline (J = 0): "
              "mean %.3f ms, final %.3f ms%s",
              expectedMs, means[1], qPrintable(pct(relErr(means[1], expectedMs))), finals[1], means[0], finals[0],
              qPrintable(retryTag(attempt)));
        if (means[0] > expectedMs * 0.1)
            return Attempt::outside(
                QStringLiteral("baseline jitter %1 ms: the machine's timing is too noisy").arg(means[0], 0, 'f', 3));
        return std::abs(relErr(means[1], expectedMs)) <= 0.10
                   ? Attempt::within()
                   : Attempt::outside(QStringLiteral("jitter %1 ms, expected %2 ms")
                                          .arg(means[1], 0, 'f', 3)
                                          .arg(expectedMs, 0, 'f', 3));
    });
    QVERIFY2(result.kind == Attempt::Within, qPrintable(result.text));
}

// -u --rr through a delay link of 1 ms each way that drops 5% of the packets in each
// direction: a transaction survives with (1-p)^2, so 1-(1-p)^2 = 9.75% of them are lost.
// 32 requests in flight and a 100 ms timeout give ~8000 transactions in 3 s. The bound is
// 4 binomial standard deviations of the measured fraction (a false alarm once in ~16 000
// runs), and below that also the requests still out when the test ends (at most 32: neither
// answered nor counted lost yet, most of them waiting out a loss, which biases the count
// down). The run must end within 15 s of its 3 s, with transactions/s and percentiles,
// the p50 no less than the link's 2 ms round trip.
void TestTestbedUdp::requestResponseCountsLoss()
{
    TESTBED_OR_SKIP();
    Testbed tb(QStringLiteral("ur"));
    QString error;
    QVERIFY2(tb.up(QStringLiteral("l5 delay=1ms loss=5%\n"), &error), qPrintable(error));
    tb.setRealtime(true);
    QVERIFY2(tb.startServer(&error), qPrintable(error));
    const double p = 0.05, expected = 1.0 - (1.0 - p) * (1.0 - p);
    const int inFlight = 32;
    const Attempt result = retryWithinTolerance(kAttempts, kPauseMs, [&](int attempt) {
        QElapsedTimer t;
        t.start();
        QJsonObject doc;
        if (!tb.client({QStringLiteral("-c"), QStringLiteral("198.18.1.2"), QStringLiteral("-u"),
                        QStringLiteral("--rr"), QStringLiteral("--in-flight"), QString::number(inFlight),
                        QStringLiteral("--udp-rr-timeout"), QStringLiteral("100"), QStringLiteral("-t"),
                        QStringLiteral("3")},
                       &doc, &error))
            return Attempt::error(error);
        const qint64 elapsed = t.elapsed();
        const QJsonObject rr = nicbench(doc).value(QStringLiteral("rr")).toObject();
        const QJsonObject lat = rr.value(QStringLiteral("latency_us")).toObject();
        const double done = number(rr, "transactions"), lost = number(rr, "udp_lost");
        const double n = done + lost;
        if (n < 1000)
            return Attempt::error(QStringLiteral("only %1 transactions").arg(n));
        const double measured = lost / n;
        const double sigma = std::sqrt(expected * (1 - expected) / n);
        const double low = expected - 4 * sigma - inFlight / n, high = expected + 4 * sigma;
        qInfo("udp rr: p = %.0f%% each way: lost %.0f of %.0f = %.2f%%, expected %.2f%% (bound %.2f-%.2f%%); "
              "%.1f transactions/s, p50 %.0f us, p99 %.0f us, %lld ms%s",
              p * 100, lost, n, measured * 100, expected * 100, low * 100, high * 100,
              number(rr, "transactions_per_second"), number(lat, "p50"), number(lat, "p99"), elapsed,
              qPrintable(retryTag(attempt)));
        if (elapsed > 18000)
            return Attempt::error(QStringLiteral("a 3 s run took %1 ms").arg(elapsed));
        if (number(rr, "transactions_per_second") <= 0 || number(lat, "p50") < 2000 ||
            number(lat, "p99") < number(lat, "p50"))
            return Attempt::error(QStringLiteral("no rate or percentiles: %1")
                                      .arg(QString::fromUtf8(QJsonDocument(rr).toJson(QJsonDocument::Compact))));
        return measured >= low && measured <= high ? Attempt::within()
                                                   : Attempt::outside(QStringLiteral("lost %1%, expected %2% (%3-%4%)")
                                                                          .arg(measured * 100, 0, 'f', 2)
                                                                          .arg(expected * 100, 0, 'f', 2)
                                                                          .arg(low * 100, 0, 'f', 2)
                                                                          .arg(high * 100, 0, 'f', 2));
    });
    QVERIFY2(result.kind == Attempt::Within, qPrintable(result.text));
}

// --dont-fragment (DF, IP_PMTUDISC_DO) with 1400-byte datagrams:
//   - over an MTU 1280 link, the first send fails with EMSGSIZE: one line naming the size,
//     a non-zero exit within seconds; without the option the same run fragments and works;
//     with -R the server's sender fails and the client hears it (iperf3's error 205);
//   - over an MTU 1500 link whose MTU drops to 1280 during the test, the sender fails at
//     the drop and the -J document keeps the intervals measured before it.
void TestTestbedUdp::datagramTooLargeForPath()
{
    TESTBED_OR_SKIP();
    Testbed tb(QStringLiteral("um"));
    QString error;
    QVERIFY2(tb.up(QStringLiteral("m1280 mtu=1280\nm1500 mtu=1500\n"), &error), qPrintable(error));
    QVERIFY2(tb.startServer(&error), qPrintable(error));
    const QStringList base{QStringLiteral("-u"), QStringLiteral("-l"), QStringLiteral("1400"), QStringLiteral("-t"),
                           QStringLiteral("2")};
    const QStringList small{QStringLiteral("-c"), QStringLiteral("198.18.1.2")};
    const QString df = QStringLiteral("--dont-fragment");

    QJsonObject doc;
    QVERIFY2(tb.client(small + base, &doc, &error), qPrintable(error));
    QVERIFY2(number(endObject(doc, "sum_received"), "packets") > 0, "fragmented datagrams did not arrive");

    for (const QStringList &extra : {QStringList{df}, QStringList{df, QStringLiteral("-R")}}) {
        QElapsedTimer t;
        t.start();
        const Run r = clientRaw(tb, small + base + extra);
        const QString msg = QString::fromLocal8Bit(r.err).trimmed();
        qInfo("MTU 1280, -l 1400 %s: exit %d after %lld ms: %s", qPrintable(extra.join(QLatin1Char(' '))), r.exitCode,
              t.elapsed(), qPrintable(msg));
        QVERIFY2(r.exitCode > 0, qPrintable(msg));
        QVERIFY2(t.elapsed() < 15000, qPrintable(QString::number(t.elapsed())));
        QVERIFY2(!msg.isEmpty() && !msg.contains(QLatin1Char('\n')), qPrintable(msg));
        if (extra.size() == 1)
            QVERIFY2(msg.contains(QStringLiteral("datagrams of 1400 bytes do not fit the path")), qPrintable(msg));
        else
            QVERIFY2(msg.contains(QStringLiteral("unable to write to stream socket")), qPrintable(msg));
    }

    // The MTU drops while the test runs: wait until ~1500 datagrams (1.7 s at 10 Mbit/s) have
    // left (bounded), then lower it; the next send fails.
    QProcess client;
    client.start(QStringLiteral("ip"),
                 tb.nsCommand(tb.clientNs(), {cliPath(), QStringLiteral("-c"), QStringLiteral("198.18.2.2"),
                                              QStringLiteral("-u"), QStringLiteral("-l"), QStringLiteral("1400"),
                                              QStringLiteral("-b"), QStringLiteral("10M"), QStringLiteral("-t"),
                                              QStringLiteral("10"), df, QStringLiteral("-J")}));
    QVERIFY(client.waitForStarted(5000));
    const qint64 before = tb.clientCounter(QStringLiteral("m1500"), QStringLiteral("tx_packets"));
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 8000 &&
           tb.clientCounter(QStringLiteral("m1500"), QStringLiteral("tx_packets")) < before + 1500)
        QTest::qWait(50);
    const Run lower =
        run(QStringLiteral("ip"), {QStringLiteral("-n"), tb.clientNs(), QStringLiteral("link"), QStringLiteral("set"),
                                   QStringLiteral("m1500"), QStringLiteral("mtu"), QStringLiteral("1280")});
    QVERIFY2(lower.exitCode == 0, lower.err.constData());
    const bool finished = client.waitForFinished(15000);
    if (!finished)
        client.kill();
    QVERIFY2(finished, "the client did not end after the MTU dropped");
    QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed()))); // well before -t 10 ends
    const QJsonObject partial = QJsonDocument::fromJson(client.readAllStandardOutput()).object();
    const QString why = partial.value(QStringLiteral("error")).toString();
    QVERIFY2(client.exitCode() > 0, qPrintable(why));
    QVERIFY2(why.contains(QStringLiteral("datagrams of 1400 bytes do not fit the path")), qPrintable(why));
    double packets = 0;
    for (const QJsonValue &iv : partial.value(QStringLiteral("intervals")).toArray())
        packets += number(iv.toObject().value(QStringLiteral("sum")).toObject(), "packets");
    qInfo("MTU 1500 -> 1280 during the test: %s; %.0f datagrams in the intervals kept", qPrintable(why), packets);
    QVERIFY2(packets >= 500, qPrintable(QString::number(packets)));
}

QTEST_GUILESS_MAIN(TestTestbedUdp)
#include "tst_testbedudp.moc"
