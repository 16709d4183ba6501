// SPDX-License-Identifier: GPL-3.0-or-later
// The NicBench window. With no arguments it opens with a built-in loopback server; with
// --run and the CLI's test flags it starts that test at once (--quit-when-done exits
// afterwards, with status 0 on success), for desktop shortcuts and scripted screenshots.
// Snapshot files given as arguments open in the Compare tab (several overlay);
// --compare SPEC runs a comparison spec there and --snapshot-out saves what it measured.

#include "compareview/comparisonflags.h"
#include "compareview/comparisonreport.h"
#include "compareview/comparisonview.h"
#include "testview/testflags.h"
#include "window/appsettings.h"
#include "window/apptheme.h"
#include "window/guimanpage.h"
#include "window/mainwindow.h"

#include <compare/comparisonoverlay.h>
#include <compare/comparisonspec.h>
#include <compare/comparisonstatistics.h>
#include <compare/snapshot.h>
#include <platform/platform.h>

#include <QApplication>
#include <QFile>
#include <QIcon>
#include <QTimer>
#include <common/messagebanner.h>

#include <cstdio>
#include <cstring>
#include <optional>

namespace {

bool writeReport(const QString &path, const QList<nb::ComparisonSource> &sources)
{
    const nb::ComparisonOverlay overlay = nb::overlayComparisons(sources);
    QString error;
    if (!nb::gui::writeComparisonReport(path, overlay, nb::computeStatistics(overlay.merged), &error)) {
        std::fprintf(stderr, "nicbench: %s\n", qPrintable(error));
        return false;
    }
    std::fprintf(stderr, "nicbench: wrote %s\n", qPrintable(path));
    return true;
}

// A report from snapshot files shows no window, so it must not need a display; nor do
// --help and --version (a package test, a terminal over ssh).
void useOffscreenWhenHeadless(int argc, char *argv[])
{
    bool textOnly = false;
    for (int i = 1; i < argc; ++i) {
        for (const char *flag : {"-h", "--help", "-v", "--version"})
            textOnly = textOnly || std::strcmp(argv[i], flag) == 0;
    }
    if ((textOnly || nb::gui::isHeadlessReport(argc, argv)) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

void setUpApplication()
{
    // Thousands of flows need as many descriptors; tests check the limit before they start.
    nb::platform::raiseFileLimit();
    QApplication::setOrganizationName(QStringLiteral("NicBench"));
    QApplication::setApplicationName(QStringLiteral("nicbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("NicBench"));
    QApplication::setApplicationVersion(QStringLiteral(NICBENCH_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("nicbench"));
    // The Windows build embeds the .ico (its Qt has no SVG reader); elsewhere the SVG.
    const QString windowsIcon = QStringLiteral(":/icons/nicbench.ico");
    QApplication::setWindowIcon(
        QIcon(QFile::exists(windowsIcon) ? windowsIcon : QStringLiteral(":/icons/nicbench.svg")));
}

// --help, --version and bad flags end here, with the exit code.
std::optional<int> handleInformationFlags(const nb::gui::ComparisonArguments &compare,
                                          const nb::gui::GuiCommandLine &cmd)
{
    if (!compare.error.isEmpty()) {
        std::fprintf(stderr, "nicbench: %s\n", qPrintable(compare.error));
        return 2;
    }
    if (!cmd.error.isEmpty()) {
        std::fprintf(stderr, "nicbench: %s\n", qPrintable(cmd.error));
        return 2;
    }
    if (cmd.showHelp) {
        std::fputs(qPrintable(nb::gui::guiCommandLineHelp(QStringLiteral("nicbench"))), stdout);
        std::fputs(qPrintable(nb::gui::comparisonArgumentsHelp()), stdout);
        return 0;
    }
    if (cmd.showVersion) {
        std::printf("nicbench %s\n", NICBENCH_VERSION);
        return 0;
    }
    return std::nullopt;
}

// For --report-pdf without a window: a bad file is an error on stderr, exit 1. Returns
// false then. (With a window, files open in it and a bad one is its error banner.)
bool loadSnapshots(const QStringList &paths, QList<nb::ComparisonSource> *snapshots)
{
    for (const QString &path : paths) {
        nb::Comparison c;
        QString error;
        if (!nb::Snapshot::load(path, &c, &error)) {
            std::fprintf(stderr, "nicbench: %s\n", qPrintable(error)); // the error names the file
            return false;
        }
        snapshots->append({nb::gui::snapshotSourceName(path, c), c});
    }
    return true;
}

bool loadSpec(const QString &specPath, nb::Comparison *spec)
{
    QString error;
    if (!nb::comparisonFromSpecFile(specPath, spec, &error)) {
        std::fprintf(stderr, "nicbench: %s\n", qPrintable(error));
        return false;
    }
    if (const QString problem = spec->validate(); !problem.isEmpty()) {
        std::fprintf(stderr, "nicbench: %s: %s\n", qPrintable(specPath), qPrintable(problem));
        return false;
    }
    return true;
}

// --compare SPEC: runs it in the Compare view once the window is up; saves the snapshot and
// the report it was asked for, and quits with 0, 1 (not saved) or 2 (a run failed) if told to.
void runComparisonInWindow(QApplication &app, nb::gui::MainWindow &window, const nb::gui::ComparisonArguments &compare,
                           const nb::Comparison &spec)
{
    nb::gui::ComparisonView *view = window.comparisonView();
    QObject::connect(view, &nb::gui::ComparisonView::comparisonFinished, &app,
                     [out = compare.snapshotOut, report = compare.reportOut,
                      quit = compare.quitWhenDone](const nb::Comparison &done) {
                         int code = 0;
                         for (const nb::Run &r : done.runs)
                             code = r.ok() ? code : 2;
                         if (done.runs.size() != done.schedule().size())
                             code = 2;
                         QString error;
                         if (!out.isEmpty() && !nb::Snapshot::save(done, out, &error)) {
                             std::fprintf(stderr, "nicbench: %s\n", qPrintable(error));
                             code = 1;
                         }
                         if (!report.isEmpty() && !writeReport(report, {{done.title, done}}))
                             code = 1;
                         if (quit)
                             QTimer::singleShot(1500, qApp, [code] { QCoreApplication::exit(code); });
                     });
    QTimer::singleShot(0, &window, [&window, view, spec] {
        window.showCompareArea();
        if (!view->startComparison(spec)) {
            std::fprintf(stderr, "nicbench: %s\n", qPrintable(view->banner()->text()));
            QCoreApplication::exit(1);
        }
    });
}

void quitWhenTestDone(QApplication &app, nb::gui::MainWindow &window)
{
    QObject::connect(&window, &nb::gui::MainWindow::testFinished, &app, [](const nb::TestResult &result) {
        if (!result.ok())
            std::fprintf(stderr, "nicbench: %s\n", qPrintable(result.error));
        // A short pause so the finished window can be seen (and captured) before it goes.
        QTimer::singleShot(1500, qApp, [ok = result.ok()] { QCoreApplication::exit(ok ? 0 : 1); });
    });
}

} // namespace

int main(int argc, char *argv[])
{
    // Before anything prints: on Windows nicbench.exe has no console of its own.
    nb::platform::attachParentConsole();
    // Hidden: the man page, written out by the build; needs no display, so before QApplication.
    if (argc == 2 && std::strcmp(argv[1], "--man") == 0) {
        std::fputs(nb::gui::guiManPage().toUtf8().constData(), stdout);
        return 0;
    }
    useOffscreenWhenHeadless(argc, argv);
    QApplication app(argc, argv);
    setUpApplication();

    const nb::gui::ComparisonArguments compare = nb::gui::takeComparisonArguments(QApplication::arguments());
    const nb::gui::GuiCommandLine cmd = nb::gui::parseGuiCommandLine(compare.rest);
    if (const auto code = handleInformationFlags(compare, cmd))
        return *code;

    if (!compare.reportOut.isEmpty() && compare.specPath.isEmpty()) {
        QList<nb::ComparisonSource> snapshots;
        if (!loadSnapshots(compare.snapshots, &snapshots))
            return 1;
        return writeReport(compare.reportOut, snapshots) ? 0 : 1;
    }
    nb::Comparison spec;
    if (!compare.specPath.isEmpty() && !loadSpec(compare.specPath, &spec))
        return 1;
    if (cmd.run && !compare.specPath.isEmpty()) {
        std::fprintf(stderr, "nicbench: --run and --compare cannot be combined\n");
        return 2;
    }

    // View > Theme: the saved choice, before the first widget exists.
    nb::gui::applyTheme(nb::gui::AppSettings::theme());
    nb::gui::MainWindow window;
    window.setJsonOutputPath(cmd.jsonOutPath);
    window.startBuiltinServer();
    window.show();

    if (cmd.run) {
        nb::TestParams params = cmd.params;
        if (!cmd.hostGiven)
            params.host.clear(); // the built-in server
        QTimer::singleShot(0, &window, [&window, params] { window.runTest(params); });
    }
    // Files from the command line (a double-click in a file manager: Exec=nicbench %F) open
    // like File > Open: a bad one is the Compare view's error banner, in front, and a line on
    // stderr for a terminal. File > Open Recent lists the ones that opened.
    if (!compare.snapshots.isEmpty() && !window.openSnapshots(compare.snapshots))
        std::fprintf(stderr, "nicbench: %s\n", qPrintable(window.comparisonView()->banner()->text()));
    if (!compare.specPath.isEmpty())
        runComparisonInWindow(app, window, compare, spec);
    if (cmd.quitWhenDone)
        quitWhenTestDone(app, window);
    return app.exec();
}
