// SPDX-License-Identifier: GPL-3.0-or-later
// Tools > Adapter Lab without a real guest (docs/lab.md, "In the window"): the dialog runs the
// real `nicbench-cli lab up --json`, `lab status --json` and `lab down`, with a stand-in
// qemu-system-x86_64 first on PATH that either comes "up" (writes the guest's ready note as
// the guest's agent does) or writes a console and hangs. Checked: no QEMU refused with the
// package named; a guest that misses its deadline shown failed with its console's last lines;
// guests that are up listed in the dialog, in the Target box and as New Comparison endpoints
// by adapter name; Stop removes them. User-mode networking only: no bridge, tap or namespace.
// With NICBENCH_SCREENSHOT_DIR set, the window and the dialog are grabbed to PNG there.
#include "guihelpers.h"

#include <compareview/comparisondialog.h>
#include <labview/labcontroller.h>
#include <labview/labdialog.h>
#include <testview/testpanel.h>
#include <testview/testview.h>
#include <window/mainwindow.h>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

namespace {

// The stand-in QEMU: records its pid; "up" writes the ready note into the guest's shared
// folder (the -fsdev id=nblab path) with the driver of its -device and waits to be stopped;
// "hang" writes 20 console lines and a panic to the -serial file and waits.
const char kFakeQemu[] = R"SH(#!/bin/sh
serial=
dir=
driver=
for a in "$@"; do
  case "$a" in
    file:*) serial=${a#file:} ;;
    local,id=nblab,path=*) dir=${a#local,id=nblab,path=}; dir=${dir%%,security_model=*} ;;
    e1000,*) driver=e1000 ;;
    e1000e,*) driver=e1000e ;;
    vmxnet3,*) driver=vmxnet3 ;;
    virtio-net-pci,*) driver=virtio_net ;;
  esac
done
echo $$ >> "$FAKE_QEMU_LOG"
echo "fake console: booting" >> "$serial"
case "$FAKE_QEMU_MODE" in
  up)
    printf 'driver=%s\nmtu=1500\nspeed=1000\nuptime=2.5\n' "$driver" > "$dir/ready.tmp"
    mv "$dir/ready.tmp" "$dir/ready" ;;
  *)
    i=1
    while [ $i -le 20 ]; do echo "fake console line $i" >> "$serial"; i=$((i+1)); done
    echo "Kernel panic - not syncing: fake" >> "$serial" ;;
esac
while :; do sleep 0.2; done
)SH";

const QString kCli = QStringLiteral(NICBENCH_CLI_PATH);

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

class TestGuiLabDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void noQemuNamesThePackage();
    void refusedBeforeAnythingStarts();
    void failedGuestShowsItsConsole();
    void guestsInTargetBoxAndNewComparison();
    void cleanup();

private:
    QProcessEnvironment environment(const QString &mode, const QString &path = {}) const;
    QList<qint64> fakeQemuPids() const;
    bool bootable(QString *why) const;
    void grab(QWidget *w, const QString &name, const QSize &size) const;

    nbtest::GuiTestSettings m_settings;
    QTemporaryDir m_bin;
    QTemporaryDir m_runtime;
    QString m_log;
};

