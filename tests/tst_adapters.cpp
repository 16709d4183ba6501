// SPDX-License-Identifier: GPL-3.0-or-later
// Adapter discovery: family labels, sysfs/ethtool parsing from recorded fixtures, rates and
// the wrong-path check, and the live machine (lo always; a veth pair when root).
#include "netfixtures.h"
#include "platform/adapterinfo.h"
#include "platform/interfacemonitor.h"
#include "platform/platform.h"
#ifdef Q_OS_LINUX
#include "platform/platform_linux.h"
#endif

#include <QElapsedTimer>
#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <unistd.h>

using namespace nb;
using OffloadMap = QMap<QString, bool>; // QFETCH cannot take a comma

namespace {

const QString kSysfs = QStringLiteral(NICBENCH_TEST_DATA "/sysfs/net");

InterfaceCounters counters(std::uint64_t rx, std::uint64_t tx, double seconds)
{
    InterfaceCounters c;
    c.rxBytes = rx;
    c.txBytes = tx;
    c.timestampNs = std::int64_t(seconds * 1e9);
    return c;
}

std::optional<AdapterInfo> findAdapter(const QList<AdapterInfo> &list, const QString &name)
{
    for (const AdapterInfo &a : list) {
        if (a.name == name)
            return a;
    }
    return std::nullopt;
}

// Pushes `bytes` through a real TCP connection from `from` to `to` (both local) and
// returns how many arrived.
qint64 sendOverTcp(const QHostAddress &from, const QHostAddress &to, qint64 bytes)
{
    QTcpServer server;
    if (!server.listen(to, 0))
        return -1;
    QTcpSocket client;
    if (!client.bind(from, 0))
        return -1;
    client.connectToHost(to, server.serverPort());
    if (!client.waitForConnected(5000) || !server.waitForNewConnection(5000))
        return -1;
    QTcpSocket *peer = server.nextPendingConnection();
    const QByteArray chunk(64 * 1024, 'x');
    qint64 received = 0, written = 0;
    QElapsedTimer timer;
    timer.start();
    while (received < bytes && timer.elapsed() < 20000) {
        if (written < bytes && client.bytesToWrite() < 1024 * 1024)
            written += client.write(chunk.constData(), std::min<qint64>(chunk.size(), bytes - written));
        client.waitForBytesWritten(10);
        if (peer->waitForReadyRead(10))
            received += peer->readAll().size();
    }
    return received;
}

} // namespace

class TestAdapters : public QObject {
    Q_OBJECT
private slots:
    void familyFromDriver_data();
    void familyFromDriver();
    void familyNames();
    void jsonRoundTrip();
    void addressLookup_data();
    void addressLookup();
    void rates_data();
    void rates();
    void packetAndDropRates();
    void wrongPath_data();
    void wrongPath();
#ifdef Q_OS_LINUX
    void sysfsFixtures_data();
    void sysfsFixtures();
    void sysfsCounters();
    void procNetDev();
    void ethtoolFeatureFixtures_data();
    void ethtoolFeatureFixtures();
    void liveLoopback();
    void liveLoopbackCounters();
    void countersCost();
    void liveVeth();
#endif
};

void TestAdapters::familyFromDriver_data()
{
    QTest::addColumn<QString>("driver");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("loopback");
    QTest::addColumn<QString>("family");
    auto row = [](const char *tag, const char *driver, const char *name, bool lo, const char *family) {
        QTest::newRow(tag) << QString::fromUtf8(driver) << QString::fromUtf8(name) << lo << QString::fromUtf8(family);
    };
    row("e1000", "e1000", "ens33", false, "e1000");
    row("e1000e", "e1000e", "ens33", false, "e1000e");
    row("vmxnet3", "vmxnet3", "ens192", false, "vmxnet3");
    row("virtio_net", "virtio_net", "eth0", false, "virtio");
    row("veth", "veth", "veth0", false, "veth");
    row("hv_netvsc", "hv_netvsc", "eth0", false, "hyper-v");
    row("ena", "ena", "ens5", false, "ena");
    row("mlx5_core", "mlx5_core", "enp1s0f0", false, "mlx");
    row("mlx4_en", "mlx4_en", "eth2", false, "mlx");
    row("upper case", "VMXNET3", "ens192", false, "vmxnet3");
    row("igb is other", "igb", "eno1", false, "other");
    row("bridge is other", "bridge", "br0", false, "other");
    row("ena prefix is not ena", "enic", "eth0", false, "other");
    row("lo by flag", "", "lo", true, "loopback");
    row("lo by name", "", "lo", false, "loopback");
    row("no driver, not lo", "", "tun0", false, "other");
    row("win e1000", "Intel(R) PRO/1000 MT Network Connection", "Ethernet0", false, "e1000");
    row("win e1000e", "Intel(R) 82574L Gigabit Network Connection", "Ethernet0", false, "e1000e");
    row("win vmxnet3", "vmxnet3 Ethernet Adapter", "Ethernet0", false, "vmxnet3");
    row("win virtio", "Red Hat VirtIO Ethernet Adapter", "Ethernet", false, "virtio");
    row("win hyper-v", "Microsoft Hyper-V Network Adapter", "Ethernet", false, "hyper-v");
    row("win ena", "Amazon Elastic Network Adapter", "Ethernet", false, "ena");
    row("win mlx", "Mellanox ConnectX-4 Lx Ethernet Adapter", "Ethernet 2", false, "mlx");
    row("win loopback", "Software Loopback Interface 1", "Loopback", false, "loopback");
}

