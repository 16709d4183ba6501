// SPDX-License-Identifier: GPL-3.0-or-later
// TestView, part three: the results of a finished run kept beyond the window (Save Result As:
// the -J document, the interval CSV, the one-page PDF) and a run reopened from the history,
// shown as the view showed it when it ended. Running is in testviewrun.cpp.
#include "testview/testview.h"

#include "testview/testcharts.h"
#include "testview/resultfiles.h"

#include <common/messagebanner.h>
#include <results/resultssummary.h>
#include <results/streamresultsmodel.h>

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QTabWidget>
#include <QTableView>

namespace nb::gui {

void TestView::showStoredRun(const QList<nb::TestResult> &results, const nb::HostEnvironment &host,
                             const QDateTime &finishedAt, const QString &label)
{
    if (m_runner->isRunning() || results.isEmpty())
        return;
    m_plan.clear();
    m_planResults = results;
    m_reopenedAt = finishedAt;
    m_reopenedLabel = label;
    m_host = host;
    m_banner->dismiss();
    m_summary->clear();
    m_streamModel->clear();
    QWidget *last = charts().showFinished(results);
    const nb::TestResult *streams = nullptr;
    for (const nb::TestResult &r : results) {
        if (!r.isServerSide && !r.hasRr)
            streams = &r;
    }
    if (streams)
        m_streamModel->setResult(*streams);
    m_streamTable->setVisible(streams != nullptr);
    m_summary->showResults(results);
    m_chartTabs->setCurrentWidget(last);
    m_progress->setRange(0, 1000);
    m_progress->setValue(1000);
    const QString when = QLocale().toString(finishedAt.toLocalTime(), QLocale::ShortFormat);
    m_progressLabel->setText(label.isEmpty() ? tr("From the history: %1").arg(when)
                                             : tr("From the history: %1, %2").arg(label, when));
    if (!results.constLast().ok())
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error,
                              nb::ui::MessageBanner::sentence(results.constLast().error));
    setRunning(false);
}

bool TestView::saveResults(const QString &path)
{
    if (m_runner->isRunning()) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information, tr("Wait for the test to end before saving it."));
        return false;
    }
    QString error;
    if (!writeResultFile(path, resultInput(), &error)) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error, nb::ui::MessageBanner::sentence(error));
        return false;
    }
    Q_EMIT statusMessage(tr("Results saved to %1").arg(QDir::toNativeSeparators(path)), 10000);
    return true;
}

TestReportInput TestView::resultInput() const
{
    return {m_planResults, m_host ? *m_host : nb::HostEnvironment::local(false), m_reopenedAt, m_reopenedLabel};
}

void TestView::saveResultsWithDialog()
{
    if (m_planResults.isEmpty())
        return;
    const QString path = askResultPath(this, resultInput());
    if (!path.isEmpty())
        saveResults(path);
}

} // namespace nb::gui
