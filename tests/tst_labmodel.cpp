// SPDX-License-Identifier: GPL-3.0-or-later
// What the adapter lab refuses before anything starts (lab/labmodel.h, docs/lab.md "Faults"):
// unknown adapter names, MTUs a model's Linux driver does not take, CPU, memory, namespace and
// timeout out of range. The MTU limits are the guest drivers' own for QEMU's devices. And
// QEMU's accelerator argument (the TCG translation cache's cap). No QEMU, no root, no files.
#include "lab/labmodel.h"
#include "lab/qemuguest.h"

#include <QTest>

namespace {

nb::lab::UpOptions options(const QString &adapters, int mtu = 1500)
{
    nb::lab::UpOptions o;
    o.adapters = adapters.split(QLatin1Char(','));
    o.mtu = mtu;
    return o;
}

} // namespace

class TestLabModel : public QObject {
    Q_OBJECT

private slots:
    void modelFacts_data();
    void modelFacts();
    void mtuLimitsPerModel_data();
    void mtuLimitsPerModel();
    void refused_data();
    void refused();
    void accepted_data();
    void accepted();
    void accelerator_data();
    void accelerator();
};

void TestLabModel::modelFacts_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("qemuDevice");
    QTest::addColumn<QString>("driver");
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("maxMtu");
    // The largest MTU each Linux driver sets as max_mtu for QEMU's device:
    // e1000 (82540EM): MAX_JUMBO_FRAME_SIZE 0x3F00 - (ETH_HLEN + ETH_FCS_LEN) = 16128 - 18;
    // e1000e (82574L): max_hw_frame_size DEFAULT_JUMBO 9234 - (VLAN_ETH_HLEN + ETH_FCS_LEN) = 9234 - 22;
    // vmxnet3: VMXNET3_MAX_MTU (9190 only for a version 6 device; QEMU's is older);
    // virtio_net: ETH_MAX_MTU when the device offers no VIRTIO_NET_F_MTU (QEMU without host_mtu).
    QTest::newRow("e1000") << QStringLiteral("e1000") << QStringLiteral("e1000") << QStringLiteral("e1000")
                           << int(nb::AdapterFamily::E1000) << 16110;
    QTest::newRow("e1000e") << QStringLiteral("e1000e") << QStringLiteral("e1000e") << QStringLiteral("e1000e")
                            << int(nb::AdapterFamily::E1000e) << 9212;
    QTest::newRow("vmxnet3") << QStringLiteral("vmxnet3") << QStringLiteral("vmxnet3") << QStringLiteral("vmxnet3")
                             << int(nb::AdapterFamily::Vmxnet3) << 9000;
    QTest::newRow("virtio") << QStringLiteral("virtio") << QStringLiteral("virtio-net-pci")
                            << QStringLiteral("virtio_net") << int(nb::AdapterFamily::Virtio) << 65535;
}

void TestLabModel::modelFacts()
{
    QFETCH(QString, name);
    QFETCH(QString, qemuDevice);
    QFETCH(QString, driver);
    QFETCH(int, family);
    QFETCH(int, maxMtu);
    const auto m = nb::lab::adapterModel(name);
    QVERIFY(m);
    QCOMPARE(m->qemuDevice, qemuDevice);
    QCOMPARE(m->driver, driver);
    QCOMPARE(int(m->family), family);
    QCOMPARE(m->maxMtu, maxMtu);
}

