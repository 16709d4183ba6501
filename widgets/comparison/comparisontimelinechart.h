// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Throughput (or transactions/s) per interval of every run of a comparison, overlaid: one
// unit per chart, never two on twin axes. When the comparison has both kinds of runs the
// chart shows throughput and offers transactions/s in its right-click menu (the title says
// which is shown and that the other exists). Colour per adapter (the bars' colours), line
// style per source, a point shape per variant when several variants share the chart; the
// x axis starts where the data starts; each interval is a step over the time it covers.

#include "comparison/comparisonchart.h"

#include <compare/comparisonoverlay.h>

#include <QList>
#include <QPointF>

namespace nb::ui {

// One run's per-interval values, as the timeline draws them.
struct TimelineRun {
    int run = 0; // index into the comparison's runs
    bool transactions = false;
    double start = 0;      // where the first interval begins
    QList<QPointF> points; // (interval end, value)
    QList<double> starts;  // per point: where its interval begins
};

class ComparisonTimelineChart : public ComparisonChart {
    Q_OBJECT
public:
    enum class Kind { Throughput, Transactions };

    explicit ComparisonTimelineChart(QWidget *parent = nullptr);
    void setData(const nb::ComparisonOverlay &overlay);
    void clearData();
    // Which runs are drawn; a kind the data lacks falls back to the other.
    void setKind(Kind kind);
    Kind kind() const { return m_shown; }
    bool hasKind(Kind kind) const;
    int curveCount() const; // one per run with intervals of the shown kind
    QString title() const;
    // variant,adapter,source,run,time_s,value,unit (bit/s or 1/s), one line per point of
    // the shown kind.
    QString toCsv() const override;

protected:
    void rebuild() override;

private:
    // rebuild() in steps: each run's per-interval values, the kind shown (throughput or
    // transactions/s), the axes and title, one curve per run.
    QList<TimelineRun> collectRuns() const;
    void chooseKind(const QList<TimelineRun> &all);
    void setUpAxes(const QPalette &pal, double peak);
    void addRunCurve(const QPalette &pal, const TimelineRun &run, int variant, bool manyVariants,
                     QList<QPair<int, int>> &legendDone);

    struct Curve {
        int run = 0; // index into m_overlay.merged.runs
        int config = 0;
        QCPGraph *graph = nullptr;
        QList<QPointF> points; // (interval end, value), as in the CSV
    };

    nb::ComparisonOverlay m_overlay;
    QList<Curve> m_curves;
    QCPTextElement *m_title = nullptr;
    Kind m_wanted = Kind::Throughput;
    Kind m_shown = Kind::Throughput;
    bool m_hasRate = false;
    bool m_hasTps = false;
};

} // namespace nb::ui
