// SPDX-License-Identifier: GPL-3.0-or-later
#include "labcommand.h"
#include "interrupts.h"

#include "core/sanitize.h"
#include "lab/labcontrol.h"

#include <QJsonDocument>

#include <cstdio>

namespace nb::cli {

namespace {

const char kLabUsage[] =
    "Usage: nicbench-cli lab up --adapters LIST [options] [--json]\n"
    "       nicbench-cli lab status [--json]\n"
    "       nicbench-cli lab exec GUEST [--timeout SECONDS] -- COMMAND [ARGS...]\n"
    "       nicbench-cli lab down\n"
    "\n"
    "QEMU guests with emulated adapters, driven by the guest kernel's real drivers. Each guest\n"
    "boots the host's kernel with the host's root shared read-only, gets an address in\n"
    "198.18.0.0/15 on a bridge with the host (198.18.0.1) and runs nicbench-cli -s.\n"
    "  --adapters LIST     one guest per entry: e1000, e1000e, vmxnet3, virtio\n"
    "  --mtu N             the guests' and the bridge's MTU (default 1500)\n"
    "  --cpus N            virtual CPUs per guest (default 1)\n"
    "  --memory MB         memory per guest (default 256)\n"
    "  --kernel PATH       the kernel to boot (default: the newest /boot/vmlinuz-* with its modules)\n"
    "  --netns NAME        put the bridge and the guests in network namespace NAME (made when\n"
    "                      missing, removed by lab down then); reach them with ip netns exec NAME\n"
    "  --user-net          QEMU's user-mode networking with a port forward per guest (the default\n"
    "                      without root): no bridge, no taps, MTU 1500, and that link caps throughput\n"
    "  --timeout SECONDS   for every guest to come up (default 60 with KVM, 90 + 30 per guest without)\n"
    "  --json, -J          report progress as JSON, one event per line (docs/lab.md)\n"
    "Needs root (bridge and taps), qemu-system-x86 and busybox-static. State in\n"
    "$XDG_RUNTIME_DIR/nicbench-lab (else /run/nicbench-lab): lab down removes everything a lab\n"
    "left, also after a crash or a half-started lab.\n";

void labPrint(const QString &text, FILE *to = stdout)
{
    std::fputs(terminalSafe(text).toLocal8Bit().constData(), to);
    std::fflush(to);
}

// A multi-line error (a console's last lines): the first line as every error, the rest as is.
int failLines(const QString &message)
{
    const int nl = message.indexOf(QLatin1Char('\n'));
    if (nl < 0)
        return fail(message);
    fail(message.left(nl));
    labPrint(message.mid(nl + 1) + QLatin1Char('\n'), stderr);
    return 1;
}

bool takeInt(const QStringList &args, int *i, int *out, QString *error)
{
    const QString opt = args.at(*i);
    if (*i + 1 >= args.size()) {
        *error = QStringLiteral("%1 needs a value").arg(opt);
        return false;
    }
    bool ok = false;
    *out = args.at(++*i).toInt(&ok);
    if (!ok) {
        *error = QStringLiteral("%1 takes a number, not '%2'").arg(opt, args.at(*i));
        return false;
    }
    return true;
}

bool takeString(const QStringList &args, int *i, QString *out, QString *error)
{
    if (*i + 1 >= args.size()) {
        *error = QStringLiteral("%1 needs a value").arg(args.at(*i));
        return false;
    }
    *out = args.at(++*i);
    return true;
}

// One event per line on stdout (lab/labreport.h), flushed at once for a program reading it.
void printEvent(const lab::UpEvent &event)
{
    std::fputs(QJsonDocument(event.toJson()).toJson(QJsonDocument::Compact).append('\n').constData(), stdout);
    std::fflush(stdout);
}

// lab up's options into *o; false with one line in *error.
bool parseUpOptions(const QStringList &args, lab::UpOptions *o, bool *json, QString *error)
{
    for (int i = 0; i < args.size(); ++i) {
        const QString a = args.at(i);
        bool ok = true;
        if (a == QLatin1String("--adapters")) {
            QString list;
            ok = takeString(args, &i, &list, error);
            o->adapters = list.split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else if (a == QLatin1String("--mtu")) {
            ok = takeInt(args, &i, &o->mtu, error);
        } else if (a == QLatin1String("--cpus")) {
            ok = takeInt(args, &i, &o->cpus, error);
        } else if (a == QLatin1String("--memory")) {
            ok = takeInt(args, &i, &o->memoryMb, error);
        } else if (a == QLatin1String("--timeout")) {
            ok = takeInt(args, &i, &o->timeoutSeconds, error);
        } else if (a == QLatin1String("--kernel")) {
            ok = takeString(args, &i, &o->kernel, error);
        } else if (a == QLatin1String("--user-net")) {
            o->userNetworking = true;
        } else if (a == QLatin1String("--netns")) {
            ok = takeString(args, &i, &o->netns, error);
        } else if (a == QLatin1String("--json") || a == QLatin1String("-J")) {
            *json = true;
        } else {
            *error = QStringLiteral("lab up: unknown option '%1' (see nicbench-cli lab --help)").arg(a);
            return false;
        }
        if (!ok)
            return false;
    }
    return true;
}

int labUp(const QStringList &args)
{
    lab::UpOptions o;
    QString error;
    // --json anywhere makes every outcome an event, a refused option included.
    bool json = args.contains(QLatin1String("--json")) || args.contains(QLatin1String("-J"));
    const auto progress = [json](const lab::UpEvent &event) {
        if (json)
            printEvent(event);
        else if (event.kind != lab::UpEvent::Kind::Failed && event.kind != lab::UpEvent::Kind::Ready)
            labPrint(event.text + QLatin1Char('\n')); // a failure's lines come with the error
    };
    lab::Lab lab;
    if (parseUpOptions(args, &o, &json, &error) && lab.up(o, progress, &error))
        return 0;
    if (json)
        printEvent(lab::UpEvent::error(error.section(QLatin1Char('\n'), 0, 0)));
    return failLines(error);
}

QString speedText(qint64 mbps)
{
    if (mbps <= 0)
        return QStringLiteral("unknown");
    return mbps >= 1000 ? QStringLiteral("%1 Gbit/s").arg(mbps / 1000.0) : QStringLiteral("%1 Mbit/s").arg(mbps);
}

int labStatus(const QStringList &args)
{
    bool json = false;
    for (const QString &a : args) {
        if (a == QLatin1String("--json") || a == QLatin1String("-J"))
            json = true;
        else
            return fail(QStringLiteral("lab status: unknown option '%1'").arg(a));
    }
    lab::Lab lab;
    lab::LabState s;
    QString error;
    if (!lab.status(&s, &error))
        return fail(error);
    if (json) {
        std::fputs(QJsonDocument(lab::statusJson(s, lab.stateDirectory())).toJson(QJsonDocument::Indented).constData(),
                   stdout);
        return 0;
    }
    const QString network =
        s.userNetworking
            ? QStringLiteral("user-mode networking (each server at 127.0.0.1:PORT through QEMU's port forward, "
                             "which caps throughput: not a figure for the adapter)")
            : QStringLiteral("bridge %1 (host %2/%3)%4")
                  .arg(s.bridge, lab::hostAddress())
                  .arg(lab::kPrefixLength)
                  .arg(s.netns.isEmpty() ? QString() : QStringLiteral(" in network namespace %1").arg(s.netns));
    labPrint(QStringLiteral("Lab: %1 guest(s), %2, %3 vCPU and %4 MB each, %5\n")
                 .arg(s.guests.size())
                 .arg(s.accel == QLatin1String("kvm") ? QStringLiteral("KVM") : QStringLiteral("TCG (no KVM: slow)"))
                 .arg(s.cpus)
                 .arg(s.memoryMb)
                 .arg(network));
    std::printf("%-10s %-8s %-16s %-11s %-14s %5s %10s %-8s %s\n", "GUEST", "ADAPTER", "QEMU DEVICE", "DRIVER",
                "ADDRESS", "MTU", "LINK", "STATE", "MEMORY");
    for (const lab::GuestState &g : s.guests) {
        std::printf("%-10s %-8s %-16s %-11s %-14s %5d %10s %-8s %s\n", printable(g.name).toLocal8Bit().constData(),
                    g.adapter.toLocal8Bit().constData(), g.device.toLocal8Bit().constData(),
                    printable(g.driver).toLocal8Bit().constData(),
                    (s.userNetworking ? QStringLiteral("%1:%2").arg(g.address).arg(g.port) : g.address)
                        .toLocal8Bit()
                        .constData(),
                    g.mtu, speedText(g.speedMbps).toLocal8Bit().constData(), g.state.toLocal8Bit().constData(),
                    g.rssKb > 0 ? QStringLiteral("%1 MB").arg(g.rssKb / 1024).toLocal8Bit().constData() : "-");
    }
    return 0;
}

int labExec(const QStringList &args)
{
    int timeout = 120;
    QString guest;
    QStringList command;
    QString error;
    for (int i = 0; i < args.size(); ++i) {
        const QString a = args.at(i);
        if (a == QLatin1String("--")) {
            command = args.mid(i + 1);
            break;
        }
        if (a == QLatin1String("--timeout")) {
            if (!takeInt(args, &i, &timeout, &error))
                return fail(error);
        } else if (guest.isEmpty() && !a.startsWith(QLatin1Char('-'))) {
            guest = a;
        } else {
            return fail(QStringLiteral("lab exec: unexpected '%1' (lab exec GUEST -- COMMAND)").arg(a));
        }
    }
    if (guest.isEmpty() || command.isEmpty())
        return fail(QStringLiteral("lab exec needs a guest and a command: lab exec GUEST -- COMMAND"));
    if (timeout < 1 || timeout > 86400)
        return fail(QStringLiteral("--timeout takes 1 to 86400 seconds"));
    lab::Lab lab;
    lab::ExecResult r;
    if (!lab.exec(guest, command, timeout, &r, &error))
        return fail(error);
    std::fwrite(r.out.constData(), 1, size_t(r.out.size()), stdout);
    std::fwrite(r.err.constData(), 1, size_t(r.err.size()), stderr);
    return r.exitCode;
}

int labDown(const QStringList &args)
{
    if (!args.isEmpty())
        return fail(QStringLiteral("lab down takes no options"));
    lab::Lab lab;
    QStringList removed;
    QString error;
    const bool ok = lab.down(&removed, &error);
    for (const QString &r : removed)
        labPrint(QStringLiteral("lab: removed %1\n").arg(r));
    if (!ok && removed.isEmpty() && error.startsWith(QLatin1String("no lab is up"))) {
        labPrint(QStringLiteral("lab: no lab is up\n"));
        return 0;
    }
    return ok ? 0 : fail(error);
}

} // namespace

QString labUsage()
{
    return QString::fromLatin1(kLabUsage);
}

bool isLabSubcommand(const QString &firstArgument)
{
    return firstArgument == QLatin1String("lab");
}

int runLabSubcommand(const QStringList &args)
{
    const QString sub = args.value(1);
    const QStringList rest = args.mid(2);
    if (sub == QLatin1String("up"))
        return labUp(rest);
    if (sub == QLatin1String("status"))
        return labStatus(rest);
    if (sub == QLatin1String("exec"))
        return labExec(rest);
    if (sub == QLatin1String("down"))
        return labDown(rest);
    if (sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        labPrint(labUsage());
        return sub.isEmpty() ? 1 : 0;
    }
    return fail(QStringLiteral("lab: unknown subcommand '%1' (up, status, exec, down)").arg(sub));
}

} // namespace nb::cli
