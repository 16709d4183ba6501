// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/comparisonflags.h"

namespace nb::gui {

namespace {

bool isSnapshotName(const QString &arg)
{
    return !arg.startsWith(QLatin1Char('-')) &&
           (arg.endsWith(QLatin1String(".nicbench")) || arg.endsWith(QLatin1String(".nicbench.gz")));
}

// Options of the GUI or the test flags whose value could look like a file name.
bool takesValue(const QString &option)
{
    static const QStringList withValue{QStringLiteral("--json-out"), QStringLiteral("--title"),  QStringLiteral("-T"),
                                       QStringLiteral("-c"),         QStringLiteral("--client"), QStringLiteral("-B"),
                                       QStringLiteral("--bind")};
    return withValue.contains(option);
}

} // namespace

ComparisonArguments takeComparisonArguments(const QStringList &arguments)
{
    ComparisonArguments out;
    bool quit = false;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        const auto value = [&](QString *target) {
            if (i + 1 >= arguments.size()) {
                out.error = QStringLiteral("option '%1' needs a value").arg(a);
                return;
            }
            *target = arguments.at(++i);
        };
        if (i == 0) {
            out.rest << a;
        } else if (a == QLatin1String("--compare")) {
            value(&out.specPath);
        } else if (a.startsWith(QLatin1String("--compare="))) {
            out.specPath = a.mid(10);
        } else if (a == QLatin1String("--snapshot-out")) {
            value(&out.snapshotOut);
        } else if (a.startsWith(QLatin1String("--snapshot-out="))) {
            out.snapshotOut = a.mid(15);
        } else if (a == QLatin1String("--report-pdf")) {
            value(&out.reportOut);
        } else if (a.startsWith(QLatin1String("--report-pdf="))) {
            out.reportOut = a.mid(13);
        } else if (a == QLatin1String("--quit-when-done")) {
            quit = true;
            out.rest << a;
        } else if (isSnapshotName(a) && !takesValue(arguments.at(i - 1))) {
            out.snapshots << a;
        } else {
            out.rest << a;
        }
        if (!out.error.isEmpty())
            return out;
    }
    if (!out.specPath.isEmpty()) {
        // --quit-when-done belongs to --compare here, not to --run.
        out.quitWhenDone = quit;
        out.rest.removeAll(QStringLiteral("--quit-when-done"));
        if (!out.snapshots.isEmpty())
            out.error = QStringLiteral("--compare runs a new comparison; open snapshots without it");
    } else if (!out.snapshotOut.isEmpty()) {
        out.error = QStringLiteral("--snapshot-out needs --compare SPEC");
    } else if (!out.reportOut.isEmpty() && out.snapshots.isEmpty()) {
        out.error = QStringLiteral("--report-pdf needs snapshot files (FILE.nicbench) or --compare SPEC");
    }
    if (out.error.isEmpty() && !out.reportOut.isEmpty() &&
        !out.reportOut.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        out.error = QStringLiteral("--report-pdf writes a PDF: give a file name ending in .pdf");
    return out;
}

QString comparisonArgumentsHelp()
{
    return QStringLiteral(
        "\nComparisons (the Compare tab):\n"
        "  FILE.nicbench [FILE2 ...]   open snapshots (several are overlaid in the same charts)\n"
        "  --compare SPEC              run the comparison described in SPEC (docs/compare-spec.md)\n"
        "  --snapshot-out FILE         with --compare: save the snapshot to FILE when it ends\n"
        "  --quit-when-done            with --compare: exit when it ends (0 all runs ok, 2 some failed)\n"
        "  --report-pdf FILE.pdf       the one-page PDF report: of the snapshot files given (no window\n"
        "                              opens, works without a display), or of the --compare run\n");
}

bool isHeadlessReport(int argc, char **argv)
{
    bool report = false, compare = false;
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        report = report || a == QLatin1String("--report-pdf") || a.startsWith(QLatin1String("--report-pdf="));
        compare = compare || a == QLatin1String("--compare") || a.startsWith(QLatin1String("--compare="));
    }
    return report && !compare;
}

} // namespace nb::gui
