// SPDX-License-Identifier: GPL-3.0-or-later
// TestView, part three: the results of a finished run kept beyond the window (Save Result As:
// the -J document, the interval CSV, the one-page PDF) and a run reopened from the history,
// shown as the view showed it when it ended. Running is in testviewrun.cpp.
#include "testview/testview.h"

#include "testview/resultfiles.h"
#include "testview/testcharts.h"

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
    // Short enough for the progress row at 1024 px ("Past run, 5 Dec 13:39"); the whole
    // date and the run's name in the tooltip and the status bar.
    const QDateTime local = finishedAt.toLocalTime();
    m_progressLabel->setText(tr("Past run, %1").arg(QLocale().toString(local, QStringLiteral("d MMM HH:mm"))));
    const QString when = QLocale().toString(local, QLocale::LongFormat);
    const QString whole = label.isEmpty() ? tr("A run from the history, finished %1").arg(when)
                                          : tr("\"%1\" from the history, finished %2").arg(label, when);
    m_progressLabel->setToolTip(whole);
    Q_EMIT statusMessage(whole, 0);
    if (!results.constLast().ok())
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Error,
                              nb::ui::MessageBanner::sentence(results.constLast().error));
    setRunning(false);
}

bool TestView::saveResults(const QString &path)
{
    if (m_runner->isRunning()) {
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                              tr("Wait for the test to end before saving it."));
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
