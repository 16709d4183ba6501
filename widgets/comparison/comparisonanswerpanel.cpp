// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison/comparisonanswerpanel.h"

#include "common/chartstyle.h"

#include <compare/comparisontable.h>

#include <QEvent>
#include <QFontMetrics>
#include <QGridLayout>
#include <QLabel>
#include <QPalette>

namespace nb::ui {

namespace {

QString valueText(nb::Metric m, const std::optional<nb::MetricStatistics> &s)
{
    if (!s || s->summary.n == 0)
        return {};
    return nb::ComparisonTable::formatValue(m, s->summary.mean, nb::metricUnit(m));
}

QString deltaText(const std::optional<nb::MetricStatistics> &s)
{
    if (!s || !s->hasBaseline)
        return {};
    return nb::ComparisonTable::formatDelta(s->metric, s->vsBaseline);
}

// The entry whose difference the answer quotes: the winner when it was compared with a
// baseline, else the best entry compared with the winner, else the first compared one.
int keyEntry(const nb::VariantAnswer &a)
{
    const auto compared = [&a](int k) { return a.entries[k].primary && a.entries[k].primary->hasBaseline; };
    if (a.winner >= 0 && compared(a.winner))
        return a.winner;
    const bool higher = nb::metricBetter(a.primary) == nb::stats::Better::Higher;
    int best = -1;
    for (int k = 0; k < a.entries.size(); ++k) {
        if (!compared(k))
            continue;
        const double mean = a.entries[k].primary->summary.mean;
        if (best < 0 ||
            (higher ? mean > a.entries[best].primary->summary.mean : mean < a.entries[best].primary->summary.mean))
            best = k;
    }
    return best;
}

} // namespace

QColor verdictTextColor(bool better, const QPalette &palette)
{
    // Okabe-Ito bluish green and vermillion, darkened for light backgrounds and lightened
    // for dark ones: the plain hues are below 3.5:1 on white and on dark grey.
    if (isDarkPalette(palette))
        return better ? QColor(0x5B, 0xD6, 0xAE) : QColor(0xFF, 0x9E, 0x57);
    return better ? QColor(0x00, 0x6E, 0x4F) : QColor(0xB0, 0x45, 0x00);
}

ComparisonAnswerPanel::ComparisonAnswerPanel(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("comparisonAnswerPanel"));
    setFrameShape(QFrame::StyledPanel);
    // Never wider than the view allows: with many adapters the last columns are cut, and
    // each cell's tooltip still has its whole text.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Maximum);
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(8, 4, 8, 4);
    m_grid->setHorizontalSpacing(14);
    m_grid->setVerticalSpacing(2);
}

void ComparisonAnswerPanel::setAnswers(const QList<nb::VariantAnswer> &answers, const QList<Column> &columns)
{
    m_answers = answers;
    m_columns = columns;
    rebuild();
}

void ComparisonAnswerPanel::clear()
{
    setAnswers({}, {});
}

QString ComparisonAnswerPanel::answerText(int variant) const
{
    return m_answerLabels.value(variant) ? m_answerLabels.value(variant)->text() : QString();
}

QString ComparisonAnswerPanel::cellText(int variant, const QString &column) const
{
    if (variant < 0 || variant >= m_answers.size())
        return {};
    const nb::VariantAnswer &a = m_answers[variant];
    for (const nb::AnswerEntry &e : a.entries) {
        if (e.adapter != column)
            continue;
        if (e.runs > 0 && e.failedRuns == e.runs)
            return tr("%1 of %2 runs failed").arg(e.failedRuns).arg(e.runs);
        const QString primary = valueText(a.primary, e.primary);
        const QString cost = valueText(a.cost, e.cost);
        // With more than two columns (an overlay) the differences stay in the tooltip, the
        // charts and the table: the values alone fit at 1280 px.
        const bool deltas = m_columns.size() <= 2;
        QString line1 = primary.isEmpty() ? tr("no data") : primary;
        if (deltas && !e.isBaseline && !deltaText(e.primary).isEmpty())
            line1 += QStringLiteral("  ") + deltaText(e.primary);
        // UDP: what was lost, as a value (often 0, where a relative difference says nothing),
        // beside the goodput or transactions/s: two lines a row, and the shorter line.
        const QString lossValue = a.loss ? valueText(*a.loss, e.loss) : QString();
        if (!lossValue.isEmpty())
            line1 +=
                QStringLiteral("  \u00b7  ") +
                (*a.loss == nb::Metric::UdpRrLostPercent ? tr("lost %1").arg(lossValue) : tr("loss %1").arg(lossValue));
        if (cost.isEmpty())
            return line1;
        // Whose CPU, always said: the host's and a guest's differ by far (compare/cpuside.h).
        QString line2 = nb::isBitrateMetric(a.cost) ? cost
                        : a.cpuSide.server          ? tr("server CPU %1").arg(cost)
                                                    : tr("client CPU %1").arg(cost);
        if (deltas && !e.isBaseline && !deltaText(e.cost).isEmpty())
            line2 += QStringLiteral("  ") + deltaText(e.cost);
        return line1 + QLatin1Char('\n') + line2;
    }
    return {};
}

