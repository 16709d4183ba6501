// SPDX-License-Identifier: GPL-3.0-or-later
// Chart math (units, rounding, axis ends), the bounded series, the live chart's memory
// bound and replot path, and the per-stream results model.

#include "core/format.h"
#include <adapters/adaptermonitor.h>
#include <common/boundedseries.h>
#include <common/chartactions.h>
#include <common/ratescale.h>
#include <common/rrformat.h>
#include <common/utilizationscale.h>
#include <live/livetestchart.h>
#include <live/utilizationchart.h>
#include <results/streamresultsmodel.h>

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QTest>

using namespace nb::ui;

namespace {

nb::IntervalReport makeReport(double start, double end, const QList<std::pair<bool, std::uint64_t>> &streams)
{
    nb::IntervalReport report;
    int id = 1;
    for (const auto &[sender, bytes] : streams) {
        nb::StreamInterval s;
        s.id = id++;
        s.sender = sender;
        s.start = start;
        s.end = end;
        s.bytes = bytes;
        report.streams.append(s);
    }
    return report;
}

} // namespace

class TestGuiCharts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void utilizationPercent_data()
    {
        QTest::addColumn<double>("bps");
        QTest::addColumn<double>("link");
        QTest::addColumn<double>("percent");
        QTest::newRow("idle") << 0.0 << 1e9 << 0.0;
        QTest::newRow("44% of 10G") << 4.4e9 << 10e9 << 44.0;
        QTest::newRow("full") << 1e9 << 1e9 << 100.0;
        QTest::newRow("E1000 above its speed") << 2.65e9 << 1e9 << 265.0;
        QTest::newRow("unknown link") << 5e9 << -1.0 << -1.0;
        QTest::newRow("zero link") << 5e9 << 0.0 << -1.0;
        QTest::newRow("negative rate") << -3.0 << 1e9 << 0.0;
    }

    void utilizationPercent()
    {
        QFETCH(double, bps);
        QFETCH(double, link);
        QFETCH(double, percent);
        QCOMPARE(nb::ui::utilizationPercent(bps, link), percent);
    }

    void utilizationAxisMax_data()
    {
        QTest::addColumn<double>("peak");
        QTest::addColumn<double>("link");
        QTest::addColumn<double>("axis");
        QTest::newRow("idle 1G") << 0.0 << 1e9 << 1e9;
        QTest::newRow("under link") << 0.4e9 << 10e9 << 10e9;
        QTest::newRow("exactly link") << 1e9 << 1e9 << 1e9;
        QTest::newRow("above link grows") << 2.65e9 << 1e9 << 3e9;
        QTest::newRow("just above") << 1.01e9 << 1e9 << 1.2e9;
        QTest::newRow("unknown: peak") << 12.3e9 << -1.0 << 15e9;
        QTest::newRow("unknown: idle floor") << 0.0 << -1.0 << 1.2e6;
        QTest::newRow("unknown: small") << 3e5 << -1.0 << 1.2e6;
    }

    void utilizationAxisMax()
    {
        QFETCH(double, peak);
        QFETCH(double, link);
        QFETCH(double, axis);
        QCOMPARE(nb::ui::utilizationAxisMax(peak, link), axis);
    }

    void utilizationTexts_data()
    {
        QTest::addColumn<double>("bps");
        QTest::addColumn<double>("link");
        QTest::addColumn<QString>("percent");
        QTest::addColumn<QString>("above");
        QTest::newRow("idle") << 0.0 << 1e9 << QStringLiteral("0%") << QString();
        QTest::newRow("small") << 2.5e6 << 1e9 << QStringLiteral("0.25%") << QString();
        QTest::newRow("44") << 4.4e9 << 10e9 << QStringLiteral("44%") << QString();
        QTest::newRow("9.5") << 0.95e9 << 10e9 << QStringLiteral("9.5%") << QString();
        QTest::newRow("100") << 1e9 << 1e9 << QStringLiteral("100%") << QString();
        QTest::newRow("265") << 2.65e9 << 1e9 << QStringLiteral("265%") << QStringLiteral("above link speed: 265%");
        QTest::newRow("unknown") << 2.65e9 << -1.0 << QStringLiteral("-") << QString();
    }

    void utilizationTexts()
    {
        QFETCH(double, bps);
        QFETCH(double, link);
        QTEST(nb::formatPercent(nb::ui::utilizationPercent(bps, link)), "percent");
        QTEST(nb::ui::aboveLinkText(bps, link), "above");
    }

    void linkSpeedText_data()
    {
        QTest::addColumn<double>("link");
        QTest::addColumn<QString>("text");
        QTest::newRow("1G") << 1e9 << QStringLiteral("1 Gbit/s link");
        QTest::newRow("10G") << 10e9 << QStringLiteral("10 Gbit/s link");
        QTest::newRow("2.5G") << 2.5e9 << QStringLiteral("2.5 Gbit/s link");
        QTest::newRow("100M") << 100e6 << QStringLiteral("100 Mbit/s link");
        QTest::newRow("unknown") << -1.0 << QStringLiteral("link speed unknown");
    }

    void linkSpeedText()
    {
        QFETCH(double, link);
        QTEST(nb::ui::linkSpeedText(link), "text");
    }

    void busierDirection()
    {
        QCOMPARE(nb::ui::busierDirection(4.4e9, 0.1e9), 4.4e9);
        QCOMPARE(nb::ui::busierDirection(0.1e9, 2e9), 2e9);
        QCOMPARE(nb::ui::busierDirection(-1, -2), 0.0);
    }

    void utilizationChartAboveLinkSpeed()
    {
        nb::ui::UtilizationChart chart;
        chart.setScale(nb::ui::UtilizationScale::LinkSpeed); // the Windows 7 view
        chart.setLinkSpeed(1e9);
        std::deque<nb::ui::RatePoint> points;
        for (int i = 0; i < 100; ++i)
            points.push_back({i * 0.1, 2.65e9, 0.1e9});
        chart.setHistory(points);
        QCOMPARE(chart.axisMax(), 3e9);
        QCOMPARE(chart.noteText(), QStringLiteral("above link speed: 265%"));
        QCOMPARE(chart.plot()->graph(0)->dataCount(), 100);
        // Back under the link speed: the axis stays stretched while the peak is in view.
        for (int i = 100; i < 120; ++i)
            points.push_back({i * 0.1, 0.5e9, 0.1e9});
        chart.setHistory(points);
        QCOMPARE(chart.axisMax(), 3e9);
        QVERIFY(chart.noteText().contains(QStringLiteral("peak 265%")));
        // Under the link speed throughout: the axis is the link speed, no note.
        chart.setHistory(std::deque<nb::ui::RatePoint>{{0, 0.4e9, 0.2e9}, {0.1, 0.5e9, 0.2e9}});
        QCOMPARE(chart.axisMax(), 1e9);
        QVERIFY(chart.noteText().isEmpty());
        const QString csv = chart.toCsv();
        QVERIFY(csv.startsWith(
            QStringLiteral("seconds_ago,send_bps,receive_bps,send_pps,receive_pps,dropped,errors\n0.1,400000000,")));
        QCOMPARE(csv.count(QLatin1Char('\n')), 3);
    }

    void adapterMonitorRates()
    {
        nb::ui::AdapterMonitor monitor; // not started: fed by hand
        QMap<QString, nb::InterfaceCounters> c;
        c.insert(QStringLiteral("lo"), {1000, 2000, 0, 0, 1'000'000'000});
        monitor.refreshAdapters();
        if (!monitor.adapter(QStringLiteral("lo")))
            QSKIP("no loopback interface here");
        monitor.addReading(c);
        c[QStringLiteral("lo")] = {1000 + 12'500'000, 2000 + 25'000'000, 0, 0, 1'100'000'000};
        monitor.addReading(c);
        const auto &h = monitor.history(QStringLiteral("lo"));
        QCOMPARE(int(h.size()), 1);         // the first reading gives no rate, so no point
        QCOMPARE(h.back().receiveBps, 1e9); // 12.5 MB in 100 ms
        QCOMPARE(h.back().sendBps, 2e9);
    }

    void niceCeiling_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("expected");
        QTest::newRow("zero") << 0.0 << 1.0;
        QTest::newRow("one") << 1.0 << 1.0;
        QTest::newRow("1.1") << 1.1 << 1.2;
        QTest::newRow("2 stays") << 2e9 << 2e9;
        QTest::newRow("2.1") << 2.1e9 << 2.5e9;
        QTest::newRow("3") << 3e6 << 3e6;
        QTest::newRow("3.1") << 3.1e6 << 4e6;
        QTest::newRow("7") << 7e3 << 8e3;
        QTest::newRow("8.5") << 8.5e3 << 10e3;
        QTest::newRow("13") << 13.0 << 15.0;
    }

    void niceCeiling()
    {
        QFETCH(double, value);
        QFETCH(double, expected);
        QCOMPARE(nb::ui::niceCeiling(value), expected);
    }

    void axisUnit_data()
    {
        QTest::addColumn<double>("peak");
        QTest::addColumn<double>("axisMax");
        QTest::addColumn<QString>("unit");
        QTest::newRow("loopback 13 Gbit/s") << 13e9 << 15e9 << QStringLiteral("Gbit/s");
        QTest::newRow("gigabit link") << 941e6 << 1e9 << QStringLiteral("Gbit/s");
        QTest::newRow("100 Mbit/s link") << 94e6 << 100e6 << QStringLiteral("Mbit/s");
        QTest::newRow("slow") << 800e3 << 1e6 << QStringLiteral("Mbit/s");
    }

    void axisUnit()
    {
        QFETCH(double, peak);
        QFETCH(double, axisMax);
        const double top = throughputAxisMax(peak);
        QCOMPARE(top, axisMax);
        QTEST(rateUnitFor(top).name, "unit");
    }

    void tickLabels_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<double>("divisor");
        QTest::addColumn<QString>("label");
        QTest::newRow("zero") << 0.0 << 1e9 << QStringLiteral("0");
        QTest::newRow("2.5 G") << 2.5e9 << 1e9 << QStringLiteral("2.5");
        QTest::newRow("10 G") << 10e9 << 1e9 << QStringLiteral("10");
        QTest::newRow("0.2 G") << 0.2e9 << 1e9 << QStringLiteral("0.2");
        QTest::newRow("500 M") << 500e6 << 1e6 << QStringLiteral("500");
    }

    void tickLabels()
    {
        QFETCH(double, value);
        QFETCH(double, divisor);
        QTEST(axisTickLabel(value, RateUnit{divisor, QString()}), "label");
    }

    void boundedSeriesKeepsHistoryAtBoundedSize()
    {
        BoundedSeries s(100);
        int rebuilt = 0;
        for (int i = 1; i <= 10000; ++i) {
            if (s.append(i, i % 2 ? 1.0 : 3.0) == BoundedSeries::Change::Rebuilt)
                ++rebuilt;
            QVERIFY(s.points().size() <= s.capacity());
        }
        QVERIFY(rebuilt > 0);
        QVERIFY(s.stride() > 1);
        // History from the start to the end is still covered, at lower resolution.
        QVERIFY(s.points().constFirst().x() < 300);
        QVERIFY(s.points().constLast().x() > 9000);
        // Averages of alternating 1 and 3 are 2.
        QCOMPARE(s.points().at(s.points().size() / 2).y(), 2.0);
        s.clear();
        QVERIFY(s.points().isEmpty());
        QCOMPARE(s.stride(), 1);
    }

    void liveChartAddsTotalsAndStreams()
    {
        LiveTestChart chart;
        chart.resize(640, 360);
        chart.startTest(10);
        for (int i = 0; i < 10; ++i)
            chart.addInterval(makeReport(i, i + 1, {{true, 125'000'000}, {true, 125'000'000}})); // 2 x 1 Gbit/s
        QCOMPARE(chart.sampleCount(), 30); // 10 totals + 20 stream samples
        QCOMPARE(chart.plot()->graphCount(), 1);
        QCOMPARE(chart.plot()->graph(0)->dataCount(), 10);
        QCOMPARE(chart.peakBitsPerSecond(), 2e9);
        QCOMPARE(chart.axisUnit().name, QStringLiteral("Gbit/s"));
        QCOMPARE(chart.plot()->yAxis->range().upper, 2.5e9);
        chart.setShowStreams(true);
        QCOMPARE(chart.plot()->graphCount(), 3);
        QVERIFY(chart.toCsv().startsWith(QStringLiteral("time_s,send_bps,stream_1_send_bps")));
        chart.setShowStreams(false);
        QCOMPARE(chart.plot()->graphCount(), 1);
    }

    void liveChartSendSolidReceiveDashed()
    {
        LiveTestChart chart;
        chart.startTest(2);
        chart.addInterval(makeReport(0, 1, {{true, 1000}, {false, 1000}}));
        QCOMPARE(chart.plot()->graphCount(), 2);
        QSet<Qt::PenStyle> styles;
        for (int i = 0; i < chart.plot()->graphCount(); ++i)
            styles.insert(chart.plot()->graph(i)->pen().style());
        QVERIFY(styles.contains(Qt::SolidLine));
        QVERIFY(styles.size() == 2);
    }

    void liveChartMemoryIsBounded()
    {
        LiveTestChart chart;
        chart.setSeriesCapacity(64);
        chart.setShowStreams(true);
        chart.startTest(3600);
        for (int i = 0; i < 36000; ++i)
            chart.addInterval(makeReport(i * 0.1, (i + 1) * 0.1, {{true, 1000}, {true, 2000}}));
        for (int g = 0; g < chart.plot()->graphCount(); ++g)
            QVERIFY2(chart.plot()->graph(g)->dataCount() <= 64,
                     qPrintable(QString::number(chart.plot()->graph(g)->dataCount())));
        QVERIFY(chart.plot()->xAxis->range().upper >= 3600);
    }

    void omittedIntervalsAreNotCharted()
    {
        LiveTestChart chart;
        chart.startTest(2);
        nb::IntervalReport warmup = makeReport(0, 1, {{true, 1000}});
        warmup.streams[0].omitted = true;
        chart.addInterval(warmup);
        QCOMPARE(chart.sampleCount(), 0);
    }

    void streamModel()
    {
        StreamResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        nb::TestResult result;
        for (int i = 1; i <= 3; ++i) {
            nb::StreamSummary s;
            s.id = i;
            s.seconds = 10;
            s.bytesSent = std::uint64_t(i) * 1'250'000'000;
            s.bytesReceived = s.bytesSent;
            s.retransmits = i == 2 ? -1 : i;
            result.streams.append(s);
        }
        model.setResult(result);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(StreamResultsModel::ColumnCount));
        QCOMPARE(model.index(0, StreamResultsModel::Throughput).data().toString(), QStringLiteral("1.00 Gbit/s"));
        QCOMPARE(model.index(2, StreamResultsModel::Throughput).data(StreamResultsModel::SortRole).toDouble(), 3e9);
        QCOMPARE(model.index(1, StreamResultsModel::Retransmits).data().toString(), QStringLiteral("n/a"));
        QCOMPARE(model.headerData(StreamResultsModel::Throughput, Qt::Horizontal).toString(),
                 QStringLiteral("Throughput"));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestGuiCharts)
#include "tst_gui_charts.moc"
