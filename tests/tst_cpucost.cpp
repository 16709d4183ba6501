// SPDX-License-Identifier: GPL-3.0-or-later
// CPU accounting: service-demand arithmetic, /proc parsing from recorded fixtures, and a
// live check that CpuMonitor sees a busy loop.
#include "model/cpucost.h"
#include "model/results.h"
#include "model/servicedemand.h"
#include "platform/cpumonitor.h"
#ifdef Q_OS_LINUX
#include "platform/platform_linux.h"
#endif

#include <QFile>
#include <QTest>

#include <chrono>
#include <cmath>
#include <ctime>
#include <optional>
#include <thread>

using namespace nb;

namespace {

[[maybe_unused]] QByteArray fixture(const QString &name) // the /proc fixtures are read on Linux only
{
    QFile f(QStringLiteral(NICBENCH_TEST_DATA "/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return f.readAll();
}

// QFETCH-able stand-in for "no value": the functions return nullopt for it.
constexpr double kNone = -1;

void compareOptional(const std::optional<double> &got, double expected)
{
    if (expected == kNone) {
        QVERIFY2(!got, got ? qPrintable(QString::number(*got)) : "");
        return;
    }
    QVERIFY(got.has_value());
    QVERIFY2(std::abs(*got - expected) <= 1e-9 * std::max(1.0, std::abs(expected)),
             qPrintable(QStringLiteral("got %1, expected %2").arg(*got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
}

void spin(double seconds)
{
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    volatile std::uint64_t x = 0;
    while (std::chrono::steady_clock::now() < until) {
        for (int i = 0; i < 1000; ++i)
            x = x + i;
    }
}

} // namespace

class TestCpuCost : public QObject {
    Q_OBJECT
private slots:
    void serviceDemandStream_data();
    void serviceDemandStream();
    void serviceDemandRR_data();
    void serviceDemandRR();
    void cpuPerGbps_data();
    void cpuPerGbps();
    void cyclesPerByte_data();
    void cyclesPerByte();
    void resultCosts_data();
    void resultCosts();
#ifdef Q_OS_LINUX
    void parseProcStat_data();
    void parseProcStat();
    void parseCpuInfo();
    void sampleFromFixtures();
#endif
    void sampleJson();
    void liveBusyLoop();
};

void TestCpuCost::serviceDemandStream_data()
{
    QTest::addColumn<double>("utilPct");
    QTest::addColumn<int>("cpus");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("expected");
    // 25% of 4 CPUs for 10 s = 10 CPU-s = 1e7 us; 1 GiB = 1048576 KB -> 9.5367431640625
    QTest::newRow("1 GiB, 10 CPU-s") << 25.0 << 4 << 10.0 << 1073741824.0 << 9.5367431640625;
    // 50% of 2 CPUs for 60 s = 60 CPU-s; 7.5e9 bytes = 7324218.75 KB -> 8.192 us/KB
    QTest::newRow("netperf-sized run") << 50.0 << 2 << 60.0 << 7.5e9 << 8.192;
    // 100% of 1 CPU for 1 s on 1 KB: a whole second per KB
    QTest::newRow("one KB") << 100.0 << 1 << 1.0 << 1024.0 << 1e6;
    QTest::newRow("idle CPU") << 0.0 << 8 << 10.0 << 1e9 << 0.0;
    QTest::newRow("no bytes") << 50.0 << 2 << 10.0 << 0.0 << kNone;
    QTest::newRow("no CPUs") << 50.0 << 0 << 10.0 << 1e9 << kNone;
    QTest::newRow("no time") << 50.0 << 2 << 0.0 << 1e9 << kNone;
    QTest::newRow("negative util") << -1.0 << 2 << 10.0 << 1e9 << kNone;
    QTest::newRow("NaN util") << std::nan("") << 2 << 10.0 << 1e9 << kNone;
}

void TestCpuCost::serviceDemandStream()
{
    QFETCH(double, utilPct);
    QFETCH(int, cpus);
    QFETCH(double, seconds);
    QFETCH(double, bytes);
    QFETCH(double, expected);
    compareOptional(serviceDemandUsPerKB(utilPct, cpus, seconds, bytes), expected);
}

void TestCpuCost::serviceDemandRR_data()
{
    QTest::addColumn<double>("utilPct");
    QTest::addColumn<int>("cpus");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<double>("transactions");
    QTest::addColumn<double>("expected");
    // 50% of 2 CPUs for 10 s = 10 CPU-s = 1e7 us over 1e5 transactions
    QTest::newRow("100 us each") << 50.0 << 2 << 10.0 << 1e5 << 100.0;
    // 12.5% of 8 CPUs for 30 s = 30 CPU-s over 1.2e6 transactions (40k/s) -> 25 us
    QTest::newRow("40k tps on 8 cpus") << 12.5 << 8 << 30.0 << 1.2e6 << 25.0;
    QTest::newRow("no transactions") << 50.0 << 2 << 10.0 << 0.0 << kNone;
    QTest::newRow("infinite time") << 50.0 << 2 << qInf() << 10.0 << kNone;
}

void TestCpuCost::serviceDemandRR()
{
    QFETCH(double, utilPct);
    QFETCH(int, cpus);
    QFETCH(double, seconds);
    QFETCH(double, transactions);
    QFETCH(double, expected);
    compareOptional(serviceDemandUsPerTransaction(utilPct, cpus, seconds, transactions), expected);
}

void TestCpuCost::cpuPerGbps_data()
{
    QTest::addColumn<double>("cpuPct");
    QTest::addColumn<double>("bps");
    QTest::addColumn<double>("expected");
    QTest::newRow("30% at 10G") << 30.0 << 10e9 << 3.0;
    QTest::newRow("45% at 900M") << 45.0 << 900e6 << 50.0;
    QTest::newRow("process 130% at 26G") << 130.0 << 26e9 << 5.0;
    QTest::newRow("no traffic") << 30.0 << 0.0 << kNone;
}

void TestCpuCost::cpuPerGbps()
{
    QFETCH(double, cpuPct);
    QFETCH(double, bps);
    QFETCH(double, expected);
    compareOptional(cpuPctPerGbps(cpuPct, bps), expected);
}

void TestCpuCost::cyclesPerByte_data()
{
    QTest::addColumn<double>("cpuSeconds");
    QTest::addColumn<double>("hz");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("expected");
    QTest::newRow("2 CPU-s at 3 GHz, 1.5 GB") << 2.0 << 3e9 << 1.5e9 << 4.0;
    // 25% of 4 CPUs for 10 s (10 CPU-s) at 2.5 GHz moving 11.75 GB
    QTest::newRow("10 CPU-s at 2.5 GHz") << *busyCpuSeconds(25, 4, 10) << 2.5e9 << 11.75e9 << 25e9 / 11.75e9;
    QTest::newRow("clock unknown") << 2.0 << 0.0 << 1e9 << kNone;
    QTest::newRow("no bytes") << 2.0 << 3e9 << 0.0 << kNone;
}

void TestCpuCost::cyclesPerByte()
{
    QFETCH(double, cpuSeconds);
    QFETCH(double, hz);
    QFETCH(double, bytes);
    QFETCH(double, expected);
    compareOptional(nb::cyclesPerByte(cpuSeconds, hz, bytes), expected);
}

// A result's costs are measured once with the clock of the machine that did the work (the
// local clock for this side, the server's own report for the remote side) and survive a
// trip through the -J document: writing or reading it on a machine with another clock (a
// snapshot opened elsewhere, this test machine) changes nothing.
void TestCpuCost::resultCosts_data()
{
    QTest::addColumn<bool>("rr");
    QTest::addColumn<double>("localHz");  // the client's clock at measurement time
    QTest::addColumn<double>("remoteHz"); // the server's, from its hello; -1: no hello
    QTest::addColumn<double>("localUsPerUnit");
    QTest::addColumn<double>("localCycles");
    QTest::addColumn<double>("remoteUsPerUnit");
    QTest::addColumn<double>("remoteCycles");
    // 1 GiB delivered in 10 s; the client 25% of 4 CPUs (10 CPU-s), the server 50% of 2 (10 CPU-s).
    const double gib = 1073741824.0;
    QTest::newRow("stream, both clocks") << false << 3e9 << 1.5e9 << 1e7 / 1048576 << 10 * 3e9 / gib << 1e7 / 1048576
                                         << 10 * 1.5e9 / gib;
    QTest::newRow("stream, odd clocks") << false << 1.234e9 << 4.321e9 << 1e7 / 1048576 << 10 * 1.234e9 / gib
                                        << 1e7 / 1048576 << 10 * 4.321e9 / gib;
    QTest::newRow("stream, local clock unknown")
        << false << 0.0 << 2e9 << 1e7 / 1048576 << kNone << 1e7 / 1048576 << 10 * 2e9 / gib;
    QTest::newRow("stream, server sent no hello")
        << false << 2e9 << -1.0 << 1e7 / 1048576 << 10 * 2e9 / gib << 1e7 / 1048576 << kNone;
    // 100 000 transactions: 10 CPU-s / 1e5 = 100 us each side; no cycles per byte for RR.
    QTest::newRow("rr") << true << 3e9 << 1.5e9 << 100.0 << kNone << 100.0 << kNone;
}

void TestCpuCost::resultCosts()
{
    QFETCH(bool, rr);
    QFETCH(double, localHz);
    QFETCH(double, remoteHz);
    QFETCH(double, localUsPerUnit);
    QFETCH(double, localCycles);
    QFETCH(double, remoteUsPerUnit);
    QFETCH(double, remoteCycles);

    TestResult r;
    r.params.host = QStringLiteral("198.18.0.2");
    r.peerIsNicbench = true;
    StreamSummary s;
    s.seconds = 10;
    s.bytesSent = s.bytesReceived = 1073741824;
    r.streams.append(s);
    if (rr) {
        r.params.kind = TestKind::Rr;
        r.hasRr = true;
        r.rr.seconds = 10;
        r.rr.transactions = 100000;
    }
    const auto sample = [](double busyPct, int cpus) {
        CpuSample c;
        c.end = 10;
        c.cpuCount = cpus;
        c.systemValid = true;
        c.systemBusyPct = busyPct;
        return c;
    };
    r.localCpuKnown = r.remoteCpuKnown = true;
    r.localCpu = sample(25, 4);
    r.remoteCpu = sample(50, 2);
    if (remoteHz >= 0) {
        HostEnvironment host;
        host.known = true;
        host.cpuCount = 2;
        host.cpuClockHz = remoteHz;
        r.remoteHost = host;
    }
    measureCpuCosts(&r, localHz);

    // Once measured, again after the document was written and read back here, where the
    // clock is this machine's (platform::cpuClockHz(), whatever it is).
    TestResult back;
    QString error;
    QVERIFY2(TestResult::fromJson(r.toJson(), &back, &error), qPrintable(error));
    TestResult again;
    QVERIFY2(TestResult::fromJson(back.toJson(), &again, &error), qPrintable(error));
    for (const TestResult *t : {&r, &back, &again}) {
        QVERIFY(t->costs.local && t->costs.remote);
        const CpuCost &local = *t->costs.local;
        const CpuCost &remote = *t->costs.remote;
        compareOptional(rr ? local.usPerTransaction : local.usPerKB, localUsPerUnit);
        compareOptional(rr ? remote.usPerTransaction : remote.usPerKB, remoteUsPerUnit);
        compareOptional(local.cyclesPerByte, localCycles);
        compareOptional(remote.cyclesPerByte, remoteCycles);
        QCOMPARE(t->costs, r.costs);
    }
    // The document carries the figures, not a clock to apply later.
    const QJsonObject cpu =
        again.toJson().value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("cpu")).toObject();
    if (!rr && localCycles != kNone)
        QCOMPARE(cpu.value(QStringLiteral("local_cycles_per_byte")).toDouble(), *r.costs.local->cyclesPerByte);
    if (!rr && remoteCycles != kNone)
        QCOMPARE(cpu.value(QStringLiteral("remote_cycles_per_byte")).toDouble(), *r.costs.remote->cyclesPerByte);
}

#ifdef Q_OS_LINUX
void TestCpuCost::parseProcStat_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QList<qulonglong>>("fields"); // user nice system idle iowait irq softirq steal
    QTest::addColumn<int>("cpus");
    QTest::newRow("recorded") << QStringLiteral("proc/stat-recorded-debian12.txt") << true
                              << QList<qulonglong>{13851, 0, 7073, 112558, 600, 0, 246, 0} << 2;
    QTest::newRow("before") << QStringLiteral("proc/stat-2cpu-before.txt") << true
                            << QList<qulonglong>{1000, 0, 500, 8000, 100, 0, 0, 0} << 2;
    QTest::newRow("old kernel, no steal") << QStringLiteral("proc/stat-old-kernel.txt") << true
                                          << QList<qulonglong>{200, 10, 100, 5000, 40, 5, 15, 0} << 1;
    QTest::newRow("garbage") << QStringLiteral("proc/stat-garbage.txt") << false << QList<qulonglong>{} << 0;
    QTest::newRow("no cpu line") << QStringLiteral("proc/stat-no-cpu-line.txt") << false << QList<qulonglong>{} << 0;
}

void TestCpuCost::parseProcStat()
{
    QFETCH(QString, file);
    QFETCH(bool, ok);
    QFETCH(QList<qulonglong>, fields);
    QFETCH(int, cpus);
    platform::CpuTimes t;
    QCOMPARE(platform::linuxsys::parseProcStat(fixture(file), &t), ok);
    if (!ok)
        return;
    const QList<qulonglong> got{t.user, t.nice, t.system, t.idle, t.iowait, t.irq, t.softirq, t.steal};
    QCOMPARE(got, fields);
    QCOMPARE(t.cpuCount, cpus);
    // And the live file parses too.
    QVERIFY(platform::readSystemCpuTimes(&t));
    QCOMPARE(t.cpuCount, platform::cpuCount());
}

void TestCpuCost::parseCpuInfo()
{
    QCOMPARE(platform::linuxsys::parseCpuInfoMHz(fixture(QStringLiteral("proc/cpuinfo-x86.txt"))), 2500.0);
    QCOMPARE(platform::linuxsys::parseCpuInfoModel(fixture(QStringLiteral("proc/cpuinfo-x86.txt"))),
             QStringLiteral("AMD EPYC 7B12"));
    QCOMPARE(platform::linuxsys::parseCpuInfoMHz(fixture(QStringLiteral("proc/cpuinfo-arm.txt"))), 0.0);
    QCOMPARE(platform::linuxsys::parseCpuInfoModel(fixture(QStringLiteral("proc/cpuinfo-arm.txt"))),
             QStringLiteral("Raspberry Pi 4 Model B Rev 1.4"));
    QVERIFY(platform::cpuClockHz() >= 0);
    QVERIFY(platform::cpuCount() >= 1);
    QVERIFY(!platform::osName().isEmpty());
    QVERIFY(!platform::kernelVersion().isEmpty());
}

void TestCpuCost::sampleFromFixtures()
{
    // Deltas over the interval: user 600 nice 100 system 300 idle 700 iowait 0 irq 50
    // softirq 150 steal 100 = 2000 ticks across both CPUs.
    CpuReading a, b;
    QVERIFY(platform::linuxsys::parseProcStat(fixture(QStringLiteral("proc/stat-2cpu-before.txt")), &a.system));
    QVERIFY(platform::linuxsys::parseProcStat(fixture(QStringLiteral("proc/stat-2cpu-after.txt")), &b.system));
    a.systemValid = b.systemValid = true;
    a.wallSeconds = 100.0;
    b.wallSeconds = 110.0;
    a.processValid = b.processValid = true;
    a.process = {1.0, 0.5, 1.5};
    b.process = {4.0, 2.5, 6.5}; // 5 CPU-s over 10 s: 50% of one core
    const CpuSample s = cpuSampleBetween(a, b, 95.0);
    QCOMPARE(s.start, 5.0);
    QCOMPARE(s.end, 15.0);
    QCOMPARE(s.cpuCount, 2);
    QVERIFY(s.systemValid);
    QCOMPARE(s.userPct, 35.0);
    QCOMPARE(s.systemPct, 15.0);
    QCOMPARE(s.irqPct, 10.0);
    QCOMPARE(s.iowaitPct, 0.0);
    QCOMPARE(s.stealPct, 5.0);
    QCOMPARE(s.systemBusyPct, 60.0);
    QCOMPARE(s.processPct, 50.0);
    QCOMPARE(s.processUserPct, 30.0);
    QCOMPARE(s.processSystemPct, 20.0);
    QCOMPARE(s.systemBusyCpuSeconds(), 12.0); // 60% of 2 CPUs for 10 s
    QCOMPARE(s.processCpuSeconds(), 5.0);

    // Same reading twice: no ticks elapsed, so no system figures rather than 0/0.
    const CpuSample none = cpuSampleBetween(a, a, 95.0);
    QVERIFY(!none.systemValid);
    QVERIFY(!none.processValid);

    // A fully busy interval is 100%: busy comes from the ticks, not from the sum of the
    // rounded shares (1 + 4 + 1 of 6 ticks adds up to 100.00000000000001).
    CpuReading full = a;
    full.system.user += 1;
    full.system.system += 4;
    full.system.irq += 1;
    const CpuSample allBusy = cpuSampleBetween(a, full, 95.0);
    QVERIFY(allBusy.systemValid);
    QVERIFY2(allBusy.systemBusyPct <= 100.0, qPrintable(QString::number(allBusy.systemBusyPct, 'g', 17)));
    QCOMPARE(allBusy.systemBusyPct, 100.0);
}
#endif

void TestCpuCost::sampleJson()
{
    CpuSample s;
    s.start = 1;
    s.end = 2;
    s.cpuCount = 4;
    s.systemValid = true;
    s.systemBusyPct = 60;
    s.userPct = 35;
    s.systemPct = 15;
    s.irqPct = 10;
    s.processValid = true;
    s.processPct = 130;
    s.processUserPct = 30;
    s.processSystemPct = 100;
    CpuSample back;
    QString error;
    QVERIFY2(CpuSample::fromJson(s.toJson(), &back, &error), qPrintable(error));
    QCOMPARE(back.toJson(), s.toJson());
    QVERIFY(back.systemValid && back.processValid);

    // Against stock iperf3 only the process group exists: that is valid.
    s.systemValid = false;
    QVERIFY(CpuSample::fromJson(s.toJson(), &back, &error));
    QVERIFY(!back.systemValid && back.processValid);

    QJsonObject partial = s.toJson();
    partial.remove(QStringLiteral("process_user_pct"));
    QVERIFY(!CpuSample::fromJson(partial, &back, &error));
    QVERIFY(!CpuSample::fromJson(QJsonObject{}, &back, &error));
}

void TestCpuCost::liveBusyLoop()
{
    CpuMonitor monitor;
    const std::clock_t clock0 = std::clock();
    monitor.start();
    spin(0.25);
    monitor.sample();
    spin(0.25);
    const CpuSample busy = monitor.finish();
    const std::clock_t clock1 = std::clock();
    QCOMPARE(monitor.intervals().size(), 2);
    QVERIFY(busy.processValid);
#ifdef Q_OS_LINUX
    // The truth is what the C library says this process used over the same half second
    // (std::clock is process CPU time on Linux): one spinning thread gets ~100% of a core
    // on an idle machine and far less on a loaded one, so a fixed floor would fail there.
    const double clockPct = 100.0 * double(clock1 - clock0) / CLOCKS_PER_SEC / busy.seconds();
    QVERIFY2(clockPct > 5, qPrintable(QStringLiteral("the spin got %1% of a core").arg(clockPct)));
    QVERIFY2(std::abs(busy.processPct - clockPct) < 15,
             qPrintable(QStringLiteral("monitor %1%, std::clock %2%").arg(busy.processPct).arg(clockPct)));
#else
    // std::clock is wall time on Windows: one spinning thread is ~100% of one core; 40%
    // leaves room for a loaded machine.
    Q_UNUSED(clock0);
    Q_UNUSED(clock1);
    QVERIFY2(busy.processPct > 40, qPrintable(QString::number(busy.processPct)));
#endif
    QVERIFY2(busy.processPct < 150, qPrintable(QString::number(busy.processPct)));
    QVERIFY(busy.processUserPct > busy.processSystemPct);
    QVERIFY(std::abs(busy.seconds() - 0.5) < 0.2);
    // Linux (/proc/stat) and Windows (GetSystemTimes) both have the system-wide figures.
    QVERIFY(busy.systemValid);
    // Our own spinning is part of the machine's busy time (tick resolution permitting).
    QVERIFY2(busy.systemBusyPct >= 0.4 * busy.processPct / busy.cpuCount,
             qPrintable(QStringLiteral("system %1%, process %2%").arg(busy.systemBusyPct).arg(busy.processPct)));
    QVERIFY(busy.systemBusyPct <= 100.0 + 1e-9);

    // The contrast that lets the check fail: sleeping costs next to nothing.
    monitor.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const CpuSample idle = monitor.finish();
    QVERIFY2(idle.processPct < 20, qPrintable(QString::number(idle.processPct)));
}

QTEST_GUILESS_MAIN(TestCpuCost)
#include "tst_cpucost.moc"
