// SPDX-License-Identifier: GPL-3.0-or-later
#include "labview/labcontroller.h"

#include <lab/hosttools.h>
#include <lab/initramfs.h>
#include <lab/labstatefile.h>
#include <lab/qemuguest.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>

#include <algorithm>

namespace nb::gui {

namespace {

constexpr int kMaxLineBytes = 1 << 20;    // one event of lab up --json
constexpr int kMaxStatusBytes = 4 << 20;  // lab status --json
constexpr int kMaxErrorBytes = 64 * 1024; // the end of a command's stderr
constexpr int kStatusWatchdogMs = 15000;
constexpr int kDownWatchdogMs = 180000; // 5 s per guest's QEMU, then ip

// A command's first stderr line without the program's "nicbench-cli: error: " prefix.
QString firstErrorLine(const QByteArray &err)
{
    QString line = QString::fromLocal8Bit(err).trimmed().section(QLatin1Char('\n'), 0, 0);
    const QString prefix = QStringLiteral("nicbench-cli: error: ");
    if (line.startsWith(prefix))
        line = line.mid(prefix.size());
    return line;
}

} // namespace

QList<nb::lab::GuestState> LabView::reachableGuests() const
{
    QList<nb::lab::GuestState> out;
    if (!lab.netns.isEmpty())
        return out; // behind `ip netns exec`, which this window does not run
    for (const nb::lab::GuestState &g : lab.guests) {
        if (g.state == QLatin1String("up"))
            out.append(g);
    }
    return out;
}

QString labServerAddress(const nb::lab::GuestState &guest)
{
    return QStringLiteral("%1:%2").arg(guest.address).arg(guest.port);
}

QString labTargetLabel(const nb::lab::GuestState &guest)
{
    // The port only where it is not the usual one (user-mode networking's forwards).
    const QString where = guest.port == 5201 ? guest.address : labServerAddress(guest);
    return QStringLiteral("lab: %1 (%2)").arg(guest.name, where);
}

QString labAdapterLabel(const nb::lab::GuestState &guest)
{
    const auto model = nb::lab::adapterModel(guest.adapter);
    QString label = model ? nb::adapterModelName(model->family) : guest.adapter;
    if (label.isEmpty())
        label = guest.adapter;
    // "e1000-2": the second guest of a model keeps its number.
    if (guest.name.startsWith(guest.adapter + QLatin1Char('-')))
        label += guest.name.mid(guest.adapter.size());
    return label;
}

QList<NamedTarget> labTargets(const LabView &view)
{
    QList<NamedTarget> out;
    for (const nb::lab::GuestState &g : view.reachableGuests()) {
        out.append({labTargetLabel(g), labServerAddress(g),
                    QObject::tr("Adapter lab guest %1: %2 adapter (QEMU %3, Linux driver %4), its server at %5")
                        .arg(g.name, labAdapterLabel(g), g.device, g.driver, labServerAddress(g))});
    }
    return out;
}

QList<nb::MatrixEndpoint> labEndpoints(const LabView &view)
{
    QList<nb::MatrixEndpoint> out;
    for (const nb::lab::GuestState &g : view.reachableGuests()) {
        nb::MatrixEndpoint e;
        e.target = g.address;
        e.port = quint16(g.port);
        e.label = labAdapterLabel(g);
        out.append(e);
    }
    return out;
}

LabController::LabController(QObject *parent)
    : QObject(parent)
    , m_cli(defaultCliProgram())
    , m_env(QProcessEnvironment::systemEnvironment())
{
    connect(&m_poll, &QTimer::timeout, this, &LabController::refresh);
}

LabController::~LabController()
{
    // Processes still running end with this object (QProcess kills its child when destroyed);
    // prepareClose() has made sure a lab started here is stopped by a process of its own.
    m_poll.stop();
}

QString LabController::defaultCliProgram()
{
    const QString beside = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("nicbench-cli"));
    if (QFileInfo(beside).isExecutable())
        return beside;
    return QStandardPaths::findExecutable(QStringLiteral("nicbench-cli"));
}

bool LabController::runningAsRoot()
{
    return nb::lab::runningAsRoot();
}

