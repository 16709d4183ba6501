// SPDX-License-Identifier: GPL-3.0-or-later
// The Windows platform layer: the mapping of what Windows reports (adapter descriptions,
// INF keyword values, link speeds, GetSystemTimes) to our types, on recorded Windows values
// (runs natively and under wine), and the live platform functions of whatever system runs
// the test: under wine and on Windows those are platform_windows.cpp.
#include "platform/adapterinfo.h"
#include "platform/cpumonitor.h"
#include "platform/hostenvironment.h"
#include "platform/platform.h"
#include "platform/windowsvalues.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

using namespace nb;
using namespace nb::platform;
using OffloadMap = QMap<QString, bool>;    // QFETCH cannot take a comma
using KeywordMap = QMap<QString, QString>; // the same

namespace {

constexpr std::uint64_t kUnknownSpeed = ~std::uint64_t(0);

// A VMXNET3 adapter of a Server 2012 R2 guest as GetAdaptersAddresses, GetIfEntry2 and its
// driver key describe it.
winsys::AdapterRecord vmxnet3Record()
{
    winsys::AdapterRecord r;
    r.friendlyName = QStringLiteral("Ethernet0");
    r.description = QStringLiteral("vmxnet3 Ethernet Adapter");
    r.guidName = QStringLiteral("{5B8A1C3E-2F44-4D0B-9C61-7E2D3A9F0B12}");
    r.ifIndex = 12;
    r.ifType = 6;
    r.mtu = 1500;
    r.physicalAddress = QByteArray::fromHex("0050569a0bcd");
    r.operStatus = 1;
    r.addresses = {{QHostAddress(QStringLiteral("192.168.10.21")), 24},
                   {QHostAddress(QStringLiteral("fe80::1c2b:3d4e:5f60:7181")), 64}};
    r.transmitLinkSpeed = 10'000'000'000;
    r.receiveLinkSpeed = 10'000'000'000;
    r.driverService = QStringLiteral("vmxnet3ndis6");
    r.driverDesc = QStringLiteral("vmxnet3 Ethernet Adapter");
    r.driverVersion = QStringLiteral("1.7.3.0");
    r.infKeywords = {{QStringLiteral("*LsoV2IPv4"), QStringLiteral("1")},
                     {QStringLiteral("*LsoV2IPv6"), QStringLiteral("1")},
                     {QStringLiteral("*RscIPv4"), QStringLiteral("1")},
                     {QStringLiteral("*TCPChecksumOffloadIPv4"), QStringLiteral("3")},
                     {QStringLiteral("*RSS"), QStringLiteral("0")},
                     {QStringLiteral("*JumboPacket"), QStringLiteral("1514")}};
    return r;
}

// Windows' own loopback: no driver key, a nominal 1 Gbit/s, MTU ~0U.
winsys::AdapterRecord loopbackRecord()
{
    winsys::AdapterRecord r;
    r.friendlyName = QStringLiteral("Loopback Pseudo-Interface 1");
    r.description = QStringLiteral("Software Loopback Interface 1");
    r.guidName = QStringLiteral("{846EE342-7039-11DE-9D20-806E6F6E6963}");
    r.ifIndex = 1;
    r.ifType = winsys::IfTypeSoftwareLoopback;
    r.mtu = ~0U;
    r.operStatus = 1;
    r.addresses = {{QHostAddress(QStringLiteral("::1")), 128}, {QHostAddress(QStringLiteral("127.0.0.1")), 8}};
    r.transmitLinkSpeed = 1'073'741'824;
    r.receiveLinkSpeed = 1'073'741'824;
    return r;
}

// Burns CPU in this thread until the process has used `seconds` more CPU time, or 10 s
// of wall time passed (a loaded machine gives us less than a core). Returns the CPU time
// it measured.
double burnProcessCpu(double seconds)
{
    ProcessCpuTimes start, now;
    if (!readProcessCpuTimes(&start))
        return 0;
    QElapsedTimer wall;
    wall.start();
    volatile std::uint64_t x = 1;
    now = start;
    while (now.totalSeconds - start.totalSeconds < seconds && wall.elapsed() < 10'000) {
        for (int i = 0; i < 200'000; ++i)
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        readProcessCpuTimes(&now);
    }
    return now.totalSeconds - start.totalSeconds;
}

// Sends `bytes` over TCP on 127.0.0.1 and returns how many arrived (-1 when the
// connection could not be made).
qint64 loopbackTraffic(qint64 bytes)
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return -1;
    QTcpSocket client;
    client.connectToHost(QHostAddress::LocalHost, server.serverPort());
    if (!client.waitForConnected(5000) || !server.waitForNewConnection(5000))
        return -1;
    QTcpSocket *peer = server.nextPendingConnection();
    const QByteArray chunk(64 * 1024, 'x');
    qint64 written = 0, received = 0;
    QElapsedTimer deadline;
    deadline.start();
    while (received < bytes && deadline.elapsed() < 10'000) {
        if (written < bytes && client.bytesToWrite() < 4 * chunk.size())
            written += client.write(chunk);
        client.waitForBytesWritten(10);
        if (peer->waitForReadyRead(10))
            received += peer->readAll().size();
    }
    return received;
}

} // namespace

