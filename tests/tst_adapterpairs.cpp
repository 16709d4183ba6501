// SPDX-License-Identifier: GPL-3.0-or-later
// suggestAdapterPairs(): which local adapter reaches which adapter of the server. Plain
// subnet math on adapter lists, so every case is a row of a data table.
#include "compare/adapterpairs.h"

#include <QTest>

using namespace nb;

namespace {

// "eth0" with addresses in CIDR form; state "up" unless given.
AdapterInfo nic(const QString &name, const QStringList &cidrs, const QString &mac = {},
                const QString &state = QStringLiteral("up"))
{
    AdapterInfo a;
    a.name = name;
    a.operState = state;
    a.hardwareAddress = mac;
    a.family = AdapterFamily::Virtio;
    for (const QString &c : cidrs) {
        const qsizetype slash = c.indexOf(QLatin1Char('/'));
        const int prefix = slash < 0 ? -1 : c.mid(slash + 1).toInt();
        a.addresses.append({QHostAddress(c.left(slash)), prefix});
    }
    return a;
}

// lo as Linux reports it: no hardware address, operstate "unknown".
AdapterInfo lo()
{
    AdapterInfo a = nic(QStringLiteral("lo"), {QStringLiteral("127.0.0.1/8"), QStringLiteral("::1/128")}, {},
                        QStringLiteral("unknown"));
    a.loopback = true;
    a.family = AdapterFamily::Loopback;
    return a;
}

// One line per pair: "LABEL: LOCAL -> REMOTE /PREFIX".
QStringList describe(const QList<AdapterPair> &pairs)
{
    QStringList out;
    for (const AdapterPair &p : pairs)
        out.append(
            QStringLiteral("%1: %2 -> %3 /%4").arg(p.label(), p.localAddress, p.remoteAddress).arg(p.prefixLength));
    return out;
}

const QString kMacA = QStringLiteral("52:54:00:00:00:0a");
const QString kMacB = QStringLiteral("52:54:00:00:00:0b");
const QString kMacC = QStringLiteral("52:54:00:00:00:0c");

} // namespace

using AdapterList = QList<AdapterInfo>;

class TestAdapterPairs : public QObject {
    Q_OBJECT
private slots:
    void suggestions_data();
    void suggestions();
    void pairCarriesBothAdapters();
    void label_data();
    void label();
};

