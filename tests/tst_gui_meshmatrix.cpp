// SPDX-License-Identifier: GPL-3.0-or-later
// A mesh in the Compare view (issue 28 item 4): a snapshot whose configurations are agent pairs
// opens with a Matrix tab in front, sources down and destinations across, the best pair
// shaded strongest whichever way the metric is better, failed pairs said so, a tooltip with
// the interval, and a click that shows the pair's rows in the table. A comparison run here
// has no Matrix tab.
#include "comparisonruns.h"

#include <compare/mesh.h>
#include <compareview/comparisoncontroller.h>
#include <compareview/comparisonview.h>
#include <comparison/meshmatrixview.h>
#include <window/apptheme.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

// Four agents in a full mesh, two rounds: throughput (1 + source + destination/10) Gbit/s,
// transactions/s the other way round in an RR variant is not needed: one stream test; the
// pair 198.18.0.5 -> 198.18.0.2 fails both times.
nb::Comparison fourAgents()
{
    nb::Comparison c;
    QString error;
    QList<nb::MeshHost> hosts;
    nb::meshHostsFromText(s("198.18.0.2,198.18.0.3,198.18.0.4,198.18.0.5"), &hosts, &error);
    nb::meshComparison(hosts, nb::MeshPairs::All, {s("-t"), s("2")}, &c, &error);
    c.title = s("Mesh of 4 agents");
    c.repeats = 2;
    nbtest::addScheduledRuns(c, [&c](const nb::Run &run) {
        const nb::Configuration &conf = c.configurations[run.configIndex];
        nb::TestResult r;
        if (conf.label == s("198.18.0.5 -> 198.18.0.2")) {
            r.error = s("the agent 198.18.0.5 port 5201 disappeared during the test (connection closed)");
            return r;
        }
        const int from = conf.from.host.right(1).toInt(), to = conf.params.host.right(1).toInt();
        const double gbps = (1 + from + to / 10.0) * (1 + 0.01 * run.repeatIndex);
        r.params = conf.params;
        nb::StreamSummary st;
        st.id = 1;
        st.seconds = st.receiverSeconds = 2;
        st.bytesSent = st.bytesReceived = std::uint64_t(gbps * 1e9 / 8 * 2);
        r.streams.append(st);
        r.localCpuKnown = true;
        r.localCpu.end = 2;
        r.localCpu.cpuCount = 2;
        r.localCpu.systemValid = true;
        r.localCpu.systemBusyPct = 10 * from;
        return r;
    });
    return c;
}

QTabWidget *tabsOf(nb::gui::ComparisonView &view)
{
    return view.findChild<QTabWidget *>(s("comparisonTabs"));
}

} // namespace

class TestGuiMeshMatrix : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void meshOpensWithItsMatrix();
    void comparisonHasNoMatrix();
};

