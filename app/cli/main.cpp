// SPDX-License-Identifier: GPL-3.0-or-later
// nicbench-cli: the headless client and server. Links the engine only.
#include "adapterinfo.h"
#include "commandline.h"
#include "interrupts.h"
#include "comparecommand.h"
#include "platform/platform.h"
#include "units.h"
#include "reportprinter.h"
#include "server.h"
#include "throughputclient.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>

#include <csignal>
#include <cstdio>

namespace {

std::atomic<nb::ThroughputClient *> g_client{nullptr};
std::atomic<nb::Server *> g_server{nullptr};
void stopAll()
{
    // First Ctrl-C ends the test gracefully and prints what was measured.
    if (auto *c = g_client.load())
        c->requestStop();
    if (auto *s = g_server.load())
        s->stop();
}

using nb::cli::fail;

int listInterfaces(bool json)
{
    const QList<nb::AdapterInfo> adapters = nb::platform::listAdapters();
    if (json) {
        QJsonArray arr;
        for (const nb::AdapterInfo &a : adapters)
            arr.append(a.toJson());
        QJsonObject o;
        o.insert(QStringLiteral("interfaces"), arr);
        std::fputs(QJsonDocument(o).toJson(QJsonDocument::Indented).constData(), stdout);
        return 0;
    }
    std::printf("%-16s %-10s %-14s %6s %12s %-8s %s\n", "NAME", "FAMILY", "DRIVER", "MTU", "SPEED", "STATE", "ADDRESSES");
    for (const nb::AdapterInfo &a : adapters) {
        QStringList addrs;
        for (const nb::AdapterAddress &ad : a.addresses)
            addrs.append(QStringLiteral("%1/%2").arg(ad.address.toString()).arg(ad.prefixLength));
        QStringList offloads;
        for (auto it = a.offloads.cbegin(); it != a.offloads.cend(); ++it)
            if (it.value())
                offloads.append(it.key());
        const QString speed = a.linkSpeedBps > 0 ? nb::formatBitrate(double(a.linkSpeedBps)) : QStringLiteral("unknown");
        std::printf("%-16s %-10s %-14s %6d %12s %-8s %s\n", a.name.toLocal8Bit().constData(),
                    nb::familyName(a.family).toLocal8Bit().constData(),
                    (a.driver.isEmpty() ? QStringLiteral("-") : a.driver).toLocal8Bit().constData(), a.mtu,
                    speed.toLocal8Bit().constData(), a.operState.toLocal8Bit().constData(),
                    addrs.join(QStringLiteral(", ")).toLocal8Bit().constData());
        if (!offloads.isEmpty())
            std::printf("%-16s offloads on: %s\n", "", offloads.join(QLatin1Char(' ')).toLocal8Bit().constData());
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("nicbench-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(NICBENCH_VERSION));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (!args.isEmpty() && nb::cli::isComparisonSubcommand(args.first()))
        return nb::cli::runComparisonSubcommand(args);

    nb::CommandLine cl;
    QString error;
    if (!nb::parseCommandLine(args, &cl, &error))
        return fail(error);
    nb::cli::installInterruptHandler(&stopAll);
    const auto style = cl.json ? nb::ReportPrinter::Style::Json
                       : cl.jsonStream ? nb::ReportPrinter::Style::JsonStream
                                       : nb::ReportPrinter::Style::Text;

    switch (cl.mode) {
    case nb::CommandLine::Mode::Help:
        std::fputs(nb::commandLineHelp(QStringLiteral("nicbench-cli")).toLocal8Bit().constData(), stdout);
        return 0;
    case nb::CommandLine::Mode::Version:
        std::printf("nicbench-cli %s (iperf3 protocol compatible)\n", NICBENCH_VERSION);
        return 0;
    case nb::CommandLine::Mode::None:
        return fail(QStringLiteral("give -s to serve or -c HOST to run a test (see --help)"));
    case nb::CommandLine::Mode::Interfaces:
        return listInterfaces(cl.json);
    case nb::CommandLine::Mode::Server: {
        nb::ReportPrinter printer(style, cl.verbose, true);
        nb::Server server(cl.server, &printer);
        if (!server.listen(&error))
            return fail(error);
        g_server.store(&server);
        std::printf("-----------------------------------------------------------\n"
                    "Server listening on %u (nicbench %s)\n"
                    "-----------------------------------------------------------\n",
                    unsigned(server.port()), NICBENCH_VERSION);
        std::fflush(stdout);
        const int rc = server.serve();
        g_server.store(nullptr);
        return rc;
    }
    case nb::CommandLine::Mode::Client: {
        nb::ReportPrinter printer(style, cl.verbose, false);
        nb::ThroughputClient client(cl.params, &printer);
        g_client.store(&client);
        const nb::TestResult r = client.run();
        g_client.store(nullptr);
        if (!r.ok())
            return fail(r.error);
        return 0;
    }
    }
    return 0;
}
