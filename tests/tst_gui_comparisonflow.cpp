// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 14's acceptance test, the path a new user takes: "E1000 vs VMXNET3, throughput P=4
// and TCP_RR" built through the New Comparison dialog of a 1280x720 window and run against
// its built-in server. Checks that the dialog holds no stray widget (one From combo per row,
// each in its own cell), that every variant gets a verdict against the baseline adapter's
// run of the same variant, and that no two label rectangles (axis tick labels, legend items,
// bar annotations) intersect in any chart on screen, in any chart's export, or on the PDF
// report page.

#include <compare/comparisonanswer.h>
#include <compareview/comparisondialog.h>
#include <compareview/comparisonreport.h>
#include <compareview/comparisonview.h>
#include <compareview/comparisonviewcharts.h>
#include <compareview/endpointtable.h>
#include <comparison/comparisonchart.h>
#include <comparison/comparisoncharts.h>
#include <window/mainwindow.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QImage>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using nb::gui::ComparisonDialog;
using nb::gui::ComparisonView;
using nb::gui::EndpointTable;
using nb::gui::MainWindow;

namespace {

// The first pair of intersecting rectangles, described; empty when none intersect.
QString overlap(const QList<QRectF> &rects)
{
    for (int i = 0; i < rects.size(); ++i)
        for (int j = i + 1; j < rects.size(); ++j)
            if (rects[i].intersects(rects[j]))
                return QStringLiteral("label %1 (%2,%3 %4x%5) overlaps label %6 (%7,%8 %9x%10)")
                    .arg(i)
                    .arg(rects[i].x())
                    .arg(rects[i].y())
                    .arg(rects[i].width())
                    .arg(rects[i].height())
                    .arg(j)
                    .arg(rects[j].x())
                    .arg(rects[j].y())
                    .arg(rects[j].width())
                    .arg(rects[j].height());
    return {};
}

// Every comparison chart in the view: the bar charts, the timeline, the latency chart.
QList<nb::ui::ComparisonChart *> allCharts(ComparisonView *view)
{
    QList<nb::ui::ComparisonChart *> out;
    for (nb::ui::ComparisonBarChart *c : view->visibleBarCharts())
        out.append(c);
    out.append(view->timelineChart());
    out.append(view->latencyChart());
    return out;
}

} // namespace

