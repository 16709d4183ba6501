// SPDX-License-Identifier: GPL-3.0-or-later
// The window's part of agents (issue 28 item 4): Tools > Hosts lists a real agent
// (nicbench-cli -s --agent-key on 127.0.0.2) as ready with its adapters from the info query,
// says why when the key is wrong or nothing listens, and keeps the key file as a path; the
// Test tab's From box runs a test through that agent toward the window's built-in server,
// and the result names who drove it; New Comparison's From column gives its configurations
// an AgentFrom, and the comparison runs through the agent. NICBENCH_SCREENSHOTS=DIR keeps
// pictures of the three at 1024x768, 1280x720 and 1920x1080, light and dark.
#include "agentfixtures.h"
#include "guihelpers.h"

#include <common/messagebanner.h>
#include <compareview/comparisoncontroller.h>
#include <compareview/comparisondialog.h>
#include <compareview/comparisonview.h>
#include <compareview/endpointtable.h>
#include <hostsview/hostprober.h>
#include <hostsview/hostsdialog.h>
#include <live/cpuchart.h>
#include <results/resultssummary.h>
#include <testview/testpanel.h>
#include <window/appsettings.h>
#include <window/apptheme.h>

#include <qcustomplot.h>

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

using nb::gui::AppSettings;
using nb::gui::HostsDialog;
using nb::gui::MainWindow;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

// Waits until the dialog has an answer for `host` (bounded: two probe steps and slack).
bool waitForStatus(HostsDialog &d, const QString &host)
{
    QDeadlineTimer deadline(30000);
    while ((d.isRefreshing() || !d.status(host)) && !deadline.hasExpired())
        QTest::qWait(20);
    return !d.isRefreshing() && d.status(host).has_value();
}

// Grabs `w` at each size, light and dark, into NICBENCH_SCREENSHOTS when it is set.
void screenshots(QWidget *w, const QString &name)
{
    const QString shots = qEnvironmentVariable("NICBENCH_SCREENSHOTS");
    if (shots.isEmpty())
        return;
    const QSize before = w->size();
    for (const auto theme : {AppSettings::Theme::Light, AppSettings::Theme::Dark}) {
        nb::gui::applyTheme(theme);
        for (const QSize size : {QSize(1024, 768), QSize(1280, 720), QSize(1920, 1080)}) {
            w->resize(w->isWindow() && w->parentWidget() ? size - QSize(40, 60) : size);
            QTest::qWait(100); // layouts and the palette change arrive as events
            const QString file = QStringLiteral("%1-%2%3x%4.png")
                                     .arg(name, theme == AppSettings::Theme::Dark ? s("dark-") : QString())
                                     .arg(size.width())
                                     .arg(size.height());
            QVERIFY(w->grab().toImage().save(QDir(shots).filePath(file)));
        }
    }
    nb::gui::applyTheme(AppSettings::Theme::Light);
    w->resize(before);
}

} // namespace

