// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare/comparisontable.h"

#include "core/csv.h"
#include "core/format.h"

#include <cmath>

namespace nb {

namespace {

QString markdownCell(QString s)
{
    return s.replace(QLatin1Char('|'), QLatin1String("\\|"));
}

} // namespace

ComparisonTable::ComparisonTable(const Comparison &comparison, double alpha)
    : m_comparison(comparison)
    , m_stats(computeStatistics(comparison, alpha))
{
    for (Metric m : m_stats.presentMetrics()) {
        for (const ConfigurationStatistics &cs : m_stats.configurations) {
            const MetricStatistics *ms = cs.metric(m);
            if (!ms)
                continue;
            ComparisonTableRow row;
            row.metric = m;
            row.configIndex = cs.configIndex;
            const Configuration &conf = m_comparison.configurations[cs.configIndex];
            row.unit = metricUnit(m);
            row.label = conf.label;
            row.isBaseline = cs.isBaseline;
            if (cs.baselineConfig >= 0)
                row.comparedWith = m_comparison.configurations[cs.baselineConfig].label;
            row.runs = cs.runs;
            row.failedRuns = cs.failedRuns;
            row.stats = ms;
            m_rows.append(row);
        }
    }
}

QString ComparisonTable::formatValue(Metric metric, double value, const QString &unit)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    if (isBitrateMetric(metric))
        return formatBitrate(value);
    if (isLatencyMetric(metric))
        return formatMicroseconds(value);
    if (metric == Metric::TransactionsPerSecond)
        return QStringLiteral("%1 /s").arg(formatGrouped(value));
    return QStringLiteral("%1 %2").arg(formatGrouped(value), unit);
}

QString ComparisonTable::formatDelta(const stats::RelativeDifference &d)
{
    if (!d.valid)
        return {};
    const QString point =
        QStringLiteral("%1%2%").arg(d.relative >= 0 ? QStringLiteral("+") : QString()).arg(d.relative * 100, 0, 'f', 1);
    if (!d.intervalKnown)
        return point;
    return QStringLiteral("%1 \u00b1 %2%").arg(point).arg(d.halfWidth() * 100, 0, 'f', 1);
}

QString ComparisonTable::formatDelta(Metric m, const stats::BaselineComparison &b)
{
    if (!(absoluteEquivalence(m) > 0))
        return formatDelta(b.difference);
    const stats::AbsoluteDifference &a = b.absolute;
    if (!a.valid)
        return {};
    const QString sign = a.value >= 0 ? QStringLiteral("+") : QStringLiteral("-");
    if (isLatencyMetric(m)) {
        const QString point = sign + formatMicroseconds(std::abs(a.value));
        return a.intervalKnown ? QStringLiteral("%1 \u00b1 %2").arg(point, formatMicroseconds(a.halfWidth)) : point;
    }
    const QString point = QStringLiteral("%1%2 pt").arg(sign).arg(std::abs(a.value), 0, 'f', 2);
    return a.intervalKnown ? QStringLiteral("%1 \u00b1 %2").arg(point).arg(a.halfWidth, 0, 'f', 2) : point;
}

