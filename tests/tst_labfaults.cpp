// SPDX-License-Identifier: GPL-3.0-or-later
// The adapter lab's faults through nicbench-cli, with no real guest (docs/lab.md "Faults"): no
// QEMU on PATH, adapters and MTUs refused before anything starts, a kernel this user cannot
// read, and a guest that does not come up in time or whose QEMU stops while it boots. A
// stand-in qemu-system-x86_64 (a shell script first on PATH) writes a console and hangs, or
// fails the way QEMU does. Runs as any user; as root the unreadable kernel is read as
// `nobody` (setpriv), since root reads every file. User-mode networking only: no bridge, tap
// or namespace is made.
#include "lab/hosttools.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kCli = QStringLiteral(NICBENCH_CLI_PATH);

// The stand-in: records its pid, then per FAKE_QEMU_MODE writes 20 console lines and a panic
// to the -serial file and waits to be stopped ("hang"), or says what QEMU says about a bad
// device and exits 1 ("exit"). Its command line keeps the guest's folder, as QEMU's does.
const char kFakeQemu[] = R"SH(#!/bin/sh
serial=
for a in "$@"; do
  case "$a" in file:*) serial=${a#file:} ;; esac
done
echo $$ >> "$FAKE_QEMU_LOG"
case "$FAKE_QEMU_MODE" in
  hang)
    i=1
    while [ $i -le 20 ]; do echo "fake console line $i" >> "$serial"; i=$((i+1)); done
    echo "Kernel panic - not syncing: fake" >> "$serial"
    while :; do sleep 0.2; done ;;
  *)
    echo "qemu-system-x86_64: -device e1000,netdev=net0: fake device failure" >&2
    exit 1 ;;
esac
)SH";

struct Run {
    int rc = -1;
    QString err;
};

bool processRunning(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray s = stat.readAll();
    const int close = s.lastIndexOf(')');
    return close > 0 && s.mid(close + 2, 1) != "Z";
}

} // namespace

class TestLabFaults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void noQemu();
    void refusedBeforeAnythingStarts_data();
    void refusedBeforeAnythingStarts();
    void unreadableKernel();
    void guestMissesItsDeadline();
    void qemuStopsWhileBooting();
    void cleanup();

private:
    // `nicbench-cli lab ARGS` with the stand-in QEMU first on PATH (or `path` instead), the
    // state under m_runtime; `prefix` runs it through another program (setpriv). Bounded.
    Run lab(const QStringList &args, const QString &mode = {}, const QString &path = {},
            const QStringList &prefix = {}) const;
    QList<qint64> fakeQemuPids() const;
    bool bootable(QString *why) const;

    QTemporaryDir m_bin; // the stand-in qemu-system-x86_64
    QTemporaryDir m_runtime;
    QString m_log;
};

void TestLabFaults::initTestCase()
{
    QVERIFY(m_bin.isValid() && m_runtime.isValid());
    const QString fake = m_bin.path() + QStringLiteral("/qemu-system-x86_64");
    QFile f(fake);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kFakeQemu);
    f.close();
    const auto rx = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup |
                    QFile::ReadOther | QFile::ExeOther;
    QVERIFY(f.setPermissions(rx));
    QVERIFY(QFile::setPermissions(m_bin.path(), rx)); // `nobody` runs it too
    m_log = m_bin.path() + QStringLiteral("/started");
}

void TestLabFaults::cleanup()
{
    // Whatever a failed check left: the lab's own down, then any stand-in still running.
    lab({QStringLiteral("down")});
    for (qint64 pid : fakeQemuPids()) {
        if (processRunning(pid))
            QProcess::execute(QStringLiteral("kill"), {QStringLiteral("-KILL"), QString::number(pid)});
    }
    QFile::remove(m_log);
}