void TestGuiLabDialog::initTestCase()
{
    QVERIFY(m_settings.init(QStringLiteral("tst_gui_labdialog")));
    QVERIFY(m_bin.isValid() && m_runtime.isValid());
    QFile f(m_bin.path() + QStringLiteral("/qemu-system-x86_64"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kFakeQemu);
    f.close();
    QVERIFY(f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    m_log = m_bin.path() + QStringLiteral("/started");
    // The window's own controller reads the lab's state from here, and finds nicbench-cli on PATH.
    qputenv("XDG_RUNTIME_DIR", m_runtime.path().toLocal8Bit());
    qputenv("PATH", (QFileInfo(kCli).absolutePath() + QLatin1Char(':') + qEnvironmentVariable("PATH")).toLocal8Bit());
}

void TestGuiLabDialog::cleanup()
{
    QProcess down;
    down.setProcessEnvironment(environment({}));
    down.start(kCli, {QStringLiteral("lab"), QStringLiteral("down")});
    if (down.waitForStarted(10000) && !down.waitForFinished(60000))
        down.kill();
    for (qint64 pid : fakeQemuPids()) {
        if (processRunning(pid))
            QProcess::execute(QStringLiteral("kill"), {QStringLiteral("-KILL"), QString::number(pid)});
    }
    QFile::remove(m_log);
}

QProcessEnvironment TestGuiLabDialog::environment(const QString &mode, const QString &path) const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_runtime.path());
    env.insert(QStringLiteral("PATH"),
               path.isEmpty() ? m_bin.path() + QLatin1Char(':') + env.value(QStringLiteral("PATH")) : path);
    env.insert(QStringLiteral("FAKE_QEMU_LOG"), m_log);
    env.insert(QStringLiteral("FAKE_QEMU_MODE"), mode);
    return env;
}

QList<qint64> TestGuiLabDialog::fakeQemuPids() const
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

