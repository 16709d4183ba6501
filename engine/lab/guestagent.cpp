// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/guestagent.h"

#include "lab/hosttools.h"
#include "lab/qemuguest.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QThread>

namespace nb::lab {

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

QMap<QString, QString> readReadyNote(const GuestState &g)
{
    return readKeyValues(g.directory + QStringLiteral("/ready"));
}

bool hasReadyNote(const GuestState &g)
{
    return QFileInfo::exists(g.directory + QStringLiteral("/ready"));
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

QString consoleTail(const GuestState &g)
{
    const QString qemuLog = g.directory + QStringLiteral("/qemu.log");
    return lastLines(g.directory + QStringLiteral("/console.log"), 15) +
           (QFileInfo(qemuLog).size() > 0 ? QStringLiteral("\nQEMU said:\n") + lastLines(qemuLog, 5) : QString());
}

bool runInGuest(const GuestState &g, const QStringList &command, int timeoutSeconds, ExecResult *result, QString *error)
{
    QStringList quoted;
    for (const QString &a : command)
        quoted << shellQuote(a);
    const QString id = QStringLiteral("%1-%2")
                           .arg(QDateTime::currentMSecsSinceEpoch())
                           .arg(QRandomGenerator::global()->bounded(1000000));
    const QString base = g.directory + QStringLiteral("/cmd/") + id;
    if (!writeFileAtomically(base + QStringLiteral(".sh"), (quoted.join(QLatin1Char(' ')) + QLatin1Char('\n')).toUtf8(),
                             error))
        return false;
    QElapsedTimer clock;
    clock.start();
    while (!QFileInfo::exists(base + QStringLiteral(".rc"))) {
        if (clock.elapsed() > timeoutSeconds * 1000LL || !guestProcessAlive(g)) {
            QFile::remove(base + QStringLiteral(".sh"));
            *error = QStringLiteral("guest %1 did not finish '%2' within %3 s")
                         .arg(g.name, command.join(QLatin1Char(' ')))
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

} // namespace nb::lab
