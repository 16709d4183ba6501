// SPDX-License-Identifier: GPL-3.0-or-later
// ComparisonView: what it reads and writes (snapshots, chart images, tables, the PDF
// report), with and without a file dialog. Dialogs start in the folder used last.
#include "compareview/comparisonview.h"

#include "compareview/comparisonexport.h"
#include "compareview/comparisonreport.h"
#include "compareview/comparisonviewcharts.h"
#include "window/appsettings.h"

#include <common/messagebanner.h>
#include <compare/comparisontable.h>
#include <compare/snapshot.h>
#include <comparison/comparisontablemodel.h>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>

namespace nb::gui {

namespace {

const auto kSnapshotFilter =
    QT_TRANSLATE_NOOP("ComparisonView", "NicBench snapshots (*.nicbench *.nicbench.gz *.gz *.json);;All files (*)");

} // namespace

bool ComparisonView::loadInto(const QString &path, nb::ComparisonSource *out)
{
    nb::Comparison c;
    QString error;
    if (!nb::Snapshot::load(path, &c, &error)) {
        showError(tr("Cannot open snapshot %1").arg(error)); // the error starts with the path
        return false;
    }
    *out = nb::ComparisonSource{snapshotSourceName(path, c), c};
    return true;
}

bool ComparisonView::openSnapshots(const QStringList &paths)
{
    QList<nb::ComparisonSource> loaded;
    bool allOk = true;
    for (const QString &path : paths) {
        nb::ComparisonSource s;
        if (loadInto(path, &s))
            loaded.append(s);
        else
            allOk = false;
    }
    if (loaded.isEmpty())
        return false;
    if (allOk)
        m_banner->dismiss();
    showSources(loaded);
    return allOk;
}

bool ComparisonView::addSnapshot(const QString &path)
{
    nb::ComparisonSource s;
    if (!loadInto(path, &s))
        return false;
    m_banner->dismiss();
    addSource(s);
    return true;
}

void ComparisonView::addSource(const nb::ComparisonSource &source)
{
    m_sources.append(source);
    refresh();
    Q_EMIT activated();
}

bool ComparisonView::saveSnapshot(const QString &path, int source)
{
    if (source < 0)
        source = currentSource();
    if (source < 0) {
        showError(tr("There is no comparison to save."));
        return false;
    }
    QString error;
    // Saved as judged on screen: the CPU side and the equivalence threshold shown.
    nb::Comparison comparison = m_sources.at(source).comparison;
    comparison.cpuSide = m_cpuSide;
    comparison.equivalencePercent = m_equivalence;
    if (!nb::Snapshot::save(comparison, path, &error)) {
        showError(tr("The snapshot was not saved: %1").arg(error));
        return false;
    }
    m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                          tr("Snapshot saved to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

QStringList ComparisonView::exportCharts(const QString &directory)
{
    const QList<NamedChart> charts = m_charts->exportableCharts();
    if (charts.isEmpty()) {
        showError(tr("There are no charts to export."));
        return {};
    }
    QString error;
    const QStringList written = exportChartFiles(charts, directory, &error);
    if (!error.isEmpty()) {
        showError(tr("Export stopped: %1").arg(error));
        return written;
    }
    m_banner->showMessage(
        nb::ui::MessageBanner::Kind::Information,
        tr("%n file(s) written to %1", nullptr, int(written.size())).arg(QDir::toNativeSeparators(directory)));
    return written;
}

bool ComparisonView::exportTableCsv(const QString &path)
{
    QString error;
    if (!m_tableModel->table()) {
        showError(tr("There is no table to export."));
        return false;
    }
    if (!writeTextFile(path, m_tableModel->table()->toCsv(), &error)) {
        showError(error);
        return false;
    }
    return true;
}

bool ComparisonView::exportTableMarkdown(const QString &path)
{
    QString error;
    if (!m_tableModel->table()) {
        showError(tr("There is no table to export."));
        return false;
    }
    if (!writeTextFile(path, comparisonMarkdown(m_overlay.merged, *m_tableModel->table(), m_verdicts), &error)) {
        showError(error);
        return false;
    }
    return true;
}

bool ComparisonView::exportPdfReport(const QString &path)
{
    if (m_sources.isEmpty()) {
        showError(tr("There is no comparison to report."));
        return false;
    }
    QString error;
    if (!writeComparisonReport(path, m_overlay, m_stats, &error)) {
        showError(tr("The report was not written: %1").arg(error));
        return false;
    }
    m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                          tr("Report written to %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void ComparisonView::openWithDialog(bool add)
{
    const QString folder = AppSettings::lastDirectory(AppSettings::Folder::Snapshot);
    if (add) {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Add Snapshot to Overlay"), folder, tr(kSnapshotFilter));
        if (!path.isEmpty()) {
            AppSettings::setLastDirectory(AppSettings::Folder::Snapshot, path);
            if (addSnapshot(path))
                AppSettings::addRecentSnapshot(path);
        }
        return;
    }
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open Snapshot"), folder, tr(kSnapshotFilter));
    if (!paths.isEmpty()) {
        AppSettings::setLastDirectory(AppSettings::Folder::Snapshot, paths.constFirst());
        if (openSnapshots(paths))
            for (const QString &path : paths)
                AppSettings::addRecentSnapshot(path);
    }
}

void ComparisonView::saveWithDialog()
{
    const int source = currentSource();
    if (source < 0)
        return;
    QString name = m_sources.at(source).name;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save Snapshot As"),
        QDir(AppSettings::lastDirectory(AppSettings::Folder::Snapshot)).filePath(name + QStringLiteral(".nicbench")),
        tr(kSnapshotFilter));
    if (path.isEmpty())
        return;
    AppSettings::setLastDirectory(AppSettings::Folder::Snapshot, path);
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".nicbench");
    if (saveSnapshot(path, source) && !m_sources.isLive(source)) {
        m_sources.rename(source, snapshotSourceName(path, m_sources.at(source).comparison));
        refresh();
    }
}

void ComparisonView::exportChartsWithDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export Charts Into"),
                                                          AppSettings::lastDirectory(AppSettings::Folder::Export));
    if (dir.isEmpty())
        return;
    AppSettings::setLastDirectory(AppSettings::Folder::Export, dir);
    exportCharts(dir);
}

void ComparisonView::exportTableWithDialog(bool markdown)
{
    const QString filter = markdown ? tr("Markdown (*.md)") : tr("CSV (*.csv)");
    const QString path = QFileDialog::getSaveFileName(
        this, markdown ? tr("Export Table as Markdown") : tr("Export Table as CSV"),
        QDir(AppSettings::lastDirectory(AppSettings::Folder::Export))
            .filePath(markdown ? QStringLiteral("comparison.md") : QStringLiteral("comparison.csv")),
        filter);
    if (path.isEmpty())
        return;
    AppSettings::setLastDirectory(AppSettings::Folder::Export, path);
    if (markdown ? exportTableMarkdown(path) : exportTableCsv(path))
        m_banner->showMessage(nb::ui::MessageBanner::Kind::Information,
                              tr("Table written to %1").arg(QDir::toNativeSeparators(path)));
}

void ComparisonView::exportReportWithDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("PDF Report"),
        QDir(AppSettings::lastDirectory(AppSettings::Folder::Report)).filePath(QStringLiteral("comparison-report.pdf")),
        tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    AppSettings::setLastDirectory(AppSettings::Folder::Report, path);
    exportPdfReport(path);
}

} // namespace nb::gui
