// SPDX-License-Identifier: GPL-3.0-or-later
// Tools > Adapter Lab with one real QEMU guest (label `lab`, root, about 10-60 s of TCG boot):
// the dialog starts a virtio-net guest over user-mode networking (no bridge or tap on this
// host), shows it booting and then up with the driver its kernel reports, the Target box
// offers it, a 1 s test run from the window through that entry reaches the guest's server,
// and Stop leaves no QEMU and no lab state.
#include "guihelpers.h"

#include <labview/labcontroller.h>
#include <labview/labdialog.h>
#include <testview/testpanel.h>
#include <testview/testview.h>
#include <window/mainwindow.h>

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

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

class TestGuiLabGuest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void oneGuestFromTheWindow();
    void cleanupTestCase();

private:
    nbtest::GuiTestSettings m_settings;
    QTemporaryDir m_runtime;
    QList<qint64> m_pids;
};

void TestGuiLabGuest::initTestCase()
{
    QVERIFY(m_settings.init(QStringLiteral("tst_gui_labguest")));
    QVERIFY(m_runtime.isValid());
    qputenv("XDG_RUNTIME_DIR", m_runtime.path().toLocal8Bit());
    qputenv("PATH", (QFileInfo(kCli).absolutePath() + QLatin1Char(':') + qEnvironmentVariable("PATH")).toLocal8Bit());
}

void TestGuiLabGuest::cleanupTestCase()
{
    // Whatever a failed check left: the lab's own down, then a QEMU of ours still running.
    QProcess down;
    down.start(kCli, {QStringLiteral("lab"), QStringLiteral("down")});
    if (down.waitForStarted(10000) && !down.waitForFinished(60000))
        down.kill();
    for (qint64 pid : std::as_const(m_pids)) {
        if (processRunning(pid))
            QProcess::execute(QStringLiteral("kill"), {QStringLiteral("-KILL"), QString::number(pid)});
    }
}

void TestGuiLabGuest::oneGuestFromTheWindow()
{
    nb::gui::MainWindow w;
    const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
    QVERIFY2(shown.isEmpty(), qPrintable(shown));
    w.findChild<QAction *>(QStringLiteral("adapterLabAction"))->trigger();
    nb::gui::LabDialog *dialog = w.findChild<nb::gui::LabDialog *>();
    QVERIFY(dialog && dialog->isVisible());
    const QString unavailable = dialog->validationError();
    if (!unavailable.isEmpty() && w.labController()->unavailableReason() == unavailable)
        QSKIP(qPrintable(unavailable));
    dialog->setAdapters({QStringLiteral("virtio")});
    dialog->setUserNetworking(true);
    dialog->setTimeoutSeconds(240);
    QVERIFY2(dialog->startLab(), qPrintable(dialog->validationError()));
    QTRY_VERIFY_WITH_TIMEOUT(dialog->guestCell(QStringLiteral("virtio"), nb::gui::LabDialog::StateColumn)
                                 .startsWith(QLatin1String("booting")),
                             60000);
    for (const nb::lab::GuestState &g : w.labController()->view().lab.guests)
        m_pids << g.pid;
    QTRY_COMPARE_WITH_TIMEOUT(w.labController()->view().phase, nb::gui::LabView::Phase::Up, 300000);
    QTRY_COMPARE_WITH_TIMEOUT(dialog->guestCell(QStringLiteral("virtio"), nb::gui::LabDialog::DriverColumn),
                              QStringLiteral("virtio_net"), 30000);
    QVERIFY(
        dialog->guestCell(QStringLiteral("virtio"), nb::gui::LabDialog::StateColumn).startsWith(QLatin1String("up")));

    // The Target box's entry, and a 1 s test through it to the guest's server.
    const QList<nb::lab::GuestState> guests = w.labController()->view().reachableGuests();
    QCOMPARE(guests.size(), 1);
    m_pids << guests.at(0).pid;
    auto *combo = w.findChild<QComboBox *>(QStringLiteral("targetCombo"));
    const int entry = combo->findText(QStringLiteral("lab: virtio (127.0.0.1:%1)").arg(guests.at(0).port));
    QVERIFY(entry >= 0);
    combo->setCurrentIndex(entry);
    w.findChild<QDoubleSpinBox *>(QStringLiteral("durationSpin"))->setValue(1.0);
    QSignalSpy finished(&w, &nb::gui::MainWindow::testFinished);
    w.runAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    const auto result = finished.at(0).at(0).value<nb::TestResult>();
    QVERIFY2(result.ok(), qPrintable(result.error));
    QVERIFY(result.bytesDelivered() > 0);

    dialog->stopLab();
    QTRY_COMPARE_WITH_TIMEOUT(w.labController()->view().phase, nb::gui::LabView::Phase::Idle, 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!w.labController()->isBusy(), 30000);
    QVERIFY(!QFileInfo::exists(m_runtime.path() + QStringLiteral("/nicbench-lab/lab.json")));
    for (qint64 pid : std::as_const(m_pids))
        QVERIFY(pid <= 0 || !processRunning(pid));
    QCOMPARE(combo->findText(QStringLiteral("lab: virtio (127.0.0.1:%1)").arg(guests.at(0).port)), -1);
}

QTEST_MAIN(TestGuiLabGuest)
#include "tst_gui_labguest.moc"
