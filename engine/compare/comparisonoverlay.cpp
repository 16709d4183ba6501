// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonoverlay.h"

#include <algorithm>

namespace nb {

int ComparisonOverlay::configurationFor(int group, int source) const
{
    for (int i = 0; i < int(groupOf.size()) && i < int(sourceOf.size()); ++i)
        if (groupOf[i] == group && sourceOf[i] == source)
            return i;
    return -1;
}

ComparisonOverlay overlayComparisons(const QList<ComparisonSource> &sources)
{
    ComparisonOverlay out;
    for (const ComparisonSource &s : sources)
        out.sourceNames.append(s.name);
    const bool several = sources.size() > 1;

    for (int s = 0; s < int(sources.size()); ++s) {
        const Comparison &c = sources[s].comparison;
        const int offset = int(out.merged.configurations.size());
        for (const Configuration &conf : c.configurations) {
            int group = int(out.groupLabels.indexOf(conf.label));
            if (group < 0) {
                group = int(out.groupLabels.size());
                out.groupLabels.append(conf.label);
            }
            out.groupOf.append(group);
            out.sourceOf.append(s);
        }
        if (!several) {
            out.merged = c;
            break;
        }
        for (Configuration conf : c.configurations) {
            conf.label = QStringLiteral("%1 (%2)").arg(conf.label, sources[s].name);
            out.merged.configurations.append(conf);
        }
        // Runs keep their per-source order; orderIndex is renumbered so the merged list
        // stays a valid execution sequence for validate() and the snapshot writer.
        for (Run run : c.runs) {
            run.configIndex += offset;
            run.orderIndex = int(out.merged.runs.size());
            out.merged.runs.append(run);
        }
        for (const QString &w : c.warnings)
            out.merged.warnings.append(QStringLiteral("%1: %2").arg(sources[s].name, w));
        if (s == 0) {
            out.merged.title = c.title;
            out.merged.repeats = c.repeats;
            out.merged.order = c.order;
            out.merged.seed = c.seed;
            out.merged.pauseSeconds = c.pauseSeconds;
            out.merged.baselineIndex = c.baselineIndex;
            out.merged.environment = c.environment;
            out.merged.createdAt = c.createdAt;
            out.merged.finishedAt = c.finishedAt;
        } else {
            out.merged.repeats = std::max(out.merged.repeats, c.repeats);
        }
    }
    if (several) {
        QStringList names = out.sourceNames;
        out.merged.title = names.join(QStringLiteral(" vs "));
    }
    return out;
}

} // namespace nb
