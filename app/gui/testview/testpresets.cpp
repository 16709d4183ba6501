// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/testpresets.h"

#include "testview/testflags.h"

namespace nb::gui {

QList<TestPreset> builtinPresets()
{
    return {
        {QStringLiteral("Single stream, 10 s"), QStringLiteral("-P 1 -t 10"),
         QStringLiteral("iperf3's defaults: one TCP stream, 128 KiB buffers.")},
        {QStringLiteral("4 streams, 10 s"), QStringLiteral("-P 4 -t 10"),
         QStringLiteral("Parallel streams spread the load over more cores and queues (RSS).")},
        {QStringLiteral("iperf, Windows tuned: -P 16 -w 64k -l 128k -t 30"),
         QStringLiteral("-P 16 -w 64k -l 128k -t 30"),
         QStringLiteral("The settings the VMXNET3 vs E1000 comparisons use on Windows guests "
                        "(server: iperf -s -w 64k -l 128k).")},
        {QStringLiteral("netperf-style TCP_STREAM, 16 KiB sends, 60 s"), QStringLiteral("-P 1 -l 16k -t 60"),
         QStringLiteral("Like netperf -t TCP_STREAM -l 60 with 16 KiB send messages.")},
        {QStringLiteral("Download (-R), 10 s"), QStringLiteral("-R -t 10"),
         QStringLiteral("The server sends, this computer receives.")},
        {QStringLiteral("Bidirectional, 10 s"), QStringLiteral("--bidir -t 10"),
         QStringLiteral("Send and receive at the same time, as a busy file server does.")},
        {QStringLiteral("Quick check, 3 s"), QStringLiteral("-P 1 -t 3 -i 0.5"),
         QStringLiteral("A fast sanity check of a link before a long run.")},
        {QStringLiteral("netperf-style TCP_RR, 60 s"), QStringLiteral("--rr --request-size 1 --response-size 1 -t 60"),
         QStringLiteral("Like netperf -t TCP_RR -l 60: one connection, 1-byte request and response, one "
                        "transaction at a time; transactions/s and latency, as the VMXNET3/E1000 articles measure.")},
        {QStringLiteral("netperf-style TCP_CRR, 60 s"), QStringLiteral("--crr -t 60"),
         QStringLiteral("Like netperf -t TCP_CRR -l 60: a new connection for every transaction.")},
        {QStringLiteral("Request/response, 4 connections x 8 in flight, 10 s"),
         QStringLiteral("--rr --connections 4 --in-flight 8 -t 10"),
         QStringLiteral("Many small transactions at once, like a busy database or web server.")},
        {QStringLiteral("netperf TCP_STREAM then TCP_RR, 60 s each"), QStringLiteral("-P 1 -l 16k -t 60"),
         QStringLiteral("The pair of tests the adapter articles run: throughput, then transactions/s "
                        "and latency, each for 60 s."),
         true},
        {QStringLiteral("Latency under load: idle, download, upload, both, idle; 4 streams, 5 s each"),
         QStringLiteral("--latency-under-load -P 4 --phase-seconds 5"),
         QStringLiteral("A 1-byte request/response probe runs the whole time while 4 streams each way load the "
                        "link in turn, as flent's RRUL and Crusader measure: how much latency grows when the "
                        "adapter is busy.")},
        {QStringLiteral("Quick request/response check, 3 s"), QStringLiteral("--rr -t 3 -i 0.5"),
         QStringLiteral("A fast latency check before a long run.")},
        {QStringLiteral("UDP 1 Mbit/s (iperf3 default)"), QStringLiteral("-u -t 10"),
         QStringLiteral("iperf3 -u with no -b: 1 Mbit/s of datagrams the size of the path's MSS; loss and "
                        "jitter of a lightly used link.")},
        {QStringLiteral("UDP 100 Mbit/s"), QStringLiteral("-u -b 100M -t 10"),
         QStringLiteral("iperf3 -u -b 100M: a paced load where ring sizes and interrupt coalescing show up as "
                        "loss and jitter.")},
        {QStringLiteral("UDP 1 Gbit/s"), QStringLiteral("-u -b 1G -t 10"),
         QStringLiteral("iperf3 -u -b 1G: a gigabit link's line rate; above what the path carries, the loss "
                        "says how much did not fit.")},
        {QStringLiteral("UDP unlimited (-b 0)"), QStringLiteral("-u -b 0 -t 10"),
         QStringLiteral("iperf3 -u -b 0: as fast as the sender can; the received rate is what the adapter and "
                        "the receiver keep up with.")},
        {QStringLiteral("UDP request/response"), QStringLiteral("-u --rr -t 10"),
         QStringLiteral("Like netperf -t UDP_RR: a 1-byte datagram and its answer, one at a time; "
                        "transactions/s, latency, and requests lost (no answer within the timeout).")},
    };
}

nb::TestParams applyPreset(const TestPreset &preset, const nb::TestParams &base)
{
    nb::TestParams params;
    parseTestFlags(preset.flags.split(QLatin1Char(' '), Qt::SkipEmptyParts), &params, nullptr);
    params.host = base.host;
    params.port = base.port;
    params.bindAddress = base.bindAddress;
    params.family = base.family;
    params.protocol = base.protocol;
    params.connectTimeoutMs = base.connectTimeoutMs;
    return params;
}

} // namespace nb::gui
