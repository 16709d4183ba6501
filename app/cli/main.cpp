// SPDX-License-Identifier: GPL-3.0-or-later
// nicbench-cli: the headless client and server. Links the engine only.
#include "climanpage.h"
#include "compare/adapterpairs.h"
#include "comparecommand.h"
#include "core/format.h"
#include "core/sanitize.h"
#include "interrupts.h"
#include "labcommand.h"
#include "meshcommand.h"
#include "platform/adapterinfo.h"
#include "platform/platform.h"
#include "reportprinter.h"
#include "session/agentcontroller.h"
#include "session/agentpolicy.h"
#include "session/authoptions.h"
#include "session/commandline.h"
#include "session/server.h"
#include "session/serverinfo.h"
#include "session/throughputclient.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace {

std::atomic<nb::ThroughputClient *> g_client{nullptr};
std::atomic<nb::AgentController *> g_controller{nullptr};
std::atomic<nb::Server *> g_server{nullptr};
void stopAll()
{
    // First Ctrl-C ends the test gracefully and prints what was measured.
    if (auto *c = g_client.load())
        c->requestStop();
    if (auto *c = g_controller.load())
        c->requestStop();
    if (auto *s = g_server.load())
        s->stop();
}

using nb::cli::fail;

// Everything printed here is one value on one line, and much of it comes from a server
// (its host name, OS, adapter names): made printable first (core/sanitize.h).
QByteArray local8(const QString &s)
{
    return nb::printable(s, 0).toLocal8Bit();
}

void printAdapterTable(const QList<nb::AdapterInfo> &adapters)
{
    std::printf("%-16s %-10s %-14s %6s %12s %-8s %s\n", "NAME", "FAMILY", "DRIVER", "MTU", "SPEED", "STATE",
                "ADDRESSES");
    for (const nb::AdapterInfo &a : adapters) {
        QStringList addrs;
        for (const nb::AdapterAddress &ad : a.addresses)
            addrs.append(QStringLiteral("%1/%2").arg(ad.address.toString()).arg(ad.prefixLength));
        QStringList offloads;
        for (auto it = a.offloads.cbegin(); it != a.offloads.cend(); ++it)
            if (it.value())
                offloads.append(it.key());
        const QString speed =
            a.linkSpeedBps > 0 ? nb::formatBitrate(double(a.linkSpeedBps)) : QStringLiteral("unknown");
        std::printf("%-16s %-10s %-14s %6d %12s %-8s %s\n", local8(a.name).constData(),
                    local8(nb::familyName(a.family)).constData(),
                    local8(a.driver.isEmpty() ? QStringLiteral("-") : a.driver).constData(), a.mtu,
                    local8(speed).constData(), local8(a.operState).constData(),
                    local8(addrs.join(QStringLiteral(", "))).constData());
        if (!offloads.isEmpty())
            std::printf("%-16s offloads on: %s\n", "", local8(offloads.join(QLatin1Char(' '))).constData());
    }
}

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
    printAdapterTable(adapters);
    return 0;
}

QString ipFamily(const nb::AdapterPair &p)
{
    return QHostAddress(p.localAddress).protocol() == QAbstractSocket::IPv6Protocol ? QStringLiteral("ipv6")
                                                                                    : QStringLiteral("ipv4");
}

