// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/testflags.h"

#include <session/commandline.h>

namespace nb::gui {

namespace {

const auto kRunFlag = QStringLiteral("run");
const auto kQuitFlag = QStringLiteral("quit-when-done");
const auto kJsonOutFlag = QStringLiteral("--json-out");

// Takes "--json-out FILE" / "--json-out=FILE" out of the arguments: the shared parser
// knows only boolean extras.
QStringList takeJsonOut(QStringList args, QString *path, QString *error)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == kJsonOutFlag) {
            if (i + 1 >= args.size()) {
                *error = QStringLiteral("option '--json-out' needs a value");
                return args;
            }
            *path = args.at(i + 1);
            args.remove(i, 2);
            return args;
        }
        if (a.startsWith(kJsonOutFlag + QLatin1Char('='))) {
            *path = a.mid(kJsonOutFlag.size() + 1);
            args.remove(i);
            return args;
        }
    }
    return args;
}

} // namespace

namespace {

// Whether the arguments set the report interval (-i N, -iN, --interval N, --interval=N).
bool namesInterval(const QStringList &args)
{
    for (const QString &a : args) {
        if (a.startsWith(QLatin1String("-i")) || a == QLatin1String("--interval") ||
            a.startsWith(QLatin1String("--interval=")))
            return true;
    }
    return false;
}

} // namespace

bool parseTestFlags(const QStringList &flags, nb::TestParams *params, QString *error)
{
    nb::CommandLine cl;
    QString err;
    if (!nb::parseCommandLine(flags, &cl, &err)) {
        if (error)
            *error = err;
        return false;
    }
    if (cl.mode != nb::CommandLine::Mode::None) {
        if (error)
            *error = QStringLiteral("only test flags are allowed here");
        return false;
    }
    *params = cl.params;
    if (!namesInterval(flags))
        params->interval = DefaultIntervalSecs;
    return true;
}

GuiCommandLine parseGuiCommandLine(const QStringList &arguments)
{
    GuiCommandLine result;
    nb::CommandLine cl;
    const QStringList args = takeJsonOut(arguments.mid(1), &result.jsonOutPath, &result.error);
    if (!result.error.isEmpty())
        return result;
    if (!nb::parseCommandLine(args, &cl, &result.error, {kRunFlag, kQuitFlag}))
        return result;
    result.run = cl.extraArgs.contains(kRunFlag);
    result.quitWhenDone = cl.extraArgs.contains(kQuitFlag);
    result.params = cl.params;
    if (!namesInterval(args))
        result.params.interval = DefaultIntervalSecs;
    switch (cl.mode) {
    case nb::CommandLine::Mode::Help:
        result.showHelp = true;
        break;
    case nb::CommandLine::Mode::Version:
        result.showVersion = true;
        break;
    case nb::CommandLine::Mode::Client:
        result.hostGiven = true;
        if (!cl.fromHost.isEmpty())
            result.error = QStringLiteral("--from (a test run by an agent) is nicbench-cli's");
        break;
    case nb::CommandLine::Mode::Server:
        result.error = QStringLiteral("the window always runs its own server on loopback; "
                                      "for a server on the network use nicbench-cli -s");
        break;
    case nb::CommandLine::Mode::Interfaces:
        result.error = QStringLiteral("--interfaces is a nicbench-cli option");
        break;
    case nb::CommandLine::Mode::None:
        break;
    }
    if (result.error.isEmpty() && result.quitWhenDone && !result.run)
        result.error = QStringLiteral("--quit-when-done needs --run");
    // The test form has a rate for UDP only: a TCP -b would be dropped on the way.
    if (result.error.isEmpty() && result.params.pacesTcp())
        result.error = QStringLiteral("-b for a TCP test is nicbench-cli's (the window paces UDP tests, -u, only)");
    return result;
}

QString guiCommandLineHelp(const QString &program)
{
    return nb::commandLineHelp(program, true) +
           QStringLiteral(
               "  --json-out FILE           write the result as JSON (like -J) to FILE when the test ends\n\n"
               "In the window -i defaults to %1 s. The window runs its own server on loopback: a server for\n"
               "the network, its limits and authentication, and agents are nicbench-cli's (nicbench-cli --help).\n")
               .arg(DefaultIntervalSecs);
}

} // namespace nb::gui
