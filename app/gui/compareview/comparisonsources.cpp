// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/comparisonsources.h"

#include <algorithm>

namespace nb::gui {

QStringList ComparisonSources::names() const
{
    QStringList out;
    for (const nb::ComparisonSource &s : m_sources)
        out << s.name;
    return out;
}

void ComparisonSources::startLive(const nb::ComparisonSource &source, const QString &baselineAdapter)
{
    // The new comparison is the first source; snapshots stay for the overlay.
    m_sources.prepend(source);
    m_liveSource = 0;
    m_baselineAdapter = baselineAdapter;
    m_baselineSource = 0;
}

void ComparisonSources::updateLive(const nb::Comparison &comparison)
{
    if (contains(m_liveSource))
        m_sources[m_liveSource].comparison = comparison;
}

void ComparisonSources::finishLive(const nb::Comparison &comparison)
{
    updateLive(comparison);
    m_liveSource = -1;
}

void ComparisonSources::replace(const QList<nb::ComparisonSource> &loaded)
{
    QList<nb::ComparisonSource> kept;
    if (m_liveSource >= 0)
        kept.append(m_sources.at(m_liveSource));
    m_liveSource = kept.isEmpty() ? -1 : 0;
    m_sources = kept + loaded;
    m_baselineAdapter.clear();
    m_baselineSource = 0;
}

bool ComparisonSources::remove(int index)
{
    if (!contains(index) || index == m_liveSource)
        return false;
    m_sources.removeAt(index);
    if (m_liveSource > index)
        --m_liveSource;
    return true;
}

void ComparisonSources::rename(int index, const QString &name)
{
    if (contains(index))
        m_sources[index].name = name;
}

bool ComparisonSources::setBaselineSource(int source)
{
    if (!contains(source))
        return false;
    m_baselineSource = source;
    return true;
}

nb::ComparisonOverlay ComparisonSources::overlay()
{
    if (m_sources.isEmpty())
        return {};
    m_baselineSource = std::clamp(m_baselineSource, 0, int(m_sources.size()) - 1);
    nb::ComparisonOverlay overlay = nb::overlayComparisons(m_sources, m_baselineSource);
    nb::Comparison &merged = overlay.merged;
    if (m_sources.size() == 1 && !m_baselineAdapter.isEmpty()) {
        for (int i = 0; i < merged.configurations.size(); ++i) {
            if (merged.configurations.at(i).adapterName() == m_baselineAdapter) {
                merged.baselineIndex = i;
                break;
            }
        }
    }
    return overlay;
}

} // namespace nb::gui
