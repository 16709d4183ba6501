// SPDX-License-Identifier: GPL-3.0-or-later
// iperf3's UDP bookkeeping without sockets (core/udpaccounting.h): the header bytes, the
// receiver's lost / out-of-order counts and jitter worked out by hand, and the pacer's
// schedule on a clock the test drives.
#include "core/udpaccounting.h"

#include <QTest>

#include <cmath>
#include <vector>

namespace udp = nb::udp;

class TestUdpAccounting : public QObject {
    Q_OBJECT
private slots:
    void headerBytes_data();
    void headerBytes();
    void shortDatagram();
    void connectMessages();
    void sequence_data();
    void sequence();
    void jitter();
    void plausibleSequence_data();
    void plausibleSequence();
    void receiverDropsForgedJump();
    void pacerRate_data();
    void pacerRate();
    void pacerWaits();
    void pacerForgivesStalls();
    void pacerTimerBursts();
    void pacerUnlimited();
};

void TestUdpAccounting::headerBytes_data()
{
    QTest::addColumn<bool>("wide");
    QTest::addColumn<qint64>("sentNs");
    QTest::addColumn<quint64>("sequence");
    QTest::addColumn<QByteArray>("expected");
    // 58791 s 0x0009478d us, sequence 1: the bytes a 3.12 client put on the wire (observed).
    QTest::newRow("64-bit as observed") << true << qint64(58791LL * 1'000'000'000 + 608'141'000) << quint64(1)
                                        << QByteArray::fromHex("0000e5a70009478d0000000000000001");
    QTest::newRow("32-bit") << false << qint64(1'500'000'000) << quint64(0x01020304)
                            << QByteArray::fromHex("00000001"
                                                   "0007a120"
                                                   "01020304");
    QTest::newRow("64-bit high word") << true << qint64(0) << quint64(0x0000000500000007)
                                      << QByteArray::fromHex("00000000"
                                                             "00000000"
                                                             "00000005"
                                                             "00000007");
}

void TestUdpAccounting::headerBytes()
{
    QFETCH(bool, wide);
    QFETCH(qint64, sentNs);
    QFETCH(quint64, sequence);
    QFETCH(QByteArray, expected);
    QCOMPARE(std::size_t(expected.size()), udp::headerSize(wide));
    unsigned char buf[16] = {};
    udp::writeHeader(buf, sentNs, sequence, wide);
    QCOMPARE(QByteArray(reinterpret_cast<const char *>(buf), int(udp::headerSize(wide))), expected);
    udp::Header h;
    QVERIFY(udp::readHeader(buf, udp::headerSize(wide), wide, &h));
    QCOMPARE(h.sequence, sequence);
    // Microseconds on the wire: the time reads back to the microsecond.
    QVERIFY(std::fabs(h.sentSecs - double(sentNs / 1000) / 1e6) < 1e-6);
}

void TestUdpAccounting::shortDatagram()
{
    unsigned char buf[16] = {};
    udp::Header h;
    QVERIFY(!udp::readHeader(buf, 11, false, &h));
    QVERIFY(!udp::readHeader(buf, 15, true, &h));
    QVERIFY(udp::readHeader(buf, 12, false, &h));
}

void TestUdpAccounting::connectMessages()
{
    // What a 3.12 server answers (observed: 0x39383736 written little-endian), and legacy.
    const unsigned char reply[4] = {0x36, 0x37, 0x38, 0x39};
    QVERIFY(udp::isConnectReply(reply, 4));
    const unsigned char legacy[4] = {0x3a, 0xde, 0x68, 0xb1}; // 987654321 big-endian
    QVERIFY(udp::isConnectReply(legacy, 4));
    const unsigned char other[4] = {0x39, 0x38, 0x37, 0x36}; // the client's message, not a reply
    QVERIFY(!udp::isConnectReply(other, 4));
    QVERIFY(!udp::isConnectReply(reply, 3));
}

void TestUdpAccounting::sequence_data()
{
    QTest::addColumn<QList<quint64>>("arrivals");
    QTest::addColumn<quint64>("packets");
    QTest::addColumn<quint64>("lost");
    QTest::addColumn<quint64>("outOfOrder");
    QTest::newRow("in order") << QList<quint64>{1, 2, 3, 4} << quint64(4) << quint64(0) << quint64(0);
    QTest::newRow("one gap") << QList<quint64>{1, 2, 5, 6} << quint64(6) << quint64(2) << quint64(0);
    // 3 arrives after 4: counted lost when 4 came, then taken back as out of order.
    QTest::newRow("swap") << QList<quint64>{1, 2, 4, 3, 5} << quint64(5) << quint64(0) << quint64(1);
    QTest::newRow("first ones lost") << QList<quint64>{3, 4} << quint64(4) << quint64(2) << quint64(0);
    // A duplicate is "out of order" too and takes back one lost datagram, as iperf3 does.
    QTest::newRow("duplicate after a gap") << QList<quint64>{1, 3, 3} << quint64(3) << quint64(0) << quint64(1);
    QTest::newRow("duplicate, no loss") << QList<quint64>{1, 2, 2} << quint64(2) << quint64(0) << quint64(1);
    QTest::newRow("nothing") << QList<quint64>{} << quint64(0) << quint64(0) << quint64(0);
}

void TestUdpAccounting::sequence()
{
    QFETCH(QList<quint64>, arrivals);
    udp::ReceiveCounter c;
    for (quint64 seq : arrivals)
        c.onDatagram(seq, 0.001);
    QTEST(quint64(c.packets()), "packets");
    QTEST(quint64(c.lost()), "lost");
    QTEST(quint64(c.outOfOrder()), "outOfOrder");
}

void TestUdpAccounting::plausibleSequence_data()
{
    QTest::addColumn<double>("rate");
    QTest::addColumn<quint32>("bytes");
    QTest::addColumn<qint64>("elapsedNs");
    QTest::addColumn<quint64>("highest");
    // (elapsed + 1 s) x rate x 1.25 / (8 x bytes), whole datagrams, + 1,024.
    QTest::newRow("10M, 1400 B, at the start") << 10e6 << 1400u << qint64(0) << quint64(1116 + 1024);
    QTest::newRow("10M, 1400 B, after 3 s") << 10e6 << 1400u << qint64(3'000'000'000) << quint64(4464 + 1024);
    QTest::newRow("1M, 1460 B, after 10 s") << 1e6 << 1460u << qint64(10'000'000'000) << quint64(1177 + 1024);
    // Unlimited (-b 0) is judged at 1 Tbit/s.
    QTest::newRow("unlimited, 1400 B, after 1 s")
        << 0.0 << 1400u << qint64(1'000'000'000) << quint64(223'214'285 + 1024);
    // A size under iperf3's smallest is taken as the smallest (16 bytes).
    QTest::newRow("1M, 0 B") << 1e6 << 0u << qint64(0) << quint64(9765 + 1024);
    // A clock that went back counts as no time.
    QTest::newRow("negative elapsed") << 10e6 << 1400u << qint64(-5'000'000'000) << quint64(1116 + 1024);
}

void TestUdpAccounting::plausibleSequence()
{
    QFETCH(double, rate);
    QFETCH(quint32, bytes);
    QFETCH(qint64, elapsedNs);
    QTEST(quint64(udp::plausibleSequence(rate, bytes, elapsedNs)), "highest");
}

// Issue 30, M3: three datagrams numbered a million ahead into a 10 Mbit/s test of 1400-byte
// datagrams, 1 s in, are dropped and counted apart; the test's own datagrams are counted.
void TestUdpAccounting::receiverDropsForgedJump()
{
    const std::int64_t begin = 5'000'000'000;
    udp::StreamReceiver r(10e6, 1400, false, begin);
    unsigned char d[1400] = {};
    std::int64_t now = begin;
    for (std::uint64_t seq : {1, 2, 3, 1000000, 1000001, 1000002, 4}) {
        now += 1'000'000;
        udp::writeHeader(d, now - 100'000, seq, false);
        const auto expected =
            seq >= 1000000 ? udp::StreamReceiver::Verdict::Implausible : udp::StreamReceiver::Verdict::Counted;
        QCOMPARE(r.onDatagram(d, sizeof d, now), expected);
    }
    QCOMPARE(r.rejected(), std::uint64_t(3));
    QCOMPARE(r.counter().packets(), std::uint64_t(4));
    QCOMPARE(r.counter().lost(), std::uint64_t(0));
    QCOMPARE(r.counter().outOfOrder(), std::uint64_t(0));
    QCOMPARE(r.onDatagram(d, 11, now), udp::StreamReceiver::Verdict::NoHeader);
}

void TestUdpAccounting::jitter()
{
    // Transit times 10, 12, 11, 11 ms: D = 2, 1, 0 ms; J = 2/16, then + (1 - J)/16, then - J/16.
    udp::ReceiveCounter c;
    const double transits[] = {0.010, 0.012, 0.011, 0.011};
    std::uint64_t seq = 0;
    for (double t : transits)
        c.onDatagram(++seq, t);
    double j = 0;
    j += (0.002 - j) / 16;
    j += (0.001 - j) / 16;
    j += (0.0 - j) / 16;
    QVERIFY2(std::fabs(c.jitterSecs() - j) < 1e-12, qPrintable(QString::number(c.jitterSecs(), 'g', 12)));
    // A constant transit time (whatever the clock offset between the hosts) is no jitter.
    udp::ReceiveCounter steady;
    for (std::uint64_t i = 1; i <= 100; ++i)
        steady.onDatagram(i, 12345.678);
    QCOMPARE(steady.jitterSecs(), 0.0);
}

void TestUdpAccounting::pacerRate_data()
{
    QTest::addColumn<double>("bitsPerSecond");
    QTest::addColumn<int>("datagram");
    QTest::addColumn<qint64>("timerNs");
    QTest::newRow("1 Mbit/s, 1460 B") << 1e6 << 1460 << qint64(1'000'000);
    QTest::newRow("10 Mbit/s, 1460 B") << 10e6 << 1460 << qint64(1'000'000);
    QTest::newRow("100 Mbit/s, 8 KiB") << 100e6 << 8192 << qint64(1'000'000);
    QTest::newRow("1 Gbit/s, 32 KiB") << 1e9 << 32768 << qint64(1'000'000);
    QTest::newRow("1 Gbit/s, 1460 B, 100 us timer") << 1e9 << 1460 << qint64(100'000);
}

// A sender that always sends what is due and sleeps exactly as told keeps the rate: over
// 10 simulated seconds, the bits sent are the asked rate to within one datagram.
void TestUdpAccounting::pacerRate()
{
    QFETCH(double, bitsPerSecond);
    QFETCH(int, datagram);
    QFETCH(qint64, timerNs);
    udp::Pacer p(bitsPerSecond, std::uint32_t(datagram), timerNs);
    std::int64_t now = 1'000'000'000;
    p.start(now);
    const std::int64_t end = now + 10'000'000'000;
    int wakeUps = 0;
    while (now < end) {
        std::int64_t wait = 0;
        const std::uint64_t n = p.due(now, 64, &wait);
        if (n > 0) {
            p.sent(n);
            continue;
        }
        QVERIFY(wait > 0);
        QVERIFY(wait >= timerNs); // never a busy loop: sleeps at least the pacing timer
        now += wait;
        ++wakeUps;
    }
    // Short by at most what falls due in the last timer period (the loop stops at the end).
    const double expected = bitsPerSecond * 10 / 8 / datagram;
    const double perPeriod = bitsPerSecond * double(timerNs) / 1e9 / 8 / datagram;
    QVERIFY2(std::fabs(double(p.sentCount()) - expected) <= perPeriod + 2,
             qPrintable(QStringLiteral("sent %1, expected %2").arg(p.sentCount()).arg(expected)));
    // At most one wake-up per timer period.
    QVERIFY(wakeUps <= 10'000'000'000 / timerNs + 1);
}

void TestUdpAccounting::pacerWaits()
{
    // 1 Mbit/s with 1250-byte datagrams: one every 10 ms.
    udp::Pacer p(1e6, 1250, 1'000'000);
    p.start(0);
    std::int64_t wait = 0;
    QCOMPARE(p.due(0, 64, &wait), std::uint64_t(1)); // the first is due at once
    p.sent(1);
    QCOMPARE(p.due(0, 64, &wait), std::uint64_t(0));
    QCOMPARE(wait, std::int64_t(10'000'000));
    QCOMPARE(p.due(4'000'000, 64, &wait), std::uint64_t(0));
    QCOMPARE(wait, std::int64_t(6'000'000));
    QCOMPARE(p.due(10'000'000, 64, &wait), std::uint64_t(1));
    // Late: at 35 ms the ones due at 20 and 30 ms go out together, capped by the burst.
    p.sent(1);
    QCOMPARE(p.due(35'000'000, 64, &wait), std::uint64_t(2));
    QCOMPARE(p.due(35'000'000, 1, &wait), std::uint64_t(1));
}

void TestUdpAccounting::pacerForgivesStalls()
{
    // 10 Mbit/s, 1250 B: one per ms. A 2 s stall owes 2000 datagrams; at most the debt cap
    // (100 ms worth) is sent as a catch-up burst, the rest is written off.
    udp::Pacer p(10e6, 1250, 1'000'000);
    p.start(0);
    std::int64_t wait = 0;
    std::uint64_t burst = 0;
    const std::int64_t at = 2'000'000'000;
    for (std::uint64_t n; (n = p.due(at, 64, &wait)) > 0;) {
        p.sent(n);
        burst += n;
    }
    QVERIFY2(burst <= 101 && burst >= 99, qPrintable(QString::number(burst)));
    QVERIFY(wait > 0);
}

void TestUdpAccounting::pacerTimerBursts()
{
    // 1 Gbit/s, 1250 B: one every 10 us. With a 1 ms timer the sender sleeps 1 ms and then
    // sends the hundred that fell due.
    udp::Pacer p(1e9, 1250, 1'000'000);
    p.start(0);
    std::int64_t wait = 0;
    QCOMPARE(p.due(0, 1000, &wait), std::uint64_t(1));
    p.sent(1);
    QCOMPARE(p.due(0, 1000, &wait), std::uint64_t(0));
    QCOMPARE(wait, std::int64_t(1'000'000));
    QCOMPARE(p.due(1'000'000, 1000, &wait), std::uint64_t(100));
}

void TestUdpAccounting::pacerUnlimited()
{
    udp::Pacer p(0, 1460, 1'000'000);
    QVERIFY(p.unlimited());
    p.start(0);
    std::int64_t wait = -1;
    QCOMPARE(p.due(0, 64, &wait), std::uint64_t(64));
    QCOMPARE(wait, std::int64_t(0));
}

QTEST_GUILESS_MAIN(TestUdpAccounting)
#include "tst_udpaccounting.moc"
