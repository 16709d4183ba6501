// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whether this process may open the descriptors a test needs. Both sides check before the
// data connections open, so a low limit is one clear message at the start instead of
// "Too many open files" half-way through opening them.

#include "model/testparams.h"

#include <QString>

namespace nb {

// Spare descriptors beyond the data connections: the listener, /proc and sysfs files the
// accounting reads, the data path's own event and wake-up descriptors, a window's.
constexpr int DescriptorMargin = 64;

// Descriptors one side holds at once for the test's data: one per data connection (CRR:
// one per connection slot, the connection in progress) and the workers' own (their
// pollers; a CRR server's listener copies). A server's --threads is its own: the count
// assumes the default there, and the margin covers the difference.
int dataDescriptorsNeeded(const TestParams &params, bool serverSide);

// Empty when the descriptor limit covers those open now, the test's and the margin (the
// soft limit is raised toward the hard one first when it falls short); else a message that
// names the limit and how to raise it.
QString checkDescriptorLimit(const TestParams &params, bool serverSide);

} // namespace nb
