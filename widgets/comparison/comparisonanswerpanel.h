// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The answer above the comparison charts: one row per test variant ("P=4", "TCP_RR") with
// the winner and its difference (95% interval) against the baseline, and for every adapter
// its throughput (or transactions/s) beside its CPU cost (CPU per Gbit/s, or per 1000
// transactions/s). Fed from nb::answerComparison; compact (a header and two text lines per
// variant) so the first row of charts stays on screen at 1280x720. The verdict is said in
// words and symbols (▲ wins, ≈ no clear winner, ? too few runs); colour only repeats it,
// in shades readable on light and dark palettes.

#include <compare/comparisonanswer.h>

#include <QColor>
#include <QFrame>
#include <QList>
#include <QString>
#include <QStringList>

class QGridLayout;
class QLabel;
class QPalette;

namespace nb::ui {

// Text colour for a verdict on the palette's window/base colour: `better` a green, else an
// orange, each dark on light palettes and light on dark ones (contrast >= 4.5:1 on both).
QColor verdictTextColor(bool better, const QPalette &palette);

class ComparisonAnswerPanel : public QFrame {
    Q_OBJECT
public:
    // A column: an adapter (or, in an overlay, "<adapter> (<source>)") and its chart colour.
    struct Column {
        QString name;
        int colorIndex = 0; // seriesColor() index: the adapter's, as in the charts' legend
    };

    explicit ComparisonAnswerPanel(QWidget *parent = nullptr);

    // `columns` in display order; entries are placed by their `adapter` name.
    void setAnswers(const QList<nb::VariantAnswer> &answers, const QList<Column> &columns);
    void clear();

    // For tests: variants shown, and per variant the answer cell's two lines.
    int variantCount() const { return int(m_answers.size()); }
    QString answerText(int variant) const;
    // The cell of one variant and column ("9.41 Gbit/s\nCPU 4.2 % per Gbit/s"), "" when none.
    QString cellText(int variant, const QString &column) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuild();
    QLabel *addLabel(const QString &text, int row, int column, bool bold = false);
    // rebuild() in parts: the header of adapter columns; per variant the answer (its two
    // lines worked out by answerWords) and one cell per adapter.
    struct AnswerWords {
        QString first;  // "▲ eth1 faster", "≈ No clear winner"
        QString second; // "+12.3% ± 1.1% throughput vs eth0"
        bool good = false;
    };
    void addHeaderRow(const QPalette &pal);
    AnswerWords answerWords(const nb::VariantAnswer &a) const;
    void addAnswer(int variant, const QPalette &pal);
    void addCells(int variant);

    QList<nb::VariantAnswer> m_answers;
    QList<Column> m_columns;
    QGridLayout *m_grid = nullptr;
    QList<QLabel *> m_answerLabels; // one per variant
    bool m_rebuilding = false;
};

} // namespace nb::ui