void TestAdapterPairs::suggestions_data()
{
    QTest::addColumn<AdapterList>("local");
    QTest::addColumn<AdapterList>("remote");
    QTest::addColumn<QStringList>("expected");
    const auto s = [](const char *t) { return QString::fromLatin1(t); };

    QTest::newRow("same /24") << AdapterList{lo(), nic(s("eth0"), {s("192.168.1.10/24")}, kMacA)}
                              << AdapterList{lo(), nic(s("ens192"), {s("192.168.1.20/24")}, kMacB)}
                              << QStringList{s("virtio eth0 -> ens192: 192.168.1.10 -> 192.168.1.20 /24")};
    // Another machine that shares no subnet gets no 127.0.0.1 suggestion either: that
    // would test the local machine.
    QTest::newRow("different subnets") << AdapterList{lo(), nic(s("eth0"), {s("192.168.1.10/24")}, kMacA)}
                                       << AdapterList{lo(), nic(s("ens192"), {s("192.168.2.20/24")}, kMacB)}
                                       << QStringList{};
    QTest::newRow("prefix mismatch, local shorter")
        << AdapterList{nic(s("eth0"), {s("10.1.2.3/16")}, kMacA)}
        << AdapterList{nic(s("ens192"), {s("10.1.9.9/24")}, kMacB)}
        << QStringList{s("virtio eth0 -> ens192: 10.1.2.3 -> 10.1.9.9 /16")};
    QTest::newRow("prefix mismatch, remote shorter")
        << AdapterList{nic(s("eth0"), {s("10.1.2.3/24")}, kMacA)}
        << AdapterList{nic(s("ens192"), {s("10.1.9.9/16")}, kMacB)}
        << QStringList{s("virtio eth0 -> ens192: 10.1.2.3 -> 10.1.9.9 /16")};
    QTest::newRow("prefix mismatch, apart under the shorter")
        << AdapterList{nic(s("eth0"), {s("10.1.2.3/24")}, kMacA)}
        << AdapterList{nic(s("ens192"), {s("10.2.0.1/16")}, kMacB)} << QStringList{};
    QTest::newRow("prefix not on a byte boundary")
        << AdapterList{nic(s("eth0"), {s("10.0.0.9/29")}, kMacA)}
        << AdapterList{nic(s("ens1"), {s("10.0.0.14/29")}, kMacB), nic(s("ens2"), {s("10.0.0.17/29")}, kMacC)}
        << QStringList{s("virtio eth0 -> ens1: 10.0.0.9 -> 10.0.0.14 /29")};
    QTest::newRow("IPv6 global") << AdapterList{nic(s("eth0"), {s("fd00:1::10/64")}, kMacA)}
                                 << AdapterList{nic(s("ens192"), {s("fd00:1::20/64")}, kMacB)}
                                 << QStringList{s("virtio eth0 -> ens192 (IPv6): fd00:1::10 -> fd00:1::20 /64")};
    QTest::newRow("IPv6 different /64") << AdapterList{nic(s("eth0"), {s("2001:db8:1::1/64")}, kMacA)}
                                        << AdapterList{nic(s("ens192"), {s("2001:db8:2::1/64")}, kMacB)}
                                        << QStringList{};
    QTest::newRow("IPv6 link-local skipped")
        << AdapterList{nic(s("eth0"), {s("fe80::1/64")}, kMacA)}
        << AdapterList{nic(s("ens192"), {s("fe80::2/64")}, kMacB)} << QStringList{};
    QTest::newRow("IPv6 link-local skipped, global kept")
        << AdapterList{nic(s("eth0"), {s("fe80::1/64"), s("fd00:1::10/64")}, kMacA)}
        << AdapterList{nic(s("ens192"), {s("fd00:1::20/64"), s("fe80::2/64")}, kMacB)}
        << QStringList{s("virtio eth0 -> ens192 (IPv6): fd00:1::10 -> fd00:1::20 /64")};
    QTest::newRow("IPv4 does not pair with IPv6")
        << AdapterList{nic(s("eth0"), {s("10.0.0.1/8")}, kMacA)}
        << AdapterList{nic(s("ens192"), {s("::ffff:10.0.0.2/104")}, kMacB)} << QStringList{};
    QTest::newRow("local interface down skipped")
        << AdapterList{nic(s("eth0"), {s("192.168.1.10/24")}, kMacA, s("down")),
                       nic(s("eth1"), {s("192.168.1.11/24")}, kMacC)}
        << AdapterList{nic(s("ens192"), {s("192.168.1.20/24")}, kMacB)}
        << QStringList{s("virtio eth1 -> ens192: 192.168.1.11 -> 192.168.1.20 /24")};
    QTest::newRow("remote interface down skipped")
        << AdapterList{nic(s("eth0"), {s("192.168.1.10/24")}, kMacA)}
        << AdapterList{nic(s("ens192"), {s("192.168.1.20/24")}, kMacB, s("lowerlayerdown"))} << QStringList{};
    QTest::newRow("unknown prefix skipped")
        << AdapterList{nic(s("eth0"), {s("192.168.1.10")}, kMacA)}
        << AdapterList{nic(s("ens192"), {s("192.168.1.20/24")}, kMacB)} << QStringList{};
    // Two NATed VMs both at 10.0.2.15 are not neighbours.
    QTest::newRow("equal addresses skipped")
        << AdapterList{nic(s("enp0s3"), {s("10.0.2.15/24")}, kMacA)}
        << AdapterList{nic(s("enp0s3"), {s("10.0.2.15/24")}, kMacB)} << QStringList{};
    QTest::newRow("loopback fallback, lo only") << AdapterList{lo()} << AdapterList{lo()}
                                                << QStringList{s("loopback lo -> lo: 127.0.0.1 -> 127.0.0.1 /8"),
                                                               s("loopback lo -> lo (IPv6): ::1 -> ::1 /128")};
    // Asking this machine's own server: eth0 would pair with itself, which the kernel
    // carries through lo; lo is the honest suggestion.
    QTest::newRow("loopback fallback, same machine")
        << AdapterList{lo(), nic(s("eth0"), {s("192.0.2.2/24"), s("fd00::2/64")}, kMacA)}
        << AdapterList{lo(), nic(s("eth0"), {s("192.0.2.2/24"), s("fd00::2/64")}, kMacA)}
        << QStringList{s("loopback lo -> lo: 127.0.0.1 -> 127.0.0.1 /8"),
                       s("loopback lo -> lo (IPv6): ::1 -> ::1 /128")};
    // Servers leave MAC addresses out of the hello: names and addresses tell the same machine.
    QTest::newRow("loopback fallback, same machine, hello without MACs")
        << AdapterList{lo(), nic(s("eth0"), {s("192.0.2.2/24"), s("fd00::2/64")}, kMacA)}
        << AdapterList{lo(), nic(s("eth0"), {s("fd00::2/64"), s("192.0.2.2/24")})}
        << QStringList{s("loopback lo -> lo: 127.0.0.1 -> 127.0.0.1 /8"),
                       s("loopback lo -> lo (IPv6): ::1 -> ::1 /128")};
    QTest::newRow("no loopback fallback for another machine, hello without MACs")
        << AdapterList{lo(), nic(s("eth0"), {s("192.168.1.10/24")}, kMacA)}
        << AdapterList{lo(), nic(s("eth0"), {s("172.16.0.1/24")})} << QStringList{};
    QTest::newRow("no loopback fallback when something matched")
        << AdapterList{lo(), nic(s("eth0"), {s("192.168.1.10/24")})}
        << AdapterList{lo(), nic(s("eth0"), {s("192.168.1.20/24")})}
        << QStringList{s("virtio eth0 -> eth0: 192.168.1.10 -> 192.168.1.20 /24")};
    QTest::newRow("no loopback fallback for another machine")
        << AdapterList{lo(), nic(s("eth0"), {s("192.168.1.10/24")}, kMacA)}
        << AdapterList{lo(), nic(s("eth0"), {s("172.16.0.1/24")}, kMacB)} << QStringList{};
    QTest::newRow("loopback fallback skips a down lo") << AdapterList{lo()} << AdapterList{[] {
        AdapterInfo l = lo();
        l.operState = QStringLiteral("down");
        return l;
    }()} << QStringList{};
    // Local adapter order first, then remote adapter order, then address order.
    QTest::newRow("order") << AdapterList{lo(), nic(s("eth0"), {s("10.0.0.1/24")}, kMacA),
                                          nic(s("eth1"), {s("10.0.1.1/24"), s("fd00:1::1/64")}, kMacC)}
                           << AdapterList{nic(s("ens1"), {s("fd00:1::2/64"), s("10.0.1.2/24")}, kMacB), lo(),
                                          nic(s("ens0"), {s("10.0.0.2/24"), s("10.0.1.3/24")})}
                           << QStringList{s("virtio eth0 -> ens0: 10.0.0.1 -> 10.0.0.2 /24"),
                                          s("virtio eth1 -> ens1: 10.0.1.1 -> 10.0.1.2 /24"),
                                          s("virtio eth1 -> ens1 (IPv6): fd00:1::1 -> fd00:1::2 /64"),
                                          s("virtio eth1 -> ens0: 10.0.1.1 -> 10.0.1.3 /24")};
}