class TestWindowsPlatform : public QObject {
    Q_OBJECT
private slots:
    void familyFromDescription_data();
    void familyFromDescription();
    void offloads_data();
    void offloads();
    void linkSpeed_data();
    void linkSpeed();
    void operStatus_data();
    void operStatus();
    void physicalAddress();
    void vmxnet3Adapter();
    void loopbackAdapter();
    void namesWhenFieldsAreMissing();
    void cpuTimesFromSystemTimes();
    void cpuSampleOnWindowsTicks();
    void processTimes();
    void performanceCounter_data();
    void performanceCounter();
    void countersFromIfRow();

    void liveAdapters();
    void liveCounters();
    void liveSystemCpu();
    void liveProcessCpu();
    void liveHostAndLimits();
};

void TestWindowsPlatform::familyFromDescription_data()
{
    QTest::addColumn<QString>("description");
    QTest::addColumn<bool>("loopback");
    QTest::addColumn<QString>("family");
    // Descriptions as Windows shows them in ncpa.cpl and Get-NetAdapter's
    // InterfaceDescription.
    const std::pair<const char *, const char *> rows[] = {
        {"vmxnet3 Ethernet Adapter", "vmxnet3"},
        {"vmxnet3 Ethernet Adapter #2", "vmxnet3"},
        {"Intel(R) PRO/1000 MT Network Connection", "e1000"},
        {"Intel(R) PRO/1000 MT Network Connection #3", "e1000"},
        {"Intel(R) PRO/1000 MT Desktop Adapter", "e1000"},
        {"Intel(R) 82574L Gigabit Network Connection", "e1000e"},
        {"Microsoft Hyper-V Network Adapter", "hyper-v"},
        {"Microsoft Virtual Machine Bus Network Adapter", "hyper-v"},
        {"Red Hat VirtIO Ethernet Adapter", "virtio"},
        {"Amazon Elastic Network Adapter", "ena"},
        {"Mellanox ConnectX-4 Lx Ethernet Adapter", "mlx"},
        {"Realtek PCIe GbE Family Controller", "other"},
        {"Intel(R) 21140-Based PCI Fast Ethernet Adapter (Emulated)", "other"},
    };
    for (const auto &[description, family] : rows)
        QTest::newRow(description) << QString::fromLatin1(description) << false << QString::fromLatin1(family);
    QTest::newRow("Software Loopback Interface 1")
        << QStringLiteral("Software Loopback Interface 1") << true << QStringLiteral("loopback");
    QTest::newRow("loopback by its type alone")
        << QStringLiteral("Some Loopback") << true << QStringLiteral("loopback");
}

void TestWindowsPlatform::familyFromDescription()
{
    QFETCH(QString, description);
    QFETCH(bool, loopback);
    QFETCH(QString, family);
    winsys::AdapterRecord r;
    r.friendlyName = QStringLiteral("Ethernet");
    r.description = description;
    r.ifType = loopback ? winsys::IfTypeSoftwareLoopback : 6;
    const AdapterInfo a = winsys::adapterFromRecord(r);
    QCOMPARE(familyName(a.family), family);
    QCOMPARE(a.loopback, loopback);
    QCOMPARE(a.description, description);
}