QString LabController::unavailableReason() const
{
#ifndef Q_OS_LINUX
    return tr("The adapter lab runs QEMU guests on Linux only.");
#else
    if (m_cli.isEmpty() || !QFileInfo(m_cli).isExecutable())
        return tr("nicbench-cli was not found beside nicbench or on PATH: the lab runs through it.");
    const QStringList path = m_env.value(QStringLiteral("PATH")).split(QLatin1Char(':'), Qt::SkipEmptyParts);
    if (QStandardPaths::findExecutable(QStringLiteral("qemu-system-x86_64"), path).isEmpty())
        return nb::lab::qemuMissingMessage();
    QString error;
    if (!nb::lab::checkBusybox(QStringLiteral("/bin/busybox"), &error))
        return error;
    return {};
#endif
}

bool LabController::isBusy() const
{
    return m_job && m_job->state() != QProcess::NotRunning;
}

QProcess *LabController::newProcess(const QStringList &args, int watchdogMs)
{
    auto *p = new QProcess(this);
    p->setProgram(m_cli);
    p->setArguments(args);
    p->setProcessEnvironment(m_env);
    p->setStandardInputFile(QProcess::nullDevice());
    // Every command is bounded: a process still running at its deadline is killed.
    QTimer::singleShot(watchdogMs, p, [p] {
        if (p->state() != QProcess::NotRunning)
            p->kill();
    });
    return p;
}

bool LabController::start(const nb::lab::UpOptions &options, QString *error)
{
    if (isBusy() || m_view.phase == LabView::Phase::Up) {
        *error = m_view.phase == LabView::Phase::Up ? tr("A lab is up: stop it before starting another.")
                                                    : tr("The lab is busy: wait until it has started or stopped.");
        return false;
    }
    if (!nb::lab::validateOptions(options, error))
        return false;
    if (const QString why = unavailableReason(); !why.isEmpty()) {
        *error = why;
        return false;
    }
    QStringList args{QStringLiteral("lab"),
                     QStringLiteral("up"),
                     QStringLiteral("--json"),
                     QStringLiteral("--adapters"),
                     options.adapters.join(QLatin1Char(',')),
                     QStringLiteral("--cpus"),
                     QString::number(options.cpus),
                     QStringLiteral("--memory"),
                     QString::number(options.memoryMb)};
    if (options.mtu != 1500)
        args << QStringLiteral("--mtu") << QString::number(options.mtu);
    if (options.userNetworking)
        args << QStringLiteral("--user-net");
    if (options.timeoutSeconds > 0)
        args << QStringLiteral("--timeout") << QString::number(options.timeoutSeconds);
    // lab up bounds its own wait (--timeout, else 90 + 30 s per guest without KVM); the
    // watchdog only catches a process that stopped answering, with room for the cleanup.
    const int bootSeconds =
        options.timeoutSeconds > 0 ? options.timeoutSeconds : 90 + 30 * int(options.adapters.size());
    m_view = LabView{};
    m_view.phase = LabView::Phase::Starting;
    m_view.startedHere = true;
    m_view.lab.userNetworking = options.userNetworking || !runningAsRoot();
    m_view.message = tr("Starting %n guest(s)...", nullptr, int(options.adapters.size()));
    m_stopRequested = false;
    m_upLine.clear();
    m_upErrors.clear();
    m_job = newProcess(args, (bootSeconds + 120) * 1000);
    connect(m_job, &QProcess::readyReadStandardOutput, this, &LabController::onUpOutput);
    connect(m_job, &QProcess::readyReadStandardError, this,
            [this, p = m_job] { m_upErrors = (m_upErrors + p->readAllStandardError()).right(kMaxErrorBytes); });
    connect(m_job, &QProcess::finished, this, &LabController::onUpFinished);
    m_job->start();
    updatePolling();
    Q_EMIT changed();
    return true;
}

void LabController::onUpOutput()
{
    QProcess *p = m_job;
    if (!p)
        return;
    m_upLine += p->readAllStandardOutput();
    for (qsizetype nl = m_upLine.indexOf('\n'); nl >= 0; nl = m_upLine.indexOf('\n')) {
        const QByteArray line = m_upLine.left(nl);
        m_upLine.remove(0, nl + 1);
        if (const auto event = nb::lab::UpEvent::fromJson(QJsonDocument::fromJson(line).object()))
            applyEvent(*event);
    }
    if (m_upLine.size() > kMaxLineBytes)
        m_upLine.clear(); // not an event of ours
}

