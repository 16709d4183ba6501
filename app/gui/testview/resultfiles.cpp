// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/resultfiles.h"

#include "window/appsettings.h"

#include <model/resultexport.h>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTimeZone>

namespace nb::gui {

namespace {

bool writeResultBytes(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) {
        *error = QObject::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        *error = QObject::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

// "nicbench-20261205-031200": from when the run ended (else started).
QString resultFileName(const TestReportInput &input)
{
    QDateTime when = input.finishedAt;
    if (!when.isValid() && !input.results.isEmpty() && input.results.constFirst().timestampSecs > 0)
        when = QDateTime::fromSecsSinceEpoch(input.results.constFirst().timestampSecs, QTimeZone::utc());
    if (!when.isValid())
        when = QDateTime::currentDateTimeUtc();
    return QStringLiteral("nicbench-%1").arg(when.toLocalTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
}

} // namespace

bool writeResultFile(const QString &path, const TestReportInput &input, QString *error)
{
    if (input.results.isEmpty()) {
        *error = QObject::tr("There is no result to save yet: run a test first.");
        return false;
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv"))
        return writeResultBytes(path, nb::intervalsCsv(input.results).toUtf8(), error);
    if (suffix == QLatin1String("pdf"))
        return writeTestReport(path, input, error);
    if (suffix == QLatin1String("json"))
        return writeResultBytes(path, QJsonDocument(nb::resultsDocument(input.results)).toJson(), error);
    *error = QObject::tr("Save as .json (the -J document), .csv (every interval) or .pdf (a one-page report), "
                         "not \"%1\".")
                 .arg(QFileInfo(path).fileName());
    return false;
}

QFileDialog *newResultDialog(QWidget *parent, const TestReportInput &input)
{
    auto *dialog = new QFileDialog(parent, QObject::tr("Save Result As"),
                                   QDir(AppSettings::lastDirectory(AppSettings::Folder::Export))
                                       .filePath(resultFileName(input) + QStringLiteral(".json")));
    dialog->setObjectName(QStringLiteral("saveResultDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->setNameFilters({QObject::tr("JSON, the -J document (*.json)"), QObject::tr("CSV, every interval (*.csv)"),
                            QObject::tr("PDF report, one page (*.pdf)")});
    // The suffix follows the chosen type while the name is typed.
    dialog->setDefaultSuffix(QStringLiteral("json"));
    // and the name's suffix too when the user picks another type.
    QObject::connect(dialog, &QFileDialog::filterSelected, dialog, [dialog](const QString &filter) {
        const qsizetype open = filter.lastIndexOf(QLatin1String("(*."));
        if (open < 0)
            return;
        const QString suffix = filter.mid(open + 3).chopped(1);
        dialog->setDefaultSuffix(suffix);
        const QString typed = dialog->selectedFiles().value(0);
        if (!typed.isEmpty() && !QFileInfo(typed).isDir())
            dialog->selectFile(QFileInfo(typed).completeBaseName() + QLatin1Char('.') + suffix);
    });
    return dialog;
}

QString askResultPath(QWidget *parent, const TestReportInput &input)
{
    QFileDialog *dialog = newResultDialog(parent, input);
    const bool accepted = dialog->exec() == QDialog::Accepted && !dialog->selectedFiles().isEmpty();
    const QString path = accepted ? dialog->selectedFiles().constFirst() : QString();
    delete dialog;
    if (!path.isEmpty())
        AppSettings::setLastDirectory(AppSettings::Folder::Export, path);
    return path;
}

} // namespace nb::gui