QLabel *ComparisonAnswerPanel::addLabel(const QString &text, int row, int column, bool bold)
{
    auto *label = new QLabel(text, this);
    label->setTextFormat(Qt::PlainText);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (bold) {
        QFont f = label->font();
        f.setBold(true);
        label->setFont(f);
    }
    m_grid->addWidget(label, row, column);
    return label;
}

void ComparisonAnswerPanel::addHeaderRow(const QPalette &pal)
{
    // Header: the answer column, then one per adapter with its chart colour.
    addLabel(tr("Answer"), 0, 1, true);
    for (int c = 0; c < m_columns.size(); ++c) {
        bool baseline = false;
        for (const nb::VariantAnswer &a : std::as_const(m_answers))
            for (const nb::AnswerEntry &e : a.entries)
                baseline = baseline || (e.adapter == m_columns[c].name && e.isBaseline);
        const QColor colour = seriesColor(pal, m_columns[c].colorIndex);
        auto *head = new QLabel(this);
        head->setTextFormat(Qt::RichText);
        const bool sayBaseline = baseline && m_columns.size() <= 3;
        head->setText(QStringLiteral("<span style=\"color:%1\">\u25a0</span> <b>%2</b>%3")
                          .arg(colour.name(), m_columns[c].name.toHtmlEscaped(),
                               sayBaseline ? QStringLiteral(" \u00b7 ") + tr("baseline").toHtmlEscaped() : QString()));
        head->setToolTip(baseline ? tr("%1: the others are compared with it").arg(m_columns[c].name)
                                  : m_columns[c].name);
        m_grid->addWidget(head, 0, 2 + c);
    }
}

ComparisonAnswerPanel::AnswerWords ComparisonAnswerPanel::answerWords(const nb::VariantAnswer &a) const
{
    // The answer: who wins (symbol and words), then the difference with its interval.
    AnswerWords w;
    if (!a.failure.isEmpty()) {
        // Every run failed: the row stays, with why (the whole text in the tooltip).
        w.first = tr("\u2717 No result");
        const QFontMetrics fm(font());
        w.second = fm.elidedText(a.failure, Qt::ElideRight, fm.averageCharWidth() * 60);
        return w;
    }
    const int key = keyEntry(a);
    if (key < 0) {
        w.first = tr("? Not compared");
        w.second = a.entries.size() < 2 ? tr("one adapter in this test") : tr("needs two runs of each");
        return w;
    }
    const nb::AnswerEntry &k = a.entries[key];
    const nb::stats::Verdict verdict = k.primary->vsBaseline.verdict;
    if (a.decided && a.winner >= 0) {
        w.first = tr("\u25b2 %1 %2").arg(a.entries[a.winner].adapter, nb::winnerPhrase(a.primary));
        w.good = true;
    } else if (verdict == nb::stats::Verdict::NotEnoughRuns) {
        w.first = tr("? Too few runs to tell");
    } else if (a.offeredRateReachedBps > 0) {
        w.first = tr("= Both carried the offered %1").arg(nb::formatBitrate(a.offeredRateReachedBps));
    } else if (verdict == nb::stats::Verdict::Equivalent) {
        w.first = tr("= Equivalent (within %1)").arg(nb::equivalenceText(a.equivalencePercent));
    } else {
        w.first = tr("\u2248 No clear winner");
    }
    const bool compact = m_columns.size() > 2; // long overlay names: the shortest form
    if (key == a.winner && a.decided)          // the winner is named on the first line
        w.second = compact ? tr("%1 vs %2").arg(deltaText(k.primary), k.baseline)
                           : tr("%1 %2 vs %3").arg(deltaText(k.primary), nb::primaryName(a.primary), k.baseline);
    else
        w.second = tr("%1: %2 vs %3").arg(k.adapter, deltaText(k.primary), k.baseline);
    if (!a.decided && verdict == nb::stats::Verdict::NoSignificantDifference)
        w.second += tr(" (not significant)");
    return w;
}

