// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's command line (--run with the CLI's test flags) and the built-in presets.

#include <testflags.h>
#include <testpresets.h>

#include <QTest>

using nb::gui::parseGuiCommandLine;

class TestGuiTestFlags : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void commandLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<bool>("run");
        QTest::addColumn<bool>("quit");
        QTest::addColumn<bool>("hostGiven");
        QTest::addColumn<int>("streams");
        QTest::addColumn<int>("direction");

        const int up = int(nb::Direction::Upload);
        const int down = int(nb::Direction::Download);
        const int bidir = int(nb::Direction::Bidirectional);
        QTest::newRow("no arguments") << QStringList{} << true << false << false << false << 1 << up;
        QTest::newRow("run loopback") << QStringList{QStringLiteral("--run"), QStringLiteral("-t"), QStringLiteral("5")}
                                      << true << true << false << false << 1 << up;
        QTest::newRow("run host") << QStringList{QStringLiteral("--run"),      QStringLiteral("-c"),
                                                 QStringLiteral("198.18.0.2"), QStringLiteral("-P"),
                                                 QStringLiteral("4"),          QStringLiteral("-t"),
                                                 QStringLiteral("5"),          QStringLiteral("--quit-when-done")}
                                  << true << true << true << true << 4 << up;
        QTest::newRow("reverse") << QStringList{QStringLiteral("--run"), QStringLiteral("-c"), QStringLiteral("h"),
                                                QStringLiteral("-R")}
                                 << true << true << false << true << 1 << down;
        QTest::newRow("bidir") << QStringList{QStringLiteral("--run"), QStringLiteral("-c"), QStringLiteral("h"),
                                              QStringLiteral("--bidir"), QStringLiteral("-P16")}
                               << true << true << false << true << 16 << bidir;
        QTest::newRow("unknown flag") << QStringList{QStringLiteral("--run"), QStringLiteral("--frobnicate")} << false
                                      << false << false << false << 1 << up;
        QTest::newRow("too many streams")
            << QStringList{QStringLiteral("--run"), QStringLiteral("-P"), QStringLiteral("2000")} << false << false
            << false << false << 1 << up;
        QTest::newRow("quit without run")
            << QStringList{QStringLiteral("--quit-when-done")} << false << false << false << false << 1 << up;
        QTest::newRow("server mode") << QStringList{QStringLiteral("-s")} << false << false << false << false << 1
                                     << up;
        // The form has no TCP rate: refused rather than run unpaced.
        QTest::newRow("TCP -b") << QStringList{QStringLiteral("--run"), QStringLiteral("-b"), QStringLiteral("10M")}
                                << false << false << false << false << 1 << up;
        QTest::newRow("UDP -b") << QStringList{QStringLiteral("--run"), QStringLiteral("-u"), QStringLiteral("-b"),
                                               QStringLiteral("10M")}
                                << true << true << false << false << 1 << up;
    }

    void commandLine()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, ok);
        args.prepend(QStringLiteral("nicbench"));
        const nb::gui::GuiCommandLine cmd = parseGuiCommandLine(args);
        QCOMPARE(cmd.error.isEmpty(), ok);
        if (!ok)
            return;
        QTEST(cmd.run, "run");
        QTEST(cmd.quitWhenDone, "quit");
        QTEST(cmd.hostGiven, "hostGiven");
        QTEST(cmd.params.streams, "streams");
        QTEST(int(cmd.params.direction), "direction");
    }

    void windowsTunedPreset()
    {
        const auto presets = nb::gui::builtinPresets();
        auto it = std::find_if(presets.cbegin(), presets.cend(), [](const nb::gui::TestPreset &p) {
            return p.name.startsWith(QStringLiteral("iperf, Windows tuned"));
        });
        QVERIFY(it != presets.cend());
        nb::TestParams base;
        base.host = QStringLiteral("198.18.0.2");
        base.port = 5999;
        const nb::TestParams p = nb::gui::applyPreset(*it, base);
        QCOMPARE(p.streams, 16);
        QCOMPARE(p.window, 64u * 1024);
        QCOMPARE(p.blockSize, 128u * 1024);
        QCOMPARE(p.duration, 30.0);
        QCOMPARE(p.host, base.host);
        QCOMPARE(p.port, base.port);
    }

    void everyPresetParses()
    {
        for (const nb::gui::TestPreset &preset : nb::gui::builtinPresets()) {
            nb::TestParams p;
            QString error;
            QVERIFY2(nb::gui::parseTestFlags(preset.flags.split(QLatin1Char(' ')), &p, &error),
                     qPrintable(preset.name + QStringLiteral(": ") + error));
            p.host = QStringLiteral("localhost");
            QVERIFY2(p.validate().isEmpty(), qPrintable(preset.name + QStringLiteral(": ") + p.validate()));
        }
    }
};

QTEST_GUILESS_MAIN(TestGuiTestFlags)
#include "tst_gui_testflags.moc"
