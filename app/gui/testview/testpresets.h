// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Ready-made tests, taken from how the articles our users read run iperf and netperf.
// Each is a CLI flag string, so a preset reads the same as the command it replaces.

#include <model/testparams.h>

#include <QList>
#include <QString>

namespace nb::gui {

// What one click on Run does: a throughput test, a request/response test, both in a
// row (throughput first, then request/response with the same target and duration), or
// a request/response probe while load phases run (latency under load), a UDP stream
// (iperf3 -u) or UDP request/response (-u --rr). The values are stored in the settings:
// new types go at the end.
enum class TestType { Throughput, RequestResponse, Both, LoadedLatency, Udp, UdpRequestResponse };
inline bool isUdpType(TestType t)
{
    return t == TestType::Udp || t == TestType::UdpRequestResponse;
}

struct TestPreset {
    QString name;
    QString flags;     // e.g. "-P 16 -w 64k -l 128k -t 30"
    QString why;       // tooltip: where it comes from
    bool both = false; // run the flags as throughput, then as TCP_RR
};

QList<TestPreset> builtinPresets();

// The parameters of a preset on top of the defaults, keeping host and port of base.
nb::TestParams applyPreset(const TestPreset &preset, const nb::TestParams &base);

} // namespace nb::gui
