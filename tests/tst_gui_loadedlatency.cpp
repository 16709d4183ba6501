// SPDX-License-Identifier: GPL-3.0-or-later
// Latency under load in the window (issue 16): the test type and its preset produce a
// LoadedLatency test with the panel's values; the live chart gets one labelled band per
// phase and the intervals' figures in the right graphs; the phase labels never overlap;
// the summary shows each phase's latency increase over idle; a real run against the
// built-in server fills chart and summary.

#include "guihelpers.h"

#include <common/loadedlatencyformat.h>
#include <live/loadedlatencychart.h>
#include <results/resultssummary.h>
#include <testview/testpanel.h>
#include <testview/testview.h>
#include <window/mainwindow.h>

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>

using nb::gui::MainWindow;
using nb::gui::TestPanel;
using nb::gui::TestType;
using nb::ui::LoadedLatencyChart;
using nbtest::graphValueAt;

namespace {

nb::TestParams loadedParams(const QString &phases = QString::fromLatin1(nb::LoadSchedule::DefaultOrder),
                            double seconds = 5)
{
    nb::TestParams p;
    p.kind = nb::TestKind::LoadedLatency;
    p.phases = phases;
    p.phaseSeconds = seconds;
    p.streams = 2;
    return p.normalized();
}

// One 1 s interval ending at `end`: the load each way and the probe's p50/p99.
nb::IntervalReport interval(double end, double upBps, double downBps, double p50, double p99)
{
    nb::IntervalReport r = nbtest::twoStreamInterval(end, upBps, downBps);
    r.hasRr = true;
    r.rr.start = end - 1;
    r.rr.end = end;
    r.rr.transactions = 1000;
    r.rr.latencyUs.count = 1000;
    r.rr.latencyUs.p50 = p50;
    r.rr.latencyUs.p90 = (p50 + p99) / 2;
    r.rr.latencyUs.p99 = p99;
    return r;
}

// What a link with a queue looks like: idle 50/80 µs, download 2/5 ms, upload 1/3 ms,
// both ways 4/9 ms.
QList<nb::IntervalReport> syntheticRun(const nb::LoadSchedule &schedule)
{
    QList<nb::IntervalReport> out;
    const int seconds = int(schedule.total());
    for (int t = 1; t <= seconds; ++t) {
        switch (schedule.phases().at(schedule.phaseAt(t - 0.5))) {
        case nb::LoadPhase::Idle:
            out.append(interval(t, 0, 0, 50, 80));
            break;
        case nb::LoadPhase::Download:
            out.append(interval(t, 0, 900e6, 2000, 5000));
            break;
        case nb::LoadPhase::Upload:
            out.append(interval(t, 800e6, 0, 1000, 3000));
            break;
        case nb::LoadPhase::Bidir:
            out.append(interval(t, 700e6, 600e6, 4000, 9000));
            break;
        }
    }
    return out;
}

// The first pair of overlapping rectangles, or an empty string.
QString firstOverlap(const QList<QRect> &rects)
{
    for (qsizetype i = 0; i < rects.size(); ++i) {
        for (qsizetype j = i + 1; j < rects.size(); ++j) {
            if (rects[i].intersects(rects[j]))
                return QStringLiteral("label %1 (%2,%3 %4x%5) overlaps label %6")
                    .arg(i)
                    .arg(rects[i].x())
                    .arg(rects[i].y())
                    .arg(rects[i].width())
                    .arg(rects[i].height())
                    .arg(j);
        }
    }
    return {};
}

int presetIndex(const TestPanel &panel)
{
    const auto presets = nb::gui::builtinPresets();
    for (int i = 0; i < presets.size(); ++i) {
        if (presets.at(i).flags.contains(QStringLiteral("--latency-under-load")))
            return i;
    }
    Q_UNUSED(panel);
    return -1;
}

} // namespace

class TestGuiLoadedLatency : public QObject {
    Q_OBJECT