void TestAdapterPairs::suggestions()
{
    QFETCH(AdapterList, local);
    QFETCH(AdapterList, remote);
    QFETCH(QStringList, expected);
    const QStringList got = describe(suggestAdapterPairs(local, remote));
    QVERIFY2(got == expected,
             qPrintable(QStringLiteral("got:\n  %1\nexpected:\n  %2")
                            .arg(got.join(QStringLiteral("\n  ")), expected.join(QStringLiteral("\n  ")))));
}

void TestAdapterPairs::pairCarriesBothAdapters()
{
    AdapterInfo l = nic(QStringLiteral("eth0"), {QStringLiteral("198.18.0.2/24")}, kMacA);
    l.family = AdapterFamily::E1000;
    AdapterInfo r = nic(QStringLiteral("ens192"), {QStringLiteral("198.18.0.1/24")}, kMacB);
    r.family = AdapterFamily::Vmxnet3;
    const QList<AdapterPair> pairs = suggestAdapterPairs({l}, {r});
    QCOMPARE(pairs.size(), 1);
    QCOMPARE(pairs.first().local, l);
    QCOMPARE(pairs.first().remote, r);
    QCOMPARE(pairs.first().localAddress, QStringLiteral("198.18.0.2"));
    QCOMPARE(pairs.first().remoteAddress, QStringLiteral("198.18.0.1"));
    QCOMPARE(pairs.first().prefixLength, 24);
}

void TestAdapterPairs::label_data()
{
    QTest::addColumn<QString>("localAddress");
    QTest::addColumn<QString>("expected");
    QTest::newRow("IPv4") << QStringLiteral("10.0.0.1") << QStringLiteral("e1000 eth0 -> ens192");
    QTest::newRow("IPv6") << QStringLiteral("fd00::1") << QStringLiteral("e1000 eth0 -> ens192 (IPv6)");
}

void TestAdapterPairs::label()
{
    QFETCH(QString, localAddress);
    QFETCH(QString, expected);
    AdapterPair p;
    p.local.name = QStringLiteral("eth0");
    p.local.family = AdapterFamily::E1000;
    p.remote.name = QStringLiteral("ens192");
    p.localAddress = localAddress;
    QCOMPARE(p.label(), expected);
}

QTEST_GUILESS_MAIN(TestAdapterPairs)
#include "tst_adapterpairs.moc"