class TestGuiComparisonFlow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("NicBenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_comparisonflow"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void e1000VsVmxnet3()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));

        // The dialog, as Compare > New Comparison makes it: one row, one From combo in it.
        std::unique_ptr<ComparisonDialog> dialog(w.createComparisonDialog());
        EndpointTable *table = dialog->endpointTable();
        const int combosAtStart = int(dialog->findChildren<QComboBox *>().size());
        const int editsAtStart = int(dialog->findChildren<QLineEdit *>().size());
        QCOMPARE(table->rowCount(), 1);

        // Two adapters (both reach the built-in server over loopback: the labels are what
        // the user would type for the VM's E1000 and VMXNET3 adapters) x (P=4, TCP_RR).
        nb::MatrixEndpoint e1000 = table->endpointAt(0);
        e1000.label = QStringLiteral("E1000");
        nb::MatrixEndpoint vmxnet3 = e1000;
        vmxnet3.label = QStringLiteral("VMXNET3");
        dialog->setEndpoints({e1000, vmxnet3});
        dialog->setStreamsText(QStringLiteral("4"));
        dialog->setKinds(true, true);
        dialog->setRrConnections(1);
        dialog->setDuration(1);
        dialog->setRepeats(2);
        dialog->setPauseSeconds(0);
        QVERIFY(dialog->setBaselineAdapter(QStringLiteral("E1000")));
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));

        // No stray widgets: two more combos for the one more row (From, an editable combo
        // with its line edit, and Bind to), each inside its own row's cell, and no
        // line edit left over.
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(int(dialog->findChildren<QComboBox *>().size()), combosAtStart + 2);
        QCOMPARE(int(dialog->findChildren<QLineEdit *>().size()), editsAtStart + 1);
        for (QComboBox *combo : table->findChildren<QComboBox *>()) {
            const QModelIndex at = table->indexAt(combo->geometry().center());
            QVERIFY2(at.isValid(), "a combo box outside every cell");
            QCOMPARE(table->cellWidget(at.row(), at.column()), combo);
        }

        QVERIFY2(dialog->validationError().isEmpty(), qPrintable(dialog->validationError()));
        const nb::Comparison planned = dialog->comparison();
        dialog->hide();
        QCOMPARE(planned.configurations.size(), 4);
        QCOMPARE(planned.adapters(), (QStringList{QStringLiteral("E1000"), QStringLiteral("VMXNET3")}));
        QCOMPARE(planned.variants(), (QStringList{QStringLiteral("P=4"), QStringLiteral("TCP_RR")}));
        for (const nb::Configuration &c : planned.configurations)
            QCOMPARE(c.params.isRequestResponse() ? c.params.connections() : c.params.streams,
                     c.params.isRequestResponse() ? 1 : 4);

        // Run it: 4 configurations x 2 repeats x 1 s against the built-in server.
        ComparisonView *view = w.comparisonView();
        QSignalSpy finished(view, &ComparisonView::comparisonFinished);
        QVERIFY(view->startComparison(planned));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        w.showCompareArea();
        QTest::qWait(100);

        // A verdict for every variant, against the baseline adapter's run of that variant.
        const nb::ComparisonOverlay &overlay = view->overlay();
        const nb::ComparisonStatistics &stats = view->statistics();
        const QList<nb::VariantAnswer> answers = nb::answerComparison(overlay.merged, stats);
        QCOMPARE(answers.size(), 2);
        for (const nb::VariantAnswer &a : answers) {
            QCOMPARE(a.entries.size(), 2);
            QCOMPARE(a.sentences.size(), 1);
            QVERIFY2(a.sentences.first().startsWith(QStringLiteral("VMXNET3 ")), qPrintable(a.sentences.first()));
            for (const nb::AnswerEntry &e : a.entries) {
                QVERIFY(e.primary);
                if (e.adapter == QStringLiteral("E1000")) {
                    QVERIFY(e.isBaseline);
                    continue;
                }
                QVERIFY2(e.primary->hasBaseline, qPrintable(a.variant));
                const int against = stats.configurations[e.configIndex].baselineConfig;
                QCOMPARE(overlay.merged.configurations[against].adapter, QStringLiteral("E1000"));
                QCOMPARE(overlay.merged.configurations[against].variant, a.variant);
                QVERIFY(e.cost && e.cost->hasBaseline); // CPU per Gbit/s or per 1000 transactions/s
            }
        }
        // A sentence per variant, then whose CPU the costs are: one loopback server for
        // both adapters, so this computer's.
        QCOMPARE(view->verdicts().size(), 3);
        QVERIFY2(view->verdicts().last().startsWith(QStringLiteral("CPU cost is this computer's")),
                 qPrintable(view->verdicts().last()));

        // Charts on screen at 1280x720: the bar charts with data, the timeline, latency.
        const QList<nb::ui::ComparisonBarChart *> bars = view->visibleBarCharts();
        QVERIFY(bars.size() >= 4);
        QCOMPARE(bars.first()->metric(), nb::Metric::Throughput);
        QCOMPARE(bars.at(1)->metric(), nb::Metric::LocalCpuPerGbps);
        for (nb::ui::ComparisonBarChart *chart : bars) {
            chart->replot();
            // Ticks (the variants), legend (the adapters) and annotations: enough to collide.
            QVERIFY2(chart->labelRects().size() >= 4, qPrintable(chart->objectName()));
            QVERIFY(chart->height() >= 200);
        }
        for (nb::ui::ComparisonChart *chart : allCharts(view)) {
            chart->replot();
            const QString problem = overlap(chart->labelRects());
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("%1 on screen (%2x%3): %4")
                                                       .arg(chart->objectName())
                                                       .arg(chart->width())
                                                       .arg(chart->height())
                                                       .arg(problem)));
        }

        // Each chart's export: laid out at the fixed export size, the same labels check.
        for (nb::ui::ComparisonChart *chart : allCharts(view)) {
            const QString path = m_dir.filePath(chart->objectName() + QStringLiteral(".png"));
            QString error;
            QVERIFY2(chart->exportTo(path, &error), qPrintable(error));
            QCOMPARE(QImage(path).size(), nb::ui::ComparisonChart::kExportSize * 2);
            // labelRects() describes the last layout: the export's, until the next replot.
            const QString problem = overlap(chart->labelRects());
            QVERIFY2(problem.isEmpty(),
                     qPrintable(QStringLiteral("%1 exported: %2").arg(chart->objectName(), problem)));
            chart->replot();
        }

        // The PDF report page: every chart at the size it has there.
        QList<nb::gui::ReportChartLabels> reportCharts;
        QString error;
        QVERIFY2(nb::gui::writeComparisonReport(m_dir.filePath(QStringLiteral("report.pdf")), overlay, stats, &error,
                                                &reportCharts),
                 qPrintable(error));
        QVERIFY(reportCharts.size() >= 3);
        QCOMPARE(reportCharts.first().metric, nb::Metric::Throughput);
        QCOMPARE(reportCharts.at(1).metric, nb::Metric::LocalCpuPerGbps);
        for (const nb::gui::ReportChartLabels &c : reportCharts) {
            QVERIFY(!c.labels.isEmpty());
            const QString problem = overlap(c.labels);
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("report chart %1 (%2x%3): %4")
                                                       .arg(nb::metricName(c.metric))
                                                       .arg(c.size.width())
                                                       .arg(c.size.height())
                                                       .arg(problem)));
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestGuiComparisonFlow)
#include "tst_gui_comparisonflow.moc"
