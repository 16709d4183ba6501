// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labcontrol.h"

#include "lab/initramfs.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTcpServer>
#include <QThread>

namespace nb::lab {

namespace {

const QString kBridge = QStringLiteral("nblab-br");
const QStringList kSbin{QStringLiteral("/usr/local/sbin"), QStringLiteral("/usr/sbin"), QStringLiteral("/sbin"),
                        QStringLiteral("/usr/local/bin"),  QStringLiteral("/usr/bin"),  QStringLiteral("/bin")};

QString findTool(const QString &name)
{
    QString p = QStandardPaths::findExecutable(name);
    if (p.isEmpty())
        p = QStandardPaths::findExecutable(name, kSbin);
    return p;
}

// Runs a tool to its end (30 s at most); its exit code, -1 when it did not run.
int run(const QString &program, const QStringList &args, QString *output = nullptr)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return -1;
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished(2000);
        return -1;
    }
    if (output)
        *output = QString::fromLocal8Bit(p.readAll()).trimmed();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

// `ip [-n NETNS] ARGS...`; the error output in *error when it fails.
bool ip(const QString &netns, const QStringList &args, QString *error = nullptr)
{
    QStringList all;
    if (!netns.isEmpty())
        all << QStringLiteral("-n") << netns;
    all << args;
    QString out;
    const int rc = run(findTool(QStringLiteral("ip")), all, &out);
    if (rc != 0 && error)
        *error =
            QStringLiteral("ip %1: %2").arg(all.join(QLatin1Char(' ')), out.isEmpty() ? QStringLiteral("failed") : out);
    return rc == 0;
}

bool linkExists(const QString &netns, const QString &name)
{
    return ip(netns, {QStringLiteral("link"), QStringLiteral("show"), QStringLiteral("dev"), name});
}

bool netnsExists(const QString &name)
{
    return QFileInfo::exists(QStringLiteral("/run/netns/") + name);
}

bool isRoot()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    // /proc files have no size: read them whole, never with atEnd().
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("Uid:")) {
            const QList<QByteArray> ids = line.mid(4).simplified().split(' ');
            return ids.size() > 1 && ids.at(1) == "0";
        }
    }
    return false;
}

// A QEMU of ours: the process exists, is not a zombie, and its command line names the
// guest's folder (a pid reused by another program after a crash is left alone).
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

QMap<QString, QString> readKeyValues(const QString &path)
{
    QMap<QString, QString> m;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return m;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const int eq = line.indexOf('=');
        if (eq > 0)
            m.insert(QString::fromUtf8(line.left(eq)), QString::fromUtf8(line.mid(eq + 1)).trimmed());
    }
    return m;
}

QString lastLines(const QString &path, int count)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("(no console output at %1)").arg(path);
    if (f.size() > 64 * 1024)
        f.seek(f.size() - 64 * 1024);
    QStringList lines = QString::fromUtf8(f.readAll()).remove(QLatin1Char('\r')).split(QLatin1Char('\n'));
    while (!lines.isEmpty() && lines.last().trimmed().isEmpty())
        lines.removeLast();
    return lines.mid(qMax(0, lines.size() - count)).join(QLatin1Char('\n'));
}

QString shellQuote(const QString &s)
{
    QString q = s;
    q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile f(path);
    if (f.open(QIODevice::WriteOnly) && f.write(data) == data.size() && f.commit())
        return true;
    *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
    return false;
}

