// SPDX-License-Identifier: GPL-3.0-or-later
#include "climanpage.h"

#include "comparecommand.h"
#include "labcommand.h"

#include "core/manpage.h"
#include "session/commandline.h"

namespace nb::cli {

QString cliManPage()
{
    ManPage page;
    page.name = QStringLiteral("nicbench-cli");
    page.section = QStringLiteral("1");
    page.version = QStringLiteral(NICBENCH_VERSION);
    page.summary = QStringLiteral("network adapter benchmark, iperf3-compatible client and server");
    page.help = commandLineHelp(QStringLiteral("nicbench-cli")) + QStringLiteral("\nThe compare subcommand:\n") +
                compareUsage() + QStringLiteral("\nThe report subcommand:\n") + reportUsage() +
                QStringLiteral("\nThe lab subcommand:\n") + labUsage();
    page.description = {
        QStringLiteral("nicbench-cli measures TCP throughput, request/response latency (TCP_RR, TCP_CRR) and "
                       "the CPU cost of both sides. It speaks the iperf3 protocol: it runs against a stock "
                       "iperf3 server, a stock iperf3 client runs against its server (-s), and it runs "
                       "against an iperf2 server (upload only)."),
        QStringLiteral("With -s it serves tests (by default on port 5201). The server can limit what it "
                       "takes (--max-duration, --max-streams, --max-bitrate, --allow, --rate-limit); the "
                       "nicbench-server.service unit runs it under systemd with the options in "
                       "/etc/default/nicbench-server."),
        QStringLiteral("With --agent-key FILE a server is also an agent: a controller that holds the same key "
                       "(nicbench-cli -c B --from A --agent-key FILE) has it run a test toward B, only toward the "
                       "networks of --agent-targets or else the subnets of its own addresses, and receives the "
                       "intervals as they come and the agent's -J document, with driven_by. Both ends prove the "
                       "key with HMAC-SHA256 over fresh nonces; the key file must hold 16 bytes or more and not be "
                       "readable by every user."),
        QStringLiteral("The compare subcommand runs several configurations interleaved, repeats each and "
                       "writes a .nicbench snapshot; report prints the comparison table of a snapshot. "
                       "The nicbench(1) window opens the same snapshots."),
        QStringLiteral("The lab subcommand boots QEMU guests with emulated E1000, E1000E, VMXNET3 and "
                       "virtio-net adapters driven by the guest kernel's real drivers, each running "
                       "nicbench-cli -s, on a bridge in 198.18.0.0/15 (needs root, qemu-system-x86, "
                       "busybox-static and a Debian kernel with its modules)."),
        QStringLiteral("Exit status: 0 success, 1 an error (one line on stderr), 2 a bad command line or, "
                       "for compare, some runs failed.")};
    page.files = {{QStringLiteral("/etc/default/nicbench-server"),
                   QStringLiteral("NICBENCH_SERVER_ARGS: the server's options for nicbench-server.service")},
                  {QStringLiteral("/usr/lib/systemd/system/nicbench-server.service"),
                   QStringLiteral("the server as a systemd service (not enabled on install)")},
                  {QStringLiteral("/usr/share/doc/nicbench/"),
                   QStringLiteral("README.md and the protocol, JSON output and snapshot format descriptions")}};
    page.seeAlso = {QStringLiteral("nicbench(1)"), QStringLiteral("iperf3(1)"), QStringLiteral("systemd.exec(5)")};
    return manPageRoff(page);
}

} // namespace nb::cli
