// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/comparisonexport.h"

#include <compare/comparison.h>
#include <compare/comparisontable.h>
#include <compare/meshmatrix.h>
#include <comparison/comparisonchart.h>

#include <QDir>
#include <QObject>
#include <QSaveFile>

namespace nb::gui {

bool exportChartImage(QCustomPlot *chart, const QString &path, QString *error)
{
    // One size for every chart, whatever it measures on screen (a hidden tab has no size of
    // its own, a narrow column would overprint labels).
    return nb::ui::ComparisonChart::exportImage(chart, path, error);
}

QStringList exportChartFiles(const QList<NamedChart> &charts, const QString &directory, QString *error)
{
    QStringList written;
    if (!QDir().mkpath(directory)) {
        *error = QObject::tr("Cannot create the folder %1").arg(QDir::toNativeSeparators(directory));
        return written;
    }
    const QDir dir(directory);
    for (const NamedChart &chart : charts) {
        for (const QString &ext : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
            const QString path = dir.filePath(QStringLiteral("%1.%2").arg(chart.name, ext));
            if (!exportChartImage(chart.plot, path, error))
                return written;
            written << path;
        }
    }
    return written;
}

bool writeTextFile(const QString &path, const QString &text, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        *error = QObject::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

QString comparisonMarkdown(const nb::Comparison &c, const nb::ComparisonTable &table, const QStringList &answerLines)
{
    QString text = QStringLiteral("# %1\n\n").arg(c.title.isEmpty() ? QObject::tr("Comparison") : c.title);
    if (!answerLines.isEmpty())
        text += QStringLiteral("- ") + answerLines.join(QStringLiteral("\n- ")) + QStringLiteral("\n\n");
    if (nb::MeshMatrix::isMesh(c)) {
        const nb::ComparisonStatistics &stats = table.statistics();
        text += QStringLiteral("```\n%1```\n\n")
                    .arg(nb::MeshMatrix::of(c, stats, nb::MeshMatrix::defaultMetric(stats)).toText());
    }
    text += table.toMarkdown();
    return text;
}

} // namespace nb::gui