void LabController::onUpFinished(int exitCode, QProcess::ExitStatus status)
{
    if (QProcess *p = qobject_cast<QProcess *>(sender()))
        p->deleteLater();
    onUpOutput();
    if (m_stopRequested) {
        runDown(); // what the killed lab up had made
        return;
    }
    const bool ok = status == QProcess::NormalExit && exitCode == 0;
    if (ok) {
        applyUpFinished(true, {});
        refresh(); // drivers, link speeds, memory
        return;
    }
    QString message = m_view.phase == LabView::Phase::Failed ? m_view.message : firstErrorLine(m_upErrors);
    if (message.isEmpty())
        message = status == QProcess::CrashExit ? tr("nicbench-cli lab up stopped before the guests were up")
                                                : tr("nicbench-cli lab up failed with status %1").arg(exitCode);
    applyUpFinished(false, message);
    if (status == QProcess::CrashExit)
        runDown(); // a killed lab up cleans nothing itself
}

void LabController::applyUpFinished(bool ok, const QString &message)
{
    if (ok) {
        m_view.phase = LabView::Phase::Up;
        m_view.message = tr("%n guest(s) up.", nullptr, int(m_view.lab.guests.size()));
    } else {
        m_view.phase = LabView::Phase::Failed;
        m_view.message = message;
        for (nb::lab::GuestState &g : m_view.lab.guests) {
            if (g.state != QLatin1String("failed"))
                g.state = QStringLiteral("stopped"); // lab up removed them again
        }
    }
    updatePolling();
    Q_EMIT changed();
}

nb::lab::GuestState *LabController::guest(const QString &name)
{
    for (nb::lab::GuestState &g : m_view.lab.guests) {
        if (g.name == name)
            return &g;
    }
    m_view.lab.guests.append(nb::lab::GuestState{});
    m_view.lab.guests.last().name = name;
    return &m_view.lab.guests.last();
}

void LabController::applyEvent(const nb::lab::UpEvent &event)
{
    using Kind = nb::lab::UpEvent::Kind;
    switch (event.kind) {
    case Kind::Starting:
        m_view.lab = event.lab;
        for (nb::lab::GuestState &g : m_view.lab.guests)
            g.state = QStringLiteral("waiting");
        m_view.message = m_view.lab.accel == QLatin1String("kvm")
                             ? tr("Booting with KVM: a few seconds per guest.")
                             : tr("Booting without KVM (QEMU's TCG emulates the CPU): about 10-30 s per guest.");
        break;
    case Kind::Booting: {
        nb::lab::GuestState *g = guest(event.guest.name);
        *g = event.guest;
        g->state = QStringLiteral("booting");
        g->startedMs = QDateTime::currentMSecsSinceEpoch();
        break;
    }
    case Kind::Up: {
        nb::lab::GuestState *g = guest(event.guest.name);
        g->state = QStringLiteral("up");
        g->bootSeconds = event.seconds;
        break;
    }
    case Kind::Failed:
        guest(event.guest.name)->state = QStringLiteral("failed");
        m_view.failedGuest = event.guest.name;
        m_view.console = event.console;
        m_view.message = tr("Guest %1 %2.").arg(event.guest.name, event.text);
        break;
    case Kind::Ready:
        m_view.phase = LabView::Phase::Up;
        m_view.message = tr("%n guest(s) up.", nullptr, int(m_view.lab.guests.size()));
        break;
    case Kind::Error:
        if (m_view.failedGuest.isEmpty())
            m_view.message = event.text;
        m_view.phase = LabView::Phase::Failed;
        break;
    }
    Q_EMIT changed();
}

void LabController::refresh()
{
    if (isBusy() || (m_query && m_query->state() != QProcess::NotRunning) || m_cli.isEmpty())
        return;
    m_query =
        newProcess({QStringLiteral("lab"), QStringLiteral("status"), QStringLiteral("--json")}, kStatusWatchdogMs);
    connect(m_query, &QProcess::finished, this, &LabController::onStatusFinished);
    m_query->start();
}

void LabController::refreshIfPresent()
{
    if (QFileInfo::exists(nb::lab::defaultStateDirectory() + QStringLiteral("/lab.json")))
        refresh();
}

void LabController::onStatusFinished(int exitCode, QProcess::ExitStatus status)
{
    auto *p = qobject_cast<QProcess *>(sender());
    if (!p)
        return;
    p->deleteLater();
    if (isBusy())
        return; // a start or stop began meanwhile: its own reports win
    const QByteArray out = p->readAllStandardOutput().left(kMaxStatusBytes);
    nb::lab::LabState state;
    QString error;
    if (status == QProcess::NormalExit && exitCode == 0 &&
        nb::lab::statusFromJson(QJsonDocument::fromJson(out).object(), &state, &error))
        applyStatus(state);
    else
        applyNoLab();
}