void TestGuiMeshMatrix::meshOpensWithItsMatrix()
{
    nb::gui::ComparisonController controller;
    nb::gui::ComparisonView view(&controller);
    view.resize(1280, 720);
    view.showSources({{s("mesh"), fourAgents()}});
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTabWidget *tabs = tabsOf(view);
    nb::ui::MeshMatrixView *matrixView = view.meshMatrix();
    QVERIFY(tabs && matrixView);
    QVERIFY(tabs->isTabVisible(tabs->indexOf(matrixView)));
    QCOMPARE(tabs->currentWidget(), matrixView);
    QVERIFY(matrixView->isVisible());
    QCOMPARE(matrixView->metricCombo()->currentText(), nb::metricName(nb::Metric::Throughput));

    nb::ui::MeshGrid *grid = matrixView->grid();
    const nb::MeshMatrix &m = grid->matrix();
    QCOMPARE(m.hosts, (QStringList{s("198.18.0.2"), s("198.18.0.3"), s("198.18.0.4"), s("198.18.0.5")}));
    // Best pair .5 -> .4 (6.4 Gbit/s), worst .2 -> .3 (3.3): strongest and faintest.
    QCOMPARE(grid->shade(3, 2), 1.0);
    QCOMPARE(grid->shade(0, 1), 0.0);
    QCOMPARE(grid->shade(0, 0), -1.0);
    QCOMPARE(m.cellText(3, 0), s("2 of 2 failed"));
    QVERIFY2(grid->toolTipText(3, 0).contains(s("disappeared during the test")), qPrintable(grid->toolTipText(3, 0)));
    QVERIFY2(grid->toolTipText(3, 2).contains(s("95% interval of the mean: ")), qPrintable(grid->toolTipText(3, 2)));
    QVERIFY2(grid->toolTipText(3, 2).startsWith(s("198.18.0.5 \u2192 198.18.0.4")),
             qPrintable(grid->toolTipText(3, 2)));

    // CPU per Gbit/s: lower is better, so the shading turns round. Source 5 is the busiest
    // per Gbit/s? (10 * from) / gbps: .2 -> .3 is 20 / 3.3 = 6.1, .5 -> .4 is 50 / 6.4 = 7.8.
    matrixView->setMetric(nb::Metric::LocalCpuPerGbps);
    QCOMPARE(grid->matrix().metric, nb::Metric::LocalCpuPerGbps);
    QVERIFY(grid->shade(0, 1) > grid->shade(3, 2));

    const QString shots = qEnvironmentVariable("NICBENCH_SCREENSHOTS");
    matrixView->setMetric(nb::Metric::Throughput);
    if (!shots.isEmpty()) {
        QVERIFY(view.grab().toImage().save(QDir(shots).filePath(s("mesh-matrix-1280x720.png"))));
        view.resize(1920, 1080);
        QVERIFY(view.grab().toImage().save(QDir(shots).filePath(s("mesh-matrix-1920x1080.png"))));
        view.resize(1280, 720);
        nb::gui::applyTheme(nb::gui::AppSettings::Theme::Dark);
        QTest::qWait(100); // the palette change reaches the widgets as events
        QVERIFY(view.grab().toImage().save(QDir(shots).filePath(s("mesh-matrix-dark-1280x720.png"))));
        nb::gui::applyTheme(nb::gui::AppSettings::Theme::Light);
    }

    // The PDF report has the matrix on a second page; the Markdown export has it as text.
    QTemporaryDir dir;
    const QString pdf = dir.filePath(s("mesh.pdf"));
    QVERIFY(view.exportPdfReport(pdf));
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QCOMPARE(pdfFile.readAll().count("/Type /Page\n"), 2);
    const QString md = dir.filePath(s("mesh.md"));
    QVERIFY(view.exportTableMarkdown(md));
    QFile mdFile(md);
    QVERIFY(mdFile.open(QIODevice::ReadOnly));
    const QByteArray markdown = mdFile.readAll();
    QVERIFY2(markdown.contains("from \\ to") && markdown.contains("2 of 2 failed"), markdown.constData());

    // A click on .3 -> .5 shows its rows in the table.
    const int config = grid->matrix().cells[1][3].configIndex;
    QVERIFY(config >= 0);
    QTest::mouseClick(grid, Qt::LeftButton, {}, grid->cellRect(1, 3).center());
    QCOMPARE(tabs->currentWidget(), view.tableView());
    const QModelIndexList rows = view.tableView()->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().siblingAtColumn(1).data().toString(), s("198.18.0.3 -> 198.18.0.5"));
}

void TestGuiMeshMatrix::comparisonHasNoMatrix()
{
    nb::gui::ComparisonController controller;
    nb::gui::ComparisonView view(&controller);
    view.resize(1280, 720);
    nb::Comparison mesh = fourAgents();
    view.showSources({{s("mesh"), mesh}});
    for (nb::Configuration &conf : mesh.configurations)
        conf.from = nb::AgentFrom();
    view.showSources({{s("here"), mesh}});
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTabWidget *tabs = tabsOf(view);
    QVERIFY(!tabs->isTabVisible(tabs->indexOf(view.meshMatrix())));
    QVERIFY(tabs->currentWidget() != view.meshMatrix());
    QTemporaryDir dir;
    const QString pdf = dir.filePath(s("here.pdf"));
    QVERIFY(view.exportPdfReport(pdf));
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QCOMPARE(pdfFile.readAll().count("/Type /Page\n"), 1);
}

QTEST_MAIN(TestGuiMeshMatrix)
#include "tst_gui_meshmatrix.moc"
