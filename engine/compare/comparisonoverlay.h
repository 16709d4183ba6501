// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Several comparisons shown together ("before tuning" and "after tuning" snapshots): one
// merged Comparison whose configurations are every source's configurations, with their
// runs, so the statistics (and the baseline verdicts) work across snapshots unchanged.
// Charts group the merged configurations by their original label (the x-axis category)
// and draw one bar per source within a group.

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
    Comparison merged;       // configurations of all sources in source order; runs
                             // concatenated with configIndex remapped; one source:
                             // the comparison itself, unchanged
    QStringList sourceNames; // one per source
    QList<int> sourceOf;     // per merged configuration: index into sourceNames
    QList<int> groupOf;      // per merged configuration: index into groupLabels
    QStringList groupLabels; // distinct original labels, in order of first appearance

    int sourceCount() const { return int(sourceNames.size()); }
    // The merged configuration for (group, source); -1 when that source lacks the label.
    int configurationFor(int group, int source) const;
};

// Merged labels are "<label>" with one source and "<label> (<source name>)" with more.
// The merged baseline is the first source's baseline configuration. The merged
// environment is the first source's; warnings are prefixed with their source's name.
ComparisonOverlay overlayComparisons(const QList<ComparisonSource> &sources);

} // namespace nb