bool TestGuiLabDialog::bootable(QString *why) const
{
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

void TestGuiLabDialog::grab(QWidget *w, const QString &name, const QSize &size) const
{
    const QString dir = qEnvironmentVariable("NICBENCH_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    w->resize(size);
    QCoreApplication::processEvents();
    w->grab().save(QStringLiteral("%1/%2-%3x%4.png").arg(dir, name).arg(size.width()).arg(size.height()));
}

void TestGuiLabDialog::noQemuNamesThePackage()
{
    QTemporaryDir empty;
    nb::gui::LabController lab;
    lab.setCliProgram(kCli);
    lab.setEnvironment(environment({}, empty.path()));
    nb::gui::LabDialog dialog(&lab);
    dialog.setAdapters({QStringLiteral("e1000")});
    QVERIFY2(dialog.validationError().contains(QLatin1String("qemu-system-x86")), qPrintable(dialog.validationError()));
    QVERIFY(!dialog.startButton()->isEnabled());
    QVERIFY(!dialog.startLab());
    QCOMPARE(lab.view().phase, nb::gui::LabView::Phase::Idle);
    QVERIFY(!QFileInfo::exists(m_runtime.path() + QStringLiteral("/nicbench-lab")));
}

void TestGuiLabDialog::refusedBeforeAnythingStarts()
{
    nb::gui::LabController lab;
    lab.setCliProgram(kCli);
    lab.setEnvironment(environment(QStringLiteral("up")));
    nb::gui::LabDialog dialog(&lab);
    dialog.setAdapters({});
    QVERIFY(!dialog.startButton()->isEnabled());
    QVERIFY(!dialog.startLab());
    QVERIFY2(dialog.findChild<QLabel *>(QStringLiteral("labValidation"))->text() ==
                 QLatin1String("Tick at least one adapter."),
             qPrintable(dialog.findChild<QLabel *>(QStringLiteral("labValidation"))->text()));
    // As root an MTU goes to the bridge and the guests: one a model cannot take is refused.
    if (nb::gui::LabController::runningAsRoot()) {
        dialog.setAdapters({QStringLiteral("e1000"), QStringLiteral("vmxnet3")});
        dialog.setUserNetworking(false);
        dialog.setMtu(9001);
        QVERIFY2(dialog.validationError().contains(QLatin1String("MTU 9001 is impossible for vmxnet3")),
                 qPrintable(dialog.validationError()));
        QVERIFY(!dialog.startLab());
        QVERIFY(!dialog.startButton()->isEnabled());
    }
    QCOMPARE(lab.view().phase, nb::gui::LabView::Phase::Idle);
    QVERIFY(fakeQemuPids().isEmpty());
}

void TestGuiLabDialog::failedGuestShowsItsConsole()
{
    QString why;
    if (!bootable(&why))
        QSKIP(qPrintable(why));
    nb::gui::LabController lab;
    lab.setCliProgram(kCli);
    lab.setEnvironment(environment(QStringLiteral("hang")));
    nb::gui::LabDialog dialog(&lab);
    dialog.setAdapters({QStringLiteral("virtio")});
    dialog.setUserNetworking(true);
    dialog.setTimeoutSeconds(3);
    dialog.show();
    QVERIFY2(dialog.startLab(), qPrintable(dialog.validationError()));
    QVERIFY(!dialog.startButton()->isEnabled());
    QVERIFY(dialog.stopButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(dialog.guestCell(QStringLiteral("virtio"), nb::gui::LabDialog::StateColumn)
                                 .startsWith(QLatin1String("booting")),
                             60000);
    QTRY_COMPARE_WITH_TIMEOUT(lab.view().phase, nb::gui::LabView::Phase::Failed, 90000);
    QTRY_VERIFY_WITH_TIMEOUT(!lab.isBusy(), 30000);
    QVERIFY2(
        dialog.guestCell(QStringLiteral("virtio"), nb::gui::LabDialog::StateColumn).startsWith(QLatin1String("failed")),
        qPrintable(dialog.guestCell(QStringLiteral("virtio"), nb::gui::LabDialog::StateColumn)));
    QVERIFY(dialog.isConsoleShown());
    QVERIFY2(dialog.consoleText().contains(QLatin1String("Kernel panic - not syncing: fake")),
             qPrintable(dialog.consoleText()));
    QVERIFY(dialog.consoleText().contains(QLatin1String("fake console line 20")));
    QVERIFY(!dialog.consoleText().contains(QLatin1String("fake console: booting"))); // the last 15 lines only
    QVERIFY2(dialog.messageText().contains(QLatin1String("did not come up within 3 s")),
             qPrintable(dialog.messageText()));
    QVERIFY(dialog.startButton()->isEnabled());
    QVERIFY(!dialog.stopButton()->isEnabled());
    QVERIFY(!dialog.compareButton()->isEnabled());
    // lab up removed what it made: no state, the stand-in stopped.
    QVERIFY(!QFileInfo::exists(m_runtime.path() + QStringLiteral("/nicbench-lab/lab.json")));
    for (qint64 pid : fakeQemuPids())
        QTRY_VERIFY_WITH_TIMEOUT(!processRunning(pid), 10000);
    grab(&dialog, QStringLiteral("labdialog-failed"), QSize(780, 600));
}

void TestGuiLabDialog::guestsInTargetBoxAndNewComparison()
{
    QString why;
    if (!bootable(&why))
        QSKIP(qPrintable(why));
    nb::gui::MainWindow w;
    w.labController()->setEnvironment(environment(QStringLiteral("up")));
    const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
    QVERIFY2(shown.isEmpty(), qPrintable(shown));
    QAction *action = w.findChild<QAction *>(QStringLiteral("adapterLabAction"));
    QVERIFY(action);
    action->trigger();
    nb::gui::LabDialog *dialog = w.findChild<nb::gui::LabDialog *>();
    QVERIFY(dialog && dialog->isVisible());
    dialog->setAdapters({QStringLiteral("e1000"), QStringLiteral("vmxnet3")});
    dialog->setUserNetworking(true);
    QVERIFY2(dialog->startLab(), qPrintable(dialog->validationError()));
    QTRY_COMPARE_WITH_TIMEOUT(w.labController()->view().phase, nb::gui::LabView::Phase::Up, 120000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.labController()->isBusy(), 30000);
    // lab status's drivers arrive after the last up event.
    QTRY_COMPARE_WITH_TIMEOUT(dialog->guestCell(QStringLiteral("vmxnet3"), nb::gui::LabDialog::DriverColumn),
                              QStringLiteral("vmxnet3"), 30000);
    QCOMPARE(dialog->guestCell(QStringLiteral("e1000"), nb::gui::LabDialog::AdapterColumn), QStringLiteral("E1000"));
    QCOMPARE(dialog->guestCell(QStringLiteral("vmxnet3"), nb::gui::LabDialog::AdapterColumn),
             QStringLiteral("VMXNET3"));
    QVERIFY(
        dialog->guestCell(QStringLiteral("e1000"), nb::gui::LabDialog::StateColumn).startsWith(QLatin1String("up")));
    QVERIFY(dialog->guestCell(QStringLiteral("e1000"), nb::gui::LabDialog::AddressColumn)
                .startsWith(QLatin1String("127.0.0.1:")));
    QVERIFY(dialog->compareButton()->isEnabled());
    QVERIFY(dialog->networkNote().contains(QLatin1String("caps throughput")));
    grab(dialog, QStringLiteral("labdialog-up"), QSize(780, 600));

    // The Target box: one entry per guest; choosing one tests its server's address and port.
    const QList<nb::lab::GuestState> guests = w.labController()->view().reachableGuests();
    QCOMPARE(guests.size(), 2);
    auto *combo = w.findChild<QComboBox *>(QStringLiteral("targetCombo"));
    QVERIFY(combo);
    const QString e1000Label = QStringLiteral("lab: e1000 (127.0.0.1:%1)").arg(guests.at(0).port);
    QTRY_VERIFY(combo->findText(e1000Label) >= 0);
    QVERIFY(combo->findText(QStringLiteral("lab: vmxnet3 (127.0.0.1:%1)").arg(guests.at(1).port)) >= 0);
    combo->setCurrentIndex(combo->findText(e1000Label));
    QVERIFY(combo->lineEdit() && combo->lineEdit()->cursorPosition() == 0); // its start shows
    nb::TestParams p;
    QString error;
    QVERIFY2(w.testView()->testPanel()->params(&p, &error), qPrintable(error));
    QCOMPARE(p.host, QStringLiteral("127.0.0.1"));
    QCOMPARE(int(p.port), guests.at(0).port);
    // The lab's status refresh (every 2 s with the dialog open) keeps the entry and its start shown.
    QTest::qWait(2500);
    QCOMPARE(combo->currentText(), e1000Label);
    QCOMPARE(combo->lineEdit()->cursorPosition(), 0);
    grab(&w, QStringLiteral("window-labtarget"), QSize(1280, 720));
    grab(&w, QStringLiteral("window-labtarget"), QSize(1024, 768));

    // New Comparison: the guests ticked by adapter name, the Target box's own target not ticked.
    std::unique_ptr<nb::gui::ComparisonDialog> compare(w.createComparisonDialog());
    const QList<nb::MatrixEndpoint> endpoints = compare->endpoints();
    QCOMPARE(endpoints.size(), 2);
    QCOMPARE(endpoints.at(0).label, QStringLiteral("E1000"));
    QCOMPARE(endpoints.at(0).target, QStringLiteral("127.0.0.1"));
    QCOMPARE(int(endpoints.at(0).port), guests.at(0).port);
    QCOMPARE(endpoints.at(1).label, QStringLiteral("VMXNET3"));
    QCOMPARE(int(endpoints.at(1).port), guests.at(1).port);
    compare->show();
    grab(compare.get(), QStringLiteral("newcomparison-lab"), QSize(1024, 768));
    compare.reset();

    // Stop: lab down removes the guests; the Target box forgets them, keeping the address chosen.
    dialog->stopLab();
    QTRY_COMPARE_WITH_TIMEOUT(w.labController()->view().phase, nb::gui::LabView::Phase::Idle, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.labController()->isBusy(), 30000);
    QVERIFY2(dialog->messageText().contains(QLatin1String("The lab is stopped")), qPrintable(dialog->messageText()));
    QVERIFY(!QFileInfo::exists(m_runtime.path() + QStringLiteral("/nicbench-lab/lab.json")));
    for (qint64 pid : fakeQemuPids())
        QTRY_VERIFY_WITH_TIMEOUT(!processRunning(pid), 10000);
    QCOMPARE(combo->findText(e1000Label), -1);
    QCOMPARE(combo->currentText(), QStringLiteral("127.0.0.1:%1").arg(guests.at(0).port));
    QVERIFY(!dialog->compareButton()->isEnabled());
}

QTEST_MAIN(TestGuiLabDialog)
#include "tst_gui_labdialog.moc"
