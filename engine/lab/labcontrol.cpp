// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labcontrol.h"

#include "lab/hosttools.h"
#include "lab/labnetwork.h"
#include "lab/qemuguest.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTcpServer>
#include <QThread>

namespace nb::lab {

namespace {

QString busyboxPath()
{
    return QStringLiteral("/bin/busybox");
}

} // namespace

Lab::Lab(QString stateDirectory) : m_dir(std::move(stateDirectory)) {}

QString Lab::stateFile() const
{
    return m_dir + QStringLiteral("/lab.json");
}

bool Lab::save(const LabState &state, QString *error) const
{
    return writeStateFile(stateFile(), state, error);
}

bool Lab::load(LabState *state, QString *error) const
{
    return readStateFile(stateFile(), state, error);
}

bool Lab::checkHost(const UpOptions &options, KernelChoice *kernel, bool *user, QString *error) const
{
    if (!validateOptions(options, error))
        return false;
    if (qemuProgram().isEmpty()) {
        *error = qemuMissingMessage();
        return false;
    }
    if (!chooseKernel(options.kernel, kernel, error) || !checkBusybox(busyboxPath(), error))
        return false;
    // Without root: QEMU's user-mode networking, which needs no bridge, tap or namespace.
    *user = options.userNetworking || !runningAsRoot();
    if (*user && (!options.netns.isEmpty() || options.mtu != 1500)) {
        *error = QStringLiteral("--netns and --mtu need root (a bridge and taps); without root the lab uses "
                                "user-mode networking at MTU 1500");
        return false;
    }
    if (!*user && findTool(QStringLiteral("ip")).isEmpty()) {
        *error = QStringLiteral("ip is not installed: install the package iproute2");
        return false;
    }
    return true;
}

bool Lab::clearDeadLab(QString *error)
{
    LabState existing;
    QString ignored;
    if (!load(&existing, &ignored))
        return true;
    for (const GuestState &g : existing.guests) {
        if (guestProcessAlive(g)) {
            *error = QStringLiteral("a lab is already up (%1): stop it first with nicbench-cli lab down").arg(m_dir);
            return false;
        }
    }
    QStringList removed;
    down(&removed, &ignored); // what a crashed lab left
    return true;
}

bool Lab::planGuests(const UpOptions &options, bool user, LabState *state, QStringList *modules, QString *error) const
{
    state->netns = options.netns;
    state->userNetworking = user;
    state->bridge = bridgeName();
    state->mtu = options.mtu;
    state->cpus = options.cpus;
    state->memoryMb = options.memoryMb;
    state->accel = kvmUsable() ? QStringLiteral("kvm") : QStringLiteral("tcg");
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
        state->guests.append(g);
        if (!modules->contains(m.module))
            modules->append(m.module);
    }
    return true;
}

bool Lab::makeNetwork(LabState *state, QString *error) const
{
    if (state->userNetworking)
        return save(*state, error);
    if (!state->netns.isEmpty() && !netnsExists(state->netns)) {
        state->createdNetns = true;
        if (!save(*state, error) || !createNetns(state->netns, error))
            return false;
    }
    if (linkExists(state->netns, state->bridge)) {
        *error = QStringLiteral("a bridge %1 exists already and is not this lab's: remove it first").arg(state->bridge);
        return false;
    }
    state->createdBridge = true;
    return save(*state, error) && createBridge(state->netns, state->mtu, error);
}

bool Lab::startGuests(LabState *state, const UpOptions &options, const KernelChoice &kernel, const QString &initrd,
                      const Progress &progress, QString *error) const
{
    const QString qemu = qemuProgram();
    const QString server =
        options.serverProgram.isEmpty() ? QCoreApplication::applicationFilePath() : options.serverProgram;
    for (GuestState &g : state->guests) {
        if (!QDir().mkpath(g.directory)) {
            *error = QStringLiteral("cannot create %1").arg(g.directory);
            return false;
        }
        if (!writeFileAtomically(g.directory + QStringLiteral("/agent.sh"),
                                 agentScript(g, options.mtu, server, state->userNetworking), error))
            return false;
        if (!state->userNetworking && !createTap(state->netns, g.tap, options.mtu, error))
            return false;
        if (!startQemu(&g, *state, qemu, qemuArguments(g, *state, kernel.image, initrd), error) || !save(*state, error))
            return false;
        progress(UpEvent::booting(g, QStringLiteral("lab: %1 (%2) booting at %3").arg(g.name, g.device, g.address)));
    }
    return true;
}