void ComparisonAnswerPanel::addAnswer(int v, const QPalette &pal)
{
    const nb::VariantAnswer &a = m_answers[v];
    const AnswerWords w = answerWords(a);
    auto *answer = new QLabel(w.first + QLatin1Char('\n') + w.second, this);
    answer->setTextFormat(Qt::PlainText);
    answer->setObjectName(QStringLiteral("answer_%1").arg(v));
    answer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Wraps rather than being cut when many adapter columns leave it little room.
    answer->setWordWrap(true);
    {
        QFont measured = answer->font();
        measured.setBold(w.good); // set below for a decided answer
        const QFontMetrics fm(measured);
        const int natural = std::max(fm.horizontalAdvance(w.first), fm.horizontalAdvance(w.second)) + 2;
        // Whole lines with one or two adapters; with more (an overlay) it may wrap.
        answer->setMinimumWidth(m_columns.size() <= 2 ? natural : std::min(natural, fm.averageCharWidth() * 34));
    }
    answer->setToolTip(a.sentences.isEmpty() ? w.first : a.sentences.join(QLatin1Char('\n')));
    if (w.good) {
        QPalette p = answer->palette();
        p.setColor(QPalette::WindowText, verdictTextColor(true, pal));
        answer->setPalette(p);
        QFont f = answer->font();
        f.setBold(true);
        answer->setFont(f);
    }
    m_grid->addWidget(answer, 1 + v, 1);
    m_answerLabels.append(answer);
}

void ComparisonAnswerPanel::addCells(int v)
{
    const nb::VariantAnswer &a = m_answers[v];
    const QString what = nb::primaryName(a.primary);
    for (int c = 0; c < m_columns.size(); ++c) {
        QLabel *cell = addLabel(cellText(v, m_columns[c].name), 1 + v, 2 + c);
        QString tip = tr("%1, %2: %3 and %4").arg(m_columns[c].name, a.variant, what, nb::costName(a.cost));
        for (const nb::AnswerEntry &e : a.entries) {
            if (e.adapter != m_columns[c].name || e.isBaseline || e.baseline.isEmpty())
                continue;
            tip += QLatin1Char('\n') +
                   tr("%1 vs %2: %3 %4, %5 %6")
                       .arg(e.adapter, e.baseline, deltaText(e.primary), what, deltaText(e.cost), nb::costName(a.cost));
        }
        cell->setToolTip(tip);
    }
}

void ComparisonAnswerPanel::rebuild()
{
    m_rebuilding = true;
    while (QLayoutItem *item = m_grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_answerLabels.clear();
    for (int c = 0; c < m_grid->columnCount(); ++c)
        m_grid->setColumnStretch(c, 0);
    const QPalette pal = palette();

    if (m_answers.isEmpty()) {
        QLabel *none = addLabel(tr("The answer (which adapter is faster, by how much, at what CPU cost) appears here "
                                   "once two adapters have two runs each."),
                                0, 0);
        none->setWordWrap(true);
        none->setForegroundRole(QPalette::PlaceholderText);
        m_rebuilding = false;
        return;
    }

    addHeaderRow(pal);
    for (int v = 0; v < m_answers.size(); ++v) {
        QLabel *variant = addLabel(m_answers[v].variant, 1 + v, 0, true);
        variant->setToolTip(nb::testKindPhrase(m_answers[v].primary));
        addAnswer(v, pal);
        addCells(v);
    }
    m_grid->setColumnStretch(2 + int(m_columns.size()), 1);
    m_rebuilding = false;
}

void ComparisonAnswerPanel::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    // Light/dark switch: the colours are picked for the palette.
    if (event->type() == QEvent::PaletteChange && !m_rebuilding)
        rebuild();
}

} // namespace nb::ui
