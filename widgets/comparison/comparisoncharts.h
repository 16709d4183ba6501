// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The comparison view's charts, one file each on a shared base (comparisonchart.h):
// grouped bars per metric, the per-interval timeline, the latency distribution.

#include "comparison/comparisonbarchart.h"
#include "comparison/comparisontimelinechart.h"
#include "comparison/latencydistributionchart.h"