void TestWindowsPlatform::offloads_data()
{
    QTest::addColumn<KeywordMap>("keywords");
    QTest::addColumn<OffloadMap>("offloads");
    const auto on = QStringLiteral("1"), off = QStringLiteral("0");
    QTest::newRow("LSO, RSC, both checksums on, RSS off")
        << KeywordMap{{QStringLiteral("*LsoV2IPv4"), on},
                      {QStringLiteral("*LsoV2IPv6"), on},
                      {QStringLiteral("*RscIPv4"), on},
                      {QStringLiteral("*RscIPv6"), off},
                      {QStringLiteral("*TCPChecksumOffloadIPv4"), QStringLiteral("3")},
                      {QStringLiteral("*IPChecksumOffloadIPv4"), QStringLiteral("3")},
                      {QStringLiteral("*RSS"), off}}
        << OffloadMap{{QStringLiteral("tso"), true},
                      {QStringLiteral("rsc"), true},
                      {QStringLiteral("tx-checksum"), true},
                      {QStringLiteral("rx-checksum"), true},
                      {QStringLiteral("rxhash"), false}};
    QTest::newRow("everything off") << KeywordMap{{QStringLiteral("*LsoV2IPv4"), off},
                                                  {QStringLiteral("*RscIPv4"), off},
                                                  {QStringLiteral("*TCPChecksumOffloadIPv4"), off},
                                                  {QStringLiteral("*RSS"), off}}
                                    << OffloadMap{{QStringLiteral("tso"), false},
                                                  {QStringLiteral("rsc"), false},
                                                  {QStringLiteral("tx-checksum"), false},
                                                  {QStringLiteral("rx-checksum"), false},
                                                  {QStringLiteral("rxhash"), false}};
    QTest::newRow("checksum 1 is Tx only")
        << KeywordMap{{QStringLiteral("*TCPChecksumOffloadIPv4"), on}}
        << OffloadMap{{QStringLiteral("tx-checksum"), true}, {QStringLiteral("rx-checksum"), false}};
    QTest::newRow("checksum 2 is Rx only")
        << KeywordMap{{QStringLiteral("*IPChecksumOffloadIPv4"), QStringLiteral("2")}}
        << OffloadMap{{QStringLiteral("tx-checksum"), false}, {QStringLiteral("rx-checksum"), true}};
    QTest::newRow("Tx on one keyword, Rx on another")
        << KeywordMap{{QStringLiteral("*TCPChecksumOffloadIPv4"), on},
                      {QStringLiteral("*UDPChecksumOffloadIPv6"), QStringLiteral("2")}}
        << OffloadMap{{QStringLiteral("tx-checksum"), true}, {QStringLiteral("rx-checksum"), true}};
    QTest::newRow("LSO on for IPv6 only is on")
        << KeywordMap{{QStringLiteral("*LsoV2IPv4"), off}, {QStringLiteral("*LsoV2IPv6"), on}}
        << OffloadMap{{QStringLiteral("tso"), true}};
    QTest::newRow("LSO v1 of 2008 R2 era drivers")
        << KeywordMap{{QStringLiteral("*LsoV1IPv4"), on}} << OffloadMap{{QStringLiteral("tso"), true}};
    QTest::newRow("DWORD values read as text, spaces")
        << KeywordMap{{QStringLiteral("*RSS"), QStringLiteral(" 1 ")}} << OffloadMap{{QStringLiteral("rxhash"), true}};
    QTest::newRow("no keywords: nothing readable") << KeywordMap{} << OffloadMap{};
    QTest::newRow("other keywords only") << KeywordMap{{QStringLiteral("*JumboPacket"), QStringLiteral("9014")},
                                                       {QStringLiteral("*SpeedDuplex"), QStringLiteral("0")}}
                                         << OffloadMap{};
    QTest::newRow("values out of range or not numbers are not guessed")
        << KeywordMap{{QStringLiteral("*RSS"), QStringLiteral("yes")},
                      {QStringLiteral("*LsoV2IPv4"), QStringLiteral("2")},
                      {QStringLiteral("*RscIPv4"), QStringLiteral("-1")},
                      {QStringLiteral("*TCPChecksumOffloadIPv4"), QStringLiteral("4")},
                      {QStringLiteral("*IPChecksumOffloadIPv4"), QString()}}
        << OffloadMap{};
    QTest::newRow("keyword names are exact") << KeywordMap{{QStringLiteral("LsoV2IPv4"), on}} << OffloadMap{};
}

