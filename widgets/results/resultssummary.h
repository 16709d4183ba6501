// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The figures an admin copies into a spreadsheet after a test: throughput per direction
// (what was sent and what arrived), retransmits, transactions/s and latency percentiles
// of a request/response test, how evenly the flows shared the work, CPU on both sides with the service demand, the
// adapters that carried the test, and warnings. A "both" run shows its two tests together.

#include "results/summarycontent.h"

#include <model/results.h>

#include <QWidget>

#include <optional>

class QGridLayout;
class QFormLayout;
class QLabel;

namespace nb::ui {

class ResultsSummary : public QWidget {
    Q_OBJECT
public:
    explicit ResultsSummary(QWidget *parent = nullptr);

    void clear();
    // While a test runs: the latest total rate, as a preview of the result.
    void showLive(double sendBitsPerSecond, double receiveBitsPerSecond);
    void showLiveText(const QString &text);
    // This side's CPU in the last interval while a test runs (the CPU row said "-" while the
    // CPU chart already had data: review minor); the result replaces it.
    void showLiveCpu(const nb::CpuSample &sample);
    // Several tests of one run (throughput, then request/response), shown together.
    // stoppedAfterSeconds >= 0: the user stopped the last test that far into it, and the
    // Test line says "stopped after 6.5 s of 10 s".
    void showResults(const QList<nb::TestResult> &results, double stoppedAfterSeconds = -1);

    bool hasResult() const { return m_hasResult; }
    const nb::TestResult &result() const { return m_result; }
    // The headline figure: received throughput summed over both directions, bit/s.
    double headlineBitsPerSecond() const { return m_headline; }
    // Request/response figures of the last run (0 when it had none).
    double transactionsPerSecond() const { return m_transactionsPerSecond; }
    QString latencyText() const;
    // A latency-under-load result's lines per phase (increase over idle, throughput); empty
    // for other tests.
    QString loadedLatencyText() const;
    // UDP: per direction loss, jitter and out-of-order; for UDP request/response the requests
    // that got no response. Empty for TCP tests.
    QString udpText() const;
    QString udpLostRequestsText() const;
    // The per-flow spread (min / median / max, Jain's index); empty with fewer than 2 flows.
    QString fairnessText() const;
    QString cpuText() const;
    // CPU cost per unit of work: local (and server) busy % of all cores per Gbit/s of
    // throughput, and per 1000 transactions/s for request/response. Empty when unknown.
    QString cpuPerGbpsText() const;
    // The line under the headline: CPU per Gbit/s (or per 1,000 transactions/s) on both
    // sides and the adapter that carried the test, visible without scrolling (review M2).
    QString keyFiguresText() const;
    QWidget *keyFiguresLabel() const;
    QString cpuPerKiloTransactionsText() const;
    QString testText() const;
    QString adapterText() const;
    // Plain-text version of what is shown, for the clipboard.
    QString toText() const;

private:
    // One direction's cells in the figures table: name, received, sent, data, retransmits.
    struct DirectionRow {
        QList<QLabel *> cells;
        void setVisible(bool visible);
    };
    DirectionRow addDirectionRow(QGridLayout *grid, int column, const QString &name);
    void setUpLabels();
    void createDirectionTable();
    void layOutSummary();
    void fillRow(DirectionRow &row, const nb::DirectionSum &sum);
    void showContent(const SummaryContent &content);
    void showOptionalRow(QLabel *label, const std::optional<QString> &text, bool shown);
    void showLinesRow(QLabel *label, const QStringList &lines);
    void showKeyFigures(const SummaryContent &c);

    QLabel *m_headlineLabel;
    QLabel *m_keyLabel;
    QWidget *m_table;
    QLabel *m_retransmitsHeader = nullptr; // hidden for UDP
    DirectionRow m_upload;
    DirectionRow m_download;
    QLabel *m_rrLabel;
    QLabel *m_latencyLabel;
    QLabel *m_loadedLabel;
    QLabel *m_udpLabel;
    QLabel *m_udpLostLabel;
    QLabel *m_fairnessLabel;
    QLabel *m_cpuLabel;
    QLabel *m_cpuPerGbpsLabel;
    QLabel *m_cpuPerKtpsLabel;
    QLabel *m_demandLabel;
    QLabel *m_adapterLabel;
    QLabel *m_testLabel;
    QLabel *m_warningsLabel;
    QFormLayout *m_form;
    nb::TestResult m_result;
    bool m_hasResult = false;
    double m_headline = 0;
    double m_transactionsPerSecond = 0;
};

} // namespace nb::ui