void TestAdapters::familyFromDriver()
{
    QFETCH(QString, driver);
    QFETCH(QString, name);
    QFETCH(bool, loopback);
    QFETCH(QString, family);
    QCOMPARE(familyName(nb::familyFromDriver(driver, name, loopback)), family);
}

void TestAdapters::familyNames()
{
    const QStringList names{QStringLiteral("e1000"),   QStringLiteral("e1000e"), QStringLiteral("vmxnet3"),
                            QStringLiteral("virtio"),  QStringLiteral("veth"),   QStringLiteral("loopback"),
                            QStringLiteral("hyper-v"), QStringLiteral("ena"),    QStringLiteral("mlx"),
                            QStringLiteral("other")};
    for (const QString &n : names) {
        const auto f = familyFromName(n);
        QVERIFY2(f.has_value(), qPrintable(n));
        QCOMPARE(familyName(*f), n);
    }
    QVERIFY(!familyFromName(QStringLiteral("token-ring")));
}

void TestAdapters::jsonRoundTrip()
{
    AdapterInfo a;
    a.name = QStringLiteral("ens192");
    a.index = 3;
    a.driver = QStringLiteral("vmxnet3");
    a.driverVersion = QStringLiteral("1.7.0.0-k-NAPI");
    a.busInfo = QStringLiteral("0000:0b:00.0");
    a.description = QStringLiteral("storage network");
    a.family = AdapterFamily::Vmxnet3;
    a.mtu = 9000;
    a.linkSpeedBps = 10'000'000'000;
    a.addresses = {{QHostAddress(QStringLiteral("198.18.0.1")), 24}, {QHostAddress(QStringLiteral("fe80::1")), 64}};
    a.hardwareAddress = QStringLiteral("00:50:56:aa:bb:cc");
    a.operState = QStringLiteral("up");
    a.offloads = {{QStringLiteral("tso"), true}, {QStringLiteral("lro"), false}};
    AdapterInfo back;
    QString error;
    QVERIFY2(AdapterInfo::fromJson(a.toJson(), &back, &error), qPrintable(error));
    QCOMPARE(back, a);
    QCOMPARE(a.toJson().value(QStringLiteral("family")).toString(), QStringLiteral("vmxnet3"));

    QJsonObject bad = a.toJson();
    bad.insert(QStringLiteral("family"), QStringLiteral("token-ring"));
    QVERIFY(!AdapterInfo::fromJson(bad, &back, &error));
    bad = a.toJson();
    bad.remove(QStringLiteral("name"));
    QVERIFY(!AdapterInfo::fromJson(bad, &back, &error));
    bad = a.toJson();
    bad.insert(QStringLiteral("offloads"), QJsonObject{{QStringLiteral("tso"), QStringLiteral("on")}});
    QVERIFY(!AdapterInfo::fromJson(bad, &back, &error));
}