void LabController::applyStatus(const nb::lab::LabState &state)
{
    m_view.lab = state;
    m_view.phase = LabView::Phase::Up;
    m_view.failedGuest.clear();
    m_view.console.clear();
    const auto count = [&](const char *s) {
        return int(std::count_if(state.guests.cbegin(), state.guests.cend(),
                                 [s](const nb::lab::GuestState &g) { return g.state == QLatin1String(s); }));
    };
    const int up = count("up");
    const int stopped = count("stopped");
    m_view.message = stopped > 0 ? tr("%1 of %2 guests up; %3 stopped (their QEMU is gone): stop the lab to clean up.")
                                       .arg(up)
                                       .arg(state.guests.size())
                                       .arg(stopped)
                                 : tr("%n guest(s) up.", nullptr, up);
    if (!state.netns.isEmpty())
        m_view.message += QLatin1Char(' ') + tr("They are in network namespace %1, which this window does not "
                                                "enter: test them with ip netns exec %1 nicbench-cli.")
                                                 .arg(state.netns);
    updatePolling();
    Q_EMIT changed();
}

void LabController::applyNoLab()
{
    if (m_view.phase == LabView::Phase::Failed || m_view.phase == LabView::Phase::Idle)
        return; // keep what the failure showed
    m_view = LabView{};
    m_view.message = tr("No lab is up.");
    updatePolling();
    Q_EMIT changed();
}

void LabController::stop()
{
    if (m_job && m_job->state() != QProcess::NotRunning) {
        if (m_view.phase != LabView::Phase::Starting)
            return; // lab down already runs
        // A lab still booting: its lab up is killed (the lab keeps its state file for exactly
        // this), then lab down removes what it had made.
        m_stopRequested = true;
        m_view.phase = LabView::Phase::Stopping;
        m_view.message = tr("Stopping the guests...");
        Q_EMIT changed();
        m_job->kill();
        return;
    }
    runDown();
}

void LabController::runDown()
{
    m_stopRequested = false;
    m_view.phase = LabView::Phase::Stopping;
    m_view.message = tr("Stopping the guests...");
    m_upErrors.clear();
    m_job = newProcess({QStringLiteral("lab"), QStringLiteral("down")}, kDownWatchdogMs);
    connect(m_job, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        auto *p = qobject_cast<QProcess *>(sender());
        const QString error = p ? firstErrorLine(p->readAllStandardError()) : QString();
        if (p)
            p->deleteLater();
        m_view = LabView{};
        m_view.message =
            status == QProcess::NormalExit && exitCode == 0
                ? tr("The lab is stopped: no guest, tap or bridge is left.")
                : tr("Stopping the lab failed: %1").arg(error.isEmpty() ? tr("lab down was stopped") : error);
        updatePolling();
        Q_EMIT changed();
        refresh(); // what is left, if anything
    });
    m_job->start();
    Q_EMIT changed();
}

void LabController::setWatched(bool watched)
{
    m_watched = watched;
    updatePolling();
    if (watched)
        refresh();
}

void LabController::updatePolling()
{
    const bool labThere = m_view.phase == LabView::Phase::Up;
    if (!m_watched && !labThere) {
        m_poll.stop();
        return;
    }
    const int interval = m_watched ? 2000 : 10000;
    if (!m_poll.isActive() || m_poll.interval() != interval)
        m_poll.start(interval);
}

void LabController::prepareClose()
{
    m_poll.stop();
    const bool starting = m_job && m_job->state() != QProcess::NotRunning;
    if (!starting && !(m_view.startedHere && m_view.phase == LabView::Phase::Up))
        return; // nothing of this window's, or a lab the CLI started: it stays
    if (starting) {
        m_job->kill(); // lab up, or a lab down the detached one below repeats
        m_job->waitForFinished(2000);
    }
    QProcess down;
    down.setProgram(m_cli);
    down.setArguments({QStringLiteral("lab"), QStringLiteral("down")});
    down.setProcessEnvironment(m_env);
    down.setStandardInputFile(QProcess::nullDevice());
    down.setStandardOutputFile(QProcess::nullDevice());
    down.setStandardErrorFile(QProcess::nullDevice());
    down.startDetached();
}

} // namespace nb::gui