// The guest's PID 1 after the initramfs: network, `nicbench-cli -s`, the ready note, then the
// command loop that `lab exec` feeds through the shared folder.
QByteArray agentScript(const GuestState &g, int mtu, const QString &server, bool user)
{
    QString s = QStringLiteral(R"SH(#!/bin/sh
# NicBench lab agent for guest %1 (written by nicbench-cli lab up)
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp
mb=/run/nblab
hostname %1
ip link set lo up
ip link set eth0 mtu %2 2> $mb/mtu.err
ip addr add %3/%4 dev eth0
ip link set eth0 up
rm -rf $mb/cmd; mkdir -p $mb/cmd
%5 -s > $mb/server.log 2>&1 &
echo $! > $mb/server.pid
i=0
while [ $i -lt 300 ] && ! grep -q "Server listening" $mb/server.log; do sleep 0.1; i=$((i+1)); done
i=0
while [ $i -lt 100 ] && [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" != 1 ]; do sleep 0.1; i=$((i+1)); done
{
  echo "driver=$(basename "$(readlink /sys/class/net/eth0/device/driver)")"
  echo "mtu=$(cat /sys/class/net/eth0/mtu)"
  echo "speed=$(cat /sys/class/net/eth0/speed 2>/dev/null || echo -1)"
  echo "uptime=$(cut -d' ' -f1 /proc/uptime)"
} > $mb/ready.tmp
mv $mb/ready.tmp $mb/ready
echo "nblab: guest %1 is up"
# The command loop under busybox's shell: its read -t waits without a fork, so an idle guest
# costs almost nothing (a sleep process every 0.2 s cost a TCG guest a third of a host core).
cat > /tmp/nblab-loop.sh <<'LOOP'
mb=/run/nblab
rm -f /tmp/nblab.idle
mkfifo /tmp/nblab.idle
exec 3<>/tmp/nblab.idle
while :; do
  for c in $mb/cmd/*.sh; do
    [ -e "$c" ] || continue
    id=${c%%.sh}
    mv "$c" "$id.run"
    /bin/sh "$id.run" > "$id.out" 2> "$id.err" < /dev/null
    echo $? > "$id.tmp"
    mv "$id.tmp" "$id.rc"
  done
  read -t 0.2 -u 3 idle
done
LOOP
exec /bin/busybox sh /tmp/nblab-loop.sh
)SH")
                    .arg(g.name)
                    .arg(mtu)
                    .arg(user ? QStringLiteral("10.0.2.15") : g.address) // QEMU's user-mode guest address
                    .arg(user ? 24 : kPrefixLength)
                    .arg(shellQuote(server));
    return s.toUtf8();
}

QString qemuEscape(QString s)
{
    return s.replace(QLatin1Char(','), QStringLiteral(",,"));
}

} // namespace

QString defaultStateDirectory()
{
    const QString xdg = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!xdg.isEmpty())
        return xdg + QStringLiteral("/nicbench-lab");
    if (isRoot())
        return QStringLiteral("/run/nicbench-lab");
    return QStringLiteral("/tmp/nicbench-lab-%1").arg(qEnvironmentVariable("USER", QStringLiteral("user")));
}

Lab::Lab(QString stateDirectory) : m_dir(std::move(stateDirectory)) {}

QString Lab::stateFile() const
{
    return m_dir + QStringLiteral("/lab.json");
}

bool Lab::save(const LabState &state, QString *error) const
{
    return writeFile(stateFile(), QJsonDocument(state.toJson()).toJson(), error);
}

bool Lab::load(LabState *state, QString *error) const
{
    QFile f(stateFile());
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("no lab is up (no %1): start one with nicbench-cli lab up").arg(stateFile());
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: %2").arg(stateFile(), pe.errorString());
        return false;
    }
    return LabState::fromJson(doc.object(), state, error);
}

bool Lab::up(const UpOptions &options, const Progress &progress, QString *error)
{
    if (!validateOptions(options, error))
        return false;
    const QString qemu = QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64"));
    if (qemu.isEmpty()) {
        *error = QStringLiteral("QEMU is not installed: install the package qemu-system-x86 "
                                "(apt-get install qemu-system-x86)");
        return false;
    }
    KernelChoice kernel;
    if (!chooseKernel(options.kernel, &kernel, error))
        return false;
    // Without root: QEMU's user-mode networking, which needs no bridge, tap or namespace.
    const bool user = options.userNetworking || !isRoot();
    if (user && (!options.netns.isEmpty() || options.mtu != 1500)) {
        *error = QStringLiteral("--netns and --mtu need root (a bridge and taps); without root the lab uses "
                                "user-mode networking at MTU 1500");
        return false;
    }
    if (!user && findTool(QStringLiteral("ip")).isEmpty()) {
        *error = QStringLiteral("ip is not installed: install the package iproute2");
        return false;
    }
    LabState existing;
    QString ignored;
    if (load(&existing, &ignored)) {
        for (const GuestState &g : existing.guests) {
            if (guestProcessAlive(g)) {
                *error =
                    QStringLiteral("a lab is already up (%1): stop it first with nicbench-cli lab down").arg(m_dir);
                return false;
            }
        }
        QStringList removed;
        down(&removed, &ignored); // what a crashed lab left
    }
    QStringList modules;
    LabState state;
    state.netns = options.netns;
    state.userNetworking = user;
    state.bridge = kBridge;
    state.kernel = kernel.image;
    state.mtu = options.mtu;
    state.cpus = options.cpus;
    state.memoryMb = options.memoryMb;
    // KVM when /dev/kvm is a device this user may open; ExistingOnly: never create it.
    QFile kvm(QStringLiteral("/dev/kvm"));
    const bool kvmUsable = QFileInfo(kvm.fileName()).exists() && !QFileInfo(kvm.fileName()).isFile() &&
                           kvm.open(QIODevice::ReadWrite | QIODevice::ExistingOnly);
    state.accel = kvmUsable ? QStringLiteral("kvm") : QStringLiteral("tcg");
    kvm.close();
    QMap<QString, int> perModel;
    for (int i = 0; i < options.adapters.size(); ++i) {
        const AdapterModel m = *adapterModel(options.adapters.at(i));
        GuestState g;
        const int n = ++perModel[m.name];
        g.name = n == 1 ? m.name : QStringLiteral("%1-%2").arg(m.name).arg(n);
        g.adapter = m.name;
        g.device = m.qemuDevice;
        g.driver = m.driver;
        g.address = guestAddress(i);
        g.tap = QStringLiteral("nblab-t%1").arg(i);
        if (user) {
            // The server at 127.0.0.1:<a free port>, forwarded by QEMU to the guest's 5201.
            QTcpServer probe;
            if (!probe.listen(QHostAddress::LocalHost, 0)) {
                *error = QStringLiteral("no free local port for guest %1's port forward").arg(g.name);
                return false;
            }
            g.address = QStringLiteral("127.0.0.1");
            g.port = probe.serverPort();
            g.tap.clear();
        }
        g.mac = QStringLiteral("52:54:00:4e:42:%1").arg(i + 1, 2, 16, QLatin1Char('0'));
        g.directory = m_dir + QStringLiteral("/guests/") + g.name;
        state.guests.append(g);
        if (!modules.contains(m.module))
            modules << m.module;
    }
    if (!QDir().mkpath(m_dir)) {
        *error = QStringLiteral("cannot create the lab's state folder %1").arg(m_dir);
        return false;
    }
    // From here on a failure takes down whatever was made.
    auto fail = [&](const QString &why) {
        *error = why;
        QStringList removed;
        QString e;
        down(&removed, &e);
        return false;
    };
    if (!save(state, error))
        return fail(*error);
    const QString initrd = m_dir + QStringLiteral("/initrd.cpio");
    progress(
        QStringLiteral("lab: kernel %1, %2 guest(s), %3").arg(kernel.image).arg(state.guests.size()).arg(state.accel));
    if (!buildInitramfs(kernel, modules, QStringLiteral("/bin/busybox"), initrd, error))
        return fail(*error);
    if (!user && !state.netns.isEmpty() && !netnsExists(state.netns)) {
        state.createdNetns = true;
        if (!save(state, error))
            return fail(*error);
        if (!ip({}, {QStringLiteral("netns"), QStringLiteral("add"), state.netns}, error))
            return fail(*error);
        ip(state.netns, {QStringLiteral("link"), QStringLiteral("set"), QStringLiteral("lo"), QStringLiteral("up")});
    }
    if (!user && linkExists(state.netns, kBridge))
        return fail(QStringLiteral("a bridge %1 exists already and is not this lab's: remove it first").arg(kBridge));
    state.createdBridge = !user;
    if (!save(state, error))
        return fail(*error);
    const QString mtu = QString::number(options.mtu);
    if (!user &&
        (!ip(state.netns,
             {QStringLiteral("link"), QStringLiteral("add"), kBridge, QStringLiteral("type"), QStringLiteral("bridge")},
             error) ||
         !ip(state.netns, {QStringLiteral("link"), QStringLiteral("set"), kBridge, QStringLiteral("mtu"), mtu},
             error) ||
         !ip(state.netns,
             {QStringLiteral("addr"), QStringLiteral("add"),
              QStringLiteral("%1/%2").arg(hostAddress()).arg(kPrefixLength), QStringLiteral("dev"), kBridge},
             error) ||
         !ip(state.netns, {QStringLiteral("link"), QStringLiteral("set"), kBridge, QStringLiteral("up")}, error)))
        return fail(*error);
    const QString server =
        options.serverProgram.isEmpty() ? QCoreApplication::applicationFilePath() : options.serverProgram;
    for (GuestState &g : state.guests) {
        if (!QDir().mkpath(g.directory))
            return fail(QStringLiteral("cannot create %1").arg(g.directory));
        if (!writeFile(g.directory + QStringLiteral("/agent.sh"), agentScript(g, options.mtu, server, user), error))
            return fail(*error);
        if (!user && (!ip(state.netns,
                          {QStringLiteral("tuntap"), QStringLiteral("add"), QStringLiteral("dev"), g.tap,
                           QStringLiteral("mode"), QStringLiteral("tap")},
                          error) ||
                      !ip(state.netns,
                          {QStringLiteral("link"), QStringLiteral("set"), g.tap, QStringLiteral("mtu"), mtu,
                           QStringLiteral("master"), kBridge, QStringLiteral("up")},
                          error)))
            return fail(*error);
        const bool useKvm = state.accel == QLatin1String("kvm");
        QStringList args{
            QStringLiteral("-name"),
            QStringLiteral("nblab-%1").arg(g.name),
            QStringLiteral("-nodefaults"),
            QStringLiteral("-no-user-config"),
            QStringLiteral("-display"),
            QStringLiteral("none"),
            QStringLiteral("-no-reboot"),
            QStringLiteral("-accel"),
            useKvm ? QStringLiteral("kvm")
                   : (options.cpus > 1 ? QStringLiteral("tcg,thread=multi") : QStringLiteral("tcg")),
            QStringLiteral("-cpu"),
            useKvm ? QStringLiteral("host") : QStringLiteral("max"),
            QStringLiteral("-m"),
            QString::number(options.memoryMb),
            QStringLiteral("-smp"),
            QString::number(options.cpus),
            QStringLiteral("-kernel"),
            kernel.image,
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
        QString program = qemu;
        if (!state.netns.isEmpty()) {
            args = QStringList{QStringLiteral("netns"), QStringLiteral("exec"), state.netns, qemu} + args;
            program = findTool(QStringLiteral("ip"));
        }
        QProcess p;
        p.setProgram(program);
        p.setArguments(args);
        p.setStandardInputFile(QProcess::nullDevice());
        p.setStandardOutputFile(g.directory + QStringLiteral("/qemu.log"));
        p.setStandardErrorFile(g.directory + QStringLiteral("/qemu.log"), QIODevice::Append);
        qint64 pid = 0;
        g.startedMs = QDateTime::currentMSecsSinceEpoch();
        if (!p.startDetached(&pid))
            return fail(QStringLiteral("cannot start %1: %2").arg(qemu, p.errorString()));
        g.pid = pid; // `ip netns exec` execs QEMU: the same process
        if (!save(state, error))
            return fail(*error);
        progress(QStringLiteral("lab: %1 (%2) booting at %3").arg(g.name, g.device, g.address));
    }
    // Every guest boots at once; each says it is up by writing its ready note.
    const int timeout = options.timeoutSeconds > 0
                            ? options.timeoutSeconds
                            : (state.accel == QLatin1String("kvm") ? 60 : 90 + 30 * int(state.guests.size()));
    QElapsedTimer clock;
    clock.start();
    QList<bool> ready(state.guests.size(), false);
    for (;;) {
        int upCount = 0;
        for (int i = 0; i < state.guests.size(); ++i) {
            const GuestState &g = state.guests.at(i);
            if (!ready[i] && QFileInfo::exists(g.directory + QStringLiteral("/ready"))) {
                ready[i] = true;
                progress(QStringLiteral("lab: %1 up after %2 s")
                             .arg(g.name)
                             .arg((QDateTime::currentMSecsSinceEpoch() - g.startedMs) / 1000.0, 0, 'f', 1));
            }
            if (ready[i]) {
                ++upCount;
                continue;
            }
            const bool alive = guestProcessAlive(g) || clock.elapsed() < 3000; // the pid may still be `ip`
            if (!alive || clock.elapsed() > timeout * 1000LL) {
                const QString why = alive ? QStringLiteral("did not come up within %1 s").arg(timeout)
                                          : QStringLiteral("stopped while booting");
                return fail(QStringLiteral("guest %1 %2; its console's last lines:\n%3%4")
                                .arg(g.name, why, lastLines(g.directory + QStringLiteral("/console.log"), 15),
                                     QFileInfo(g.directory + QStringLiteral("/qemu.log")).size() > 0
                                         ? QStringLiteral("\nQEMU said:\n") +
                                               lastLines(g.directory + QStringLiteral("/qemu.log"), 5)
                                         : QString()));
            }
        }
        if (upCount == state.guests.size())
            break;
        QThread::msleep(200);
    }
    for (const GuestState &g : state.guests) {
        const QMap<QString, QString> r = readKeyValues(g.directory + QStringLiteral("/ready"));
        if (r.value(QStringLiteral("mtu")).toInt() != options.mtu)
            return fail(QStringLiteral("guest %1 refused MTU %2: %3")
                            .arg(g.name)
                            .arg(options.mtu)
                            .arg(lastLines(g.directory + QStringLiteral("/mtu.err"), 2)));
    }
    return true;
}

bool Lab::status(LabState *out, QString *error) const
{
    LabState s;
    if (!load(&s, error))
        return false;
    for (GuestState &g : s.guests) {
        const bool alive = guestProcessAlive(g);
        const QMap<QString, QString> r = readKeyValues(g.directory + QStringLiteral("/ready"));
        g.state = !alive ? QStringLiteral("stopped") : r.isEmpty() ? QStringLiteral("booting") : QStringLiteral("up");
        if (!r.isEmpty()) {
            g.driver = r.value(QStringLiteral("driver"), g.driver);
            g.mtu = r.value(QStringLiteral("mtu")).toInt();
            g.speedMbps = r.value(QStringLiteral("speed"), QStringLiteral("-1")).toLongLong();
            g.bootSeconds = r.value(QStringLiteral("uptime"), QStringLiteral("-1")).toDouble();
        }
        if (alive)
            g.rssKb = residentKb(g.pid);
    }
    *out = s;
    return true;
}

bool Lab::exec(const QString &guest, const QStringList &command, int timeoutSeconds, ExecResult *result,
               QString *error) const
{
    LabState s;
    if (!status(&s, error))
        return false;
    const GuestState *g = nullptr;
    for (const GuestState &c : s.guests) {
        if (c.name == guest || c.address == guest)
            g = &c;
    }
    for (const GuestState &c : s.guests) {
        if (!g && c.adapter == guest)
            g = &c;
    }
    if (!g) {
        QStringList names;
        for (const GuestState &c : s.guests)
            names << c.name;
        *error = QStringLiteral("no guest '%1' in the lab: it has %2").arg(guest, names.join(QStringLiteral(", ")));
        return false;
    }
    if (g->state != QLatin1String("up")) {
        *error = QStringLiteral("guest %1 is %2").arg(g->name, g->state);
        return false;
    }
    QStringList quoted;
    for (const QString &a : command)
        quoted << shellQuote(a);
    const QString id = QStringLiteral("%1-%2")
                           .arg(QDateTime::currentMSecsSinceEpoch())
                           .arg(QRandomGenerator::global()->bounded(1000000));
    const QString base = g->directory + QStringLiteral("/cmd/") + id;
    if (!writeFile(base + QStringLiteral(".sh"), (quoted.join(QLatin1Char(' ')) + QLatin1Char('\n')).toUtf8(), error))
        return false;
    QElapsedTimer clock;
    clock.start();
    while (!QFileInfo::exists(base + QStringLiteral(".rc"))) {
        if (clock.elapsed() > timeoutSeconds * 1000LL || !guestProcessAlive(*g)) {
            QFile::remove(base + QStringLiteral(".sh"));
            *error = QStringLiteral("guest %1 did not finish '%2' within %3 s")
                         .arg(g->name, command.join(QLatin1Char(' ')))
                         .arg(timeoutSeconds);
            return false;
        }
        QThread::msleep(50);
    }
    auto readAll = [](const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    result->exitCode = readAll(base + QStringLiteral(".rc")).trimmed().toInt();
    result->out = readAll(base + QStringLiteral(".out"));
    result->err = readAll(base + QStringLiteral(".err"));
    for (const char *ext : {".run", ".out", ".err", ".rc"})
        QFile::remove(base + QString::fromLatin1(ext));
    return true;
}

bool Lab::down(QStringList *removed, QString *error)
{
    LabState s;
    if (!load(&s, error)) {
        if (QFileInfo::exists(m_dir)) {
            QDir(m_dir).removeRecursively();
            removed->append(m_dir);
            return true;
        }
        return false;
    }
    bool clean = true;
    const QString kill = findTool(QStringLiteral("kill"));
    for (const GuestState &g : s.guests) {
        if (!guestProcessAlive(g))
            continue;
        run(kill, {QStringLiteral("-TERM"), QString::number(g.pid)});
        QElapsedTimer t;
        t.start();
        while (guestProcessAlive(g) && t.elapsed() < 5000)
            QThread::msleep(50);
        if (guestProcessAlive(g)) {
            run(kill, {QStringLiteral("-KILL"), QString::number(g.pid)});
            t.restart();
            while (guestProcessAlive(g) && t.elapsed() < 5000)
                QThread::msleep(50);
        }
        if (guestProcessAlive(g)) {
            *error = QStringLiteral("QEMU of guest %1 (pid %2) does not stop").arg(g.name).arg(g.pid);
            clean = false;
        } else {
            removed->append(QStringLiteral("guest %1 (QEMU pid %2)").arg(g.name).arg(g.pid));
        }
    }
    const bool nsThere = s.netns.isEmpty() || netnsExists(s.netns);
    if (nsThere) {
        for (const GuestState &g : s.guests) {
            if (!g.tap.isEmpty() && linkExists(s.netns, g.tap)) {
                if (ip(s.netns, {QStringLiteral("link"), QStringLiteral("del"), g.tap}, error))
                    removed->append(QStringLiteral("tap %1").arg(g.tap));
                else
                    clean = false;
            }
        }
        if (s.createdBridge && linkExists(s.netns, s.bridge)) {
            if (ip(s.netns, {QStringLiteral("link"), QStringLiteral("del"), s.bridge}, error))
                removed->append(QStringLiteral("bridge %1").arg(s.bridge));
            else
                clean = false;
        }
        if (s.createdNetns && !s.netns.isEmpty()) {
            if (ip({}, {QStringLiteral("netns"), QStringLiteral("del"), s.netns}, error))
                removed->append(QStringLiteral("network namespace %1").arg(s.netns));
            else
                clean = false;
        }
    }
    if (clean) {
        QDir(m_dir).removeRecursively();
        removed->append(m_dir);
    }
    return clean;
}

} // namespace nb::lab
