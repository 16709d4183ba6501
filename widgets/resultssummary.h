// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The figures an admin copies into a spreadsheet after a test: throughput per direction
// (what was sent and what arrived), retransmits, CPU on both sides, and warnings.

#include <results.h>

#include <QWidget>

class QGridLayout;
class QLabel;

namespace nb::ui {

class ResultsSummary : public QWidget {
    Q_OBJECT
public:
    explicit ResultsSummary(QWidget *parent = nullptr);

    void clear();
    // While a test runs: the latest total rate, as a preview of the result.
    void showLive(double sendBitsPerSecond, double receiveBitsPerSecond);
    void showResult(const nb::TestResult &result);

    bool hasResult() const { return m_hasResult; }
    const nb::TestResult &result() const { return m_result; }
    // The headline figure: received throughput summed over both directions, bit/s.
    double headlineBitsPerSecond() const { return m_headline; }
    // Plain-text version of what is shown, for the clipboard.
    QString toText() const;

private:
    // One direction's cells in the figures table: name, received, sent, data, retransmits.
    struct DirectionRow {
        QList<QLabel *> cells;
        void setVisible(bool visible);
    };
    DirectionRow addDirectionRow(QGridLayout *grid, int column, const QString &name);
    void fillRow(DirectionRow &row, const nb::DirectionSum &sum);

    QLabel *m_headlineLabel;
    QWidget *m_table;
    DirectionRow m_upload;
    DirectionRow m_download;
    QLabel *m_cpuLabel;
    QLabel *m_testLabel;
    QLabel *m_warningsLabel;
    nb::TestResult m_result;
    bool m_hasResult = false;
    double m_headline = 0;
};

} // namespace nb::ui
