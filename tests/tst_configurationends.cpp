// SPDX-License-Identifier: GPL-3.0-or-later
// Which adapter and server carried each configuration (review M10, compare/configurationends.h):
// from the runs, each end named once per configuration; two servers are told apart.
#include "comparisonruns.h"

#include <compare/configurationends.h>

#include <QTest>

using namespace nb;

namespace {

AdapterInfo adapter(const char *name, const char *driver, qint64 speed, int mtu)
{
    AdapterInfo a;
    a.name = QString::fromLatin1(name);
    a.driver = QString::fromLatin1(driver);
    a.linkSpeedBps = speed;
    a.mtu = mtu;
    return a;
}

// E1000 and VMXNET3, two repeats each; `sameServer` puts both on one machine.
Comparison guests(bool sameServer)
{
    Comparison c;
    c.repeats = 2;
    c.configurations = {nbtest::namedConfiguration(QStringLiteral("E1000"), QString()),
                        nbtest::namedConfiguration(QStringLiteral("VMXNET3"), QString())};
    nbtest::addScheduledRuns(c, [sameServer](const Run &run) {
        TestResult r;
        const bool vmxnet3 = run.configIndex == 1;
        r.localAdapter = adapter(vmxnet3 ? "tap1" : "tap0", "tun", 0, 1500);
        r.remoteAdapter =
            vmxnet3 ? adapter("eth0", "vmxnet3", 10'000'000'000, 1500) : adapter("eth0", "e1000", 1'000'000'000, 1500);
        HostEnvironment h;
        h.known = true;
        h.hostName = sameServer ? QStringLiteral("server")
                     : vmxnet3  ? QStringLiteral("guest-vmxnet3")
                                : QStringLiteral("guest-e1000");
        h.os = QStringLiteral("Debian GNU/Linux 12 (bookworm)");
        h.cpuCount = 1;
        r.remoteHost = h;
        if (run.repeatIndex == 1 && !vmxnet3)
            r.error = QStringLiteral("connection reset"); // a failed run still says where it went
        return r;
    });
    return c;
}

} // namespace

class TestConfigurationEnds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachConfigurationNamesItsEnds();
    void oneServerIsOne();
    void agentIsNamed();
};

void TestConfigurationEnds::eachConfigurationNamesItsEnds()
{
    const Comparison c = guests(false);
    const QList<ConfigurationEnds> ends = configurationEnds(c);
    QCOMPARE(ends.size(), 2);
    QCOMPARE(ends[0].client, QStringList{QStringLiteral("tap0: other, tun, MTU 1500")});
    QCOMPARE(ends[0].server.size(), 1); // two runs, one adapter
    QVERIFY2(ends[1].server.first().startsWith(QStringLiteral("eth0: ")) &&
                 ends[1].server.first().contains(QStringLiteral("vmxnet3, 10.0 Gbit/s, MTU 1500")),
             qPrintable(ends[1].server.first()));
    QCOMPARE(ends[1].serverHost, QStringList{QStringLiteral("guest-vmxnet3, Debian GNU/Linux 12 (bookworm), 1 CPU")});
    QVERIFY(serversDiffer(ends));
    const QStringList lines = configurationEndsLines(c);
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith(QStringLiteral("E1000: client tap0: ")) &&
                 lines[0].contains(QStringLiteral("-> server eth0: ")) &&
                 lines[0].endsWith(QStringLiteral("(guest-e1000, Debian GNU/Linux 12 (bookworm), 1 CPU)")),
             qPrintable(lines[0]));
}

void TestConfigurationEnds::oneServerIsOne()
{
    QVERIFY(!serversDiffer(configurationEnds(guests(true))));
    // No runs: nothing known, said so.
    Comparison empty = guests(true);
    empty.runs.clear();
    QVERIFY(!serversDiffer(configurationEnds(empty)));
    QVERIFY2(configurationEndsLines(empty).first() == QStringLiteral("E1000: client unknown -> server unknown"),
             qPrintable(configurationEndsLines(empty).first()));
}

void TestConfigurationEnds::agentIsNamed()
{
    Comparison c = guests(false);
    c.configurations[1].from.host = QStringLiteral("198.18.0.2");
    QVERIFY2(configurationEndsLines(c)[1].contains(QStringLiteral("(run on the agent 198.18.0.2:5201)")),
             qPrintable(configurationEndsLines(c)[1]));
}

QTEST_GUILESS_MAIN(TestConfigurationEnds)
#include "tst_configurationends.moc"
