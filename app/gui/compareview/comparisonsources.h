// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the Compare view shows, without its widgets: the sources (the comparison running now,
// snapshots opened or overlaid), which of them the controller is filling, the baseline the
// user picked, and the overlay of them all with that baseline.

#include <compare/comparisonoverlay.h>

#include <QList>
#include <QString>
#include <QStringList>

namespace nb::gui {

class ComparisonSources {
public:
    const QList<nb::ComparisonSource> &list() const { return m_sources; }
    int size() const { return int(m_sources.size()); }
    bool isEmpty() const { return m_sources.isEmpty(); }
    bool contains(int index) const { return index >= 0 && index < m_sources.size(); }
    const nb::ComparisonSource &at(int index) const { return m_sources.at(index); }
    QStringList names() const;

    // The running comparison: the first source while the controller fills it.
    int liveSource() const { return m_liveSource; }
    bool isLive(int index) const { return index == m_liveSource; }
    void startLive(const nb::ComparisonSource &source, const QString &baselineAdapter);
    void updateLive(const nb::Comparison &comparison);
    void finishLive(const nb::Comparison &comparison);

    // Replaces the sources with these (a running comparison keeps its place, first).
    void replace(const QList<nb::ComparisonSource> &loaded);
    void append(const nb::ComparisonSource &source) { m_sources.append(source); }
    // False (nothing removed) for a running comparison or an index out of range.
    bool remove(int index);
    void rename(int index, const QString &name);

    // With one source an adapter, with several a source is the baseline.
    void setBaselineAdapter(const QString &adapter) { m_baselineAdapter = adapter; }
    bool setBaselineSource(int source);

    // The sources overlaid, the baseline applied; empty without sources.
    nb::ComparisonOverlay overlay();

private:
    QList<nb::ComparisonSource> m_sources;
    int m_liveSource = -1;     // the source the controller is filling, -1 when none
    QString m_baselineAdapter; // kept across refreshes; empty: the source's own baseline
    int m_baselineSource = 0;
};

} // namespace nb::gui