QString ComparisonTable::toCsv() const
{
    QString out =
        QStringLiteral("metric,unit,config,label,baseline,runs,failed,n,mean,median,stddev,ci95_low,ci95_high,"
                       "relative,relative_ci95_low,relative_ci95_high,p_value,verdict,compared_with\n");
    for (const ComparisonTableRow &r : m_rows) {
        const stats::Summary &s = r.stats->summary;
        QStringList f{metricKey(r.metric),
                      csv::field(r.unit),
                      QString::number(r.configIndex),
                      csv::field(r.label),
                      r.isBaseline ? QStringLiteral("1") : QStringLiteral("0"),
                      QString::number(r.runs),
                      QString::number(r.failedRuns),
                      QString::number(s.n),
                      csv::number(s.mean),
                      csv::number(s.median),
                      s.spreadKnown ? csv::number(s.stddev) : QString(),
                      s.spreadKnown ? csv::number(s.ciLow) : QString(),
                      s.spreadKnown ? csv::number(s.ciHigh) : QString()};
        const stats::BaselineComparison &b = r.stats->vsBaseline;
        const bool d = r.stats->hasBaseline && b.difference.valid;
        const bool di = d && b.difference.intervalKnown;
        f << (d ? csv::number(b.difference.relative) : QString()) << (di ? csv::number(b.difference.low) : QString())
          << (di ? csv::number(b.difference.high) : QString())
          << (r.stats->hasBaseline && b.welch.valid ? csv::number(b.welch.pValue) : QString())
          << (r.stats->hasBaseline ? stats::verdictKey(b.verdict)
                                   : (r.isBaseline ? QStringLiteral("baseline") : QString()))
          << csv::field(r.comparedWith);
        out += f.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

QStringList ComparisonTable::humanHeader()
{
    return {QStringLiteral("Metric"),  QStringLiteral("Configuration"), QStringLiteral("Runs"),
            QStringLiteral("Mean"),    QStringLiteral("95% CI"),        QStringLiteral("vs baseline"),
            QStringLiteral("Verdict"), QStringLiteral("Compared with")};
}

QString ComparisonTable::formatInterval(Metric metric, const stats::Summary &s, const QString &unit)
{
    if (!s.spreadKnown)
        return QStringLiteral("-");
    return QStringLiteral("%1 .. %2")
        .arg(formatValue(metric, std::max(0.0, s.ciLow), unit), formatValue(metric, s.ciHigh, unit));
}

QList<QStringList> ComparisonTable::humanCells() const
{
    QList<QStringList> out;
    for (const ComparisonTableRow &r : m_rows) {
        const stats::Summary &s = r.stats->summary;
        QString runs = QString::number(s.n);
        if (r.failedRuns > 0)
            runs += QStringLiteral(" (%1 failed)").arg(r.failedRuns);
        const QString ci = formatInterval(r.metric, s, r.unit);
        QString delta, verdict;
        if (r.isBaseline) {
            delta = QStringLiteral("baseline");
        } else if (r.stats->hasBaseline) {
            delta = formatDelta(r.metric, r.stats->vsBaseline);
            verdict = stats::verdictText(r.stats->vsBaseline.verdict, metricBetter(r.metric));
            if (r.stats->vsBaseline.welch.valid && r.stats->vsBaseline.verdict != stats::Verdict::NotEnoughRuns)
                verdict += QStringLiteral(" (p=%1)").arg(formatSignificant(r.stats->vsBaseline.welch.pValue, 2));
        }
        out.append({metricName(r.metric), r.label, runs, formatValue(r.metric, s.mean, r.unit), ci,
                    delta.isEmpty() ? QStringLiteral("-") : delta, verdict.isEmpty() ? QStringLiteral("-") : verdict,
                    r.comparedWith.isEmpty() ? QStringLiteral("-") : r.comparedWith});
    }
    return out;
}

QString ComparisonTable::toMarkdown() const
{
    QString out;
    const QStringList header = humanHeader();
    out += QStringLiteral("| %1 |\n").arg(header.join(QStringLiteral(" | ")));
    QStringList rule;
    for (qsizetype i = 0; i < header.size(); ++i)
        rule.append(i == 2 ? QStringLiteral("---:") : QStringLiteral("---"));
    out += QStringLiteral("| %1 |\n").arg(rule.join(QStringLiteral(" | ")));
    for (QStringList cells : humanCells()) {
        for (QString &c : cells)
            c = markdownCell(c);
        out += QStringLiteral("| %1 |\n").arg(cells.join(QStringLiteral(" | ")));
    }
    return out;
}

QString ComparisonTable::toText() const
{
    QList<QStringList> all{humanHeader()};
    all += humanCells();
    QList<qsizetype> width(all.first().size(), 0);
    for (const QStringList &row : all)
        for (qsizetype i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    QString out;
    Metric previous = Metric::Throughput;
    for (qsizetype r = 0; r < all.size(); ++r) {
        if (r > 1 && m_rows[r - 1].metric != previous)
            out += QLatin1Char('\n');
        if (r > 0)
            previous = m_rows[r - 1].metric;
        QStringList padded;
        for (qsizetype i = 0; i < all[r].size(); ++i)
            padded.append(i == 2 ? all[r][i].rightJustified(width[i]) : all[r][i].leftJustified(width[i]));
        out += padded.join(QStringLiteral("  ")).trimmed() + QLatin1Char('\n');
    }
    return out;
}

} // namespace nb