bool Lab::waitForGuests(const LabState &state, const UpOptions &options, const Progress &progress, QString *error) const
{
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
            if (!ready[i] && hasReadyNote(g)) {
                ready[i] = true;
                const double seconds = (QDateTime::currentMSecsSinceEpoch() - g.startedMs) / 1000.0;
                progress(UpEvent::up(g, seconds,
                                     QStringLiteral("lab: %1 up after %2 s").arg(g.name).arg(seconds, 0, 'f', 1)));
            }
            if (ready[i]) {
                ++upCount;
                continue;
            }
            const bool alive = guestProcessAlive(g) || clock.elapsed() < 3000; // the pid may still be `ip`
            if (!alive || clock.elapsed() > timeout * 1000LL) {
                const QString why = alive ? QStringLiteral("did not come up within %1 s").arg(timeout)
                                          : QStringLiteral("stopped while booting");
                const UpEvent failed = UpEvent::failed(g, why, consoleTail(g));
                progress(failed);
                *error = QStringLiteral("guest %1 %2; its console's last lines:\n%3").arg(g.name, why, failed.console);
                return false;
            }
        }
        if (upCount == state.guests.size())
            break;
        QThread::msleep(200);
    }
    for (const GuestState &g : state.guests) {
        if (readReadyNote(g).value(QStringLiteral("mtu")).toInt() != options.mtu) {
            const UpEvent failed = UpEvent::failed(g, QStringLiteral("refused MTU %1").arg(options.mtu),
                                                   lastLines(g.directory + QStringLiteral("/mtu.err"), 2));
            progress(failed);
            *error = QStringLiteral("guest %1 %2: %3").arg(g.name, failed.text, failed.console);
            return false;
        }
    }
    progress(UpEvent::ready(QStringLiteral("lab: %1 guest(s) up").arg(state.guests.size())));
    return true;
}

bool Lab::up(const UpOptions &options, const Progress &progress, QString *error)
{
    KernelChoice kernel;
    bool user = false;
    LabState state;
    QStringList modules;
    if (!checkHost(options, &kernel, &user, error) || !clearDeadLab(error) ||
        !planGuests(options, user, &state, &modules, error))
        return false;
    state.kernel = kernel.image;
    if (!QDir().mkpath(m_dir)) {
        *error = QStringLiteral("cannot create the lab's state folder %1").arg(m_dir);
        return false;
    }
    // From here on a failure takes down whatever was made.
    auto fail = [this] {
        QStringList removed;
        QString ignored;
        down(&removed, &ignored);
        return false;
    };
    if (!save(state, error))
        return fail();
    progress(UpEvent::starting(
        state,
        QStringLiteral("lab: kernel %1, %2 guest(s), %3").arg(kernel.image).arg(state.guests.size()).arg(state.accel)));
    const QString initrd = m_dir + QStringLiteral("/initrd.cpio");
    if (!buildInitramfs(kernel, modules, busyboxPath(), initrd, error) || !makeNetwork(&state, error) ||
        !startGuests(&state, options, kernel, initrd, progress, error) ||
        !waitForGuests(state, options, progress, error))
        return fail();
    return true;
}

bool Lab::status(LabState *out, QString *error) const
{
    LabState s;
    if (!load(&s, error))
        return false;
    for (GuestState &g : s.guests) {
        const bool alive = guestProcessAlive(g);
        const QMap<QString, QString> r = readReadyNote(g);
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
    return runInGuest(*g, command, timeoutSeconds, result, error);
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
    for (const GuestState &g : s.guests) {
        if (!guestProcessAlive(g))
            continue;
        if (stopQemu(g)) {
            removed->append(QStringLiteral("guest %1 (QEMU pid %2)").arg(g.name).arg(g.pid));
        } else {
            *error = QStringLiteral("QEMU of guest %1 (pid %2) does not stop").arg(g.name).arg(g.pid);
            clean = false;
        }
    }
    if (!removeNetwork(s, removed, error))
        clean = false;
    if (clean) {
        QDir(m_dir).removeRecursively();
        removed->append(m_dir);
    }
    return clean;
}

} // namespace nb::lab
