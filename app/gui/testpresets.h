// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Ready-made tests, taken from how the articles our users read run iperf and netperf.
// Each is a CLI flag string, so a preset reads the same as the command it replaces.

#include <testparams.h>

#include <QList>
#include <QString>

namespace nb::gui {

struct TestPreset {
    QString name;
    QString flags;      // e.g. "-P 16 -w 64k -l 128k -t 30"
    QString why;        // tooltip: where it comes from
};

QList<TestPreset> builtinPresets();

// The parameters of a preset on top of the defaults, keeping host and port of base.
nb::TestParams applyPreset(const TestPreset &preset, const nb::TestParams &base);

} // namespace nb::gui
