// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare tab on the offscreen platform: a comparison built with the dialog's API and
// run by the window's controller against its built-in server, snapshots written by
// nicbench-cli opened and overlaid, every export, a corrupt snapshot, the dialog asking
// a server for its adapters, and the window's comparison command line.

#include "comparisonruns.h"
#include "integrationhelpers.h"

#include <common/chartzoom.h>
#include <common/messagebanner.h>
#include <compare/snapshot.h>
#include <compareview/comparisoncontroller.h>
#include <compareview/comparisondialog.h>
#include <compareview/comparisonflags.h>
#include <compareview/comparisonreport.h>
#include <compareview/comparisonview.h>
#include <compareview/comparisonviewcharts.h>
#include <comparison/comparisonanswerpanel.h>
#include <comparison/comparisoncharts.h>
#include <comparison/comparisontablemodel.h>
#include <session/server.h>
#include <window/mainwindow.h>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QMap>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>
#include <QXmlStreamReader>

#include <memory>
#include <thread>

using nb::gui::ComparisonView;
using nb::gui::MainWindow;

namespace {

const QString kCli = QStringLiteral(NICBENCH_CLI_PATH);
// Minimal CSV reader (quoted fields with doubled quotes), enough for our own output.
QList<QStringList> parseCsv(const QString &text, QString *error)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"') && field.isEmpty()) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            row << field;
            rows << row;
            row.clear();
            field.clear();
        } else if (c != QLatin1Char('\r')) {
            field += c;
        }
    }
    if (quoted)
        *error = QStringLiteral("unterminated quote");
    if (!field.isEmpty() || !row.isEmpty())
        rows << (row << field);
    return rows;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Runs spread by -2%, +0.5%, +2.5% around a configuration's level.
constexpr double kSpread[] = {0.98, 1.005, 1.025};

nb::TestResult fakeStream(double gbps, double cpuPct)
{
    nb::TestResult r;
    r.params.duration = 5;
    nb::StreamSummary s;
    s.id = 5;
    s.seconds = s.receiverSeconds = 5;
    s.bytesSent = s.bytesReceived = std::uint64_t(gbps * 1e9 / 8 * 5);
    r.streams.append(s);
    r.localCpuKnown = true;
    r.localCpu.end = 5;
    r.localCpu.cpuCount = 4;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = cpuPct;
    return r;
}

nb::TestResult fakeRr(double latencyUs, double cpuPct)
{
    nb::TestResult r;
    r.params.kind = nb::TestKind::Rr;
    r.params.duration = 5;
    r.hasRr = true;
    r.rr.seconds = 5;
    for (int i = 0; i < 200; ++i)
        r.rr.histogram.record(std::int64_t(latencyUs * (0.9 + 0.001 * i) * 1000));
    r.rr.latencyUs = r.rr.histogram.summary();
    r.rr.transactions = std::uint64_t(5 * 1e6 / latencyUs);
    r.localCpuKnown = true;
    r.localCpu.end = 5;
    r.localCpu.cpuCount = 4;
    r.localCpu.systemValid = true;
    r.localCpu.systemBusyPct = cpuPct;
    return r;
}

struct FakeAdapter {
    QString name;
    double gbps;      // P=4 throughput
    double cpuPct;    // P=4 CPU
    double latencyUs; // TCP_RR
    double rrCpuPct;  // TCP_RR CPU
};

// Adapters x (P=4, TCP_RR), three interleaved runs each, results made up in code.
nb::Comparison fakeComparison(const QList<FakeAdapter> &adapters, const QString &title = QStringLiteral("Adapters"))
{
    nb::Comparison c;
    c.title = title;
    c.repeats = 3;
    for (const FakeAdapter &a : adapters) {
        for (const QString &variant : {QStringLiteral("P=4"), QStringLiteral("TCP_RR")}) {
            nb::Configuration conf = nbtest::namedConfiguration(a.name, variant);
            conf.params.duration = 5;
            conf.params.streams = variant == QStringLiteral("P=4") ? 4 : 1;
            if (variant == QStringLiteral("TCP_RR"))
                conf.params.kind = nb::TestKind::Rr;
            c.configurations.append(conf);
        }
    }
    nbtest::addScheduledRuns(c, [&adapters](const nb::Run &run) {
        const FakeAdapter &a = adapters[run.configIndex / 2];
        const double f = kSpread[run.repeatIndex];
        return run.configIndex % 2 == 0 ? fakeStream(a.gbps * f, a.cpuPct * (2 - f))
                                        : fakeRr(a.latencyUs / f, a.rrCpuPct * (2 - f));
    });
    return c;
}

const QList<FakeAdapter> kTwoAdapters{{QStringLiteral("E1000"), 1.0, 40, 80, 30},
                                      {QStringLiteral("VMXNET3"), 9.0, 30, 40, 20}};

// The entry of `adapter` in the answer for `variant`.
const nb::AnswerEntry *entryOf(const QList<nb::VariantAnswer> &answers, const QString &variant, const QString &adapter)
{
    for (const nb::VariantAnswer &a : answers)
        if (a.variant == variant)
            for (const nb::AnswerEntry &e : a.entries)
                if (e.adapter == adapter)
                    return &e;
    return nullptr;
}

} // namespace