Run TestLabFaults::lab(const QStringList &args, const QString &mode, const QString &path,
                       const QStringList &prefix) const
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_runtime.path());
    env.insert(QStringLiteral("PATH"),
               path.isEmpty() ? m_bin.path() + QLatin1Char(':') + env.value(QStringLiteral("PATH")) : path);
    env.insert(QStringLiteral("FAKE_QEMU_LOG"), m_log);
    env.insert(QStringLiteral("FAKE_QEMU_MODE"), mode);
    p.setProcessEnvironment(env);
    const QStringList all = prefix + QStringList{kCli, QStringLiteral("lab")} + args;
    p.start(all.first(), all.mid(1));
    Run r;
    if (!p.waitForStarted(10000))
        return r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.rc = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.err = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
    return r;
}

QList<qint64> TestLabFaults::fakeQemuPids() const
{
    QList<qint64> pids;
    QFile f(m_log);
    if (f.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : f.readAll().split('\n'))
            if (!line.trimmed().isEmpty())
                pids << line.trimmed().toLongLong();
    }
    return pids;
}

bool TestLabFaults::bootable(QString *why) const
{
    // What the lab needs before it starts QEMU: a static busybox and a kernel with modules.
    if (!QFileInfo::exists(QStringLiteral("/bin/busybox"))) {
        *why = QStringLiteral("no /bin/busybox (./dev installs busybox-static)");
        return false;
    }
    for (const QString &k : QDir(QStringLiteral("/boot")).entryList({QStringLiteral("vmlinuz-*")}, QDir::Files)) {
        if (QFileInfo(QStringLiteral("/lib/modules/") + k.mid(8)).isDir() &&
            QFileInfo(QStringLiteral("/boot/") + k).isReadable())
            return true;
    }
    *why = QStringLiteral("no readable /boot/vmlinuz-* with its modules (Debian: linux-image-amd64)");
    return false;
}

void TestLabFaults::noQemu()
{
    QTemporaryDir empty;
    const Run r = lab({QStringLiteral("up"), QStringLiteral("--adapters"), QStringLiteral("e1000")}, {}, empty.path());
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(QLatin1String("install the package qemu-system-x86")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QLatin1Char('\n')), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(m_runtime.path() + QStringLiteral("/nicbench-lab")));
}

void TestLabFaults::refusedBeforeAnythingStarts_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    // --user-net: even a lab that failed to refuse would make no bridge or tap on this host.
    const auto up = [](const QString &adapters, int mtu) {
        return QStringList{QStringLiteral("--user-net"), QStringLiteral("--adapters"), adapters,
                           QStringLiteral("--mtu"), QString::number(mtu)};
    };
    QTest::newRow("unknown adapter") << up(QStringLiteral("e1000,ne2k_pci"), 1500)
                                     << QStringLiteral("unknown adapter 'ne2k_pci'");
    QTest::newRow("e1000 at 16111") << up(QStringLiteral("e1000"), 16111)
                                    << QStringLiteral("MTU 16111 is impossible for e1000: it takes 68 to 16110");
    QTest::newRow("e1000e at 9213") << up(QStringLiteral("e1000e"), 9213)
                                    << QStringLiteral("MTU 9213 is impossible for e1000e: it takes 68 to 9212");
    QTest::newRow("vmxnet3 at 9001") << up(QStringLiteral("virtio,vmxnet3"), 9001)
                                     << QStringLiteral("MTU 9001 is impossible for vmxnet3: it takes 68 to 9000");
    QTest::newRow("virtio at 65536") << up(QStringLiteral("virtio"), 65536)
                                     << QStringLiteral("MTU 65536 is impossible for virtio: it takes 68 to 65535");
    QTest::newRow("MTU 67") << up(QStringLiteral("virtio"), 67) << QStringLiteral("MTU 67 is impossible for virtio");
    QTest::newRow("MTU not a number") << QStringList{QStringLiteral("--user-net"), QStringLiteral("--adapters"),
                                                     QStringLiteral("virtio"), QStringLiteral("--mtu"),
                                                     QStringLiteral("jumbo")}
                                      << QStringLiteral("--mtu takes a number, not 'jumbo'");
}

