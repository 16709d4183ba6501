// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Several comparisons shown together ("before tuning" and "after tuning" snapshots): one
// merged Comparison whose configurations are every source's configurations, with their
// runs, so the statistics work across snapshots unchanged.
//
// Charts put the test variants on the axis (groups: "P=4", "TCP_RR") and draw one bar per
// series within a group: the adapters ("E1000", "VMXNET3") of one source, or each adapter
// of each source ("E1000 (before)", "E1000 (after)") when several overlay. Verdicts with
// several sources compare each configuration with the same configuration (adapter and
// variant) of the baseline source; with one source, with the baseline adapter's
// configuration of the same variant (Comparison::baselineFor).

#include "compare/comparison.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace nb {

struct ComparisonSource {
    QString name; // legend text: the snapshot's file name or title
    Comparison comparison;
};

struct ComparisonOverlay {
    Comparison merged;         // configurations of all sources in source order; runs
                               // concatenated with configIndex remapped; one source:
                               // the comparison itself, unchanged
    QStringList sourceNames;   // one per source
    int baselineSource = 0;    // with several sources, the one the others are compared with
    QList<int> sourceOf;       // per merged configuration: index into sourceNames
    QList<int> groupOf;        // per merged configuration: index into groupLabels
    QStringList groupLabels;   // distinct variants, in order of first appearance ("" when
                               // the comparisons have a single unnamed variant)
    QList<int> adapterOf;      // per merged configuration: index into adapterLabels
    QStringList adapterLabels; // distinct adapters, in order of first appearance
    QList<int> seriesOf;       // per merged configuration: index into seriesLabels
    QStringList seriesLabels;  // adapters; with several sources "<adapter> (<source>)"
    QList<int> seriesAdapter;  // per series: index into adapterLabels (its colour)
    QList<int> seriesSource;   // per series: index into sourceNames (its fill pattern)

    int sourceCount() const { return int(sourceNames.size()); }
    int seriesCount() const { return int(seriesLabels.size()); }
    // The merged configuration for (group, series); -1 when there is none.
    int configurationFor(int group, int series) const;
};

// Merged labels are "<label>" with one source and "<label> (<source name>)" with more.
// With several sources, each configuration of another source is compared with the
// baseline source's configuration of the same adapter and variant, or, when that source
// has no such adapter, with its baseline adapter's configuration of the same variant
// (merged.baselineOf); the baseline source's own configurations are the baselines. The
// merged environment is the first source's; warnings are prefixed with their source's name.
ComparisonOverlay overlayComparisons(const QList<ComparisonSource> &sources, int baselineSource = 0);

} // namespace nb
