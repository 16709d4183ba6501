// SPDX-License-Identifier: GPL-3.0-or-later
// The real window on the offscreen platform: a loopback test against the built-in
// server, Esc stopping a test, and an unreachable target reported in the window.

#include "core/format.h"
#include <adapters/adapterlist.h>
#include <adapters/adaptermonitor.h>
#include <adapters/adapterpanel.h>
#include <adapters/adaptertile.h>
#include <common/messagebanner.h>
#include <live/cpuchart.h>
#include <live/livetestchart.h>
#include <live/rrchart.h>
#include <live/utilizationchart.h>
#include <results/resultssummary.h>
#include <results/streamresultsmodel.h>
#include <testview/testpanel.h>
#include <window/mainwindow.h>

#include <core/units.h>
#include <qcustomplot.h>

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>
#include <QToolButton>

using nb::gui::MainWindow;

class TestGuiMainWindow : public QObject {
    Q_OBJECT

private:
    static void setShortTest(MainWindow &w, double seconds)
    {
        auto *duration = w.findChild<QDoubleSpinBox *>(QStringLiteral("durationSpin"));
        auto *interval = w.findChild<QDoubleSpinBox *>(QStringLiteral("intervalSpin"));
        QVERIFY(duration && interval);
        duration->setValue(seconds);
        interval->setValue(0.5);
    }

