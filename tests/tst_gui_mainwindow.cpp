// SPDX-License-Identifier: GPL-3.0-or-later
// The real window on the offscreen platform: a loopback test against the built-in
// server, Esc stopping a test, and an unreachable target reported in the window.

#include <livetestchart.h>
#include <mainwindow.h>
#include <messagebanner.h>
#include <resultssummary.h>
#include <streamresultsmodel.h>
#include <testpanel.h>

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
        QVERIFY2(status->text().startsWith(QStringLiteral("Built-in server listening on 127.0.0.1:%1").arg(w.builtinServerPort())),
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
