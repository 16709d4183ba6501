// SPDX-License-Identifier: GPL-3.0-or-later
// The NicBench window. With no arguments it opens with a built-in loopback server; with
// --run and the CLI's test flags it starts that test at once (--quit-when-done exits
// afterwards, with status 0 on success), for desktop shortcuts and scripted screenshots.

#include "mainwindow.h"
#include "testflags.h"

#include <QApplication>
#include <QIcon>
#include <QTimer>

#include <cstdio>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("NicBench"));
    QApplication::setApplicationName(QStringLiteral("nicbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("NicBench"));
    QApplication::setApplicationVersion(QStringLiteral(NICBENCH_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("nicbench"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/nicbench.svg")));

    const nb::gui::GuiCommandLine cmd = nb::gui::parseGuiCommandLine(QApplication::arguments());
    if (!cmd.error.isEmpty()) {
        std::fprintf(stderr, "nicbench: %s\n", qPrintable(cmd.error));
        return 2;
    }
    if (cmd.showHelp) {
        std::fputs(qPrintable(nb::gui::guiCommandLineHelp(QStringLiteral("nicbench"))), stdout);
        return 0;
    }
    if (cmd.showVersion) {
        std::printf("nicbench %s\n", NICBENCH_VERSION);
        return 0;
    }

    nb::gui::MainWindow window;
    window.setJsonOutputPath(cmd.jsonOutPath);
    window.startBuiltinServer();
    window.show();

    if (cmd.run) {
        nb::TestParams params = cmd.params;
        if (!cmd.hostGiven)
            params.host.clear();   // the built-in server
        QTimer::singleShot(0, &window, [&window, params] { window.runTest(params); });
    }
    if (cmd.quitWhenDone) {
        QObject::connect(&window, &nb::gui::MainWindow::testFinished, &app, [](const nb::TestResult &result) {
            if (!result.ok())
                std::fprintf(stderr, "nicbench: %s\n", qPrintable(result.error));
            // A short pause so the finished window can be seen (and captured) before it goes.
            QTimer::singleShot(1500, qApp, [ok = result.ok()] { QCoreApplication::exit(ok ? 0 : 1); });
        });
    }
    return app.exec();
}
