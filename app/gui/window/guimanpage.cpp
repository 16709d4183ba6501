// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/guimanpage.h"

#include "compareview/comparisonflags.h"
#include "testview/testflags.h"

#include <core/manpage.h>

namespace nb::gui {

QString guiManPage()
{
    ManPage page;
    page.name = QStringLiteral("nicbench");
    page.section = QStringLiteral("1");
    page.version = QStringLiteral(NICBENCH_VERSION);
    page.summary = QStringLiteral("measure and compare network adapters (the NicBench window)");
    page.help = guiCommandLineHelp(QStringLiteral("nicbench")) + comparisonArgumentsHelp();
    page.description = {
        QStringLiteral("nicbench opens the NicBench window: live link utilization per adapter, one-click "
                       "throughput and request/response tests against a built-in loopback server or any "
                       "iperf3 or NicBench server, live throughput, CPU and latency charts, and "
                       "comparisons of configurations with confidence intervals."),
        QStringLiteral("Files named on the command line are .nicbench snapshots (written by the Compare tab "
                       "or by nicbench-cli compare); they open in the Compare tab, several overlaid. With "
                       "--report-pdf and snapshot files it writes the one-page PDF report without opening "
                       "a window or needing a display."),
        QStringLiteral("Help > Documentation opens the README installed in /usr/share/doc/nicbench; Help > "
                       "About NicBench shows the version, the licence (GPL-3.0-or-later) and the Qt and "
                       "QCustomPlot versions.")};
    page.files = {{QStringLiteral("~/.config/NicBench/nicbench.conf"),
                   QStringLiteral("the window's settings: recent snapshots, theme, test presets")},
                  {QStringLiteral("/usr/share/doc/nicbench/"),
                   QStringLiteral("README.md and the snapshot and comparison spec formats")}};
    page.seeAlso = {QStringLiteral("nicbench-cli(1)"), QStringLiteral("iperf3(1)")};
    return manPageRoff(page);
}

} // namespace nb::gui
