// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisonoverlay.h"

#include <algorithm>

namespace nb {

namespace {

int indexOrAppend(QStringList *list, const QString &value)
{
    const qsizetype i = list->indexOf(value);
    if (i >= 0)
        return int(i);
    list->append(value);
    return int(list->size() - 1);
}

// Several sources: per merged configuration, the baseline source's configuration it is
// compared with (see overlayComparisons).
QList<int> crossSourceBaselines(const ComparisonOverlay &o)
{
    const QList<Configuration> &confs = o.merged.configurations;
    QList<int> out(confs.size(), -1);
    const auto find = [&](const QString &adapter, const QString &variant) {
        for (int i = 0; i < confs.size(); ++i)
            if (o.sourceOf[i] == o.baselineSource && o.adapterLabels[o.adapterOf[i]] == adapter &&
                confs[i].variantName() == variant)
                return i;
        return -1;
    };
    const QString baseAdapter = confs.value(o.merged.baselineIndex).adapterName();
    for (int i = 0; i < confs.size(); ++i) {
        if (o.sourceOf[i] == o.baselineSource)
            continue;
        const QString adapter = o.adapterLabels[o.adapterOf[i]];
        int b = find(adapter, confs[i].variantName());
        if (b < 0)
            b = find(baseAdapter, confs[i].variantName());
        out[i] = b;
    }
    return out;
}

} // namespace

int ComparisonOverlay::configurationFor(int group, int series) const
{
    for (int i = 0; i < int(groupOf.size()) && i < int(seriesOf.size()); ++i)
        if (groupOf[i] == group && seriesOf[i] == series)
            return i;
    return -1;
}

ComparisonOverlay overlayComparisons(const QList<ComparisonSource> &sources, int baselineSource)
{
    ComparisonOverlay out;
    for (const ComparisonSource &s : sources)
        out.sourceNames.append(s.name);
    const bool several = sources.size() > 1;
    out.baselineSource = std::clamp(baselineSource, 0, std::max(0, int(sources.size()) - 1));

    for (int s = 0; s < int(sources.size()); ++s) {
        const Comparison &c = sources[s].comparison;
        const int offset = int(out.merged.configurations.size());
        for (const Configuration &conf : c.configurations) {
            out.groupOf.append(indexOrAppend(&out.groupLabels, conf.variantName()));
            const int adapter = indexOrAppend(&out.adapterLabels, conf.adapterName());
            out.adapterOf.append(adapter);
            out.sourceOf.append(s);
            const QString series =
                several ? QStringLiteral("%1 (%2)").arg(conf.adapterName(), sources[s].name) : conf.adapterName();
            const qsizetype before = out.seriesLabels.size();
            out.seriesOf.append(indexOrAppend(&out.seriesLabels, series));
            if (out.seriesLabels.size() > before) {
                out.seriesAdapter.append(adapter);
                out.seriesSource.append(s);
            }
        }
        if (!several) {
            out.merged = c;
            break;
        }
        for (Configuration conf : c.configurations) {
            conf.adapter = conf.adapterName();
            conf.variant = conf.variantName();
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
            out.merged.equivalencePercent = c.equivalencePercent;
            out.merged.environment = c.environment;
            out.merged.createdAt = c.createdAt;
            out.merged.finishedAt = c.finishedAt;
        } else {
            out.merged.repeats = std::max(out.merged.repeats, c.repeats);
        }
        if (s == out.baselineSource)
            out.merged.baselineIndex = offset + std::clamp(c.baselineIndex, 0, int(c.configurations.size()) - 1);
    }
    if (several) {
        out.merged.title = out.sourceNames.join(QStringLiteral(" vs "));
        out.merged.baselineOf = crossSourceBaselines(out);
    }
    return out;
}

} // namespace nb