void TestAdapters::addressLookup_data()
{
    QTest::addColumn<QString>("address");
    QTest::addColumn<QString>("expected"); // empty: none
    QTest::newRow("eth0 v4") << QStringLiteral("10.0.0.5") << QStringLiteral("eth0");
    QTest::newRow("eth0 v4-mapped") << QStringLiteral("::ffff:10.0.0.5") << QStringLiteral("eth0");
    QTest::newRow("eth0 v6") << QStringLiteral("2001:db8::5") << QStringLiteral("eth0");
    QTest::newRow("second adapter") << QStringLiteral("198.18.1.1") << QStringLiteral("ens192");
    QTest::newRow("127.0.0.1") << QStringLiteral("127.0.0.1") << QStringLiteral("lo");
    QTest::newRow("127.0.0.2 not listed") << QStringLiteral("127.0.0.2") << QStringLiteral("lo");
    QTest::newRow("mapped loopback") << QStringLiteral("::ffff:127.0.0.1") << QStringLiteral("lo");
    QTest::newRow("::1") << QStringLiteral("::1") << QStringLiteral("lo");
    QTest::newRow("foreign") << QStringLiteral("192.0.2.1") << QString();
}

void TestAdapters::addressLookup()
{
    QFETCH(QString, address);
    QFETCH(QString, expected);
    AdapterInfo lo, eth0, ens192;
    lo.name = QStringLiteral("lo");
    lo.loopback = true;
    lo.addresses = {{QHostAddress(QStringLiteral("127.0.0.1")), 8}};
    eth0.name = QStringLiteral("eth0");
    eth0.addresses = {{QHostAddress(QStringLiteral("10.0.0.5")), 24},
                      {QHostAddress(QStringLiteral("2001:db8::5")), 64}};
    ens192.name = QStringLiteral("ens192");
    ens192.addresses = {{QHostAddress(QStringLiteral("198.18.1.1")), 24}};
    const auto found = adapterForLocalAddress(QHostAddress(address), {eth0, lo, ens192});
    QCOMPARE(found ? found->name : QString(), expected);
}

