// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison/comparisonchartparts.h"
#include "core/format.h"

#include "common/chartstyle.h"
#include "common/ratescale.h"

#include <core/units.h>

#include <QFontMetricsF>
#include <QPainter>
#include <QPixmap>

#include <algorithm>
#include <cmath>

namespace nb::ui {

DisplayUnit latencyUnit(double maxMicroseconds)
{
    if (maxMicroseconds >= 1e6)
        return {1e6, QStringLiteral("s")};
    if (maxMicroseconds >= 1e3)
        return {1e3, QStringLiteral("ms")};
    return {1, QStringLiteral("\u00b5s")};
}

DisplayUnit displayUnit(Metric metric, double maxValue)
{
    if (isBitrateMetric(metric)) {
        const RateUnit u = rateUnitFor(maxValue);
        return {u.divisor, u.name};
    }
    if (isLatencyMetric(metric))
        return latencyUnit(maxValue);
    return {1, metricUnit(metric)};
}

QString chartTitle(Metric metric)
{
    switch (metric) {
    case Metric::LocalCpuPerGbps:
        return QObject::tr("Client CPU per Gbit/s");
    case Metric::RemoteCpuPerGbps:
        return QObject::tr("Server CPU per Gbit/s");
    case Metric::LocalCpuPerKtps:
        return QObject::tr("Client CPU per 1000 transactions/s");
    case Metric::RemoteCpuPerKtps:
        return QObject::tr("Server CPU per 1000 transactions/s");
    default:
        return metricName(metric);
    }
}

QString formatTick(double value)
{
    if (std::abs(value) < 1e-12)
        return QStringLiteral("0");
    if (std::abs(value) >= 1000)
        return formatGrouped(value, 3);
    return nb::formatCompact(value);
}

QString GroupedTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    return formatTick(tick);
}

QVector<double> GroupedTicker::createTickVector(double tickStep, const QCPRange &range)
{
    QVector<double> ticks = QCPAxisTicker::createTickVector(tickStep, range);
    ticks.erase(std::remove_if(ticks.begin(), ticks.end(), [this](double t) { return t > m_ceiling * (1 + 1e-9); }),
                ticks.end());
    return ticks;
}

QVector<double> LatencyLogTicker::createTickVector(double, const QCPRange &range)
{
    QVector<double> ticks;
    if (range.lower <= 0 || range.upper <= range.lower)
        return ticks;
    const int lo = int(std::floor(std::log10(range.lower)));
    const int hi = int(std::ceil(std::log10(range.upper)));
    static const QList<double> fine{1, 2, 5}, medium{1, 3}, coarse{1};
    const QList<double> &steps = hi - lo <= 2 ? fine : (hi - lo <= 4 ? medium : coarse);
    for (int e = lo - 1; e <= hi; ++e)
        for (double m : steps)
            ticks.append(m * std::pow(10.0, e));
    return ticks;
}

QString LatencyLogTicker::getTickLabel(double tick, const QLocale &, QChar, int)
{
    // "20 µs", "1.5 ms": no trailing zeros on an axis.
    if (tick >= 1e6)
        return formatTick(tick / 1e6) + QStringLiteral(" s");
    if (tick >= 1e3)
        return formatTick(tick / 1e3) + QStringLiteral(" ms");
    return formatTick(tick) + QStringLiteral(" \u00b5s");
}

QString verdictMarker(const stats::BaselineComparison &b, Metric metric, bool compact)
{
    static const QString up = QStringLiteral("\u25B2"), down = QStringLiteral("\u25BC");
    switch (b.verdict) {
    case stats::Verdict::NotEnoughRuns:
        return compact ? QObject::tr("n<2") : QObject::tr("too few runs");
    case stats::Verdict::NoSignificantDifference:
        return QObject::tr("n.s.");
    case stats::Verdict::Equivalent:
        return compact ? QStringLiteral("\u2248") : QObject::tr("\u2248 equivalent");
    case stats::Verdict::Faster:
    case stats::Verdict::Slower:
        break;
    }
    const bool higher = metricBetter(metric) == stats::Better::Higher;
    const bool good = b.verdict == stats::Verdict::Faster;
    const bool rises = b.difference.valid ? b.difference.relative >= 0 : good == higher;
    if (compact)
        return rises ? up : down;
    const QString word = higher ? (good ? QObject::tr("faster") : QObject::tr("slower"))
                                : (good ? QObject::tr("better") : QObject::tr("worse"));
    return QStringLiteral("%1 %2").arg(rises ? up : down, word);
}

QColor adapterColor(const QPalette &palette, int adapter)
{
    return seriesColor(palette, adapter);
}

QBrush sourceBrush(const QPalette &palette, const QColor &colour, int source)
{
    QColor fill = colour;
    fill.setAlpha(isDarkPalette(palette) ? 200 : 215);
    if (source <= 0)
        return QBrush(fill);
    // A lighter shade of the adapter's colour, with stripes in its full colour: tells the
    // sources apart in grey print too.
    const QColor base = palette.color(QPalette::Base);
    QColor light =
        QColor::fromRgbF(fill.redF() * 0.45 + base.redF() * 0.55, fill.greenF() * 0.45 + base.greenF() * 0.55,
                         fill.blueF() * 0.45 + base.blueF() * 0.55);
    static constexpr Qt::BrushStyle patterns[] = {Qt::BDiagPattern, Qt::CrossPattern, Qt::FDiagPattern,
                                                  Qt::DiagCrossPattern, Qt::HorPattern};
    const Qt::BrushStyle pattern = patterns[std::size_t(source - 1) % std::size(patterns)];
    QPixmap tile(8, 8);
    tile.fill(light);
    QPainter p(&tile);
    p.fillRect(tile.rect(), QBrush(colour.darker(isDarkPalette(palette) ? 100 : 115), pattern));
    p.end();
    return QBrush(tile);
}

QPen barPen(const QPalette &palette, const QColor &colour)
{
    return QPen(isDarkPalette(palette) ? colour.lighter(130) : colour.darker(130), 1);
}

Qt::PenStyle sourceLineStyle(int source)
{
    static constexpr Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                              Qt::DashDotDotLine};
    return styles[std::size_t(std::max(source, 0)) % std::size(styles)];
}

QString fitLabel(const QString &label, const QFontMetricsF &fm, double width)
{
    if (fm.horizontalAdvance(label) <= width)
        return label;
    QStringList lines{label};
    if (label.contains(QLatin1Char(' '))) {
        const qsizetype middle = label.size() / 2;
        qsizetype best = -1;
        for (qsizetype i = 0; i < label.size(); ++i)
            if (label[i] == QLatin1Char(' ') && (best < 0 || std::abs(i - middle) < std::abs(best - middle)))
                best = i;
        lines = QStringList{label.left(best), label.mid(best + 1)};
    }
    for (QString &line : lines)
        line = fm.elidedText(line, Qt::ElideMiddle, std::max(0.0, width));
    return lines.join(QLatin1Char('\n'));
}

} // namespace nb::ui