class TestGuiHosts : public QObject {
    Q_OBJECT

private:
    nbtest::GuiTestSettings m_settings;
    nbtest::KeyFile m_key;
    nbtest::CliServer m_agent;
    QString m_host; // "127.0.0.2:PORT"

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.init(s("tst_gui_hosts")));
        const QString why = m_agent.start({s("-B"), s("127.0.0.2"), s("--agent-key"), m_key.path()});
        QVERIFY2(why.isEmpty(), qPrintable(why));
        m_host = QStringLiteral("127.0.0.2:%1").arg(m_agent.port());
    }

    // Ready, with the adapters its info query lists; the list and the key's path are saved,
    // the key's bytes are not.
    void listsAReachableAgentWithItsAdapters()
    {
        HostsDialog d;
        d.setKeyPath(m_key.path());
        QString error;
        QVERIFY2(d.addHost(m_host, &error), qPrintable(error));
        QVERIFY(!d.addHost(m_host, &error)); // once
        QVERIFY2(error.contains(s("already listed")), qPrintable(error));
        QVERIFY(!d.addHost(s("bad host:99999"), &error));
        QVERIFY(waitForStatus(d, m_host));
        const nb::AgentStatus st = *d.status(m_host);
        QVERIFY2(st.ok() && st.infoOk, qPrintable(st.problem()));
        QCOMPARE(st.key, nb::AgentStatus::Key::Accepted);
        QCOMPARE(d.statusText(m_host), s("Ready"));
        QStringList names;
        for (const nb::AdapterInfo &a : st.info.adapters)
            names << a.name;
        QVERIFY2(names.contains(s("lo")), qPrintable(names.join(QLatin1Char(','))));
        d.selectHost(m_host);
        QCOMPARE(d.adapterList()->topLevelItemCount(), int(st.info.adapters.size()));
        QVERIFY(d.hostList()->topLevelItem(0)->text(3).contains(s("lo")));
        QVERIFY2(d.detailText(m_host).contains(s("takes the key")), qPrintable(d.detailText(m_host)));

        QCOMPARE(AppSettings::agentHosts(), QStringList{m_host});
        QCOMPARE(AppSettings::agentKeyPath(), QFileInfo(m_key.path()).absoluteFilePath());
        QSettings().sync();
        QFile settingsFile(QSettings().fileName());
        QVERIFY(settingsFile.open(QIODevice::ReadOnly));
        QFile keyFile(m_key.path());
        QVERIFY(keyFile.open(QIODevice::ReadOnly));
        const QByteArray secret = keyFile.readAll().trimmed();
        QVERIFY(secret.size() >= 16);
        QVERIFY(!settingsFile.readAll().contains(secret.left(16)));

        // Another dialog (the next start) lists it again.
        HostsDialog again;
        QCOMPARE(again.hosts(), QStringList{m_host});
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        screenshots(&d, s("hosts"));
    }

    // Another key: reachable, and the line says the agent refused it.
    void wrongKeyShowsTheRefusal()
    {
        nbtest::KeyFile other;
        HostsDialog d;
        QCOMPARE(d.hosts(), QStringList{m_host});
        d.setKeyPath(other.path());
        QVERIFY(d.isRefreshing());
        QVERIFY(waitForStatus(d, m_host));
        const nb::AgentStatus st = *d.status(m_host);
        QCOMPARE(st.key, nb::AgentStatus::Key::Failed);
        QVERIFY(st.reachable());
        QVERIFY(!st.ok());
        QVERIFY2(st.keyError.contains(s("refused the key")) && st.keyError.contains(other.path()),
                 qPrintable(st.keyError));
        QCOMPARE(d.statusText(m_host), s("Wrong key"));
        QVERIFY(d.detailText(m_host).contains(s("refused the key")));
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        screenshots(&d, s("hosts-wrongkey"));
        d.setKeyPath(m_key.path());
        QVERIFY(waitForStatus(d, m_host));
        QCOMPARE(d.statusText(m_host), s("Ready"));
    }

    // Nothing listens: unreachable, with the connect error, within the probe's deadline.
    void unusedPortIsUnreachable()
    {
        HostsDialog d;
        const QString unused = QStringLiteral("127.0.0.1:%1").arg(nbtest::freePort());
        QElapsedTimer t;
        t.start();
        QVERIFY(d.addHost(unused));
        QCOMPARE(d.statusText(unused), s("Checking..."));
        QVERIFY(waitForStatus(d, unused));
        QVERIFY(t.elapsed() < 2 * 1000 * nb::gui::HostProber::DefaultStepSeconds);
        const nb::AgentStatus st = *d.status(unused);
        QVERIFY(!st.reachable());
        QCOMPARE(st.key, nb::AgentStatus::Key::NotChecked); // no second try at a closed port
        QCOMPARE(d.statusText(unused), s("Unreachable"));
        QVERIFY2(st.problem().contains(s("refused")), qPrintable(st.problem()));
        d.removeHost(unused);
        QCOMPARE(AppSettings::agentHosts(), QStringList{m_host});
    }

    // From = the agent: without a key file, a message and no run; with it, the agent runs the
    // test toward the built-in server and the summary says who ran it for whom.
    void testRunsFromTheAgent()
    {
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        nb::gui::TestPanel *panel = w.testPanel();
        auto *from = w.findChild<QComboBox *>(s("fromAgentCombo"));
        QVERIFY(from && from->isVisible());
        QVERIFY(from->findData(m_host) > 0); // the Hosts list
        w.findChild<QDoubleSpinBox *>(s("durationSpin"))->setValue(1.5);
        w.findChild<QDoubleSpinBox *>(s("intervalSpin"))->setValue(0.5);
        panel->setAgentFrom(m_host);
        QCOMPARE(panel->agentFrom(), m_host);
        w.findChild<QComboBox *>(s("targetCombo"))
            ->setCurrentText(QStringLiteral("127.0.0.1:%1").arg(w.builtinServerPort()));
        QSignalSpy finished(&w, &MainWindow::testFinished);

        AppSettings::setAgentKeyPath(QString());
        w.runAction()->trigger();
        QVERIFY(!w.isTestRunning());
        QVERIFY2(w.banner()->text().contains(s("agent key file")), qPrintable(w.banner()->text()));

        AppSettings::setAgentKeyPath(m_key.path());
        w.runAction()->trigger();
        QVERIFY(w.isTestRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        const nb::TestResult r = finished.at(0).at(0).value<nb::TestResult>();
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.drivenBy);
        QCOMPARE(r.drivenBy->agent, m_host);
        QCOMPARE(r.drivenBy->controller, s("127.0.0.1"));
        QCOMPARE(r.params.host, s("127.0.0.1"));
        QVERIFY(!r.intervals.isEmpty());
        const QString test = w.summary()->testText();
        QVERIFY2(test.contains(QStringLiteral("run by the agent %1 for").arg(m_host)), qPrintable(test));
        QVERIFY2(w.summary()->cpuText().contains(s("agent")), qPrintable(w.summary()->cpuText()));
        // The test's local side is the agent's machine, never "here".
        QVERIFY2(w.summary()->cpuPerGbpsText().contains(s("on the agent")) &&
                     !w.summary()->cpuPerGbpsText().contains(s("here")),
                 qPrintable(w.summary()->cpuPerGbpsText()));
        // The CPU chart's local line is the agent's.
        auto *cpu = w.findChild<nb::ui::CpuChart *>(s("cpuChart"));
        QVERIFY(cpu);
        QCOMPARE(cpu->plot()->graph(0)->name(), s("Agent busy"));
        QTRY_VERIFY_WITH_TIMEOUT(m_agent.output().contains(s("Ran a test for controller")), 10000);
        screenshots(&w, s("testview-from"));
    }

    // New Comparison: the From column gives each configuration its agent and the options
    // that travel, reads "from -> to", and the comparison runs through the agent.
    void newComparisonFromAnAgent()
    {
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        // The restored target is the last test's: the previous window's built-in server, whose
        // port is this one's only when port 5201 was free for both (ctest -j2 often holds it).
        w.findChild<QComboBox *>(s("targetCombo"))
            ->setCurrentText(QStringLiteral("127.0.0.1:%1").arg(w.builtinServerPort()));
        std::unique_ptr<nb::gui::ComparisonDialog> dialog(w.createComparisonDialog());
        nb::gui::EndpointTable *table = dialog->endpointTable();
        QCOMPARE(table->rowCount(), 1);
        QVERIFY(table->agentCombo(0)->findData(m_host) > 0);
        dialog->setStreamsText(s("1"));
        dialog->setKinds(true, false);
        dialog->setDuration(1);
        dialog->setRepeats(1);
        dialog->setPauseSeconds(0);
        // The test panel's From (the last test's, restored) starts the row; This computer clears it.
        QCOMPARE(dialog->configurations().at(0).from.host, s("127.0.0.2"));
        table->setAgent(0, QString());
        QVERIFY(!dialog->configurations().at(0).from.isSet());
        QVERIFY(table->bindCombo(0)->isEnabled());

        table->setAgent(0, m_host);
        QVERIFY(!table->bindCombo(0)->isEnabled()); // -B would name this computer's address
        QList<nb::Configuration> configs = dialog->configurations();
        QCOMPARE(configs.size(), 1);
        const nb::Configuration &c = configs.at(0);
        QCOMPARE(c.from.host, s("127.0.0.2"));
        QCOMPARE(c.from.port, m_agent.port());
        QVERIFY(!c.from.given.isEmpty());
        QCOMPARE(c.adapter, QStringLiteral("%1 -> 127.0.0.1").arg(m_host));
        QCOMPARE(c.params.host, s("127.0.0.1"));
        QCOMPARE(c.params.port, w.builtinServerPort());

        AppSettings::setAgentKeyPath(QString());
        dialog->setDuration(1.5); // an edit refreshes the validation
        QVERIFY2(dialog->validationError().contains(s("agent key file")), qPrintable(dialog->validationError()));
        AppSettings::setAgentKeyPath(m_key.path());
        dialog->setDuration(1);
        QVERIFY2(dialog->validationError().isEmpty(), qPrintable(dialog->validationError()));
        const nb::Comparison cmp = dialog->comparison();
        QCOMPARE(cmp.agentKeyPath, QFileInfo(m_key.path()).absoluteFilePath());
        QVERIFY2(cmp.checkAgents().isEmpty(), qPrintable(cmp.checkAgents()));

        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
        screenshots(dialog.get(), s("newcomparison-from"));
        dialog->hide();

        QSignalSpy done(w.comparisonController(), &nb::gui::ComparisonController::finished);
        QVERIFY(w.comparisonView()->startComparison(cmp));
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        const nb::Comparison result = done.at(0).at(0).value<nb::Comparison>();
        QCOMPARE(result.runs.size(), 1);
        QVERIFY2(result.runs.at(0).ok(), qPrintable(result.runs.at(0).result.error));
        QVERIFY(result.runs.at(0).result.drivenBy);
        QCOMPARE(result.runs.at(0).result.drivenBy->agent, m_host);
    }
};

QTEST_MAIN(TestGuiHosts)
#include "tst_gui_hosts.moc"
