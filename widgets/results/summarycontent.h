// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the results summary shows for one or more finished tests, as text: a pure function of
// the results (no widgets), so it can be read and tested apart from the painting;
// ResultsSummary puts it on its labels.

#include <model/results.h>

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace nb::ui {

struct SummaryContent {
    QStringList headline;
    bool headlinePerLine = false; // UDP: one line per direction ("Upload 97.5 Mbit/s, 1.12% lost")
    // Set by the results that have them (the last one wins), else the rows keep what they had.
    std::optional<QStringList> loadedLatency;
    std::optional<QString> requestResponse;
    std::optional<QString> latency;
    bool latencyShown = false;
    std::optional<QString> udpLostRequests;
    // The throughput table: the last stream test's directions (nullopt: not measured that way).
    bool directionsSet = false;
    std::optional<nb::DirectionSum> upload;
    std::optional<nb::DirectionSum> download;
    bool anyStream = false;
    double headlineBitsPerSecond = 0;
    double transactionsPerSecond = 0;
    QStringList udp;
    QStringList fairness;
    QStringList cpu;
    QStringList cpuPerGbps;
    QStringList cpuPerKiloTransactions;
    QStringList serviceDemand;
    QStringList adapters;
    QStringList test;
    QStringList notes;
};

// stoppedAfterSeconds >= 0: the last test was stopped by hand after that long.
SummaryContent summaryContent(const QList<nb::TestResult> &results, double stoppedAfterSeconds = -1);

} // namespace nb::ui
