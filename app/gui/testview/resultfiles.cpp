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

QString askResultPath(QWidget *parent, const TestReportInput &input)
{
    const QString json = QObject::tr("JSON, the -J document (*.json)");
    const QString csv = QObject::tr("CSV, every interval (*.csv)");
    const QString pdf = QObject::tr("PDF report, one page (*.pdf)");
    QString filter = json;
    QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Save Result As"),
        QDir(AppSettings::lastDirectory(AppSettings::Folder::Export))
            .filePath(resultFileName(input) + QStringLiteral(".json")),
        QStringList{json, csv, pdf}.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return {};
    AppSettings::setLastDirectory(AppSettings::Folder::Export, path);
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == csv ? QStringLiteral(".csv") : filter == pdf ? QStringLiteral(".pdf") : QStringLiteral(".json");
    return path;
}

} // namespace nb::gui