void TestLabModel::mtuLimitsPerModel_data()
{
    QTest::addColumn<QString>("adapters");
    QTest::addColumn<int>("mtu");
    QTest::addColumn<QString>("refusal"); // empty: accepted
    for (const nb::lab::AdapterModel &m : nb::lab::adapterModels()) {
        const QByteArray n = m.name.toUtf8();
        QTest::newRow((n + " at its largest").constData()) << m.name << m.maxMtu << QString();
        QTest::newRow((n + " one above").constData())
            << m.name << m.maxMtu + 1
            << QStringLiteral("MTU %1 is impossible for %2: it takes 68 to %3")
                   .arg(m.maxMtu + 1)
                   .arg(m.name)
                   .arg(m.maxMtu);
        QTest::newRow((n + " at 68").constData()) << m.name << 68 << QString();
        QTest::newRow((n + " at 67").constData())
            << m.name << 67 << QStringLiteral("MTU 67 is impossible for %1").arg(m.name);
        QTest::newRow((n + " at 9000").constData()) << m.name << 9000 << QString();
    }
    // With several models the smallest limit decides, and the refusal names that model.
    QTest::newRow("virtio and e1000e at 9213")
        << QStringLiteral("virtio,e1000e") << 9213
        << QStringLiteral("MTU 9213 is impossible for e1000e: it takes 68 to 9212");
    QTest::newRow("e1000 and vmxnet3 at 16110")
        << QStringLiteral("e1000,vmxnet3") << 16110
        << QStringLiteral("MTU 16110 is impossible for vmxnet3: it takes 68 to 9000");
    QTest::newRow("all four at 9000") << QStringLiteral("e1000,e1000e,vmxnet3,virtio") << 9000 << QString();
    QTest::newRow("negative") << QStringLiteral("virtio") << -1 << QStringLiteral("MTU -1 is impossible");
}