// --interfaces -c HOST: the server's machine and adapters (the info query), then which
// local adapter reaches which of them, as -B/-c arguments for the next test.
int describeServer(const nb::CommandLine &cl)
{
    nb::ServerInfoQuery q;
    q.host = cl.params.host;
    q.port = cl.params.port;
    q.bindAddress = cl.params.bindAddress;
    q.family = cl.params.family;
    q.timeoutSeconds = cl.params.connectTimeoutMs / 1000.0;
    q.username = cl.params.username;
    q.rsaPublicKeyPath = cl.params.rsaPublicKeyPath;
    q.password = cl.params.password;
    nb::HostEnvironment server;
    QString error;
    if (!nb::queryServerInfo(q, &server, &error)) {
        if (cl.json) {
            const QJsonObject o{
                {QStringLiteral("server"), q.host}, {QStringLiteral("port"), q.port}, {QStringLiteral("error"), error}};
            std::fputs(QJsonDocument(o).toJson(QJsonDocument::Indented).constData(), stdout);
        }
        return fail(error);
    }
    const QList<nb::AdapterPair> pairs = nb::suggestAdapterPairs(nb::platform::listAdapters(), server.adapters);
    if (cl.json) {
        QJsonArray arr;
        for (const nb::AdapterPair &p : pairs) {
            arr.append(QJsonObject{{QStringLiteral("label"), p.label()},
                                   {QStringLiteral("ip_family"), ipFamily(p)},
                                   {QStringLiteral("local_interface"), p.local.name},
                                   {QStringLiteral("local_family"), nb::familyName(p.local.family)},
                                   {QStringLiteral("local_address"), p.localAddress},
                                   {QStringLiteral("remote_interface"), p.remote.name},
                                   {QStringLiteral("remote_family"), nb::familyName(p.remote.family)},
                                   {QStringLiteral("remote_address"), p.remoteAddress},
                                   {QStringLiteral("prefix_length"), p.prefixLength}});
        }
        const QJsonObject o{{QStringLiteral("server"), q.host},
                            {QStringLiteral("port"), q.port},
                            {QStringLiteral("host"), server.toJson()},
                            {QStringLiteral("pairs"), arr}};
        std::fputs(QJsonDocument(o).toJson(QJsonDocument::Indented).constData(), stdout);
        return 0;
    }
    auto orUnknown = [](const QString &s) { return s.isEmpty() ? QStringLiteral("unknown") : s; };
    std::printf("Server %s port %u: %s, nicbench %s\n", local8(q.host).constData(), unsigned(q.port),
                local8(orUnknown(server.hostName)).constData(), local8(orUnknown(server.nicbenchVersion)).constData());
    std::printf("  OS:     %s\n  Kernel: %s\n", local8(orUnknown(server.os)).constData(),
                local8(orUnknown(server.kernel)).constData());
    QString cpu = orUnknown(server.cpuModel);
    if (server.cpuCount > 0)
        cpu += QStringLiteral(", %1 cores").arg(server.cpuCount);
    if (server.cpuClockHz > 0)
        cpu += QStringLiteral(", %1").arg(nb::formatClock(server.cpuClockHz));
    std::printf("  CPU:    %s\n\nServer adapters:\n", local8(cpu).constData());
    printAdapterTable(server.adapters);
    if (pairs.isEmpty()) {
        std::printf("\nNo local adapter shares a subnet with the server's adapters.\n");
        return 0;
    }
    std::printf("\nSuggested adapter pairs (local -> server), as test arguments:\n");
    for (const nb::AdapterPair &p : pairs) {
        std::printf("  %-36s -B %s -c %s   (%s -> %s, /%d)\n", local8(p.label()).constData(),
                    local8(p.localAddress).constData(), local8(p.remoteAddress).constData(),
                    local8(nb::familyName(p.local.family)).constData(),
                    local8(nb::familyName(p.remote.family)).constData(), p.prefixLength);
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // Thousands of flows need as many descriptors; tests check the limit before they start.
    nb::platform::raiseFileLimit();
    QCoreApplication::setApplicationName(QStringLiteral("nicbench-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(NICBENCH_VERSION));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    // Hidden: the man page, written out by the build (packaging/CMakeLists.txt).
    if (args == QStringList{QStringLiteral("--man")}) {
        std::fputs(nb::cli::cliManPage().toUtf8().constData(), stdout);
        return 0;
    }
    if (!args.isEmpty() && nb::cli::isComparisonSubcommand(args.first()))
        return nb::cli::runComparisonSubcommand(args);
    if (!args.isEmpty() && args.first() == QLatin1String("mesh"))
        return nb::cli::meshCommand(args.mid(1));
    if (!args.isEmpty() && nb::cli::isLabSubcommand(args.first()))
        return nb::cli::runLabSubcommand(args);

    nb::CommandLine cl;
    QString error;
    if (!nb::parseCommandLine(args, &cl, &error))
        return fail(error);
    // --username: the password from IPERF3_PASSWORD or the terminal, before anything connects.
    if (!nb::obtainPassword(&cl.params, &error))
        return fail(error);
    nb::cli::installInterruptHandler(&stopAll);
    const auto style = cl.json         ? nb::ReportPrinter::Style::Json
                       : cl.jsonStream ? nb::ReportPrinter::Style::JsonStream
                                       : nb::ReportPrinter::Style::Text;

    switch (cl.mode) {
    case nb::CommandLine::Mode::Help:
        std::fputs(nb::commandLineHelp(QStringLiteral("nicbench-cli")).toLocal8Bit().constData(), stdout);
        return 0;
    case nb::CommandLine::Mode::Version:
        std::printf("nicbench-cli %s (iperf3 protocol compatible)\nOptional features: authentication %s\n",
                    NICBENCH_VERSION, nb::proto::auth::available() ? "on" : "off (built without OpenSSL)");
        return 0;
    case nb::CommandLine::Mode::None:
        return fail(QStringLiteral("give -s to serve or -c HOST to run a test (see --help)"));
    case nb::CommandLine::Mode::Interfaces:
        return cl.params.host.isEmpty() ? listInterfaces(cl.json) : describeServer(cl);
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
        if (!cl.server.agentKeyPath.isEmpty())
            std::printf("Agent: runs tests for controllers holding the key in %s, toward %s\n",
                        local8(cl.server.agentKeyPath).constData(),
                        local8(cl.server.agentTargets
                                   ? nb::networksText(*cl.server.agentTargets)
                                   : nb::networksText(nb::connectedSubnets(nb::platform::listAdapters())) +
                                         QStringLiteral(" (this machine's subnets)"))
                            .constData());
        std::fflush(stdout);
        const int rc = server.serve();
        g_server.store(nullptr);
        return rc;
    }
    case nb::CommandLine::Mode::Client: {
        nb::ReportPrinter printer(style, cl.verbose, false);
        if (!cl.fromHost.isEmpty()) {
            // The test runs on the agent; its reports print here as they arrive.
            nb::AgentController controller(cl, &printer);
            g_controller.store(&controller);
            const nb::TestResult r = controller.run();
            g_controller.store(nullptr);
            return r.ok() ? 0 : fail(r.error);
        }
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