    static QToolButton *runButton(MainWindow &w) { return w.findChild<QToolButton *>(QStringLiteral("runButton")); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("NicBenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_mainwindow"));
        QSettings().clear();
        qRegisterMetaType<nb::TestResult>();
    }

    void opensWithBuiltinServer()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.builtinServerPort() != 0);
        QVERIFY(w.testPanel()->isLoopbackSelected());
        auto *status = w.findChild<QLabel *>(QStringLiteral("serverLabel"));
        QVERIFY(status);
        QVERIFY2(status->text().startsWith(
                     QStringLiteral("Built-in server listening on 127.0.0.1:%1").arg(w.builtinServerPort())),
                 qPrintable(status->text()));
        QVERIFY(w.runAction()->isEnabled());
        QVERIFY(!w.stopAction()->isEnabled());
    }

    void loopbackTestShowsThroughput()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        setShortTest(w, 2.0);
        QSignalSpy finished(&w, &MainWindow::testFinished);

        QTest::mouseClick(runButton(w), Qt::LeftButton);
        QVERIFY(w.isTestRunning());
        QVERIFY(w.stopAction()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);

        const auto result = finished.at(0).at(0).value<nb::TestResult>();
        QVERIFY2(result.ok(), qPrintable(result.error));
        QVERIFY(!w.isTestRunning());
        QVERIFY(w.runAction()->isEnabled());
        QVERIFY2(w.chart()->sampleCount() >= 2, qPrintable(QString::number(w.chart()->sampleCount())));
        QVERIFY(w.chart()->plot()->graphCount() >= 1);
        QVERIFY(w.chart()->plot()->graph(0)->dataCount() >= 2);
        QVERIFY(w.chart()->peakBitsPerSecond() > 0);
        QVERIFY(w.summary()->hasResult());
        QVERIFY2(w.summary()->headlineBitsPerSecond() > 0, qPrintable(w.summary()->toText()));
        QVERIFY(w.summary()->toText().contains(QStringLiteral("bit/s")));
        QCOMPARE(w.streamModel()->rowCount(), 1);
        QVERIFY(!w.banner()->isVisible());
    }

    void escapeStopsAndKeepsData()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        setShortTest(w, 30.0);
        QSignalSpy finished(&w, &MainWindow::testFinished);
        QTest::keyClick(&w, Qt::Key_R, Qt::ControlModifier);
        QVERIFY(w.isTestRunning());
        QTRY_VERIFY_WITH_TIMEOUT(w.chart()->sampleCount() >= 2, 10000);
        QTest::keyClick(&w, Qt::Key_Escape);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        const auto result = finished.at(0).at(0).value<nb::TestResult>();
        QVERIFY(!result.intervals.isEmpty());
        QVERIFY(w.summary()->headlineBitsPerSecond() > 0);
        QVERIFY(w.runAction()->isEnabled());
    }

    void unreachableTargetShowsError()
    {
        // A port that was free a moment ago: nothing listens there.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const quint16 closedPort = probe.serverPort();
        probe.close();

        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        setShortTest(w, 2.0);
        auto *target = w.findChild<QComboBox *>(QStringLiteral("targetCombo"));
        QVERIFY(target);
        const QString text = QStringLiteral("127.0.0.1:%1").arg(closedPort);
        target->lineEdit()->selectAll();
        QTest::keyClicks(target->lineEdit(), text);
        QCOMPARE(target->currentText(), text);

        QSignalSpy finished(&w, &MainWindow::testFinished);
        QTest::mouseClick(runButton(w), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);

        QVERIFY(w.banner()->isVisible());
        QCOMPARE(w.banner()->kind(), nb::ui::MessageBanner::Kind::Error);
        QVERIFY2(w.banner()->text().contains(QString::number(closedPort)), qPrintable(w.banner()->text()));
        QVERIFY(w.banner()->text().contains(QStringLiteral("listening")));
        // Still usable: settings editable, Run available, and the target remembered.
        QVERIFY(w.runAction()->isEnabled());
        QVERIFY(runButton(w)->isEnabled());
        QVERIFY(target->isEnabled());
        QVERIFY(w.testPanel()->recentTargets().contains(text));

        // A good target right after works, and clears the error.
        w.testPanel()->selectLoopback();
        QTest::mouseClick(runButton(w), Qt::LeftButton);
        QVERIFY(!w.banner()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 20000);
        QVERIFY(finished.at(1).at(0).value<nb::TestResult>().ok());
    }

    void adapterListHasLoopback()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        nb::ui::AdapterList *list = w.adapterList();
        QVERIFY2(list->adapterNames().contains(QStringLiteral("lo")),
                 qPrintable(list->adapterNames().join(QLatin1Char(','))));
        nb::ui::AdapterTile *tile = list->tile(QStringLiteral("lo"));
        QVERIFY(tile);
        QCOMPARE(nb::ui::AdapterTile::familyLabel(tile->adapter()), QStringLiteral("loopback"));

        // Clicking the tile shows its panel with the loopback MTU.
        QTest::mouseClick(tile, Qt::LeftButton);
        QCOMPARE(list->currentAdapter(), QStringLiteral("lo"));
        QCOMPARE(w.adapterPanel()->adapterName(), QStringLiteral("lo"));
        QCOMPARE(w.adapterPanel()->mtuText(), QStringLiteral("65536"));
        // The monitor polls at 10 Hz: within a second the chart and sparkline have data.
        QTRY_VERIFY_WITH_TIMEOUT(w.adapterMonitor()->history(QStringLiteral("lo")).size() >= 5, 3000);
        QTRY_VERIFY_WITH_TIMEOUT(w.adapterPanel()->chart()->plot()->graph(0)->dataCount() >= 5, 3000);
        // lo has no link speed: the chart is scaled to the peak and says so.
        QVERIFY2(w.adapterPanel()->chart()->noteText().contains(QStringLiteral("unknown")),
                 qPrintable(w.adapterPanel()->chart()->noteText()));
        QCOMPARE(w.adapterPanel()->utilizationText(), QStringLiteral("n/a"));
    }

    void requestResponseTestShowsTransactionsAndLatency()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *type = w.findChild<QComboBox *>(QStringLiteral("testTypeCombo"));
        QVERIFY(type);
        type->setCurrentIndex(type->findData(int(nb::gui::TestType::RequestResponse)));
        setShortTest(w, 1.0);
        auto *interval = w.findChild<QDoubleSpinBox *>(QStringLiteral("intervalSpin"));
        interval->setValue(0.2);
        QSignalSpy finished(&w, &MainWindow::testFinished);
        QTest::mouseClick(runButton(w), Qt::LeftButton);
        QVERIFY(w.isTestRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);

        const auto result = finished.at(0).at(0).value<nb::TestResult>();
        QVERIFY2(result.ok(), qPrintable(result.error));
        QVERIFY(result.hasRr);
        QVERIFY(w.summary()->transactionsPerSecond() > 0);
        const QString latency = w.summary()->latencyText();
        QVERIFY2(latency.contains(QStringLiteral("p50")) && latency.contains(QStringLiteral("p99")),
                 qPrintable(latency));
        QVERIFY2(!latency.contains(QStringLiteral("p50 0 \u00b5s")), qPrintable(latency));
        // One connection has no spread to show.
        QVERIFY(result.rr.fairness && result.rr.fairness->count == 1);
        QVERIFY2(w.summary()->fairnessText().isEmpty(), qPrintable(w.summary()->fairnessText()));
        const QString text = w.summary()->toText();
        QVERIFY2(text.contains(QStringLiteral("\u00b5s/transaction")), qPrintable(text));
        QVERIFY2(w.summary()->adapterText().contains(QStringLiteral("lo")), qPrintable(w.summary()->adapterText()));
        QVERIFY(w.rrChart()->sampleCount() >= 2);
        QVERIFY(w.cpuChart()->sampleCount() >= 2);
        // The test ran over loopback, so the window shows that adapter.
        QCOMPARE(w.adapterList()->currentAdapter(), QStringLiteral("lo"));
    }

    // With two flows or more the summary has a fairness row: the spread and Jain's index,
    // per connection for request/response, per direction and stream for throughput.
    void summaryShowsFairness()
    {
        nb::ui::ResultsSummary summary;
        nb::TestResult rr;
        rr.params.kind = nb::TestKind::Rr;
        rr.params.streams = 3;
        rr.hasRr = true;
        rr.rr.connections = 3;
        rr.rr.seconds = 1;
        rr.rr.transactions = 2557;
        rr.rr.fairness = nb::FlowSpread::fromSamples({812, 840, 905});
        summary.showResults({rr});
        QString text = summary.fairnessText();
        QVERIFY2(text.contains(QStringLiteral("transactions per connection: min 812")) &&
                     text.contains(QStringLiteral("max 905 (3 connections)")) &&
                     text.contains(QStringLiteral("Jain's index 0.998")), // 2557^2 / (3 * 2183969)
                 qPrintable(text));
        QVERIFY2(summary.toText().contains(QStringLiteral("Fairness: ")), qPrintable(summary.toText()));

        nb::TestResult bidir;
        bidir.params.streams = 2;
        bidir.params.direction = nb::Direction::Bidirectional;
        for (int i = 0; i < 4; ++i) {
            nb::StreamSummary s;
            s.id = i + 1;
            s.sender = i < 2;
            s.seconds = s.receiverSeconds = 1;
            s.bytesSent = s.bytesReceived = std::uint64_t(1 + i) << 20;
            bidir.streams.append(s);
        }
        bidir.computeStreamFairness();
        summary.showResults({bidir});
        text = summary.fairnessText();
        QVERIFY2(text.contains(QStringLiteral("Upload per stream: min ") + nb::formatBytes(1 << 20)) &&
                     text.contains(QStringLiteral("Download per stream: min ") + nb::formatBytes(3 << 20)),
                 qPrintable(text));

        summary.clear();
        QVERIFY(summary.fairnessText().isEmpty());
    }

    void bothRunsThroughputThenRequestResponse()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.testPanel()->setTestType(nb::gui::TestType::Both);
        setShortTest(w, 1.0);
        QList<nb::TestParams> plan;
        QString error;
        QVERIFY2(w.testPanel()->testPlan(&plan, &error), qPrintable(error));
        QCOMPARE(plan.size(), 2);
        QCOMPARE(plan.at(0).kind, nb::TestKind::Stream);
        QCOMPARE(plan.at(1).kind, nb::TestKind::Rr);
        QSignalSpy finished(&w, &MainWindow::testFinished);
        QTest::mouseClick(runButton(w), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(finished.at(0).at(0).value<nb::TestResult>().hasRr);
        QVERIFY(w.summary()->headlineBitsPerSecond() > 0);
        QVERIFY(w.summary()->transactionsPerSecond() > 0);
        QVERIFY(w.chart()->sampleCount() > 0);
        QVERIFY(w.rrChart()->sampleCount() > 0);
    }

    void invalidFieldIsReported()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        auto *block = w.findChild<QLineEdit *>(QStringLiteral("blockSizeEdit"));
        QVERIFY(block);
        block->setText(QStringLiteral("12Q"));
        w.runAction()->trigger();
        QVERIFY(!w.isTestRunning());
        QVERIFY(w.banner()->isVisibleTo(&w));
        QVERIFY(w.banner()->text().contains(QStringLiteral("Buffer length")));
    }
};

QTEST_MAIN(TestGuiMainWindow)
#include "tst_gui_mainwindow.moc"