void TestAdapters::rates_data()
{
    QTest::addColumn<InterfaceCounters>("before");
    QTest::addColumn<InterfaceCounters>("after");
    QTest::addColumn<qint64>("speed");
    QTest::addColumn<double>("rxBps");
    QTest::addColumn<double>("txBps");
    QTest::addColumn<double>("rxPct");
    QTest::addColumn<double>("txPct");
    // 125 MB/s = 1 Gbit/s: 100% of a gigabit link
    QTest::newRow("full gigabit rx") << counters(0, 0, 1) << counters(125'000'000, 12'500'000, 2)
                                     << qint64(1'000'000'000) << 125e6 << 12.5e6 << 100.0 << 10.0;
    QTest::newRow("half second") << counters(1000, 1000, 10) << counters(6000, 1000, 10.5) << qint64(10'000'000)
                                 << 10000.0 << 0.0 << 0.8 << 0.0;
    // An E1000 "1 Gbit/s" adapter moving 2.6 Gbit/s: not clamped
    QTest::newRow("faster than nominal") << counters(0, 0, 0) << counters(0, 325'000'000, 1) << qint64(1'000'000'000)
                                         << 0.0 << 325e6 << 0.0 << 260.0;
    QTest::newRow("speed unknown") << counters(0, 0, 0) << counters(500, 500, 1) << qint64(-1) << 500.0 << 500.0 << -1.0
                                   << -1.0;
    QTest::newRow("counter went backwards")
        << counters(5000, 5000, 0) << counters(100, 6000, 1) << qint64(1'000'000) << 0.0 << 1000.0 << 0.0 << 0.8;
    QTest::newRow("no time elapsed") << counters(0, 0, 1) << counters(500, 500, 1) << qint64(1'000'000) << 0.0 << 0.0
                                     << 0.0 << 0.0;
}

void TestAdapters::rates()
{
    QFETCH(InterfaceCounters, before);
    QFETCH(InterfaceCounters, after);
    QFETCH(qint64, speed);
    QFETCH(double, rxBps);
    QFETCH(double, txBps);
    QFETCH(double, rxPct);
    QFETCH(double, txPct);
    const InterfaceRates r = interfaceRates(before, after, speed);
    QCOMPARE(r.rxBytesPerSecond, rxBps);
    QCOMPARE(r.txBytesPerSecond, txBps);
    QCOMPARE(r.rxUtilizationPct, rxPct);
    QCOMPARE(r.txUtilizationPct, txPct);
}

void TestAdapters::packetAndDropRates()
{
    InterfaceCounters before = counters(0, 0, 10);
    before.rxPackets = 1000;
    before.txPackets = 50;
    before.rxDropped = 4;
    before.txErrors = 2;
    InterfaceCounters after = counters(0, 0, 10.5);
    after.rxPackets = 6000;
    after.txPackets = 550;
    after.rxDropped = 9; // 5 more
    after.txDropped = 1; // 1 more
    after.rxErrors = 3;  // 3 more
    after.txErrors = 2;  // none more
    InterfaceRates r = interfaceRates(before, after, -1);
    QCOMPARE(r.rxPacketsPerSecond, 10000.0);
    QCOMPARE(r.txPacketsPerSecond, 1000.0);
    QCOMPARE(r.droppedPerSecond, 12.0);
    QCOMPARE(r.errorsPerSecond, 6.0);
    // A counter that went backwards (the interface was re-created) is no burst.
    after.rxDropped = 0;
    after.rxPackets = 10;
    r = interfaceRates(before, after, -1);
    QCOMPARE(r.rxPacketsPerSecond, 0.0);
    QCOMPARE(r.droppedPerSecond, 2.0);
}

void TestAdapters::wrongPath_data()
{
    QTest::addColumn<InterfaceCounters>("before");
    QTest::addColumn<InterfaceCounters>("after");
    QTest::addColumn<qulonglong>("sent");
    QTest::addColumn<qulonglong>("received");
    QTest::addColumn<bool>("warns");
    const InterfaceCounters zero = counters(0, 0, 0);
    QTest::newRow("all seen, plus headers")
        << zero << counters(0, 1'050'000'000, 10) << 1'000'000'000ULL << 0ULL << false;
    QTest::newRow("exactly 90%") << zero << counters(0, 900, 10) << 1000ULL << 0ULL << false;
    QTest::newRow("89.9%") << zero << counters(0, 899, 10) << 1000ULL << 0ULL << true;
    QTest::newRow("bytes went elsewhere") << zero << counters(2000, 3000, 10) << 1'000'000'000ULL << 0ULL << true;
    QTest::newRow("receive side short") << zero << counters(1000, 1'000'000'000, 10) << 1'000'000'000ULL
                                        << 1'000'000'000ULL << true;
    QTest::newRow("bidirectional ok") << zero << counters(1'000'000'000, 1'000'000'000, 10) << 1'000'000'000ULL
                                      << 950'000'000ULL << false;
    QTest::newRow("nothing moved") << zero << counters(0, 0, 10) << 0ULL << 0ULL << false;
    QTest::newRow("counter reset") << counters(5'000'000'000, 5'000'000'000, 0) << counters(10, 10, 10) << 1'000'000ULL
                                   << 0ULL << true;
}

void TestAdapters::wrongPath()
{
    QFETCH(InterfaceCounters, before);
    QFETCH(InterfaceCounters, after);
    QFETCH(qulonglong, sent);
    QFETCH(qulonglong, received);
    QFETCH(bool, warns);
    const QString w = wrongPathWarning(QStringLiteral("ens192"), before, after, sent, received);
    QCOMPARE(!w.isEmpty(), warns);
    if (warns)
        QVERIFY2(w.contains(QLatin1String("ens192")) && w.contains(QLatin1String("another path")), qPrintable(w));
}

#ifdef Q_OS_LINUX
void TestAdapters::sysfsFixtures_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("driver");
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("mtu");
    QTest::addColumn<qint64>("speed");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("mac");
    QTest::addColumn<bool>("loopback");
    QTest::addColumn<QString>("alias");
    QTest::newRow("virtio via driver link")
        << QStringLiteral("eth0") << 2 << QStringLiteral("virtio_net") << QStringLiteral("virtio") << 1500 << qint64(-1)
        << QStringLiteral("up") << QStringLiteral("52:54:00:12:34:56") << false << QString();
    QTest::newRow("vmxnet3 jumbo 10G") << QStringLiteral("ens192") << 3 << QStringLiteral("vmxnet3")
                                       << QStringLiteral("vmxnet3") << 9000 << qint64(10'000'000'000)
                                       << QStringLiteral("up") << QStringLiteral("00:50:56:aa:bb:cc") << false
                                       << QStringLiteral("storage network");
    QTest::newRow("e1000 via uevent, down")
        << QStringLiteral("ens33") << 4 << QStringLiteral("e1000") << QStringLiteral("e1000") << 1500 << qint64(-1)
        << QStringLiteral("down") << QStringLiteral("00:0c:29:01:02:03") << false << QString();
    QTest::newRow("loopback") << QStringLiteral("lo") << 1 << QString() << QStringLiteral("loopback") << 65536
                              << qint64(-1) << QStringLiteral("unknown") << QString() << true << QString();
    QTest::newRow("veth without device") << QStringLiteral("veth1") << 7 << QString() << QStringLiteral("other") << 1500
                                         << qint64(10'000'000'000) << QStringLiteral("up")
                                         << QStringLiteral("9a:3b:4c:5d:6e:7f") << false << QString();
}

void TestAdapters::sysfsFixtures()
{
    QFETCH(QString, name);
    QFETCH(int, index);
    QFETCH(QString, driver);
    QFETCH(QString, family);
    QFETCH(int, mtu);
    QFETCH(qint64, speed);
    QFETCH(QString, state);
    QFETCH(QString, mac);
    QFETCH(bool, loopback);
    QFETCH(QString, alias);
    AdapterInfo a;
    QVERIFY(platform::linuxsys::readSysfsAdapter(kSysfs, name, &a));
    QCOMPARE(a.name, name);
    QCOMPARE(a.index, index);
    QCOMPARE(a.driver, driver);
    QCOMPARE(familyName(a.family), family);
    QCOMPARE(a.mtu, mtu);
    QCOMPARE(a.linkSpeedBps, speed);
    QCOMPARE(a.operState, state);
    QCOMPARE(a.hardwareAddress, mac);
    QCOMPARE(a.loopback, loopback);
    QCOMPARE(a.description, alias);
    QVERIFY(platform::linuxsys::interfaceNames(kSysfs).contains(name));
}

void TestAdapters::sysfsCounters()
{
    InterfaceCounters c;
    QVERIFY(platform::linuxsys::readSysfsCounters(kSysfs, QStringLiteral("eth0"), &c));
    QCOMPARE(c.rxBytes, 1234567890ULL);
    QCOMPARE(c.txBytes, 987654321ULL);
    QCOMPARE(c.rxPackets, 1000000ULL);
    QCOMPARE(c.txPackets, 900000ULL);
    QCOMPARE(c.rxDropped, 17ULL);
    QCOMPARE(c.txDropped, 3ULL);
    QCOMPARE(c.rxErrors, 5ULL);
    QCOMPARE(c.txErrors, 1ULL);
    QVERIFY(c.timestampNs > 0);
    InterfaceCounters noDrops; // a driver without the drop and error files still counts bytes
    QVERIFY(platform::linuxsys::readSysfsCounters(kSysfs, QStringLiteral("ens33"), &noDrops));
    QCOMPARE(noDrops.rxDropped + noDrops.txDropped + noDrops.rxErrors + noDrops.txErrors, 0ULL);
    QVERIFY(!platform::linuxsys::readSysfsCounters(kSysfs, QStringLiteral("veth1"), &c)); // no statistics/
    QVERIFY(!platform::linuxsys::readSysfsCounters(kSysfs, QStringLiteral("nonexistent"), &c));
    AdapterInfo a;
    QVERIFY(!platform::linuxsys::readSysfsAdapter(kSysfs, QStringLiteral("broken"), &a)); // no ifindex
    QVERIFY(!platform::linuxsys::readSysfsAdapter(kSysfs, QStringLiteral("nonexistent"), &a));
}

void TestAdapters::procNetDev()
{
    const auto read = [](const char *file) {
        QFile f(QStringLiteral(NICBENCH_TEST_DATA "/proc/") + QLatin1String(file));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const auto recorded = platform::linuxsys::parseProcNetDev(read("net-dev-recorded.txt"), 42);
    QCOMPARE(recorded.keys(), (QStringList{QStringLiteral("eth0"), QStringLiteral("ifb0"), QStringLiteral("ifb1"),
                                           QStringLiteral("lo")}));
    const InterfaceCounters eth0 = recorded.value(QStringLiteral("eth0"));
    QCOMPARE(eth0.rxBytes, 87535003ULL);
    QCOMPARE(eth0.rxPackets, 2713ULL);
    QCOMPARE(eth0.txBytes, 129852ULL);
    QCOMPARE(eth0.txPackets, 1675ULL);
    QCOMPARE(eth0.timestampNs, std::int64_t(42));
    QCOMPARE(recorded.value(QStringLiteral("lo")).txBytes, 47594331202ULL);

    const auto glued = platform::linuxsys::parseProcNetDev(read("net-dev-glued.txt"), 0);
    QCOMPARE(glued.keys(), QStringList{QStringLiteral("wlan0")}); // bad0 has a non-number
    QCOMPARE(glued.value(QStringLiteral("wlan0")).rxBytes, 1234567890123ULL);
    QCOMPARE(glued.value(QStringLiteral("wlan0")).txPackets, 7ULL);

    // Errors and drops: fields 3 and 4 of each half.
    const InterfaceCounters ens3 =
        platform::linuxsys::parseProcNetDev(read("net-dev-drops.txt"), 0).value(QStringLiteral("ens3"));
    QCOMPARE(ens3.rxErrors, 7ULL);
    QCOMPARE(ens3.rxDropped, 11ULL);
    QCOMPARE(ens3.txErrors, 2ULL);
    QCOMPARE(ens3.txDropped, 4ULL);
    QCOMPARE(ens3.txPackets, 3000ULL);

    QVERIFY(platform::readAllCounters().contains(QStringLiteral("lo")));
    InterfaceCounters c;
    QVERIFY(!platform::readCounters(QStringLiteral("nonexistent0"), &c));
}

void TestAdapters::ethtoolFeatureFixtures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<OffloadMap>("expected");
    const auto m = [](std::initializer_list<std::pair<const char *, bool>> l) {
        QMap<QString, bool> r;
        for (const auto &[k, v] : l)
            r.insert(QLatin1String(k), v);
        return r;
    };
    QTest::newRow("virtio_net recorded") << QStringLiteral("ethtool/virtio_net-features.txt")
                                         << m({{"tso", true},
                                               {"gso", true},
                                               {"gro", true},
                                               {"lro", false},
                                               {"rx-checksum", true},
                                               {"tx-checksum", true},
                                               {"sg", true},
                                               {"rxhash", false},
                                               {"rx-vlan", false},
                                               {"tx-vlan", false}});
    QTest::newRow("e1000 hand-written") << QStringLiteral("ethtool/e1000-features.txt")
                                        << m({{"tso", true},
                                              {"gso", true},
                                              {"gro", true},
                                              {"lro", false},
                                              {"rx-checksum", false},
                                              {"tx-checksum", true},
                                              {"sg", true},
                                              {"rxhash", false},
                                              {"rx-vlan", true},
                                              {"tx-vlan", true}});
}

void TestAdapters::ethtoolFeatureFixtures()
{
    QFETCH(QString, file);
    QFETCH(OffloadMap, expected);
    QFile f(QStringLiteral(NICBENCH_TEST_DATA "/") + file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto features = platform::linuxsys::parseEthtoolFeatures(f.readAll());
    QVERIFY(features.size() > 10);
    QCOMPARE(platform::linuxsys::offloadsFromFeatures(features), expected);

    // Kernel names as ETHTOOL_GSTRINGS returns them; any tx-checksum-* on counts.
    const QMap<QString, bool> kernel =
        platform::linuxsys::offloadsFromFeatures({{QStringLiteral("tx-checksum-ipv4"), false},
                                                  {QStringLiteral("tx-checksum-ip-generic"), true},
                                                  {QStringLiteral("rx-gro"), false},
                                                  {QStringLiteral("rx-lro"), true},
                                                  {QStringLiteral("highdma"), true}});
    QCOMPARE(kernel, (QMap<QString, bool>{{QStringLiteral("tx-checksum"), true},
                                          {QStringLiteral("gro"), false},
                                          {QStringLiteral("lro"), true}}));
}

void TestAdapters::liveLoopback()
{
    const QList<AdapterInfo> adapters = platform::listAdapters();
    const auto lo = findAdapter(adapters, QStringLiteral("lo"));
    QVERIFY2(lo, "no lo in listAdapters()");
    QCOMPARE(lo->family, AdapterFamily::Loopback);
    QVERIFY(lo->loopback);
    QCOMPARE(lo->mtu, 65536);
    QCOMPARE(lo->linkSpeedBps, std::int64_t(-1));
    QVERIFY(lo->index > 0);
    QVERIFY(lo->addresses.contains(AdapterAddress{QHostAddress(QStringLiteral("127.0.0.1")), 8}));
    QVERIFY2(!lo->offloads.isEmpty(), "lo answers ETHTOOL_GFEATURES; offloads should be readable");

    const auto owner = adapterForLocalAddress(QHostAddress(QHostAddress::LocalHost));
    QVERIFY(owner);
    QCOMPARE(owner->name, QStringLiteral("lo"));
}

void TestAdapters::liveLoopbackCounters()
{
    constexpr qint64 kBytes = 10 * 1024 * 1024;
    // The counters the live view polls (platform::readCounters), with the rates it derives.
    InterfaceCounters before, after;
    QVERIFY(platform::readCounters(QStringLiteral("lo"), &before));
    QVERIFY(!platform::readCounters(QStringLiteral("nonexistent0"), &after));
    QCOMPARE(sendOverTcp(QHostAddress(QHostAddress::LocalHost), QHostAddress(QHostAddress::LocalHost), kBytes), kBytes);
    QVERIFY(platform::readCounters(QStringLiteral("lo"), &after));
    const InterfaceRates rates = interfaceRates(before, after, -1);
    // On lo every byte is both transmitted and received.
    QVERIFY2(after.txBytes - before.txBytes >= std::uint64_t(kBytes),
             qPrintable(QString::number(after.txBytes - before.txBytes)));
    QVERIFY(after.rxBytes - before.rxBytes >= std::uint64_t(kBytes));
    QVERIFY(after.txPackets > before.txPackets);
    QVERIFY(rates.txBytesPerSecond > 0);
    QCOMPARE(rates.txUtilizationPct, -1.0); // lo has no link speed
    QCOMPARE(wrongPathWarning(QStringLiteral("lo"), before, after, kBytes, kBytes), QString());
}

void TestAdapters::countersCost()
{
    // Polling cost of one reading (/proc/net/dev): the live view wants 10+ Hz per adapter.
    constexpr int kCalls = 2000;
    InterfaceCounters c;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < kCalls; ++i)
        QVERIFY(platform::readCounters(QStringLiteral("lo"), &c));
    const double usPerCall = double(timer.nsecsElapsed()) / 1000.0 / kCalls;
    qInfo("readCounters: %.1f us per call", usPerCall);
    QVERIFY2(usPerCall < 1000, qPrintable(QString::number(usPerCall))); // 1 ms: 1% of a core at 10 Hz
}

void TestAdapters::liveVeth()
{
    if (const QString why = nbtest::vethUnavailableReason(); !why.isEmpty())
        QSKIP(qPrintable(why));
    if (const std::optional<QString> outside = nbtest::runInOwnNamespace(QStringLiteral("nbt"), "liveVeth")) {
        QVERIFY2(outside->isEmpty(), qPrintable(*outside));
        return;
    }
    nbtest::VethPair veth(QStringLiteral("nbt"), QStringLiteral("198.19.%1.").arg(20 + ::getpid() % 200), 9000);
    QVERIFY2(veth.create(), "ip link add ... type veth failed");

    const QList<AdapterInfo> adapters = platform::listAdapters();
    const auto a = findAdapter(adapters, veth.a);
    QVERIFY(a);
    QCOMPARE(a->driver, QStringLiteral("veth")); // no device link: this came from ETHTOOL_GDRVINFO
    QCOMPARE(a->family, AdapterFamily::Veth);
    QCOMPARE(a->mtu, 9000);
    QVERIFY(!a->loopback);
    QVERIFY(!a->hardwareAddress.isEmpty());
    QVERIFY(a->offloads.contains(QStringLiteral("tso")));
    const QHostAddress addrA(veth.subnet + QStringLiteral("1"));
    const QHostAddress addrB(veth.subnet + QStringLiteral("2"));
    QVERIFY(a->addresses.contains(AdapterAddress{addrA, 30}));
    const auto owner = adapterForLocalAddress(addrA);
    QVERIFY(owner);
    QCOMPARE(owner->name, veth.a);

    // Both ends live in this namespace, so the kernel delivers A->B through lo and the
    // veth never sees the bytes: the socket's address names an adapter that did not carry
    // the test. This is the wrong path the check exists for.
    constexpr qint64 kBytes = 4 * 1024 * 1024;
    InterfaceCounters before, after;
    QVERIFY(platform::readCounters(veth.a, &before));
    QCOMPARE(sendOverTcp(addrA, addrB, kBytes), kBytes);
    QVERIFY(platform::readCounters(veth.a, &after));
    const QString warning = wrongPathWarning(veth.a, before, after, kBytes, 0);
    QVERIFY2(!warning.isEmpty(), "expected a wrong-path warning for traffic that went through lo");
    qInfo("%s", qPrintable(warning));
}
#endif

QTEST_GUILESS_MAIN(TestAdapters)
#include "tst_adapters.moc"
