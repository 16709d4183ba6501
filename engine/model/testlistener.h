// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/results.h"

namespace nb {

// How the engine reports progress. Called from the engine's control thread, never from a
// data-path thread; implementations that touch a GUI must hand the data over with a
// queued call. Default implementations ignore everything.
class TestListener {
public:
    virtual ~TestListener() = default;
    // Streams are connected and data starts flowing.
    virtual void testStarted(const TestResult & /*header*/) {}
    // One interval is complete (omitted intervals are reported with omitted=true).
    virtual void intervalReady(const IntervalReport & /*report*/) {}
    // Final result (also on error: result.error is set and holds what was measured).
    virtual void testFinished(const TestResult & /*result*/) {}
    // Free-form progress messages ("Connecting to host, port 5201").
    virtual void message(const QString & /*text*/) {}
};

} // namespace nb