    nbtest::GuiTestSettings m_settings;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_settings.init(QStringLiteral("tst_gui_loadedlatency"))); }

    void presetGivesLoadedLatencyTest()
    {
        TestPanel panel;
        const int preset = presetIndex(panel);
        QVERIFY(preset >= 0);
        panel.selectPreset(preset);
        QCOMPARE(panel.testType(), TestType::LoadedLatency);
        nb::TestParams p;
        QString error;
        QVERIFY2(panel.params(&p, &error), qPrintable(error));
        QCOMPARE(p.kind, nb::TestKind::LoadedLatency);
        QCOMPARE(p.streams, 4);
        QCOMPARE(p.phaseSeconds, 5.0);
        QCOMPARE(p.phases, QString::fromLatin1(nb::LoadSchedule::DefaultOrder));
        QCOMPARE(p.direction, nb::Direction::Bidirectional);
        QCOMPARE(p.duration, 25.0); // 5 phases x 5 s
        QVERIFY(p.validate().isEmpty());
        QList<nb::TestParams> plan;
        QVERIFY(panel.testPlan(&plan, &error));
        QCOMPARE(plan.size(), 1);
    }

    void fieldsReachTheParameters()
    {
        TestPanel panel;
        auto *direction = panel.findChild<QComboBox *>(QStringLiteral("directionCombo"));
        QVERIFY(direction);
        direction->setCurrentIndex(direction->findData(int(nb::Direction::Download)));
        panel.setTestType(TestType::LoadedLatency);
        // The greyed box says what the phases do (it said "Upload": review minor) ...
        QCOMPARE(direction->currentData().toInt(), int(nb::Direction::Bidirectional));
        QVERIFY(!direction->isEnabled());
        // ... and another type gives the user's direction back.
        panel.setTestType(TestType::Throughput);
        QCOMPARE(direction->currentData().toInt(), int(nb::Direction::Download));
        panel.setTestType(TestType::LoadedLatency);
        auto *phases = panel.findChild<QLineEdit *>(QStringLiteral("phasesEdit"));
        auto *seconds = panel.findChild<QDoubleSpinBox *>(QStringLiteral("phaseSecondsSpin"));
        auto *dscp = panel.findChild<QSpinBox *>(QStringLiteral("probeDscpSpin"));
        auto *streams = panel.findChild<QSpinBox *>(QStringLiteral("streamsSpin"));
        auto *duration = panel.findChild<QDoubleSpinBox *>(QStringLiteral("durationSpin"));
        QVERIFY(phases && seconds && dscp && streams && duration);
        QVERIFY(phases->isVisibleTo(&panel));
        QVERIFY(!duration->isEnabled());
        // Ranges come from the parameter table.
        QCOMPARE(seconds->minimum(), 1.0);
        QCOMPARE(seconds->maximum(), 3600.0);
        QCOMPARE(dscp->maximum(), 63);
        phases->setText(QStringLiteral("idle, bidir, idle"));
        Q_EMIT phases->textEdited(phases->text());
        seconds->setValue(3);
        dscp->setValue(46);
        streams->setValue(3);
        nb::TestParams p;
        QString error;
        QVERIFY2(panel.params(&p, &error), qPrintable(error));
        QCOMPARE(p.kind, nb::TestKind::LoadedLatency);
        QCOMPARE(p.phases, QStringLiteral("idle, bidir, idle"));
        QCOMPARE(p.phaseSeconds, 3.0);
        QCOMPARE(p.probeDscp, 46);
        QCOMPARE(p.streams, 3);
        QCOMPARE(p.duration, 9.0);
        QCOMPARE(duration->value(), 9.0); // the greyed-out duration shows the test's length

        // A bad phase list is a one-line error naming the field, not a test.
        phases->setText(QStringLiteral("idle,sideways"));
        QVERIFY(!panel.params(&p, &error));
        QVERIFY2(error.startsWith(QStringLiteral("Phases:")), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));

        // Back to throughput: the fields hide, the duration is editable again.
        panel.setTestType(TestType::Throughput);
        QVERIFY(!phases->isVisibleTo(&panel));
        QVERIFY(duration->isEnabled());
    }

    void setParamsShowsLoadedLatency()
    {
        TestPanel panel;
        nb::TestParams in = loadedParams(QStringLiteral("idle,upload,idle"), 7);
        in.probeDscp = 10;
        panel.setParams(in);
        QCOMPARE(panel.testType(), TestType::LoadedLatency);
        nb::TestParams out;
        QString error;
        QVERIFY2(panel.params(&out, &error), qPrintable(error));
        QCOMPARE(out.phases, in.phases);
        QCOMPARE(out.phaseSeconds, 7.0);
        QCOMPARE(out.probeDscp, 10);
        QCOMPARE(out.streams, 2);
        QCOMPARE(out.duration, 21.0);
    }

    void chartBandsAndData()
    {
        LoadedLatencyChart chart;
        chart.resize(760, 340);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const nb::TestParams params = loadedParams();
        chart.startTest(params);
        QCOMPARE(chart.bandCount(), 5);
        chart.plot()->replot();
        QCOMPARE(chart.bandLabels(),
                 QStringList({QStringLiteral("Idle"), QStringLiteral("Download"), QStringLiteral("Upload"),
                              QStringLiteral("Both ways"), QStringLiteral("Idle")}));
        chart.addIntervals(syntheticRun(params.loadSchedule()));
        QCOMPARE(chart.sampleCount(), 25);
        QCOMPARE(chart.uploadGraph()->dataCount(), 25);
        QCOMPARE(chart.downloadGraph()->dataCount(), 25);
        QCOMPARE(chart.p50Graph()->dataCount(), 25);
        QCOMPARE(chart.p99Graph()->dataCount(), 25);
        // Second 8 is download, 13 upload, 18 both ways, 23 idle again.
        QCOMPARE(graphValueAt(chart.downloadGraph(), 8), 900e6);
        QCOMPARE(graphValueAt(chart.uploadGraph(), 8), 0.0);
        QCOMPARE(graphValueAt(chart.uploadGraph(), 13), 800e6);
        QCOMPARE(graphValueAt(chart.p50Graph(), 18), 4000.0);
        QCOMPARE(graphValueAt(chart.p99Graph(), 18), 9000.0);
        QCOMPARE(graphValueAt(chart.p99Graph(), 23), 80.0);
        // p99 of 9 ms over the idle p50 of 50 µs: more than 10 x, so the axis is logarithmic.
        QVERIFY(chart.latencyAxisIsLog());
        QVERIFY2(chart.latencyAxisLabel().contains(QStringLiteral("log")), qPrintable(chart.latencyAxisLabel()));

        // Hover: the phase and the values of the interval under the mouse.
        const QString at = chart.textAt(12.5);
        QVERIFY2(at.contains(QStringLiteral("upload")), qPrintable(at));
        QVERIFY2(at.contains(QStringLiteral("800 Mbit/s")), qPrintable(at));
        QVERIFY2(at.contains(QStringLiteral("1.00 ms")), qPrintable(at));
        QVERIFY2(at.contains(QStringLiteral("3.00 ms")), qPrintable(at));
        QVERIFY(chart.textAt(-1).isEmpty());

        // A new test clears data and bands.
        chart.startTest(loadedParams(QStringLiteral("idle,bidir"), 2));
        QCOMPARE(chart.bandCount(), 2);
        QCOMPARE(chart.uploadGraph()->dataCount(), 0);
        QVERIFY(!chart.latencyAxisIsLog());
    }

    void labelsDoNotOverlap_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("phases");
        QTest::addColumn<double>("seconds");
        const QString five = QString::fromLatin1(nb::LoadSchedule::DefaultOrder);
        const QString sixteen = QStringLiteral("idle,download,upload,bidir,idle,download,upload,bidir,"
                                               "idle,download,upload,bidir,idle,download,upload,bidir");
        QTest::newRow("5 phases, 760 px") << 760 << five << 5.0;
        QTest::newRow("5 phases, 360 px") << 360 << five << 5.0;
        QTest::newRow("16 phases, 760 px") << 760 << sixteen << 5.0;
        QTest::newRow("16 phases, 360 px") << 360 << sixteen << 1.0;
    }

    void labelsDoNotOverlap()
    {
        QFETCH(int, width);
        QFETCH(QString, phases);
        QFETCH(double, seconds);
        LoadedLatencyChart chart;
        chart.resize(width, 320);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const nb::TestParams params = loadedParams(phases, seconds);
        chart.startTest(params);
        chart.addIntervals(syntheticRun(params.loadSchedule()));
        chart.plot()->replot();
        const QList<QRect> rects = chart.labelRects();
        QVERIFY(!rects.isEmpty());
        const QString overlap = firstOverlap(rects);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        const QRect plotArea = chart.plot()->axisRect()->rect();
        for (const QRect &r : rects)
            QVERIFY2(plotArea.contains(r), qPrintable(QStringLiteral("label at x %1 leaves the plot").arg(r.x())));
    }

    void windowAt1280x720()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        LoadedLatencyChart *chart = w.testView()->loadedLatencyChart();
        QVERIFY(chart);
        auto *tabs = w.testView()->findChild<QTabWidget *>(QStringLiteral("chartTabs"));
        QVERIFY(tabs);
        tabs->setCurrentWidget(chart);
        const nb::TestParams params = loadedParams();
        chart->startTest(params);
        chart->addIntervals(syntheticRun(params.loadSchedule()));
        chart->plot()->replot();
        QVERIFY(chart->width() > 200);
        const QList<QRect> rects = chart->labelRects();
        QCOMPARE(rects.size(), 5); // every label fits at this size
        const QString overlap = firstOverlap(rects);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    }

    void summaryShowsIncreasePerPhase()
    {
        nb::TestResult r;
        r.params = loadedParams(QStringLiteral("idle,download,bidir,idle"), 5);
        nb::LoadedLatencyResult l;
        l.phaseSeconds = 5;
        const std::tuple<nb::LoadPhase, double, double, double, double> rows[] = {
            {nb::LoadPhase::Idle, 0, 0, 50, 80},
            {nb::LoadPhase::Download, 0, 900e6, 2050, 5080},
            {nb::LoadPhase::Bidir, 700e6, 600e6, 4050, 9080},
            {nb::LoadPhase::Idle, 0, 0, 60, 90}};
        for (int i = 0; i < 4; ++i) {
            const auto &[phase, up, down, p50, p99] = rows[i];
            nb::LoadPhaseResult p;
            p.phase = phase;
            p.start = i * 5;
            p.end = i * 5 + 5;
            p.uploadBitsPerSecond = up;
            p.downloadBitsPerSecond = down;
            p.hasProbe = true;
            p.transactions = 5000;
            p.latencyUs.count = 5000;
            p.latencyUs.p50 = p50;
            p.latencyUs.p99 = p99;
            l.phases.append(p);
        }
        r.loadedLatency = l;
        nb::ui::ResultsSummary summary;
        summary.showResults({r});
        const QStringList lines = summary.loadedLatencyText().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4);
        QVERIFY2(lines.at(0).contains(QStringLiteral("baseline")), qPrintable(lines.at(0)));
        // Download: p50 2.05 ms - 50 µs = +2.00 ms, p99 5.08 ms - 80 µs = +5.00 ms.
        QVERIFY2(lines.at(1).contains(QStringLiteral("p50 +2.00 ms, p99 +5.00 ms")), qPrintable(lines.at(1)));
        QVERIFY2(lines.at(1).contains(QStringLiteral("down 900 Mbit/s")), qPrintable(lines.at(1)));
        QVERIFY2(lines.at(1).contains(QStringLiteral("1,000/s")), qPrintable(lines.at(1)));
        QVERIFY2(lines.at(2).contains(QStringLiteral("p50 +4.00 ms, p99 +9.00 ms")), qPrintable(lines.at(2)));
        QVERIFY2(lines.at(2).contains(QStringLiteral("up 700 Mbit/s, down 600 Mbit/s")), qPrintable(lines.at(2)));
        QVERIFY2(lines.at(3).contains(QStringLiteral("p50 +10.0 \u00b5s")), qPrintable(lines.at(3)));
        const QString text = summary.toText();
        QVERIFY2(text.contains(QStringLiteral("Under load p99 +9.00 ms (both ways)")), qPrintable(text));
        QVERIFY2(summary.testText().contains(QStringLiteral("latency under load, 4 phases of 5 s")),
                 qPrintable(summary.testText()));
        QVERIFY(summary.latencyText().isEmpty() || !summary.toText().contains(QStringLiteral("Transactions:")));

        // No baseline: the phases say what they measured, and the headline says there is
        // nothing to compare with.
        r.loadedLatency->phases.removeFirst();
        r.loadedLatency->phases.removeLast();
        summary.showResults({r});
        QVERIFY2(summary.toText().contains(QStringLiteral("no probe figures")), qPrintable(summary.toText()));
        QVERIFY(!summary.loadedLatencyText().contains(QLatin1Char('+')));
    }

    // A real run against the built-in server on loopback: the chart fills, and the summary
    // has one line per phase.
    void realRunFillsChartAndSummary()
    {
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        nb::TestParams p = loadedParams(QStringLiteral("idle,bidir,idle"), 1);
        p.streams = 1;
        p.host.clear(); // the built-in server
        QSignalSpy finished(w.testView(), &nb::gui::TestView::testFinished);
        w.testView()->runTest(p);
        QVERIFY(finished.wait(60000));
        const auto result = finished.constFirst().constFirst().value<nb::TestResult>();
        QVERIFY2(result.ok(), qPrintable(result.error));
        QVERIFY(result.loadedLatency.has_value());
        LoadedLatencyChart *chart = w.testView()->loadedLatencyChart();
        QVERIFY(chart->sampleCount() >= 2);
        QVERIFY(chart->p50Graph()->dataCount() >= 2);
        QCOMPARE(chart->bandCount(), 3);
        const QStringList lines = w.testView()->summary()->loadedLatencyText().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines.at(1).contains(QStringLiteral("Both ways: p50 ")), qPrintable(lines.at(1)));
        QVERIFY2(w.testView()->summary()->cpuPerGbpsText().size() > 0 || !result.localCpuKnown,
                 qPrintable(w.testView()->summary()->toText()));
    }
};

QTEST_MAIN(TestGuiLoadedLatency)
#include "tst_gui_loadedlatency.moc"
