// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One test's results as files a user keeps (the Test view's Save Result, the run history):
// the -J document and a CSV of its intervals. A run of the window is one test, or two for
// "both" (throughput, then request/response). Formats: docs/json-output.md ("Saved results")
// and README.md.

#include "model/results.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace nb {

// The -J document of one test; of several, {"results": [doc, doc]} (what the window's
// --json-out writes too). Empty for no results.
QJsonObject resultsDocument(const QList<TestResult> &results);
// The reverse: one -J document, or {"results": [...]} with 1..16 of them. False with *error
// naming the entry when one does not read.
bool resultsFromDocument(const QJsonObject &document, QList<TestResult> *out, QString *error);

// Every interval as CSV rows (RFC 4180, numbers in full, a header line first): per test and
// interval one "sum" row per direction, one row per stream, and for request/response and the
// latency-under-load probe one "rr" row. Columns: intervalCsvHeader().
QString intervalsCsv(const QList<TestResult> &results);
QStringList intervalCsvHeader();

} // namespace nb
