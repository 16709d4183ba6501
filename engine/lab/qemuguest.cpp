// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/qemuguest.h"

#include "lab/hosttools.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QThread>

namespace nb::lab {

namespace {

// TCG's translation cache (MiB). QEMU 7.2 reserves 1 GiB by default and fills it as guests run
// new code: a 256 MB lab guest that ran 750 programs reached 1.45 GB of resident memory, and
// 455 MB with this cap. When the cache fills, QEMU flushes it and translates again (no
// difference in stream or RR rates measured at 64, 128 MiB or the default; docs/lab.md).
constexpr int TcgCodeCacheMb = 128;

QString qemuEscape(QString s)
{
    return s.replace(QLatin1Char(','), QStringLiteral(",,"));
}

bool waitForExit(const GuestState &g, int ms)
{
    QElapsedTimer t;
    t.start();
    while (guestProcessAlive(g) && t.elapsed() < ms)
        QThread::msleep(50);
    return !guestProcessAlive(g);
}

} // namespace

QString qemuProgram()
{
    return QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64"));
}

QString qemuMissingMessage()
{
    return QStringLiteral("QEMU is not installed: install the package qemu-system-x86 "
                          "(apt-get install qemu-system-x86)");
}

bool kvmUsable()
{
    QFile kvm(QStringLiteral("/dev/kvm"));
    const QFileInfo info(kvm.fileName());
    return info.exists() && !info.isFile() && kvm.open(QIODevice::ReadWrite | QIODevice::ExistingOnly);
}

QStringList qemuArguments(const GuestState &g, const LabState &state, const QString &kernelImage, const QString &initrd)
{
    const bool useKvm = state.accel == QLatin1String("kvm");
    const bool user = state.userNetworking;
    return QStringList{
        QStringLiteral("-name"),
        QStringLiteral("nblab-%1").arg(g.name),
        QStringLiteral("-nodefaults"),
        QStringLiteral("-no-user-config"),
        QStringLiteral("-display"),
        QStringLiteral("none"),
        QStringLiteral("-no-reboot"),
        QStringLiteral("-accel"),
        useKvm ? QStringLiteral("kvm")
               : QStringLiteral("tcg,thread=%1,tb-size=%2")
                     .arg(state.cpus > 1 ? QStringLiteral("multi") : QStringLiteral("single"))
                     .arg(TcgCodeCacheMb),
        QStringLiteral("-cpu"),
        useKvm ? QStringLiteral("host") : QStringLiteral("max"),
        QStringLiteral("-m"),
        QString::number(state.memoryMb),
        QStringLiteral("-smp"),
        QString::number(state.cpus),
        QStringLiteral("-kernel"),
        kernelImage,
        QStringLiteral("-initrd"),
        initrd,
        QStringLiteral("-append"),
        QStringLiteral("console=ttyS0 quiet panic=-1 nblab=%1").arg(g.name),
        QStringLiteral("-serial"),
        QStringLiteral("file:") + g.directory + QStringLiteral("/console.log"),
        QStringLiteral("-fsdev"),
        QStringLiteral("local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"),
        QStringLiteral("-device"),
        QStringLiteral("virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot"),
        QStringLiteral("-fsdev"),
        QStringLiteral("local,id=nblab,path=%1,security_model=none,multidevs=remap").arg(qemuEscape(g.directory)),
        QStringLiteral("-device"),
        QStringLiteral("virtio-9p-pci,fsdev=nblab,mount_tag=nblab"),
        QStringLiteral("-netdev"),
        user ? QStringLiteral("user,id=net0,hostfwd=tcp:127.0.0.1:%1-:5201").arg(g.port)
             : QStringLiteral("tap,id=net0,ifname=%1,script=no,downscript=no%2")
                   .arg(g.tap, useKvm ? QStringLiteral(",vhost=on") : QString()),
        QStringLiteral("-device"),
        QStringLiteral("%1,netdev=net0,mac=%2").arg(g.device, g.mac),
        QStringLiteral("-pidfile"),
        g.directory + QStringLiteral("/qemu.pid"),
    };
}

bool startQemu(GuestState *g, const LabState &state, const QString &qemu, const QStringList &arguments, QString *error)
{
    QString program = qemu;
    QStringList args = arguments;
    if (!state.netns.isEmpty()) {
        args = QStringList{QStringLiteral("netns"), QStringLiteral("exec"), state.netns, qemu} + args;
        program = findTool(QStringLiteral("ip"));
    }
    QProcess p;
    p.setProgram(program);
    p.setArguments(args);
    p.setStandardInputFile(QProcess::nullDevice());
    p.setStandardOutputFile(g->directory + QStringLiteral("/qemu.log"));
    p.setStandardErrorFile(g->directory + QStringLiteral("/qemu.log"), QIODevice::Append);
    qint64 pid = 0;
    g->startedMs = QDateTime::currentMSecsSinceEpoch();
    if (!p.startDetached(&pid)) {
        *error = QStringLiteral("cannot start %1: %2").arg(qemu, p.errorString());
        return false;
    }
    g->pid = pid; // `ip netns exec` execs QEMU: the same process
    return true;
}

bool guestProcessAlive(const GuestState &g)
{
    if (g.pid <= 0)
        return false;
    const QString proc = QStringLiteral("/proc/%1/").arg(g.pid);
    QFile stat(proc + QStringLiteral("stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray s = stat.readAll();
    const int close = s.lastIndexOf(')');
    if (close < 0 || s.mid(close + 2, 1) == "Z")
        return false;
    QFile cmd(proc + QStringLiteral("cmdline"));
    if (!cmd.open(QIODevice::ReadOnly))
        return false;
    return cmd.readAll().contains(g.directory.toUtf8());
}

qint64 residentKb(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).simplified().split(' ').value(0).toLongLong();
    }
    return -1;
}

bool stopQemu(const GuestState &g)
{
    if (!guestProcessAlive(g))
        return true;
    const QString kill = findTool(QStringLiteral("kill"));
    runTool(kill, {QStringLiteral("-TERM"), QString::number(g.pid)});
    if (waitForExit(g, 5000))
        return true;
    runTool(kill, {QStringLiteral("-KILL"), QString::number(g.pid)});
    return waitForExit(g, 5000);
}

} // namespace nb::lab