class TestGuiComparison : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_cliSnapshot; // written once by nicbench-cli compare

    // P1 and P4 (throughput) and RR against an in-test server, 2 repeats of 1 s.
    QString cliSnapshot()
    {
        if (!m_cliSnapshot.isEmpty())
            return m_cliSnapshot;
        nbtest::ServerThread server;
        QString error;
        if (!server.start(&error)) {
            qWarning("server: %s", qPrintable(error));
            return {};
        }
        const QString target = QStringLiteral("-c 127.0.0.1 -p %1 -t 1 -i 0.5").arg(server.port());
        const QString out = m_dir.filePath(QStringLiteral("cli.nicbench"));
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(kCli,
                {QStringLiteral("compare"), QStringLiteral("--repeats"), QStringLiteral("2"), QStringLiteral("--pause"),
                 QStringLiteral("0"), QStringLiteral("--title"), QStringLiteral("from the CLI"),
                 QStringLiteral("--config"), QStringLiteral("P1=%1 -P 1").arg(target), QStringLiteral("--config"),
                 QStringLiteral("P4=%1 -P 4").arg(target), QStringLiteral("--config"),
                 QStringLiteral("RR=%1 --rr").arg(target), QStringLiteral("-o"), out});
        if (!p.waitForFinished(120000) || p.exitCode() != 0) {
            qWarning("nicbench-cli compare: exit %d\n%s", p.exitCode(), p.readAll().constData());
            p.kill();
            return {};
        }
        m_cliSnapshot = out;
        return out;
    }

    static void waitExposed(MainWindow &w)
    {
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("NicBenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_comparison"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    // (a) Dialog -> controller -> view against the built-in server, then a snapshot.
    void endToEndThroughTheDialog()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        waitExposed(w);
        std::unique_ptr<nb::gui::ComparisonDialog> dialog(w.createComparisonDialog());
        QCOMPARE(dialog->endpointRowCount(), 1); // the built-in server
        dialog->setStreamsText(QStringLiteral("1, 4"));
        dialog->setKinds(true, false);
        dialog->setDuration(1);
        dialog->setRepeats(2);
        dialog->setPauseSeconds(0);
        dialog->setOrder(nb::OrderPolicy::Interleaved);
        dialog->setConfigurationLabel(1, QStringLiteral("four streams"));
        QVERIFY2(dialog->validationError().isEmpty(), qPrintable(dialog->validationError()));
        const nb::Comparison planned = dialog->comparison();
        QCOMPARE(planned.configurations.size(), 2);
        QCOMPARE(planned.configurations[0].params.streams, 1);
        QCOMPARE(planned.configurations[1].params.streams, 4);
        QCOMPARE(planned.configurations[1].label, QStringLiteral("four streams"));
        QVERIFY2(planned.configurations[0].label.endsWith(QStringLiteral("P=1")),
                 qPrintable(planned.configurations[0].label));
        QCOMPARE(planned.configurations[0].params.port, w.builtinServerPort());
        QCOMPARE(planned.configurations[0].params.duration, 1.0);
        QCOMPARE(planned.repeats, 2);
        QCOMPARE(planned.pauseSeconds, 0.0);

        ComparisonView *view = w.comparisonView();
        QSignalSpy finished(view, &ComparisonView::comparisonFinished);
        // Connected after the view: sees the charts as the view left them after each run.
        QList<int> barsAfterRun;
        connect(w.comparisonController(), &nb::gui::ComparisonController::runFinished, this,
                [&barsAfterRun, view] { barsAfterRun << view->barChart(nb::Metric::Throughput)->barCount(); });
        QVERIFY(view->startComparison(planned));
        QVERIFY(w.isComparing());
        QVERIFY(!w.runAction()->isEnabled());
        QVERIFY(view->stopAction()->isEnabled());
        // One measurement at a time: a test is refused while the comparison runs.
        w.runTest(nb::TestParams());
        QVERIFY(!w.isTestRunning());
        QVERIFY2(w.banner()->text().contains(QStringLiteral("comparison")), qPrintable(w.banner()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(view->progressText().startsWith(QStringLiteral("Run ")), 15000);
        QVERIFY2(view->progressText().contains(QStringLiteral(" of 4: ")), qPrintable(view->progressText()));
        // Minor 19: how long is left, from the runs to go and the time each takes.
        QVERIFY2(view->progressText().contains(QRegularExpression(QStringLiteral(" - about \\d+ (s|min) left$"))),
                 qPrintable(view->progressText()));

        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QCOMPARE(barsAfterRun, (QList<int>{1, 2, 2, 2})); // redrawn after every run
        QVERIFY(!w.isComparing());
        QVERIFY(w.runAction()->isEnabled());
        const nb::Comparison done = w.comparisonController()->current();
        QCOMPARE(done.runs.size(), 4);
        const QList<std::pair<int, int>> expected{{0, 0}, {1, 0}, {0, 1}, {1, 1}}; // interleaved
        for (int i = 0; i < 4; ++i) {
            const nb::Run &r = done.runs[i];
            QVERIFY2(r.ok(), qPrintable(r.result.error));
            QCOMPARE(r.orderIndex, i);
            QCOMPARE((std::pair{r.configIndex, r.repeatIndex}), expected[i]);
        }

        auto *bars = view->barChart(nb::Metric::Throughput);
        QVERIFY(bars);
        QCOMPARE(bars->barCount(), 2);
        QVERIFY(view->visibleBarCharts().contains(bars));
        QVERIFY(!view->visibleBarCharts().contains(view->barChart(nb::Metric::TransactionsPerSecond)));
        for (int c = 0; c < 2; ++c) {
            const nb::MetricStatistics *s = view->statistics().find(c, nb::Metric::Throughput);
            QVERIFY(s);
            QVERIFY2(s->summary.mean > 0, qPrintable(QString::number(s->summary.mean)));
        }
        QVERIFY(view->tableModel()->rowCount() >= 2);
        QVERIFY(!view->isLatencyVisible()); // no request/response runs
        QVERIFY2(!view->verdicts().isEmpty(), qPrintable(view->verdicts().join(QLatin1Char('\n'))));
        QVERIFY2(view->verdicts().constFirst().contains(QStringLiteral("four streams")),
                 qPrintable(view->verdicts().join(QLatin1Char('\n'))));

        const QString path = m_dir.filePath(QStringLiteral("gui.nicbench"));
        QVERIFY(view->saveSnapshot(path));
        nb::Comparison loaded;
        QString error;
        QVERIFY2(nb::Snapshot::load(path, &loaded, &error), qPrintable(error));
        QCOMPARE(loaded.runs.size(), done.runs.size());
        QCOMPARE(loaded.configurations.size(), 2);
        for (int i = 0; i < loaded.runs.size(); ++i) {
            QCOMPARE(loaded.runs[i].configIndex, done.runs[i].configIndex);
            QCOMPARE(loaded.runs[i].repeatIndex, done.runs[i].repeatIndex);
            QCOMPARE(nb::metricValue(loaded.runs[i].result, nb::Metric::Throughput),
                     nb::metricValue(done.runs[i].result, nb::Metric::Throughput));
        }
        // And the CLI reads what the window wrote.
        QProcess report;
        report.start(kCli, {QStringLiteral("report"), path, QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY(report.waitForFinished(30000));
        QCOMPARE(report.exitCode(), 0);
        const QString csv = QString::fromUtf8(report.readAllStandardOutput());
        QVERIFY2(csv.startsWith(QStringLiteral("metric,")), qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral("four streams")), qPrintable(csv));
        QVERIFY2(csv.contains(planned.configurations[0].label), qPrintable(csv));
    }

    // A comparison is refused while a single test runs.
    void refusedWhileTestRuns()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        waitExposed(w);
        nb::TestParams p;
        p.duration = 3;
        w.runTest(p);
        QVERIFY(w.isTestRunning());
        std::unique_ptr<nb::gui::ComparisonDialog> dialog(w.createComparisonDialog());
        dialog->setDuration(1);
        QVERIFY(!w.comparisonView()->startComparison(dialog->comparison()));
        QVERIFY(!w.isComparing());
        QCOMPARE(w.comparisonView()->banner()->kind(), nb::ui::MessageBanner::Kind::Error);
        QVERIFY(!w.comparisonView()->newAction()->isEnabled());
        QSignalSpy done(&w, &MainWindow::testFinished);
        w.stopAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 15000);
        QVERIFY(w.comparisonView()->newAction()->isEnabled());
    }

    // Issue 16: a snapshot with a latency-under-load variant shows its charts and answer;
    // a wheel turn that reaches the chart area's scroll bar scrolls it (it went round the
    // grid's event filter endlessly before: QAbstractScrollArea filters its scroll bars too).
    void latencyUnderLoadSnapshot()
    {
        MainWindow w;
        waitExposed(w);
        ComparisonView *view = w.comparisonView();
        QVERIFY(view->openSnapshots({QStringLiteral(NICBENCH_TEST_DATA "/snapshots/v3-loaded-latency.nicbench")}));
        for (nb::Metric m :
             {nb::Metric::LoadedBidirP99Increase, nb::Metric::LoadedIdleP50, nb::Metric::LoadedDownloadThroughput}) {
            auto *chart = view->barChart(m);
            QVERIFY2(chart && chart->hasData(), qPrintable(nb::metricKey(m)));
            QCOMPARE(chart->categoryLabels(), QStringList{QStringLiteral("Latency under load")});
        }
        QCOMPARE(view->barChart(nb::Metric::Throughput)->categoryLabels(), QStringList{QStringLiteral("P=1")});
        // The PDF report charts it too, beside the throughput variant's metrics.
        QCOMPARE(nb::gui::headlineMetrics(view->overlay().merged, view->statistics()),
                 (QList<nb::Metric>{nb::Metric::Throughput, nb::Metric::LocalCpuPerGbps,
                                    nb::Metric::LoadedBidirP99Increase, nb::Metric::LoadedDownloadP99Increase}));
        auto *area = view->findChild<QScrollArea *>(QStringLiteral("barChartArea"));
        QVERIFY(area);
        QScrollBar *bar = area->verticalScrollBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() > 0, 5000);
        const int before = bar->value();
        QWheelEvent wheel(QPointF(2, 2), bar->mapToGlobal(QPointF(2, 2)), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(bar, &wheel);
        QVERIFY(bar->value() > before);

        // Ctrl+wheel over a chart zooms its values and leaves the page where it is (review M11;
        // the grid's filter sent every wheel turn to the scroll bar).
        auto *chart = view->barChart(nb::Metric::Throughput);
        const int at = bar->value();
        const QCPRange values = chart->yAxis->range();
        const QPointF centre = chart->axisRect()->rect().center();
        QWheelEvent zoom(centre, chart->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton,
                         Qt::ControlModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(chart, &zoom);
        chart->replot();
        QCOMPARE(bar->value(), at);
        QVERIFY(chart->yAxis->range().size() < values.size());
        QVERIFY(nb::ui::ChartZoom::of(chart)->isZoomed());
    }

    // Issue 17: the UDP fixture (E1000 and VMXNET3 x UDP 100M, UDP 500M, UDP_RR, UDP 200M -R)
    // shows the UDP charts, an answer row per UDP variant with the loss in each cell (beside the goodput), and the
    // PDF report charts goodput, loss, jitter and UDP_RR transactions/s.
    void udpSnapshot()
    {
        MainWindow w;
        waitExposed(w);
        ComparisonView *view = w.comparisonView();
        QVERIFY(view->openSnapshots({QStringLiteral(NICBENCH_TEST_DATA "/snapshots/v4-udp.nicbench")}));
        QCOMPARE(view->barChart(nb::Metric::UdpLossPercent)->categoryLabels(),
                 (QStringList{QStringLiteral("UDP 100M"), QStringLiteral("UDP 500M"), QStringLiteral("UDP 200M -R")}));
        QCOMPARE(view->barChart(nb::Metric::UdpRrLostPercent)->categoryLabels(), QStringList{QStringLiteral("UDP_RR")});
        QVERIFY(!view->barChart(nb::Metric::Throughput)->hasData());
        nb::ui::ComparisonAnswerPanel *panel = view->answerPanel();
        QTRY_VERIFY(panel->isVisible());
        QCOMPARE(panel->variantCount(), 4);
        // Two lines a row: the loss beside the goodput.
        QCOMPARE(panel->cellText(0, QStringLiteral("VMXNET3")).count(QLatin1Char('\n')), 1);
        QVERIFY2(panel->cellText(0, QStringLiteral("VMXNET3")).contains(QStringLiteral("\u00b7  loss ")),
                 qPrintable(panel->cellText(0, QStringLiteral("VMXNET3"))));
        QVERIFY2(panel->cellText(2, QStringLiteral("E1000")).contains(QStringLiteral("\u00b7  lost ")),
                 qPrintable(panel->cellText(2, QStringLiteral("E1000"))));
        QCOMPARE(nb::gui::headlineMetrics(view->overlay().merged, view->statistics()),
                 (QList<nb::Metric>{nb::Metric::UdpGoodput, nb::Metric::UdpLossPercent, nb::Metric::UdpJitter,
                                    nb::Metric::UdpRrTransactionsPerSecond}));
    }

    // (b) What the CLI wrote, and two snapshots overlaid.
    void opensCliSnapshotAndOverlays()
    {
        const QString path = cliSnapshot();
        QVERIFY(!path.isEmpty());
        MainWindow w;
        waitExposed(w);
        ComparisonView *view = w.comparisonView();
        QVERIFY(view->openSnapshots({path}));
        QCOMPARE(view->sourceCount(), 1);
        QCOMPARE(view->overlay().merged.configurations.size(), 3);
        auto *bars = view->barChart(nb::Metric::Throughput);
        QCOMPARE(bars->barCount(), 2); // RR has no throughput
        // Hand-made labels without a variant: each is an adapter (a series) of one group.
        QCOMPARE(view->overlay().adapterLabels,
                 (QStringList{QStringLiteral("P1"), QStringLiteral("P4"), QStringLiteral("RR")}));
        QVERIFY(view->barChart(nb::Metric::TransactionsPerSecond)->hasData());
        QVERIFY(view->barChart(nb::Metric::LatencyP99)->hasData());
        QVERIFY(view->isLatencyVisible());
        QVERIFY(view->latencyChart()->seriesCount() >= 1);
        QVERIFY(view->timelineChart()->curveCount() >= 4);
        QVERIFY(view->tableModel()->rowCount() >= 3);

        // At 1280x720 the table shows every column without scrolling sideways: columns as
        // wide as their text, the verdict taking the rest, and room for the verdict's text ...
        QTableView *table = view->tableView();
        QHeaderView *header = table->horizontalHeader();
        const QAbstractItemView *itemView = table;
        QCOMPARE(header->sectionResizeMode(nb::ui::ComparisonTableModel::VerdictColumn), QHeaderView::Stretch);
        QTRY_VERIFY(table->isVisible() && header->length() > 0);
        QTRY_COMPARE(table->horizontalScrollBar()->maximum(), 0);
        // ... the configuration labels and metric names may give up some width, as a last
        // resort (elided; the tooltip has them).
        QVERIFY(header->sectionSize(nb::ui::ComparisonTableModel::MetricColumn) >= 100);
        for (int column = nb::ui::ComparisonTableModel::RunsColumn; column < nb::ui::ComparisonTableModel::ColumnCount;
             ++column)
            QVERIFY2(table->isColumnHidden(column) ||
                         header->sectionSize(column) >= itemView->sizeHintForColumn(column),
                     qPrintable(QStringLiteral("column %1: %2 < %3")
                                    .arg(column)
                                    .arg(header->sectionSize(column))
                                    .arg(itemView->sizeHintForColumn(column))));
        // What bars and whiskers are, said once above the charts.
        auto *caption = view->findChild<QLabel *>(QStringLiteral("chartCaption"));
        QVERIFY(caption && caption->isVisible());
        QVERIFY(caption->text().contains(QStringLiteral("95% confidence interval")));
        // Every row of charts is filled: the last chart of each row reaches the right edge.
        auto *area = view->findChild<QScrollArea *>(QStringLiteral("barChartArea"));
        QVERIFY(area && area->widget());
        QMap<int, int> rightEdge; // top -> rightmost edge of the charts in that row
        for (auto *chart : area->widget()->findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
            if (chart->isVisible())
                rightEdge[chart->geometry().top()] =
                    std::max(rightEdge.value(chart->geometry().top()), chart->geometry().right());
        }
        QVERIFY(!rightEdge.isEmpty());
        for (int right : std::as_const(rightEdge))
            QVERIFY2(right >= area->widget()->width() - 4,
                     qPrintable(QStringLiteral("%1 of %2").arg(right).arg(area->widget()->width())));

        const QString copy = m_dir.filePath(QStringLiteral("after-tuning.nicbench"));
        QFile::remove(copy);
        QVERIFY(QFile::copy(path, copy));
        QVERIFY(view->addSnapshot(copy));
        QCOMPARE(view->sourceCount(), 2);
        QCOMPARE(view->overlay().sourceCount(), 2);
        QCOMPARE(bars->barCount(), 4); // P1 and P4 of each source
        const nb::ComparisonOverlay &o = view->overlay();
        QCOMPARE(o.groupLabels.size(), 1);
        QCOMPARE(o.seriesCount(), 6); // three adapters x two sources
        for (int series = 0; series < o.seriesCount(); ++series)
            QVERIFY(o.configurationFor(0, series) >= 0);
        // Like with like: P4 of the copy is compared with P4 of the first snapshot.
        const int p4Copy = int(o.merged.configurations.size()) - 2;
        QCOMPARE(o.merged.configurations[p4Copy].adapterName(), QStringLiteral("P4"));
        QCOMPARE(view->statistics().configurations[p4Copy].baselineConfig, 1);
        view->removeSource(1);
        QCOMPARE(view->sourceCount(), 1);
        QCOMPARE(bars->barCount(), 2);

        // Another baseline: the verdicts follow.
        // Whatever the verdict ("P4 is faster than P1", "P4 and P1: no significant
        // difference", "P4 vs P1, ...": two short loopback runs may well be inconclusive),
        // the line names the baseline second.
        const auto against = [](const QString &baseline) {
            return QRegularExpression(QStringLiteral("\\b(than|and|vs) %1\\b").arg(baseline));
        };
        QVERIFY2(view->verdicts().constFirst().contains(against(QStringLiteral("P1"))),
                 qPrintable(view->verdicts().join(QLatin1Char('\n'))));
        view->setBaseline(1);
        QCOMPARE(view->statistics().baselineIndex, 1);
        QVERIFY2(view->verdicts().constFirst().contains(against(QStringLiteral("P4"))),
                 qPrintable(view->verdicts().join(QLatin1Char('\n'))));
        for (const QString &line : view->verdicts())
            QVERIFY2(!line.contains(against(QStringLiteral("P1"))), qPrintable(line));

        // The latency chart's Box/CDF switch.
        auto *mode = view->findChild<QComboBox *>(QStringLiteral("latencyModeCombo"));
        QVERIFY(mode);
        mode->setCurrentIndex(1);
        QCOMPARE(view->latencyChart()->mode(), nb::ui::LatencyDistributionChart::Mode::Cdf);
        QVERIFY(view->latencyChart()->seriesCount() >= 1);
        QVERIFY(view->tableView()->isSortingEnabled());
    }

    // Issue 14: per test variant, each adapter against the baseline adapter's run of the same
    // variant; the answer panel says who wins with the CPU cost beside the throughput.
    void answersPerVariantAgainstBaselineAdapter()
    {
        MainWindow w;
        waitExposed(w);
        ComparisonView *view = w.comparisonView();
        view->showSources({nb::ComparisonSource{QStringLiteral("adapters"), fakeComparison(kTwoAdapters)}});
        if (const QString keep = qEnvironmentVariable("NICBENCH_KEEP_EXPORTS"); !keep.isEmpty()) {
            QDir().mkpath(keep);
            QVERIFY(view->saveSnapshot(keep + QStringLiteral("/adapters.nicbench")));
        }
        const QList<nb::VariantAnswer> &answers = view->answers();
        QCOMPARE(answers.size(), 2);
        QCOMPARE(answers[0].variant, QStringLiteral("P=4"));
        QCOMPARE(answers[0].primary, nb::Metric::Throughput);
        QCOMPARE(answers[0].cost, nb::Metric::LocalCpuPerGbps);
        QCOMPARE(answers[1].variant, QStringLiteral("TCP_RR"));
        QCOMPARE(answers[1].primary, nb::Metric::TransactionsPerSecond);
        QCOMPARE(answers[1].cost, nb::Metric::LocalCpuPerKtps);
        for (const QString &variant : {QStringLiteral("P=4"), QStringLiteral("TCP_RR")}) {
            const nb::AnswerEntry *vmx = entryOf(answers, variant, QStringLiteral("VMXNET3"));
            QVERIFY(vmx && vmx->primary && vmx->primary->hasBaseline && vmx->cost && vmx->cost->hasBaseline);
            QCOMPARE(vmx->baseline, QStringLiteral("E1000"));
            QCOMPARE(vmx->primary->vsBaseline.verdict, nb::stats::Verdict::Faster);
            QVERIFY(vmx->primary->vsBaseline.difference.relative > 0);
            QVERIFY(entryOf(answers, variant, QStringLiteral("E1000"))->isBaseline);
        }
        const QStringList lines = view->verdicts();
        QVERIFY2(
            lines.filter(QRegularExpression(QStringLiteral("^P=4: VMXNET3 is faster than E1000: \\+\\d"))).size() == 1,
            qPrintable(lines.join(QLatin1Char('\n'))));
        QVERIFY2(
            lines.filter(QRegularExpression(QStringLiteral("^TCP_RR: VMXNET3 is faster than E1000: \\+\\d"))).size() ==
                1,
            qPrintable(lines.join(QLatin1Char('\n'))));

        // The panel: one row per variant, the winner in words, values and CPU cost per adapter.
        nb::ui::ComparisonAnswerPanel *panel = view->answerPanel();
        QTRY_VERIFY(panel->isVisible());
        QCOMPARE(panel->variantCount(), 2);
        for (int v = 0; v < 2; ++v) {
            QVERIFY2(panel->answerText(v).startsWith(QStringLiteral("\u25b2 VMXNET3 is faster")),
                     qPrintable(panel->answerText(v)));
            QVERIFY2(panel->answerText(v).contains(QStringLiteral(" vs E1000")), qPrintable(panel->answerText(v)));
        }
        QVERIFY2(panel->cellText(0, QStringLiteral("VMXNET3")).contains(QStringLiteral("Gbit/s")) &&
                     panel->cellText(0, QStringLiteral("VMXNET3")).contains(QStringLiteral("% per Gbit/s")),
                 qPrintable(panel->cellText(0, QStringLiteral("VMXNET3"))));
        QVERIFY2(panel->cellText(1, QStringLiteral("E1000")).contains(QStringLiteral("% per 1000/s")),
                 qPrintable(panel->cellText(1, QStringLiteral("E1000"))));
        // The panel and the first row of charts fit on screen at 1280x720.
        auto *first = view->barChart(nb::Metric::Throughput);
        auto *cost = view->barChart(nb::Metric::LocalCpuPerGbps);
        QTRY_VERIFY(first->isVisible() && cost->isVisible());
        QCOMPARE(first->mapTo(view, QPoint(0, 0)).y(), cost->mapTo(view, QPoint(0, 0)).y());
        QVERIFY2(
            cost->mapTo(&w, QPoint(0, cost->height())).y() <= w.height(),
            qPrintable(QStringLiteral("%1 > %2").arg(cost->mapTo(&w, QPoint(0, cost->height())).y()).arg(w.height())));
        QVERIFY(first->height() >= nb::gui::ComparisonChartGrid::kMinimumChartHeight);

        // The baseline is an adapter: VMXNET3 as the baseline flips every sign.
        QComboBox *combo = view->baselineCombo();
        QCOMPARE(combo->count(), 2);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("E1000"));
        view->setBaselineAdapter(QStringLiteral("VMXNET3"));
        QCOMPARE(view->baselineAdapter(), QStringLiteral("VMXNET3"));
        QCOMPARE(combo->currentData().toString(), QStringLiteral("VMXNET3"));
        for (const QString &variant : {QStringLiteral("P=4"), QStringLiteral("TCP_RR")}) {
            const nb::AnswerEntry *e1000 = entryOf(view->answers(), variant, QStringLiteral("E1000"));
            QVERIFY(e1000 && e1000->primary && e1000->primary->hasBaseline);
            QCOMPARE(e1000->baseline, QStringLiteral("VMXNET3"));
            QCOMPARE(e1000->primary->vsBaseline.verdict, nb::stats::Verdict::Slower);
            QVERIFY(e1000->primary->vsBaseline.difference.relative < 0);
            QVERIFY(entryOf(view->answers(), variant, QStringLiteral("VMXNET3"))->isBaseline);
        }
        QVERIFY2(view->verdicts().constFirst().startsWith(QStringLiteral("P=4: E1000 is slower than VMXNET3: -")),
                 qPrintable(view->verdicts().join(QLatin1Char('\n'))));
        QVERIFY2(panel->answerText(0).startsWith(QStringLiteral("\u25b2 VMXNET3 is faster")),
                 qPrintable(panel->answerText(0)));
        // setBaseline(merged index) picks that configuration's adapter.
        view->setBaseline(1); // E1000, TCP_RR
        QCOMPARE(view->baselineAdapter(), QStringLiteral("E1000"));
        QCOMPARE(view->overlay().merged.configurations[view->statistics().baselineIndex].adapter,
                 QStringLiteral("E1000"));
        QVERIFY(entryOf(view->answers(), QStringLiteral("TCP_RR"), QStringLiteral("E1000"))->isBaseline);
    }

    // Before/after: VMXNET3 (after) is compared with VMXNET3 (before), not with E1000.
    void overlayComparesSameAdapter()
    {
        MainWindow w;
        waitExposed(w);
        ComparisonView *view = w.comparisonView();
        const QList<FakeAdapter> before{{QStringLiteral("E1000"), 1.0, 40, 80, 30},
                                        {QStringLiteral("VMXNET3"), 5.0, 30, 50, 20}};
        view->showSources({nb::ComparisonSource{QStringLiteral("before"), fakeComparison(before)},
                           nb::ComparisonSource{QStringLiteral("after"), fakeComparison(kTwoAdapters)}});
        QCOMPARE(view->overlay().sourceCount(), 2);
        if (const QString keep = qEnvironmentVariable("NICBENCH_KEEP_EXPORTS"); !keep.isEmpty()) {
            QDir().mkpath(keep);
            QVERIFY(view->saveSnapshot(keep + QStringLiteral("/before.nicbench"), 0));
            QVERIFY(view->saveSnapshot(keep + QStringLiteral("/after.nicbench"), 1));
        }
        const nb::AnswerEntry *after =
            entryOf(view->answers(), QStringLiteral("P=4"), QStringLiteral("VMXNET3 (after)"));
        QVERIFY(after && after->primary && after->primary->hasBaseline);
        QCOMPARE(after->baseline, QStringLiteral("VMXNET3 (before)"));
        QCOMPARE(after->primary->vsBaseline.verdict, nb::stats::Verdict::Faster);
        QVERIFY(entryOf(view->answers(), QStringLiteral("P=4"), QStringLiteral("VMXNET3 (before)"))->isBaseline);
        QVERIFY2(
            view->verdicts().filter(QStringLiteral("P=4: VMXNET3 (after) is faster than VMXNET3 (before)")).size() == 1,
            qPrintable(view->verdicts().join(QLatin1Char('\n'))));
        for (const QString &line : view->verdicts())
            QVERIFY2(!line.contains(QStringLiteral("VMXNET3 (after) is faster than E1000")), qPrintable(line));
        // With several sources the baseline is a source.
        QComboBox *combo = view->baselineCombo();
        QCOMPARE(combo->count(), 2);
        QCOMPARE(combo->currentData().toString(), QStringLiteral("before"));
        view->setBaselineSource(1);
        QCOMPARE(view->baselineSource(), 1);
        const nb::AnswerEntry *beforeEntry =
            entryOf(view->answers(), QStringLiteral("P=4"), QStringLiteral("VMXNET3 (before)"));
        QVERIFY(beforeEntry && beforeEntry->primary && beforeEntry->primary->hasBaseline);
        QCOMPARE(beforeEntry->baseline, QStringLiteral("VMXNET3 (after)"));
        QCOMPARE(beforeEntry->primary->vsBaseline.verdict, nb::stats::Verdict::Slower);
        // setBaseline(merged index) picks that configuration's source.
        view->setBaseline(0);
        QCOMPARE(view->baselineSource(), 0);
    }

    // M6: long labels elide in the middle; the verdict column stays readable at 1280x720.
    void tableVerdictReadableAt720p()
    {
        MainWindow w;
        waitExposed(w);
        ComparisonView *view = w.comparisonView();
        QList<FakeAdapter> adapters = kTwoAdapters;
        adapters[0].name = QStringLiteral("veth e1000-like -> e1000-like on the far side of the lab");
        adapters[1].name = QStringLiteral("veth vmxnet3-like -> vmxnet3-like on the far side of the lab");
        view->showSources({nb::ComparisonSource{QStringLiteral("long"), fakeComparison(adapters)}});
        QTableView *table = view->tableView();
        QHeaderView *header = table->horizontalHeader();
        QTRY_VERIFY(table->isVisible() && header->length() > 0);
        const int verdict = nb::ui::ComparisonTableModel::VerdictColumn;
        const QAbstractItemView *itemView = table;
        QTRY_VERIFY(header->sectionViewportPosition(verdict) + header->sectionSize(verdict) <=
                    table->viewport()->width());
        QVERIFY2(
            header->sectionSize(verdict) >= header->sectionSizeHint(verdict),
            qPrintable(
                QStringLiteral("%1 < %2").arg(header->sectionSize(verdict)).arg(header->sectionSizeHint(verdict))));
        QVERIFY2(
            header->sectionSize(verdict) >= itemView->sizeHintForColumn(verdict),
            qPrintable(
                QStringLiteral("%1 < %2").arg(header->sectionSize(verdict)).arg(itemView->sizeHintForColumn(verdict))));
        // The configuration gave up width, and says its whole label in the tooltip.
        const int config = nb::ui::ComparisonTableModel::ConfigurationColumn;
        QVERIFY(header->sectionSize(config) < itemView->sizeHintForColumn(config));
        QCOMPARE(table->textElideMode(), Qt::ElideMiddle);
        const QModelIndex cell = table->model()->index(1, config);
        QVERIFY2(cell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("compared with ")),
                 qPrintable(cell.data(Qt::ToolTipRole).toString()));
        // The baseline combo elides too, with the whole name in its tooltip.
        QVERIFY(view->baselineCombo()->toolTip().contains(adapters[0].name));
        QVERIFY(view->baselineCombo()->width() < 600);
    }

    // The report: the answer first, then the CPU per Gbit/s chart among the charts.
    void reportShowsAnswerAndCostCharts()
    {
        MainWindow w;
        ComparisonView *view = w.comparisonView();
        view->showSources({nb::ComparisonSource{QStringLiteral("adapters"), fakeComparison(kTwoAdapters)}});
        QCOMPARE(nb::gui::headlineMetrics(view->overlay().merged, view->statistics()),
                 (QList<nb::Metric>{nb::Metric::Throughput, nb::Metric::LocalCpuPerGbps,
                                    nb::Metric::TransactionsPerSecond, nb::Metric::LocalCpuPerKtps}));
        const QString pdf = m_dir.filePath(QStringLiteral("answer.pdf"));
        QVERIFY(view->exportPdfReport(pdf));
        if (const QString keep = qEnvironmentVariable("NICBENCH_KEEP_EXPORTS"); !keep.isEmpty()) {
            QDir().mkpath(keep);
            QFile::remove(keep + QStringLiteral("/answer.pdf"));
            QFile::copy(pdf, keep + QStringLiteral("/answer.pdf"));
        }
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (pdftotext.isEmpty())
            QSKIP("pdftotext (poppler-utils) is not installed");
        QProcess p;
        p.start(pdftotext, {pdf, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        const qsizetype answer = text.indexOf(QStringLiteral("P=4: VMXNET3 is faster than E1000"));
        QVERIFY2(answer >= 0, qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("TCP_RR: VMXNET3 is faster than E1000")), qPrintable(text));
        QVERIFY2(answer < text.indexOf(QStringLiteral("Compared with")), qPrintable(text)); // before the table
        // "CPU per Gbit/s": in the answer's P=4 line, the table's two rows and the chart's title.
        const int inAnswer = int(view->verdicts().filter(QStringLiteral("CPU per Gbit/s")).size());
        QVERIFY2(text.count(QStringLiteral("CPU per Gbit/s")) >= inAnswer + 2 + 1, qPrintable(text));
        QVERIFY2(text.count(QStringLiteral("CPU per 1000")) >= 1 + 1, qPrintable(text));
    }

    // Minor 18: the empty tab offers the two ways in and nothing to export.
    void emptyTabOffersWaysIn()
    {
        // A view of its own: in the window the button opens the (modal) dialog.
        nb::gui::ComparisonController controller;
        ComparisonView own(&controller);
        own.resize(1280, 680);
        own.show();
        QVERIFY(QTest::qWaitForWindowExposed(&own));
        ComparisonView *view = &own;
        auto *newButton = view->findChild<QPushButton *>(QStringLiteral("emptyNewComparisonButton"));
        auto *openButton = view->findChild<QPushButton *>(QStringLiteral("emptyOpenSnapshotButton"));
        QVERIFY(newButton && openButton);
        QVERIFY(!newButton->isHidden() && !openButton->isHidden());
        QVERIFY(!view->exportButton()->isEnabled());
        QSignalSpy requested(view, &ComparisonView::newComparisonRequested);
        newButton->click();
        QCOMPARE(requested.count(), 1);
        view->showSources({nb::ComparisonSource{QStringLiteral("adapters"), fakeComparison(kTwoAdapters)}});
        QVERIFY(view->exportButton()->isEnabled());
        QVERIFY(newButton->isHidden() || !newButton->isVisibleTo(view));
    }

    // Stop ends after the current run and keeps what was measured.
    void stopKeepsFinishedRuns()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        waitExposed(w);
        std::unique_ptr<nb::gui::ComparisonDialog> dialog(w.createComparisonDialog());
        dialog->setStreamsText(QStringLiteral("1, 2"));
        dialog->setDuration(1);
        dialog->setRepeats(3);
        dialog->setPauseSeconds(0);
        ComparisonView *view = w.comparisonView();
        QSignalSpy finished(view, &ComparisonView::comparisonFinished);
        QSignalSpy runs(w.comparisonController(), &nb::gui::ComparisonController::runFinished);
        QVERIFY(view->startComparison(dialog->comparison()));
        QTRY_VERIFY_WITH_TIMEOUT(runs.count() >= 1, 60000);
        view->stopAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const auto done = finished.constFirst().constFirst().value<nb::Comparison>();
        QVERIFY2(done.runs.size() >= 1 && done.runs.size() < 6, qPrintable(QString::number(done.runs.size())));
        QVERIFY(!done.finishedAt.isValid());
        QVERIFY2(view->progressText().startsWith(QStringLiteral("Stopped")), qPrintable(view->progressText()));
        QCOMPARE(view->sourceCount(), 1);
        QVERIFY(w.runAction()->isEnabled());
        // Re-run starts the same configurations again, overlaid on the stopped one.
        QVERIFY(view->rerunConfigurations());
        QCOMPARE(view->sourceCount(), 2);
        view->stopAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
    }

    // (c) Charts, tables and the one-page report.
    void exportsValidFiles()
    {
        const QString path = cliSnapshot();
        QVERIFY(!path.isEmpty());
        MainWindow w;
        waitExposed(w);
        ComparisonView *view = w.comparisonView();
        QVERIFY(view->openSnapshots({path}));

        const QString dir = m_dir.filePath(QStringLiteral("charts"));
        const QStringList files = view->exportCharts(dir);
        QVERIFY2(files.size() >= 3 * 3, qPrintable(files.join(QLatin1Char(' '))));
        QVERIFY(files.contains(dir + QStringLiteral("/throughput_bps.png")));
        QVERIFY(files.contains(dir + QStringLiteral("/latency_distribution.svg")));
        for (const QString &f : files) {
            const QByteArray bytes = readAll(f);
            QVERIFY2(!bytes.isEmpty(), qPrintable(f));
            if (f.endsWith(QStringLiteral(".png"))) {
                QImage image;
                QVERIFY2(image.loadFromData(bytes, "PNG"), qPrintable(f));
                QVERIFY(image.width() >= 400 && image.height() >= 200);
            } else if (f.endsWith(QStringLiteral(".svg"))) {
                QXmlStreamReader xml(bytes);
                bool sawSvg = false;
                while (!xml.atEnd()) {
                    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg"))
                        sawSvg = true;
                }
                QVERIFY2(!xml.hasError(), qPrintable(f + QStringLiteral(": ") + xml.errorString()));
                QVERIFY2(sawSvg, qPrintable(f));
            } else {
                QVERIFY2(bytes.startsWith("%PDF"), qPrintable(f));
            }
        }

        const QString csvPath = m_dir.filePath(QStringLiteral("table.csv"));
        QVERIFY(view->exportTableCsv(csvPath));
        QString error;
        const QList<QStringList> rows = parseCsv(QString::fromUtf8(readAll(csvPath)), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(rows.size() >= 1 + 3);
        QCOMPARE(rows.constFirst().constFirst(), QStringLiteral("metric"));
        QCOMPARE(rows.constFirst().count(QStringLiteral("metric")), 1); // one header
        for (const QStringList &row : rows)
            QCOMPARE(row.size(), rows.constFirst().size());
        QCOMPARE(rows.size() - 1, view->tableModel()->rowCount());

        const QString mdPath = m_dir.filePath(QStringLiteral("table.md"));
        QVERIFY(view->exportTableMarkdown(mdPath));
        const QString md = QString::fromUtf8(readAll(mdPath));
        QVERIFY2(md.contains(QRegularExpression(QStringLiteral("^\\|.*\\|$"), QRegularExpression::MultilineOption)),
                 qPrintable(md));
        QVERIFY2(
            md.contains(QRegularExpression(QStringLiteral("^\\|[\\s:|-]*---"), QRegularExpression::MultilineOption)),
            qPrintable(md));

        const QString pdfPath = m_dir.filePath(QStringLiteral("report.pdf"));
        QVERIFY(view->exportPdfReport(pdfPath));
        const QByteArray pdf = readAll(pdfPath);
        QVERIFY(pdf.startsWith("%PDF"));
        const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![s\\w])"));
        int pages = 0;
        for (auto it = page.globalMatch(QString::fromLatin1(pdf)); it.hasNext(); it.next())
            ++pages;
        QCOMPARE(pages, 1);

        // NICBENCH_KEEP_EXPORTS=DIR keeps the files for a look (screenshots, reviews).
        if (const QString keep = qEnvironmentVariable("NICBENCH_KEEP_EXPORTS"); !keep.isEmpty()) {
            QDir().mkpath(keep);
            for (const QString &f : files + QStringList{csvPath, mdPath, pdfPath}) {
                QFile::remove(keep + QLatin1Char('/') + QFileInfo(f).fileName());
                QFile::copy(f, keep + QLatin1Char('/') + QFileInfo(f).fileName());
            }
        }

        // An overlay still fits on one page.
        const QString copy = m_dir.filePath(QStringLiteral("overlay.nicbench"));
        QFile::remove(copy);
        QVERIFY(QFile::copy(path, copy));
        QVERIFY(view->addSnapshot(copy));
        QVERIFY(view->exportPdfReport(pdfPath));
        pages = 0;
        for (auto it = page.globalMatch(QString::fromLatin1(readAll(pdfPath))); it.hasNext(); it.next())
            ++pages;
        QCOMPARE(pages, 1);
    }

    // (d) A corrupt snapshot: an error in the banner, the window goes on.
    void corruptSnapshotShowsError()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        waitExposed(w);
        ComparisonView *view = w.comparisonView();
        const QString bad = m_dir.filePath(QStringLiteral("corrupt.nicbench"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"format\": \"nicbench-snapshot\", \"version\": 1, \"configurations\": [");
        }
        QVERIFY(!view->openSnapshots({bad}));
        QCOMPARE(view->sourceCount(), 0);
        QCOMPARE(view->banner()->kind(), nb::ui::MessageBanner::Kind::Error);
        QVERIFY2(view->banner()->text().contains(QStringLiteral("corrupt.nicbench")),
                 qPrintable(view->banner()->text()));
        QVERIFY(!view->addSnapshot(m_dir.filePath(QStringLiteral("missing.nicbench"))));
        QVERIFY(!view->saveSnapshot(m_dir.filePath(QStringLiteral("nothing.nicbench"))));
        QVERIFY(view->exportCharts(m_dir.filePath(QStringLiteral("none"))).isEmpty());
        QVERIFY(!view->exportPdfReport(m_dir.filePath(QStringLiteral("none.pdf"))));
        // Still usable: a test runs, and a good snapshot opens.
        QVERIFY(w.runAction()->isEnabled());
        QVERIFY(view->newAction()->isEnabled());
        const QString good = cliSnapshot();
        QVERIFY(!good.isEmpty());
        QVERIFY(view->openSnapshots({good}));
        QCOMPARE(view->sourceCount(), 1);
        // Saving into a folder that does not exist fails with a message, not a crash.
        QVERIFY(!view->saveSnapshot(m_dir.filePath(QStringLiteral("no/such/dir/x.nicbench"))));
        QCOMPARE(view->banner()->kind(), nb::ui::MessageBanner::Kind::Error);
    }

    // (e) The dialog asks the built-in server for its adapters.
    void dialogAsksServerForAdapters()
    {
        MainWindow w;
        QVERIFY(w.startBuiltinServer());
        waitExposed(w);
        std::unique_ptr<nb::gui::ComparisonDialog> dialog(w.createComparisonDialog());
        QSignalSpy answered(dialog.get(), &nb::gui::ComparisonDialog::serverAnswered);
        const int rowsBefore = dialog->endpointRowCount();
        dialog->askServer();
        QVERIFY(dialog->isAskingServer());
        QTRY_COMPARE_WITH_TIMEOUT(answered.count(), 1, 15000);
        QVERIFY2(answered.constFirst().constFirst().toBool(), qPrintable(answered.constFirst().at(1).toString()));
        QVERIFY2(!dialog->suggestions().isEmpty(), qPrintable(dialog->serverStatus()));
        // Suggestions are offered as rows, unticked, unless the row exists already.
        QVERIFY(dialog->endpointRowCount() >= rowsBefore);
        QCOMPARE(dialog->endpoints().size(), 1);
        if (const QString keep = qEnvironmentVariable("NICBENCH_KEEP_EXPORTS"); !keep.isEmpty()) {
            dialog->setStreamsText(QStringLiteral("1, 4, 8"));
            dialog->resize(1100, 620);
            dialog->show();
            QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
            QDir().mkpath(keep);
            dialog->grab().save(keep + QStringLiteral("/dialog.png"));
        }

        // A port where nothing listens: a message, no rows.
        std::unique_ptr<nb::gui::ComparisonDialog> other(w.createComparisonDialog());
        other->setPort(9);
        QSignalSpy failed(other.get(), &nb::gui::ComparisonDialog::serverAnswered);
        other->askServer();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 15000);
        QVERIFY(!failed.constFirst().constFirst().toBool());
        QCOMPARE(other->endpointRowCount(), 1);
    }

    void dialogValidates()
    {
        nb::gui::ComparisonDialog dialog;
        QVERIFY(dialog.validationError().isEmpty());
        dialog.setStreamsText(QStringLiteral("1, x"));
        QVERIFY(dialog.validationError().contains(QStringLiteral("\"x\"")));
        dialog.setStreamsText(QStringLiteral("1, 2000"));
        QVERIFY(!dialog.validationError().isEmpty());
        dialog.setStreamsText(QStringLiteral("1 4 16"));
        QVERIFY(dialog.validationError().isEmpty());
        QCOMPARE(dialog.configurations().size(), 3);
        // Request/response is one variant of its own (1 connection), not one per stream count.
        dialog.setKinds(true, true);
        QCOMPARE(dialog.configurations().size(), 4);
        QVERIFY(dialog.configurations().last().params.isRequestResponse());
        // Latency under load (issue 16): one more variant, its phases as long as the test
        // panel's (5 s by default), whatever the Duration of the other variants (review M7).
        dialog.setDuration(3);
        dialog.setKinds(true, true, true);
        QCOMPARE(dialog.configurations().size(), 5);
        {
            const nb::Configuration loaded = dialog.configurations().last();
            QCOMPARE(loaded.variant, QStringLiteral("Latency under load"));
            QVERIFY(loaded.params.isLoadedLatency());
            QCOMPARE(loaded.params.phaseSeconds, 5.0);
            QCOMPARE(dialog.configurations().first().params.duration, 3.0);
            QCOMPARE(loaded.params.streams, 1);
            QVERIFY2(loaded.params.validate().isEmpty(), qPrintable(loaded.params.validate()));
            QVERIFY(dialog.validationError().isEmpty());
        }
        dialog.setKinds(false, false, true);
        QCOMPARE(dialog.configurations().size(), 1);
        dialog.setKinds(false, false);
        QVERIFY(!dialog.validationError().isEmpty());
        dialog.setKinds(true, false);
        dialog.setConfigurationLabel(1, dialog.configurations().at(0).label);
        QVERIFY2(dialog.validationError().contains(QStringLiteral("rename")), qPrintable(dialog.validationError()));
        dialog.setConfigurationLabel(1, QString()); // back to the default
        QVERIFY(dialog.validationError().isEmpty());
        dialog.setEndpointEnabled(0, false);
        QVERIFY(!dialog.validationError().isEmpty());
        QVERIFY(dialog.configurations().isEmpty());
        dialog.setEndpointEnabled(0, true);
        // The baseline is an adapter: its first configuration stands for it.
        dialog.setBaselineIndex(2);
        QCOMPARE(dialog.comparison().baselineIndex, 0);
    }

    // nicbench --report-pdf OUT FILE...: the one-page report without a window or a display.
    void headlessReport()
    {
        const QString snapshot = cliSnapshot();
        QVERIFY(!snapshot.isEmpty());
        const QString gui = QStringLiteral(NICBENCH_GUI_PATH);
        QVERIFY2(QFileInfo(gui).isExecutable(), qPrintable(gui));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM")); // the program must pick offscreen itself
        const auto run = [&](const QStringList &args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.setProcessChannelMode(QProcess::MergedChannels);
            p.start(gui, args);
            if (!p.waitForFinished(60000)) {
                p.kill();
                p.waitForFinished();
                return std::pair{-1, QString::fromUtf8(p.readAll())};
            }
            return std::pair{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
                             QString::fromUtf8(p.readAll())};
        };

        const QString pdf = m_dir.filePath(QStringLiteral("headless.pdf"));
        auto [code, output] = run({QStringLiteral("--report-pdf"), pdf, snapshot, snapshot});
        QVERIFY2(code == 0, qPrintable(output));
        const QByteArray bytes = readAll(pdf);
        QVERIFY(bytes.startsWith("%PDF"));
        const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![s\\w])"));
        QCOMPARE(QString::fromLatin1(bytes).count(page), 1);

        // A corrupt snapshot: one line naming the file, exit 1, no report written.
        const QString bad = m_dir.filePath(QStringLiteral("broken.nicbench"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"format\": \"nicbench-snapshot\", \"version\": 1, \"configurations\": [");
        }
        const QString none = m_dir.filePath(QStringLiteral("none.pdf"));
        std::tie(code, output) = run({QStringLiteral("--report-pdf"), none, bad});
        QVERIFY2(code == 1, qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("broken.nicbench")), qPrintable(output));
        QVERIFY(!QFileInfo::exists(none));
        // Not a PDF name, and no snapshots: usage errors.
        std::tie(code, output) =
            run({QStringLiteral("--report-pdf"), m_dir.filePath(QStringLiteral("r.txt")), snapshot});
        QVERIFY2(code == 2 && output.contains(QStringLiteral(".pdf")), qPrintable(output));
        std::tie(code, output) = run({QStringLiteral("--report-pdf"), none});
        QVERIFY2(code == 2 && output.contains(QStringLiteral("snapshot")), qPrintable(output));
    }

    // nicbench FILE (a double-click: Exec=nicbench %F) with a file that does not open: the
    // window opens all the same, its Compare view saying why, and stderr has the line.
    void badFileOpensTheWindow_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("truncated") << QStringLiteral("broken.nicbench") << QStringLiteral("broken.nicbench");
        QTest::newRow("folder") << QStringLiteral("folder.nicbench") << QStringLiteral("is a folder");
        QTest::newRow("missing") << QStringLiteral("missing.nicbench") << QStringLiteral("no such file");
    }
    void badFileOpensTheWindow()
    {
        QFETCH(QString, name);
        QFETCH(QString, message);
        QTemporaryDir home;
        const QString path = home.filePath(name);
        if (name.startsWith(QLatin1String("broken"))) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"format\": \"nicbench-snapshot\", \"version\": 1, \"configurations\": [");
        } else if (name.startsWith(QLatin1String("folder"))) {
            QVERIFY(QDir(home.path()).mkdir(name));
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config"))); // own settings
        QProcess gui;
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(NICBENCH_GUI_PATH), {path});
        QVERIFY(gui.waitForStarted(10000));
        QByteArray err;
        QElapsedTimer t;
        t.start();
        while (!err.contains('\n') && gui.state() == QProcess::Running && t.elapsed() < 30000) {
            gui.waitForReadyRead(500);
            err += gui.readAllStandardError();
        }
        // Still running a second after the error: the window is open, not an exit 1.
        const bool exited = gui.waitForFinished(1500);
        err += gui.readAllStandardError();
        if (!exited) {
            gui.kill();
            gui.waitForFinished(5000);
        }
        QVERIFY2(!exited, qPrintable(QStringLiteral("exited %1: %2").arg(gui.exitCode()).arg(QString::fromUtf8(err))));
        QVERIFY2(err.contains(message.toUtf8()) && err.contains(name.toUtf8()), err.constData());
    }

    void commandLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("snapshots");
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("quit");
        QTest::addColumn<QStringList>("rest");
        QTest::addColumn<bool>("error");
        const QString prog = QStringLiteral("nicbench");
        QTest::newRow("nothing") << QStringList{prog} << QStringList{} << QString() << false << QStringList{prog}
                                 << false;
        QTest::newRow("two snapshots") << QStringList{prog, QStringLiteral("a.nicbench"),
                                                      QStringLiteral("b.nicbench.gz")}
                                       << QStringList{QStringLiteral("a.nicbench"), QStringLiteral("b.nicbench.gz")}
                                       << QString() << false << QStringList{prog} << false;
        QTest::newRow("compare") << QStringList{prog,
                                                QStringLiteral("--compare"),
                                                QStringLiteral("s.json"),
                                                QStringLiteral("--snapshot-out"),
                                                QStringLiteral("o.nicbench"),
                                                QStringLiteral("--quit-when-done")}
                                 << QStringList{} << QStringLiteral("s.json") << true << QStringList{prog} << false;
        QTest::newRow("run keeps quit") << QStringList{prog, QStringLiteral("--run"),
                                                       QStringLiteral("--quit-when-done")}
                                        << QStringList{} << QString() << false
                                        << QStringList{prog, QStringLiteral("--run"),
                                                       QStringLiteral("--quit-when-done")}
                                        << false;
        QTest::newRow("json-out value") << QStringList{prog, QStringLiteral("--json-out"), QStringLiteral("x.nicbench")}
                                        << QStringList{} << QString() << false
                                        << QStringList{prog, QStringLiteral("--json-out"), QStringLiteral("x.nicbench")}
                                        << false;
        QTest::newRow("compare needs value") << QStringList{prog, QStringLiteral("--compare")} << QStringList{}
                                             << QString() << false << QStringList{prog} << true;
        QTest::newRow("report of snapshots")
            << QStringList{prog, QStringLiteral("--report-pdf"), QStringLiteral("r.pdf"), QStringLiteral("a.nicbench")}
            << QStringList{QStringLiteral("a.nicbench")} << QString() << false << QStringList{prog} << false;
        QTest::newRow("report without input")
            << QStringList{prog, QStringLiteral("--report-pdf"), QStringLiteral("r.pdf")} << QStringList{} << QString()
            << false << QStringList{prog} << true;
        QTest::newRow("report not a pdf")
            << QStringList{prog, QStringLiteral("--report-pdf"), QStringLiteral("r.png"), QStringLiteral("a.nicbench")}
            << QStringList{} << QString() << false << QStringList{prog} << true;
        QTest::newRow("out without compare")
            << QStringList{prog, QStringLiteral("--snapshot-out"), QStringLiteral("o.nicbench")} << QStringList{}
            << QString() << false << QStringList{prog} << true;
    }

    void commandLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, snapshots);
        QFETCH(QString, spec);
        QFETCH(bool, quit);
        QFETCH(QStringList, rest);
        QFETCH(bool, error);
        const nb::gui::ComparisonArguments a = nb::gui::takeComparisonArguments(args);
        QCOMPARE(!a.error.isEmpty(), error);
        if (error)
            return;
        QCOMPARE(a.snapshots, snapshots);
        QCOMPARE(a.specPath, spec);
        QCOMPARE(a.quitWhenDone, quit);
        QCOMPARE(a.rest, rest);
    }
};

QTEST_MAIN(TestGuiComparison)
#include "tst_gui_comparison.moc"
