// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one-page PDF of a single test (A4 landscape), on the model of the comparison's
// (comparisonreport.h, sharing its page code, compareview/reportpage.h): what ran, when and
// where; the Test view's charts of the test (throughput, request/response, latency under
// load or UDP, and CPU) drawn from its intervals in a light palette; the summary's figures;
// both machines; the per-stream table. Never more than one page: long lists are cut with a
// note of how much was left out.

#include <model/results.h>
#include <platform/hostenvironment.h>

#include <QDateTime>
#include <QList>
#include <QRectF>
#include <QString>

namespace nb::gui {

struct TestReportInput {
    QList<nb::TestResult> results; // one test, or throughput then request/response
    nb::HostEnvironment host;      // this machine (its adapter list is not printed)
    QDateTime finishedAt;          // invalid: from the results' start time
    QString label;                 // the run's name in the history, "" when none
};

// Where the charts went on the page, for the test that checks the page's layout.
struct TestReportLayout {
    QList<QRectF> charts;
    QRectF summary;
    QRectF table;
    int streamRows = 0;     // stream rows drawn
    int streamsLeftOut = 0; // rows cut for lack of room
};

// Writes the report atomically (QSaveFile). False with *error on failure.
bool writeTestReport(const QString &path, const TestReportInput &input, QString *error,
                     TestReportLayout *layout = nullptr);

} // namespace nb::gui