void TestLabModel::mtuLimitsPerModel()
{
    QFETCH(QString, adapters);
    QFETCH(int, mtu);
    QFETCH(QString, refusal);
    QString error;
    const bool ok = nb::lab::validateOptions(options(adapters, mtu), &error);
    if (refusal.isEmpty()) {
        QVERIFY2(ok, qPrintable(error));
    } else {
        QVERIFY(!ok);
        QVERIFY2(error.startsWith(refusal), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
    }
}

void TestLabModel::refused_data()
{
    QTest::addColumn<QStringList>("adapters");
    QTest::addColumn<int>("cpus");
    QTest::addColumn<int>("memoryMb");
    QTest::addColumn<QString>("netns");
    QTest::addColumn<bool>("userNetworking");
    QTest::addColumn<int>("mtu");
    QTest::addColumn<int>("timeout");
    QTest::addColumn<QString>("message");
    const QStringList one{QStringLiteral("e1000")};
    QTest::newRow("unknown model") << QStringList{QStringLiteral("e1000"), QStringLiteral("rtl8139")} << 1 << 256
                                   << QString() << false << 1500 << 0
                                   << QStringLiteral(
                                          "unknown adapter 'rtl8139': the lab has e1000, e1000e, vmxnet3, virtio");
    QTest::newRow("near miss") << QStringList{QStringLiteral("e1000x")} << 1 << 256 << QString() << false << 1500 << 0
                               << QStringLiteral("unknown adapter 'e1000x'");
    QTest::newRow("VMware's name for it") << QStringList{QStringLiteral("vmxnet")} << 1 << 256 << QString() << false
                                          << 1500 << 0 << QStringLiteral("unknown adapter 'vmxnet'");
    QTest::newRow("empty name") << QStringList{QString()} << 1 << 256 << QString() << false << 1500 << 0
                                << QStringLiteral("unknown adapter ''");
    QTest::newRow("no adapters") << QStringList{} << 1 << 256 << QString() << false << 1500 << 0
                                 << QStringLiteral("--adapters");
    QTest::newRow("17 guests") << QStringList(17, QStringLiteral("virtio")) << 1 << 256 << QString() << false << 1500
                               << 0 << QStringLiteral("at most 16 guests");
    QTest::newRow("no CPU") << one << 0 << 256 << QString() << false << 1500 << 0
                            << QStringLiteral("--cpus takes 1 to 64");
    QTest::newRow("65 CPUs") << one << 65 << 256 << QString() << false << 1500 << 0
                             << QStringLiteral("--cpus takes 1 to 64");
    QTest::newRow("127 MB") << one << 1 << 127 << QString() << false << 1500 << 0
                            << QStringLiteral("--memory takes 128 to 65536");
    QTest::newRow("namespace with a slash")
        << one << 1 << 256 << QStringLiteral("../x") << false << 1500 << 0 << QStringLiteral("--netns takes a name");
    QTest::newRow("user-mode networking in a namespace") << one << 1 << 256 << QStringLiteral("nblab") << true << 1500
                                                         << 0 << QStringLiteral("--netns needs the bridge");
    QTest::newRow("user-mode networking at 9000") << one << 1 << 256 << QString() << true << 9000 << 0
                                                  << QStringLiteral("user-mode networking carries MTU 1500 only");
    QTest::newRow("negative timeout") << one << 1 << 256 << QString() << false << 1500 << -1
                                      << QStringLiteral("--timeout takes 1 to 3600");
}

void TestLabModel::refused()
{
    QFETCH(QStringList, adapters);
    QFETCH(int, cpus);
    QFETCH(int, memoryMb);
    QFETCH(QString, netns);
    QFETCH(bool, userNetworking);
    QFETCH(int, mtu);
    QFETCH(int, timeout);
    QFETCH(QString, message);
    nb::lab::UpOptions o;
    o.adapters = adapters;
    o.cpus = cpus;
    o.memoryMb = memoryMb;
    o.netns = netns;
    o.userNetworking = userNetworking;
    o.mtu = mtu;
    o.timeoutSeconds = timeout;
    QString error;
    QVERIFY(!nb::lab::validateOptions(o, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
}

void TestLabModel::accepted_data()
{
    QTest::addColumn<QString>("adapters");
    QTest::addColumn<QString>("model"); // what the first name stands for
    QTest::newRow("virtio-net") << QStringLiteral("virtio-net") << QStringLiteral("virtio");
    QTest::newRow("the driver's name") << QStringLiteral("virtio_net") << QStringLiteral("virtio");
    QTest::newRow("QEMU's device") << QStringLiteral("virtio-net-pci") << QStringLiteral("virtio");
    QTest::newRow("upper case, spaces") << QStringLiteral(" E1000E ") << QStringLiteral("e1000e");
    QTest::newRow("two of one model") << QStringLiteral("e1000,e1000") << QStringLiteral("e1000");
}

void TestLabModel::accepted()
{
    QFETCH(QString, adapters);
    QFETCH(QString, model);
    QString error;
    QVERIFY2(nb::lab::validateOptions(options(adapters), &error), qPrintable(error));
    QCOMPARE(nb::lab::adapterModel(adapters.section(QLatin1Char(','), 0, 0))->name, model);
}

void TestLabModel::accelerator_data()
{
    QTest::addColumn<QString>("accel");
    QTest::addColumn<int>("cpus");
    QTest::addColumn<QString>("expected");
    // Without KVM the translation cache is capped (QEMU's own default is 1 GiB per guest).
    QTest::newRow("tcg, 1 CPU") << QStringLiteral("tcg") << 1 << QStringLiteral("tcg,thread=single,tb-size=128");
    QTest::newRow("tcg, 2 CPUs") << QStringLiteral("tcg") << 2 << QStringLiteral("tcg,thread=multi,tb-size=128");
    QTest::newRow("kvm") << QStringLiteral("kvm") << 2 << QStringLiteral("kvm");
}

void TestLabModel::accelerator()
{
    QFETCH(QString, accel);
    QFETCH(int, cpus);
    QFETCH(QString, expected);
    nb::lab::LabState state;
    state.accel = accel;
    state.cpus = cpus;
    nb::lab::GuestState g;
    const QStringList args = nb::lab::qemuArguments(g, state, QStringLiteral("vmlinuz"), QStringLiteral("initrd"));
    const qsizetype at = args.indexOf(QStringLiteral("-accel"));
    QVERIFY(at >= 0 && at + 1 < args.size());
    QCOMPARE(args.at(at + 1), expected);
}

QTEST_GUILESS_MAIN(TestLabModel)
#include "tst_labmodel.moc"