void TestWindowsPlatform::offloads()
{
    QFETCH(KeywordMap, keywords);
    QFETCH(OffloadMap, offloads);
    QCOMPARE(winsys::offloadsFromInfKeywords(keywords), offloads);
    // The registry reader asks for every keyword the mapping reads.
    const QList<QString> names = winsys::offloadInfKeywordNames();
    for (auto it = keywords.cbegin(); it != keywords.cend(); ++it) {
        if (winsys::offloadsFromInfKeywords({{it.key(), QStringLiteral("1")}}).size() > 0)
            QVERIFY2(names.contains(it.key()), qPrintable(it.key()));
    }
}

void TestWindowsPlatform::linkSpeed_data()
{
    QTest::addColumn<quint64>("transmit");
    QTest::addColumn<quint64>("receive");
    QTest::addColumn<qint64>("bps");
    QTest::newRow("10 Gbit/s") << quint64(10'000'000'000) << quint64(10'000'000'000) << qint64(10'000'000'000);
    QTest::newRow("1 Gbit/s") << quint64(1'000'000'000) << quint64(1'000'000'000) << qint64(1'000'000'000);
    QTest::newRow("unknown as 0") << quint64(0) << quint64(0) << qint64(-1);
    QTest::newRow("unknown as ~0ULL") << quint64(kUnknownSpeed) << quint64(kUnknownSpeed) << qint64(-1);
    QTest::newRow("transmit unknown, receive known")
        << quint64(kUnknownSpeed) << quint64(100'000'000) << qint64(100'000'000);
    QTest::newRow("asymmetric: transmit") << quint64(40'000'000) << quint64(300'000'000) << qint64(40'000'000);
    QTest::newRow("past int64 is no speed") << quint64(std::uint64_t(1) << 63) << quint64(0) << qint64(-1);
}

void TestWindowsPlatform::linkSpeed()
{
    QFETCH(quint64, transmit);
    QFETCH(quint64, receive);
    QFETCH(qint64, bps);
    QCOMPARE(winsys::linkSpeedFromWindows(transmit, receive), bps);
    winsys::AdapterRecord r = vmxnet3Record();
    r.transmitLinkSpeed = transmit;
    r.receiveLinkSpeed = receive;
    QCOMPARE(winsys::adapterFromRecord(r).linkSpeedBps, bps);
}

void TestWindowsPlatform::operStatus_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("word");
    const std::pair<int, const char *> rows[] = {
        {1, "up"},         {2, "down"},           {3, "testing"}, {4, "unknown"}, {5, "dormant"},
        {6, "notpresent"}, {7, "lowerlayerdown"}, {0, "unknown"}, {99, "unknown"}};
    for (const auto &[status, word] : rows)
        QTest::addRow("%d", status) << status << QString::fromLatin1(word);
}

void TestWindowsPlatform::operStatus()
{
    QFETCH(int, status);
    QFETCH(QString, word);
    QCOMPARE(winsys::operStatusName(status), word);
}

void TestWindowsPlatform::physicalAddress()
{
    QCOMPARE(winsys::physicalAddressText(QByteArray::fromHex("0050569A0BCD")), QStringLiteral("00:50:56:9a:0b:cd"));
    QCOMPARE(winsys::physicalAddressText(QByteArray()), QString());
    QCOMPARE(winsys::physicalAddressText(QByteArray(6, '\0')), QString());
    // Tunnel adapters have 8-byte addresses.
    QCOMPARE(winsys::physicalAddressText(QByteArray::fromHex("00000000000000e0")),
             QStringLiteral("00:00:00:00:00:00:00:e0"));
}

void TestWindowsPlatform::vmxnet3Adapter()
{
    const AdapterInfo a = winsys::adapterFromRecord(vmxnet3Record());
    QCOMPARE(a.name, QStringLiteral("Ethernet0"));
    QCOMPARE(a.description, QStringLiteral("vmxnet3 Ethernet Adapter"));
    QCOMPARE(a.index, 12);
    QCOMPARE(a.family, AdapterFamily::Vmxnet3);
    QCOMPARE(a.driver, QStringLiteral("vmxnet3ndis6"));
    QCOMPARE(a.driverVersion, QStringLiteral("1.7.3.0"));
    QCOMPARE(a.mtu, 1500);
    QCOMPARE(a.linkSpeedBps, std::int64_t(10'000'000'000));
    QCOMPARE(a.hardwareAddress, QStringLiteral("00:50:56:9a:0b:cd"));
    QCOMPARE(a.operState, QStringLiteral("up"));
    QVERIFY(a.isUp());
    QVERIFY(!a.loopback);
    QCOMPARE(a.addresses.size(), 2);
    QCOMPARE(a.addresses[0], (AdapterAddress{QHostAddress(QStringLiteral("192.168.10.21")), 24}));
    QCOMPARE(a.addresses[1].prefixLength, 64);
    QCOMPARE(a.offloads, (OffloadMap{{QStringLiteral("tso"), true},
                                     {QStringLiteral("rsc"), true},
                                     {QStringLiteral("tx-checksum"), true},
                                     {QStringLiteral("rx-checksum"), true},
                                     {QStringLiteral("rxhash"), false}}));
    // The test's accounting finds the adapter by the data socket's local address.
    const auto found = adapterForLocalAddress(QHostAddress(QStringLiteral("192.168.10.21")),
                                              {winsys::adapterFromRecord(loopbackRecord()), a});
    QVERIFY(found);
    QCOMPARE(found->name, a.name);
    // And the adapter survives a snapshot, rsc included.
    AdapterInfo back;
    QString error;
    QVERIFY2(AdapterInfo::fromJson(a.toJson(), &back, &error), qPrintable(error));
    QCOMPARE(back, a);
}

void TestWindowsPlatform::loopbackAdapter()
{
    const AdapterInfo a = winsys::adapterFromRecord(loopbackRecord());
    QCOMPARE(a.name, QStringLiteral("Loopback Pseudo-Interface 1"));
    QVERIFY(a.loopback);
    QCOMPARE(a.family, AdapterFamily::Loopback);
    QCOMPARE(a.mtu, 0);                         // ~0U is no MTU
    QCOMPARE(a.linkSpeedBps, std::int64_t(-1)); // the nominal 1 Gbit/s is no link
    QCOMPARE(a.hardwareAddress, QString());
    QVERIFY(a.driver.isEmpty());
    QVERIFY(a.offloads.isEmpty());
    QVERIFY(a.isUp());
    // Any 127/8 address belongs to it, as on Linux.
    const auto found = adapterForLocalAddress(QHostAddress(QStringLiteral("127.0.0.2")),
                                              {winsys::adapterFromRecord(vmxnet3Record()), a});
    QVERIFY(found);
    QCOMPARE(found->name, a.name);
}

void TestWindowsPlatform::namesWhenFieldsAreMissing()
{
    winsys::AdapterRecord r = vmxnet3Record();
    r.friendlyName.clear();
    r.description.clear();
    const AdapterInfo a = winsys::adapterFromRecord(r);
    QCOMPARE(a.name, r.guidName);
    QCOMPARE(winsys::adapterName(r), r.guidName);
    QCOMPARE(a.description, QStringLiteral("vmxnet3 Ethernet Adapter")); // the driver key's DriverDesc
    QCOMPARE(a.family, AdapterFamily::Vmxnet3);

    winsys::AdapterRecord bare;
    bare.friendlyName = QStringLiteral("Ethernet 2");
    const AdapterInfo b = winsys::adapterFromRecord(bare);
    QCOMPARE(b.family, AdapterFamily::Other);
    QCOMPARE(b.linkSpeedBps, std::int64_t(-1));
    QCOMPARE(b.operState, QStringLiteral("unknown"));
    QVERIFY(b.offloads.isEmpty());
}

void TestWindowsPlatform::cpuTimesFromSystemTimes()
{
    // GetSystemTimes' kernel time includes the idle time.
    const CpuTimes t = winsys::cpuTimesFromSystemTimes({800, 1000, 500}, 2);
    QCOMPARE(t.user, std::uint64_t(500));
    QCOMPARE(t.system, std::uint64_t(200));
    QCOMPARE(t.idle, std::uint64_t(800));
    QCOMPARE(t.total(), std::uint64_t(1500));
    QCOMPARE(t.busy(), std::uint64_t(700));
    QCOMPARE(t.cpuCount, 2);
    QCOMPARE(t.nice + t.iowait + t.irq + t.softirq + t.steal, std::uint64_t(0));
    // Never wraps around, never claims zero CPUs.
    const CpuTimes odd = winsys::cpuTimesFromSystemTimes({1000, 900, 5}, 0);
    QCOMPARE(odd.system, std::uint64_t(0));
    QCOMPARE(odd.cpuCount, 1);
}

void TestWindowsPlatform::cpuSampleOnWindowsTicks()
{
    // 3 s on 2 CPUs: 6 CPU-seconds = 6e7 ticks of 100 ns. 2 s user, 1 s kernel, 3 s idle.
    CpuReading a, b;
    a.wallSeconds = 50.0;
    b.wallSeconds = 53.0;
    a.systemValid = b.systemValid = true;
    a.system = winsys::cpuTimesFromSystemTimes({10'000'000, 20'000'000, 30'000'000}, 2);
    b.system = winsys::cpuTimesFromSystemTimes({40'000'000, 60'000'000, 50'000'000}, 2);
    const CpuSample s = cpuSampleBetween(a, b, 50.0);
    QVERIFY(s.systemValid);
    QCOMPARE(s.cpuCount, 2);
    QCOMPARE(qRound(s.systemBusyPct * 1000), 50'000);
    QCOMPARE(qRound(s.userPct * 1000), 33'333);
    QCOMPARE(qRound(s.systemPct * 1000), 16'667);
    QCOMPARE(s.irqPct, 0.0);
    // Busy CPU-seconds come back as user + kernel - idle seconds: the units agree.
    QCOMPARE(qRound(s.systemBusyCpuSeconds() * 1000), 3000);
}

void TestWindowsPlatform::processTimes()
{
    const ProcessCpuTimes p = winsys::processTimesFromFileTimes(15'000'000, 5'000'000);
    QCOMPARE(p.userSeconds, 1.5);
    QCOMPARE(p.systemSeconds, 0.5);
    QCOMPARE(p.totalSeconds, 2.0);
}

void TestWindowsPlatform::performanceCounter_data()
{
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("frequency");
    QTest::addColumn<qint64>("ns");
    QTest::newRow("10 MHz, 2.5 s") << qint64(25'000'000) << qint64(10'000'000) << qint64(2'500'000'000);
    // A year of uptime at 3 GHz: count * 1e9 would overflow 64 bits.
    QTest::newRow("3 GHz, one year") << qint64(3'000'000'000LL * 31'536'000) << qint64(3'000'000'000)
                                     << qint64(31'536'000'000'000'000LL);
    QTest::newRow("3.579545 MHz, 1 tick") << qint64(1) << qint64(3'579'545) << qint64(279);
    QTest::newRow("no frequency") << qint64(5) << qint64(0) << qint64(0);
}

void TestWindowsPlatform::performanceCounter()
{
    QFETCH(qint64, count);
    QFETCH(qint64, frequency);
    QFETCH(qint64, ns);
    QCOMPARE(winsys::performanceCounterToNs(count, frequency), ns);
}

void TestWindowsPlatform::countersFromIfRow()
{
    winsys::IfRowCounters row;
    row.inOctets = 1'000'000;
    row.outOctets = 2'000'000;
    row.inUcastPkts = 700;
    row.inNUcastPkts = 30;
    row.outUcastPkts = 1400;
    row.outNUcastPkts = 2;
    row.inDiscards = 9;
    row.outDiscards = 8;
    row.inErrors = 7;
    row.outErrors = 6;
    const InterfaceCounters c = winsys::countersFromIfRow(row, 42);
    QCOMPARE(c.rxDropped, std::uint64_t(9));
    QCOMPARE(c.txDropped, std::uint64_t(8));
    QCOMPARE(c.rxErrors, std::uint64_t(7));
    QCOMPARE(c.txErrors, std::uint64_t(6));
    QCOMPARE(c.rxBytes, std::uint64_t(1'000'000));
    QCOMPARE(c.txBytes, std::uint64_t(2'000'000));
    QCOMPARE(c.rxPackets, std::uint64_t(730));
    QCOMPARE(c.txPackets, std::uint64_t(1402));
    QCOMPARE(c.timestampNs, std::int64_t(42));
}

// --- The live system ------------------------------------------------------------------------

void TestWindowsPlatform::liveAdapters()
{
    const QList<AdapterInfo> adapters = listAdapters();
    QVERIFY(!adapters.isEmpty());
    bool haveLoopbackAddress = false;
    for (const AdapterInfo &a : adapters) {
        qInfo("adapter %s: \"%s\" index %d family %s driver \"%s\" %s mtu %d speed %lld %s %s offloads %d",
              qPrintable(a.name), qPrintable(a.description), a.index, qPrintable(familyName(a.family)),
              qPrintable(a.driver), qPrintable(a.driverVersion), a.mtu, static_cast<long long>(a.linkSpeedBps),
              qPrintable(a.operState), qPrintable(a.hardwareAddress), int(a.offloads.size()));
        for (const AdapterAddress &addr : a.addresses)
            qInfo("    %s/%d", qPrintable(addr.address.toString()), addr.prefixLength);
        QVERIFY(!a.name.isEmpty());
        QVERIFY(a.index > 0);
        QVERIFY(a.linkSpeedBps == -1 || a.linkSpeedBps > 0);
        for (const AdapterAddress &addr : a.addresses) {
            QVERIFY(!addr.address.isNull());
            QVERIFY(addr.prefixLength >= 0 && addr.prefixLength <= 128);
            if (addr.address.isLoopback())
                haveLoopbackAddress = true;
        }
    }
    QVERIFY(haveLoopbackAddress);
    // The accounting's lookup finds an adapter for a loopback socket.
    QVERIFY(adapterForLocalAddress(QHostAddress::LocalHost, adapters).has_value());
}

void TestWindowsPlatform::liveCounters()
{
    const QList<AdapterInfo> adapters = listAdapters();
    const QMap<QString, InterfaceCounters> before = readAllCounters();
    // Every listed adapter has counters under the same name, one at a time or all at once.
    for (const AdapterInfo &a : adapters) {
        QVERIFY2(before.contains(a.name), qPrintable(a.name));
        InterfaceCounters one;
        QVERIFY2(readCounters(a.name, &one), qPrintable(a.name));
        QVERIFY(one.timestampNs >= before.value(a.name).timestampNs);
    }
    InterfaceCounters none;
    QVERIFY(!readCounters(QStringLiteral("no such adapter 4711"), &none));

    const auto lo = adapterForLocalAddress(QHostAddress::LocalHost, adapters);
    QVERIFY(lo);
    const qint64 bytes = 4 * 1024 * 1024;
    QCOMPARE(loopbackTraffic(bytes), bytes);
    InterfaceCounters after;
    QVERIFY(readCounters(lo->name, &after));
    const InterfaceCounters was = before.value(lo->name);
    QVERIFY(after.timestampNs > was.timestampNs);
    QVERIFY(after.rxBytes >= was.rxBytes && after.txBytes >= was.txBytes);
    qInfo("%s after %lld bytes over TCP: rx +%llu bytes +%llu packets, tx +%llu bytes +%llu packets",
          qPrintable(lo->name), static_cast<long long>(bytes),
          static_cast<unsigned long long>(after.rxBytes - was.rxBytes),
          static_cast<unsigned long long>(after.rxPackets - was.rxPackets),
          static_cast<unsigned long long>(after.txBytes - was.txBytes),
          static_cast<unsigned long long>(after.txPackets - was.txPackets));
#ifdef Q_OS_LINUX
    // lo counts every byte twice over (sent and received); Windows' loopback does not
    // always count at all, so there the figures are only printed.
    QVERIFY(after.rxBytes - was.rxBytes >= std::uint64_t(bytes));
#endif
}

void TestWindowsPlatform::liveSystemCpu()
{
    CpuReading a = CpuReading::now();
    QVERIFY(a.systemValid);
    QCOMPARE(a.system.cpuCount, cpuCount());
    QVERIFY(a.system.total() > 0);
    QVERIFY(burnProcessCpu(0.2) >= 0.2);
    const CpuReading b = CpuReading::now();
    QVERIFY(b.system.total() > a.system.total());
    QVERIFY(b.system.user > a.system.user);
    QVERIFY(b.system.busy() > a.system.busy());
    // Ticks per second per CPU: USER_HZ (100) on Linux, 1e7 (100 ns) on Windows. Were the
    // idle time counted twice (GetSystemTimes' kernel includes it), this would be far off.
    const double wall = b.wallSeconds - a.wallSeconds;
    const double ticksPerCpuSecond = double(b.system.total() - a.system.total()) / b.system.cpuCount / wall;
#ifdef Q_OS_WIN
    const double expected = 1e7;
#else
    const double expected = 100;
#endif
    qInfo("%.3f s on %d CPUs: %.0f ticks per CPU-second (expected %.0f), cpu model \"%s\" at %.0f MHz", wall,
          b.system.cpuCount, ticksPerCpuSecond, expected, qPrintable(cpuModel()), cpuClockHz() / 1e6);
    QVERIFY2(ticksPerCpuSecond > 0.8 * expected && ticksPerCpuSecond < 1.25 * expected,
             qPrintable(QString::number(ticksPerCpuSecond)));
    const CpuSample s = cpuSampleBetween(a, b, a.wallSeconds);
    QVERIFY(s.systemValid);
    QVERIFY(s.systemBusyPct > 0 && s.systemBusyPct <= 100.0);
    QVERIFY(s.processValid);
    QVERIFY(s.processPct > 0);
}

void TestWindowsPlatform::liveProcessCpu()
{
    ProcessCpuTimes before, after;
    QVERIFY(readProcessCpuTimes(&before));
    QVERIFY(burnProcessCpu(0.1) >= 0.1);
    QVERIFY(readProcessCpuTimes(&after));
    QVERIFY(after.totalSeconds - before.totalSeconds >= 0.1);
    QVERIFY(after.userSeconds > before.userSeconds);
    QVERIFY(after.systemSeconds >= before.systemSeconds);
    // The busy loop is user time; the total agrees with user + system within a tick.
    QVERIFY(std::abs(after.totalSeconds - after.userSeconds - after.systemSeconds) < 0.05);
}

void TestWindowsPlatform::liveHostAndLimits()
{
    const HostEnvironment host = HostEnvironment::local();
    qInfo("os \"%s\" kernel \"%s\" cpu \"%s\" x%d at %.0f MHz, %d adapters, %d handles", qPrintable(host.os),
          qPrintable(host.kernel), qPrintable(host.cpuModel), host.cpuCount, host.cpuClockHz / 1e6,
          int(host.adapters.size()), openFileCount());
    QVERIFY(host.cpuCount >= 1);
    QVERIFY(host.cpuClockHz >= 0);
    QVERIFY(!host.os.isEmpty());
#ifdef Q_OS_WIN
    // Every handle of the process; wine does not count them (-1 there).
    QVERIFY(openFileCount() > 0 || openFileCount() == -1);
    // No descriptor limit on Windows: unknown, so checkDescriptorLimit() skips its check.
    QCOMPARE(fileLimit().soft, std::int64_t(-1));
    QCOMPARE(raiseFileLimit().hard, std::int64_t(-1));
    QVERIFY(!host.cpuModel.isEmpty());
#else
    QVERIFY(openFileCount() > 0);
    QVERIFY(fileLimit().soft > 0);
#endif
    attachParentConsole(); // stderr is handed over here: must leave it working
    std::fprintf(stderr, "stderr still works after attachParentConsole()\n");
}

QTEST_GUILESS_MAIN(TestWindowsPlatform)
#include "tst_windowsplatform.moc"
