// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Rates and link utilisation from interface counters, and the check that a test's bytes
// really crossed the interface it claims.

#include "platform/adapterinfo.h"

#include <QString>

#include <cstdint>

namespace nb {

struct InterfaceRates {
    double seconds = 0;
    double rxBytesPerSecond = 0;
    double txBytesPerSecond = 0;
    double rxPacketsPerSecond = 0;
    double txPacketsPerSecond = 0;
    double droppedPerSecond = 0; // received and sent
    double errorsPerSecond = 0;  // received and sent
    // Percent of the link speed, not clamped: virtual adapters often move more than their
    // nominal speed (an E1000 "1 Gbit/s" doing 2.6 Gbit/s shows 260%), and the live view
    // shows that honestly. -1 when the link speed is unknown.
    double rxUtilizationPct = -1;
    double txUtilizationPct = -1;
};

// Rates between two readings of one interface. A counter that went backwards (the
// interface was re-created, or a 32-bit counter wrapped) counts as no traffic rather than
// as an absurd burst; no elapsed time gives all zeros.
InterfaceRates interfaceRates(const InterfaceCounters &before, const InterfaceCounters &after,
                              std::int64_t linkSpeedBps);

// Default share of a test's bytes the interface must have seen.
inline constexpr double kWrongPathThreshold = 0.9;

// Compares what the engine moved with what the interface counted over the test, per
// direction (sent vs tx, received vs rx; on loopback each byte counts in both). Returns a
// user-facing warning when the interface saw less than `threshold` of either direction,
// or an empty string when the traffic plausibly went through it. Counters include other
// traffic and headers, so only a shortfall is suspicious, never an excess.
QString wrongPathWarning(const QString &interfaceName, const InterfaceCounters &before, const InterfaceCounters &after,
                         std::uint64_t testBytesSent, std::uint64_t testBytesReceived,
                         double threshold = kWrongPathThreshold);

} // namespace nb
