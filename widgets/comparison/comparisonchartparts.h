// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small pieces the comparison charts share: display units, tickers that write numbers
// as people do (3 significant figures, grouped thousands, µs), the verdict marker, and how
// a series looks: its colour fixed per adapter (Okabe-Ito), its fill or line style per
// source, so "E1000 (before)" and "E1000 (after)" differ without colour.

#include <compare/comparisonstatistics.h>

#include <qcustomplot.h>

#include <limits>

#include <QBrush>
#include <QColor>
#include <QPalette>
#include <QString>

class QFontMetricsF;

namespace nb::ui {

// The share of a variant's room on the category axis taken by its bars or boxes.
inline constexpr double kGroupWidth = 0.8;

// Puts items on a category axis: the items of one group (consecutive, same .group) sit
// side by side, one slot apart, centred on the group's tick at group + 1.
template <typename Item> void placeInGroups(QList<Item> &items, double slot)
{
    for (qsizetype i = 0; i < items.size();) {
        qsizetype n = 0;
        while (i + n < items.size() && items[i + n].group == items[i].group)
            ++n;
        for (qsizetype k = 0; k < n; ++k)
            items[i + k].key = items[i].group + 1 + (double(k) - double(n - 1) / 2.0) * slot;
        i += n;
    }
}

// Values are divided by `divisor` and shown with `name`.
struct DisplayUnit {
    double divisor = 1;
    QString name;
};
// µs, ms or s for latencies up to maxMicroseconds.
DisplayUnit latencyUnit(double maxMicroseconds);
// The unit a bar chart of `metric` shows, for values up to maxValue (base units).
DisplayUnit displayUnit(Metric metric, double maxValue);
// The bold title row of a metric's chart: "Throughput", "CPU per Gbit/s", ...
QString chartTitle(Metric metric);
// A tick value with at most 3 significant figures and grouped thousands: "0", "2.5", "78,800".
QString formatTick(double value);

// Linear ticks labelled with formatTick.
class GroupedTicker : public QCPAxisTicker {
public:
    // No ticks above this: a share of the CPU ends at 100% even where the axis goes on to
    // leave room for the bar labels (the review's "0-150 % axis").
    void setCeiling(double ceiling) { m_ceiling = ceiling; }

protected:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;

private:
    double m_ceiling = std::numeric_limits<double>::infinity();
};

// Log axis ticks at 1-2-5 (1-3, or decades only when the range is wide) times a power of
// ten, labelled with a latency unit (µs, ms, s): QCPAxisTickerLog ticks whole decades only.
class LatencyLogTicker : public QCPAxisTicker {
protected:
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
};

// The verdict in words with an arrow for the direction ("▲ faster", "▼ better", "n.s.",
// "too few runs"), or compact ("▲", "n.s.", "n<2"), readable printed in black and white.
QString verdictMarker(const stats::BaselineComparison &b, Metric metric, bool compact = false);

// The colour of an adapter: the same index gives the same colour in every chart.
QColor adapterColor(const QPalette &palette, int adapter);
// Bar and box fill for an adapter's colour and a source: source 0 solid, the others a
// lighter shade with stripes (diagonal, crossed, ...).
QBrush sourceBrush(const QPalette &palette, const QColor &colour, int source);
// Outline of such a bar.
QPen barPen(const QPalette &palette, const QColor &colour);
// Line style per source: solid, dashed, dotted, ...
Qt::PenStyle sourceLineStyle(int source);

// Fits a label to `width` pixels: as is, or broken at the space nearest the middle into
// two lines, each elided in the middle when still too wide.
QString fitLabel(const QString &label, const QFontMetricsF &fm, double width);

} // namespace nb::ui
