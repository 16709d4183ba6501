// SPDX-License-Identifier: GPL-3.0-or-later
// The Test panel expresses what ends a test as the engine does (issue 11): a byte count
// with no time limit, both limits, and the ranges of the parameter table.

#include <testview/testflags.h>
#include <testview/testpanel.h>

#include <model/parameters.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>

namespace param = nb::param;

class TestGuiTestPanelLimits : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("NicBenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_testpanellimits"));
        QSettings().clear();
    }

    // `nicbench --run -n 1G` shows "no limit" for the duration, and Run again sends the
    // same: 1G with no duration, which the engine ends on the byte count.
    void bytesOnlyRoundTrip()
    {
        const nb::gui::GuiCommandLine cmd = nb::gui::parseGuiCommandLine(
            {QStringLiteral("nicbench"), QStringLiteral("--run"), QStringLiteral("-n"), QStringLiteral("1G")});
        QVERIFY2(cmd.error.isEmpty(), qPrintable(cmd.error));
        QVERIFY(!cmd.params.isTimed());
        nb::gui::TestPanel panel;
        nb::TestParams shown = cmd.params;
        shown.host = QStringLiteral("198.18.0.2");
        panel.setParams(shown);
        auto *duration = panel.findChild<QDoubleSpinBox *>(QStringLiteral("durationSpin"));
        auto *bytes = panel.findChild<QLineEdit *>(QStringLiteral("bytesEdit"));
        QVERIFY(duration && bytes);
        QCOMPARE(duration->value(), 0.0);
        QCOMPARE(duration->text(), duration->specialValueText());
        QCOMPARE(bytes->text(), QStringLiteral("1G"));
        nb::TestParams again;
        QString error;
        QVERIFY2(panel.params(&again, &error), qPrintable(error));
        QCOMPARE(again.bytes, 1024ull * 1024 * 1024);
        QCOMPARE(again.duration, 0.0);
        QVERIFY(!again.isTimed());
        QVERIFY(again.endsOnBytes());
    }

    // The Target box's "host:port" (review M4): a port that is not 1-65535 is a bad port, said
    // as the command line says it, and the text never goes to the resolver as a host name.
    void targetPort_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("host");  // empty: refused
        QTest::addColumn<int>("port");      // 0: the Port field's value
        QTest::addColumn<QString>("error"); // part of the refusal
        QTest::newRow("host:port") << QStringLiteral("198.18.0.2:9") << QStringLiteral("198.18.0.2") << 9 << QString();
        QTest::newRow("name") << QStringLiteral("server.example") << QStringLiteral("server.example") << 0 << QString();
        QTest::newRow("v6 bare") << QStringLiteral("fd00::2") << QStringLiteral("fd00::2") << 0 << QString();
        QTest::newRow("v6 port") << QStringLiteral("[fd00::2]:5202") << QStringLiteral("fd00::2") << 5202 << QString();
        QTest::newRow("too large") << QStringLiteral("127.0.0.1:99999") << QString() << 0
                                   << QStringLiteral("port '99999'");
        QTest::newRow("zero") << QStringLiteral("127.0.0.1:0") << QString() << 0 << QStringLiteral("port '0'");
        QTest::newRow("letters") << QStringLiteral("127.0.0.1:abc") << QString() << 0 << QStringLiteral("port 'abc'");
        QTest::newRow("empty") << QStringLiteral("127.0.0.1:") << QString() << 0 << QStringLiteral("port ''");
        QTest::newRow("v6 bad port") << QStringLiteral("[fd00::2]:70000") << QString() << 0
                                     << QStringLiteral("port '70000'");
        QTest::newRow("v6 unclosed") << QStringLiteral("[fd00::2") << QString() << 0
                                     << QStringLiteral("no closing ']'");
    }

    void targetPort()
    {
        QFETCH(QString, target);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, error);
        nb::gui::TestPanel panel;
        auto *combo = panel.findChild<QComboBox *>(QStringLiteral("targetCombo"));
        auto *portSpin = panel.findChild<QSpinBox *>(QStringLiteral("portSpin"));
        QVERIFY(combo && portSpin);
        combo->setEditText(target);
        portSpin->setValue(5201);
        nb::TestParams p;
        QString why;
        const bool ok = panel.params(&p, &why);
        if (host.isEmpty()) {
            QVERIFY2(!ok, qPrintable(p.host));
            QVERIFY2(why.contains(error), qPrintable(why));
            QVERIFY2(why.contains(QStringLiteral("1 to 65535")) || error.contains(u']'), qPrintable(why));
        } else {
            QVERIFY2(ok, qPrintable(why));
            QCOMPARE(p.host, host);
            QCOMPARE(int(p.port), port > 0 ? port : 5201);
        }
    }

    // Both limits stay as given: the engine ends on whichever comes first.
    void bothLimitsKept()
    {
        nb::TestParams p;
        QString error;
        QVERIFY(nb::gui::parseTestFlags(
            {QStringLiteral("-n"), QStringLiteral("200M"), QStringLiteral("-t"), QStringLiteral("10")}, &p, &error));
        p.host = QStringLiteral("198.18.0.2");
        nb::gui::TestPanel panel;
        panel.setParams(p);
        nb::TestParams back;
        QVERIFY2(panel.params(&back, &error), qPrintable(error));
        QCOMPARE(back.duration, 10.0);
        QCOMPARE(back.bytes, 200ull * 1024 * 1024);
        QVERIFY(back.isTimed() && back.endsOnBytes());
    }

    // No limit at all is refused with the engine's message.
    void noLimitRefused()
    {
        nb::TestParams p;
        p.host = QStringLiteral("198.18.0.2");
        p.duration = 0;
        nb::gui::TestPanel panel;
        panel.setParams(p);
        nb::TestParams back;
        QString error;
        QVERIFY(!panel.params(&back, &error));
        QVERIFY2(error.contains(QStringLiteral("-n")), qPrintable(error));
    }

    // The spin boxes take their ranges from the parameter table.
    void rangesFromTable()
    {
        nb::gui::TestPanel panel;
        const auto check = [&panel](const char *name, param::Id id) {
            auto *spin = panel.findChild<QSpinBox *>(QLatin1String(name));
            QVERIFY2(spin, name);
            QCOMPARE(spin->maximum(), int(param::parameter(id).max));
            QCOMPARE(spin->minimum(), int(param::parameter(id).min));
        };
        check("streamsSpin", param::Id::Streams);
        check("connectionsSpin", param::Id::Connections);
        check("inFlightSpin", param::Id::InFlight);
        auto *duration = panel.findChild<QDoubleSpinBox *>(QStringLiteral("durationSpin"));
        QCOMPARE(duration->maximum(), param::parameter(param::Id::Duration).max);
        auto *interval = panel.findChild<QDoubleSpinBox *>(QStringLiteral("intervalSpin"));
        QCOMPARE(interval->minimum(), param::parameter(param::Id::Interval).min);
        QCOMPARE(interval->maximum(), param::parameter(param::Id::Interval).max);
    }
};

QTEST_MAIN(TestGuiTestPanelLimits)
#include "tst_gui_testpanellimits.moc"