void TestLabFaults::refusedBeforeAnythingStarts()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = lab(QStringList{QStringLiteral("up")} + args, QStringLiteral("hang"));
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QLatin1Char('\n')), qPrintable(r.err));
    QVERIFY2(fakeQemuPids().isEmpty(), "QEMU was started");
    QVERIFY2(!QFileInfo::exists(m_runtime.path() + QStringLiteral("/nicbench-lab")), "state made before refusing");
}

void TestLabFaults::unreadableKernel()
{
    // A kernel readable by root only, as some distributions install /boot/vmlinuz-*.
    QTemporaryDir boot;
    QVERIFY(QFile::setPermissions(boot.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                                   QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                                   QFile::ExeOther));
    const QString image = boot.path() + QStringLiteral("/vmlinuz-6.1.0-99-amd64");
    QFile f(image);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(4096, 'k'));
    f.close();
    QStringList prefix;
    if (nb::lab::runningAsRoot()) {
        QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
        QVERIFY2(!setpriv.isEmpty(), "no setpriv (util-linux)");
        prefix = {setpriv, QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                  QStringLiteral("--clear-groups"), QStringLiteral("--")};
    } else {
        QVERIFY(f.setPermissions(QFile::Permissions()));
    }
    const Run r = lab({QStringLiteral("up"), QStringLiteral("--adapters"), QStringLiteral("virtio"),
                       QStringLiteral("--kernel"), image},
                      QStringLiteral("hang"), {}, prefix);
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(QLatin1String("cannot read the kernel ") + image) &&
                 r.err.contains(QLatin1String("--kernel")),
             qPrintable(r.err));
    QVERIFY2(!r.err.contains(QLatin1Char('\n')), qPrintable(r.err));
    QVERIFY(fakeQemuPids().isEmpty());
    QVERIFY(!QFileInfo::exists(m_runtime.path() + QStringLiteral("/nicbench-lab")));
}

void TestLabFaults::guestMissesItsDeadline()
{
    QString why;
    if (!bootable(&why))
        QSKIP(qPrintable(why));
    const Run r = lab({QStringLiteral("up"), QStringLiteral("--adapters"), QStringLiteral("e1000"),
                       QStringLiteral("--user-net"), QStringLiteral("--timeout"), QStringLiteral("3")},
                      QStringLiteral("hang"));
    QCOMPARE(r.rc, 1);
    const QStringList lines = r.err.split(QLatin1Char('\n'));
    QVERIFY2(lines.first().contains(QLatin1String("guest e1000 did not come up within 3 s; its console's last lines:")),
             qPrintable(r.err));
    // The console's last 15 lines, in order, ending with the panic.
    QVERIFY2(lines.size() == 16, qPrintable(r.err));
    QCOMPARE(lines.at(1), QStringLiteral("fake console line 7"));
    QCOMPARE(lines.last(), QStringLiteral("Kernel panic - not syncing: fake"));
    // Everything removed: the stand-in stopped, no state.
    const QList<qint64> pids = fakeQemuPids();
    QCOMPARE(pids.size(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!processRunning(pids.first()), 10000);
    QVERIFY(!QFileInfo::exists(m_runtime.path() + QStringLiteral("/nicbench-lab")));
}

void TestLabFaults::qemuStopsWhileBooting()
{
    QString why;
    if (!bootable(&why))
        QSKIP(qPrintable(why));
    const Run r = lab({QStringLiteral("up"), QStringLiteral("--adapters"), QStringLiteral("virtio,e1000"),
                       QStringLiteral("--user-net")},
                      QStringLiteral("exit"));
    QCOMPARE(r.rc, 1);
    QVERIFY2(r.err.contains(QLatin1String("guest virtio stopped while booting")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QLatin1String("QEMU said:\nqemu-system-x86_64: -device e1000,netdev=net0: fake device "
                                          "failure")),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(m_runtime.path() + QStringLiteral("/nicbench-lab")));
}

QTEST_GUILESS_MAIN(TestLabFaults)
#include "tst_labfaults.moc"
