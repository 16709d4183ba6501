// SPDX-License-Identifier: GPL-3.0-or-later
// The Test tab's live widgets as a user meets them (GUI review 2026-12, M5, M7, minor 6,
// 7, 8, 17, 20): the utilization graph's scale, the request/response latency axis, the CPU
// chart's one scale, stream numbering and table width, wheel and keyboard on charts.

#include "core/format.h"
#include <adapters/adaptermonitor.h>
#include <adapters/adapterpanel.h>
#include <adapters/adaptertile.h>
#include <common/chartactions.h>
#include <common/elidedlabel.h>
#include <common/ratescale.h>
#include <common/rrformat.h>
#include <common/utilizationscale.h>
#include <live/cpuchart.h>
#include <live/rrchart.h>
#include <live/utilizationchart.h>
#include <results/streamresultsmodel.h>
#include <results/streamtable.h>

#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPointer>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStyle>
#include <QTest>
#include <QTimer>
#include <QVBoxLayout>

using namespace nb::ui;

namespace {

// 60 s of history at 10 Hz with a constant rate.
std::deque<RatePoint> steadyHistory(double sendBps, double receiveBps)
{
    std::deque<RatePoint> points;
    for (int i = 0; i < 600; ++i)
        points.push_back({i * 0.1, sendBps, receiveBps});
    return points;
}

nb::IntervalReport rrReport(double end, double p50, double p99)
{
    nb::IntervalReport r;
    r.hasRr = true;
    r.rr.start = end - 1;
    r.rr.end = end;
    r.rr.transactions = 20000;
    r.rr.latencyUs.count = 20000;
    r.rr.latencyUs.p50 = p50;
    r.rr.latencyUs.p90 = (p50 + p99) / 2;
    r.rr.latencyUs.p99 = p99;
    return r;
}

// Opens the chart's menu by `open`, collects the texts of the popup that appears, closes
// it. Bounded: a popup that does not appear within 2 s leaves the list empty.
QStringList menuTexts(const std::function<void()> &open)
{
    QStringList texts;
    QElapsedTimer clock;
    clock.start();
    auto *poll = new QTimer;
    poll->setInterval(20);
    QObject::connect(poll, &QTimer::timeout, poll, [&texts, &clock, poll] {
        if (auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget())) {
            for (QAction *a : menu->actions())
                texts.append(a->text());
            menu->close();
        }
        if (!texts.isEmpty() || clock.elapsed() > 2000)
            poll->stop();
    });
    poll->start();
    open();
    if (!QTest::qWaitFor([poll] { return !poll->isActive(); }, 3000))
        texts.append(QStringLiteral("(the menu poll did not stop)"));
    delete poll;
    return texts;
}

} // namespace

class TestGuiLiveCharts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("NicBenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_livecharts"));
        QSettings().clear();
    }

    void latencyUnits_data()
    {
        QTest::addColumn<double>("axisTop");
        QTest::addColumn<double>("tick");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("label");
        QTest::newRow("microseconds") << 400.0 << 250.0 << QStringLiteral("\u00b5s") << QStringLiteral("250");
        QTest::newRow("1000 us stays us") << 1000.0 << 1000.0 << QStringLiteral("\u00b5s") << QStringLiteral("1000");
        QTest::newRow("milliseconds") << 4000.0 << 2500.0 << QStringLiteral("ms") << QStringLiteral("2.5");
        QTest::newRow("small tick on a ms axis") << 5000.0 << 50.0 << QStringLiteral("ms") << QStringLiteral("0.05");
    }

    void latencyUnits()
    {
        QFETCH(double, axisTop);
        QFETCH(double, tick);
        const LatencyUnit unit = latencyUnitFor(axisTop);
        QTEST(unit.name, "unit");
        QTEST(latencyTickLabel(tick, unit), "label");
    }

    void recentPeakScaleFillsTheGraph()
    {
        UtilizationChart chart;
        chart.setLinkSpeed(10e9);
        QCOMPARE(chart.scale(), UtilizationScale::RecentPeak); // the default
        chart.setHistory(steadyHistory(100e6, 1e6));           // 1% of the link
        // A 1% load fills at least half the graph's height, and the top right says the scale.
        QVERIFY2(100e6 / chart.axisMax() >= 0.5, qPrintable(QString::number(chart.axisMax())));
        QVERIFY(chart.axisMax() >= 100e6);
        QCOMPARE(chart.axisMax(), 120e6);
        QCOMPARE(chart.scaleText(), QStringLiteral("Max 120 Mbit/s"));

        chart.setScale(UtilizationScale::LinkSpeed);
        QCOMPARE(chart.axisMax(), 10e9);
        QCOMPARE(chart.scaleText(), QStringLiteral("Link speed 10 Gbit/s"));

        // Past the link speed both scales agree, and the top right says the new maximum.
        chart.setHistory(steadyHistory(26.5e9, 0));
        const double above = chart.axisMax();
        QVERIFY(above > 26.5e9);
        QVERIFY(chart.scaleText().startsWith(QStringLiteral("Max ")));
        chart.setScale(UtilizationScale::RecentPeak);
        QCOMPARE(chart.axisMax(), above);
    }

    void scaleMath_data()
    {
        QTest::addColumn<double>("peak");
        QTest::addColumn<double>("link");
        QTest::addColumn<int>("scale");
        QTest::addColumn<double>("axisMax");
        QTest::newRow("link: at the link speed") << 100e6 << 10e9 << int(UtilizationScale::LinkSpeed) << 10e9;
        QTest::newRow("peak: idle has a floor") << 0.0 << 10e9 << int(UtilizationScale::RecentPeak) << 120e3;
        QTest::newRow("peak: 991 Mbit/s on 10G") << 991e6 << 10e9 << int(UtilizationScale::RecentPeak) << 1.2e9;
        QTest::newRow("peak: unknown link") << 5e6 << -1.0 << int(UtilizationScale::RecentPeak) << 6e6;
    }

    void scaleMath()
    {
        QFETCH(double, peak);
        QFETCH(double, link);
        QFETCH(int, scale);
        QTEST(utilizationAxisMax(peak, link, UtilizationScale(scale)), "axisMax");
    }

    void adapterPanelRemembersScaleAndExpands()
    {
        QSettings().remove(QLatin1String(AdapterPanel::kScaleKey));
        {
            AdapterPanel panel;
            QCOMPARE(panel.scale(), UtilizationScale::RecentPeak);
            auto *combo = panel.findChild<QComboBox *>(QStringLiteral("scaleCombo"));
            QVERIFY(combo);
            QCOMPARE(combo->currentIndex(), 0);
            // The chart's menu choice reaches the panel's toggle and the settings.
            Q_EMIT panel.chart()->scaleChosen(UtilizationScale::LinkSpeed);
            QCOMPARE(panel.chart()->scale(), UtilizationScale::LinkSpeed);
            QCOMPARE(combo->currentText(), QStringLiteral("Scale: link speed"));
            QCOMPARE(QSettings().value(QLatin1String(AdapterPanel::kScaleKey)).toString(), QStringLiteral("link"));
        }
        {
            AdapterPanel panel; // a new window starts with the remembered choice
            QCOMPARE(panel.scale(), UtilizationScale::LinkSpeed);
            panel.resize(900, 320);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            // Most of the panel is the graph.
            QVERIFY2(panel.chart()->height() >= panel.height() / 2,
                     qPrintable(QStringLiteral("%1 of %2").arg(panel.chart()->height()).arg(panel.height())));
            auto *details = panel.findChild<QLabel *>(QStringLiteral("adapterDetails"));
            QVERIFY(details && details->isVisible());
            QSignalSpy expanded(&panel, &AdapterPanel::expandedChanged);
            QTest::mouseDClick(panel.chart()->plot(), Qt::LeftButton, {}, panel.chart()->plot()->rect().center());
            QCOMPARE(expanded.count(), 1);
            QVERIFY(panel.isExpanded());
            QVERIFY(!details->isVisible());
            QVERIFY(panel.findChild<QLabel *>(QStringLiteral("allTrafficHint"))->isVisible());
        }
        QSettings().remove(QLatin1String(AdapterPanel::kScaleKey));
    }

    void tileShowsEachDirectionInItsUnit()
    {
        AdapterMonitor monitor; // fed by hand
        monitor.refreshAdapters();
        const std::optional<nb::AdapterInfo> lo = monitor.adapter(QStringLiteral("lo"));
        if (!lo)
            QSKIP("no loopback interface here");
        QMap<QString, nb::InterfaceCounters> c;
        // Every 100 ms for 2 s: 64.25 MB sent = 5.14 Gbit/s, 442.5 KB received = 35.4 Mbit/s.
        for (std::uint64_t i = 0; i <= 20; ++i) {
            c[QStringLiteral("lo")] = {i * 442'500, i * 64'250'000, 0, 0,
                                       std::int64_t(1'000'000'000 + i * 100'000'000)};
            monitor.addReading(c);
        }
        AdapterTile tile(*lo);
        tile.updateRates(monitor);
        // (The monitor averages over its own clock, so the figures are near, not exactly, these.)
        const RatePoint avg = monitor.recentAverage(QStringLiteral("lo"));
        QCOMPARE(tile.sendText(), QStringLiteral("Send %1").arg(nb::formatBitrate(avg.sendBps)));
        QCOMPARE(tile.receiveText(), QStringLiteral("Receive %1").arg(nb::formatBitrate(avg.receiveBps)));
        QVERIFY2(tile.sendText().endsWith(QStringLiteral(" Gbit/s")), qPrintable(tile.sendText()));
        QVERIFY2(tile.receiveText().endsWith(QStringLiteral(" Mbit/s")), qPrintable(tile.receiveText()));
        // Too narrow: elided, with the whole figure in the tooltip.
        tile.resize(90, tile.sizeHint().height());
        tile.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tile));
        auto *receive = tile.findChild<ElidedLabel *>(QStringLiteral("tileReceive"));
        QVERIFY(receive);
        QTRY_VERIFY(receive->isElided());
        QVERIFY(receive->text().endsWith(QChar(0x2026)));
        QCOMPARE(receive->toolTip(), tile.receiveText());
    }

    void rrLatencyAxisGoesLogForSkewedLatencies()
    {
        QSettings().remove(QLatin1String(RrChart::kScaleKey));
        RrChart chart;
        chart.startTest(5);
        // Even latencies: linear, in µs.
        chart.addIntervals({rrReport(1, 40, 70), rrReport(2, 42, 75)});
        QVERIFY(!chart.latencyAxisIsLog());
        QCOMPARE(chart.latencyAxisLabel(), QStringLiteral("Latency (\u00b5s)"));
        // One p99 spike 100 times the median: logarithmic, and ms above 1000 µs.
        chart.addIntervals({rrReport(3, 40, 4000)});
        QVERIFY(chart.latencySkew() > 10);
        QVERIFY(chart.latencyAxisIsLog());
        QCOMPARE(chart.latencyAxisLabel(), QStringLiteral("Latency (ms, log)"));
        QCPAxis *axis = chart.plot()->axisRects().at(1)->axis(QCPAxis::atLeft);
        QVERIFY(axis->range().lower > 0 && axis->range().lower <= 40);
        QVERIFY(axis->range().upper >= 4000);
        // The user's choice wins over the automatic one, and is remembered.
        chart.setLatencyScale(RrChart::LatencyScale::Linear);
        QVERIFY(!chart.latencyAxisIsLog());
        QCOMPARE(chart.latencyAxisLabel(), QStringLiteral("Latency (ms)"));
        RrChart second;
        QCOMPARE(second.latencyScale(), RrChart::LatencyScale::Linear);
        QSettings().remove(QLatin1String(RrChart::kScaleKey));
    }

    void rrChartKeepsItsPanesAtTheMinimum()
    {
        RrChart chart;
        chart.startTest(5);
        chart.addIntervals({rrReport(1, 40, 70)});
        chart.resize(600, chart.minimumHeight());
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
        // The legend sits wholly inside the widget, above both panes, which keep room.
        const QRect legend = chart.plot()->legend->outerRect();
        QVERIFY2(legend.top() >= 0 && legend.bottom() < chart.plot()->height(),
                 qPrintable(QString::number(legend.top())));
        const QList<QCPAxisRect *> rects = chart.plot()->axisRects();
        QCOMPARE(rects.size(), 2);
        QVERIFY(legend.bottom() <= rects.at(0)->outerRect().top() + 1);
        QVERIFY2(rects.at(0)->height() >= 40, qPrintable(QString::number(rects.at(0)->height())));
        QVERIFY2(rects.at(1)->height() >= 60, qPrintable(QString::number(rects.at(1)->height())));
        QVERIFY(rects.at(1)->outerRect().bottom() <= chart.plot()->height());
    }

    void cpuChartHasOneScale()
    {
        CpuChart chart;
        chart.startTest(2);
        nb::CpuSample s;
        s.start = 0;
        s.end = 1;
        s.cpuCount = 2;
        s.systemValid = true;
        s.systemBusyPct = 100;
        s.processValid = true;
        s.processPct = 200; // two full cores, as iperf3 counts it
        chart.addSample(s);
        QVERIFY(chart.axisLabel().contains(QStringLiteral("% of all cores")));
        QVERIFY(chart.axisMax() <= 110);
        QCPGraph *process = chart.plot()->graph(1);
        QCOMPARE(process->dataCount(), 1);
        QCOMPARE(process->data()->at(0)->value, 100.0);
        // Local and server busy differ in more than colour: line style and markers.
        nb::CpuSample remote = s;
        chart.setRemote({remote}, remote);
        QCPGraph *local = chart.plot()->graph(0);
        QCPGraph *server = chart.plot()->graph(2);
        QVERIFY(local->pen().style() != server->pen().style());
        QVERIFY(local->scatterStyle().shape() != server->scatterStyle().shape());
        QVERIFY(local->pen().color() != server->pen().color());

        // The server's short last interval (its wind-down after the last full one) draws no
        // dip: 1 s at 90%, 1 s at 88%, then 0.2 s at 15% is two points.
        chart.startTest(2);
        QList<nb::CpuSample> intervals;
        for (const auto &[start, end, busy] : {std::tuple{0.0, 1.0, 90.0}, {1.0, 2.0, 88.0}, {2.0, 2.2, 15.0}}) {
            nb::CpuSample r = s;
            r.start = start;
            r.end = end;
            r.systemBusyPct = busy;
            intervals.append(r);
        }
        chart.setRemote(intervals, s);
        QCOMPARE(server->dataCount(), 2);
        QCOMPARE(server->data()->at(1)->value, 88.0);
        intervals[2].end = 2.9; // a last interval of most of a second is a real one
        chart.setRemote(intervals, s);
        QCOMPARE(server->dataCount(), 2 + 3);
    }

    void cpuPlaceholderStaysInsideTheAxisRect_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<QString>("text");
        const QString idle = QStringLiteral("CPU use appears here\nduring a test");
        const QString waiting = QStringLiteral("Waiting for the first report...");
        QTest::newRow("300 px, idle") << 300 << idle;
        // The CPU column of a 1280x720 window is about 208 px wide.
        QTest::newRow("1280x720 column, idle") << 208 << idle;
        QTest::newRow("1280x720 column, waiting") << 208 << waiting;
    }

    // Review minor 6: the placeholder ran into the y axis (and was clipped) in the narrow
    // CPU column; every line now fits inside the axis rect with some air, no word lost.
    void cpuPlaceholderStaysInsideTheAxisRect()
    {
        QFETCH(int, width);
        QFETCH(QString, text);
        CpuChart chart;
        chart.setPlaceholderText(text);
        chart.resize(width, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
        QCPItemText *placeholder = nullptr;
        for (int i = 0; i < chart.plot()->itemCount(); ++i) {
            if (auto *t = qobject_cast<QCPItemText *>(chart.plot()->item(i)); t && t->visible())
                placeholder = t;
        }
        QVERIFY(placeholder);
        QCOMPARE(placeholder->text().split(QRegularExpression(QStringLiteral("\\s+"))),
                 text.split(QRegularExpression(QStringLiteral("\\s+"))));
        const QFontMetrics fm(placeholder->font());
        const QPointF centre = placeholder->position->pixelPosition();
        const QRect axisRect = chart.plot()->axisRect()->rect();
        for (const QString &line : placeholder->text().split(QLatin1Char('\n'))) {
            const double half = fm.horizontalAdvance(line) / 2.0;
            QVERIFY2(centre.x() - half >= axisRect.left() + 2 && centre.x() + half <= axisRect.right() - 2,
                     qPrintable(QStringLiteral("'%1' at %2..%3, axis rect %4..%5")
                                    .arg(line)
                                    .arg(centre.x() - half)
                                    .arg(centre.x() + half)
                                    .arg(axisRect.left())
                                    .arg(axisRect.right())));
        }
    }

    void streamIdsAreOneToN()
    {
        StreamResultsModel model;
        nb::TestResult result;
        for (int id : {5, 1, 3, 4}) { // iperf3 skips 2 (its control connection's number)
            nb::StreamSummary s;
            s.id = id;
            s.seconds = 10;
            s.bytesSent = s.bytesReceived = 1'250'000'000;
            result.streams.append(s);
        }
        model.setResult(result);
        QList<int> shown;
        for (int row = 0; row < model.rowCount(); ++row) {
            shown.append(model.index(row, StreamResultsModel::StreamId).data().toInt());
            QCOMPARE(model.index(row, StreamResultsModel::StreamId).data(StreamResultsModel::IperfIdRole).toInt(),
                     model.stream(row).id);
        }
        QCOMPARE(shown, (QList<int>{4, 1, 2, 3}));
        QVERIFY(model.index(0, StreamResultsModel::StreamId)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("iperf3 calls it stream 5")));
    }

    // A UDP test's streams show the receiver's loss, jitter and out-of-order figures where a
    // TCP test's show retransmits, RTT and cwnd (which UDP does not have).
    void udpStreamsShowLossAndJitter()
    {
        StreamResultsModel model;
        nb::TestResult result;
        nb::StreamSummary s;
        s.id = 1;
        s.seconds = 2;
        s.udp = true;
        s.bytesSent = s.bytesReceived = 1'000'000;
        s.packetsSent = 1000;
        s.packetsReceived = 1000;
        s.lostPackets = 25;
        s.outOfOrder = 3;
        s.jitterMs = 0.0134;
        result.streams.append(s);
        model.setResult(result);
        const auto header = [&](int c) { return model.headerData(c, Qt::Horizontal).toString(); };
        QCOMPARE(header(StreamResultsModel::Retransmits), QStringLiteral("Lost"));
        QCOMPARE(header(StreamResultsModel::MeanRtt), QStringLiteral("Jitter"));
        QCOMPARE(header(StreamResultsModel::MaxCwnd), QStringLiteral("Out of order"));
        QCOMPARE(model.index(0, StreamResultsModel::Retransmits).data().toString(), QStringLiteral("25/1000 (2.5%)"));
        QCOMPARE(model.index(0, StreamResultsModel::MeanRtt).data().toString(), QStringLiteral("0.013 ms"));
        QCOMPARE(model.index(0, StreamResultsModel::MaxCwnd).data().toString(), QStringLiteral("3"));
        // A TCP result afterwards gets the TCP columns back.
        s.udp = false;
        s.retransmits = 7;
        result.streams = {s};
        model.setResult(result);
        QCOMPARE(header(StreamResultsModel::Retransmits), QStringLiteral("Retransmits"));
        QCOMPARE(model.index(0, StreamResultsModel::Retransmits).data().toString(), QStringLiteral("7"));
    }

    void streamTableFitsItsWidth_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("1280x720 column") << 330;
        QTest::newRow("1280x720 column, as laid out") << 323; // review minor 7: Data read "2.49 GB..." there
        QTest::newRow("narrower") << 290;
        QTest::newRow("1920x1080 column") << 560;
    }

    void streamTableFitsItsWidth()
    {
        QFETCH(int, width);
        StreamResultsModel model;
        // As the Test view sets it up: sorted through a proxy (the header's sort arrow takes room).
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(StreamResultsModel::SortRole);
        StreamTableView table;
        table.setModel(&proxy);
        table.setSortingEnabled(true);
        table.sortByColumn(StreamResultsModel::StreamId, Qt::AscendingOrder);
        table.resize(width, 200);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        QVERIFY(!table.emptyText().isEmpty());
        nb::TestResult result;
        for (int id = 1; id <= 16; ++id) {
            nb::StreamSummary s;
            s.id = id;
            s.seconds = 10;
            s.bytesSent = s.bytesReceived = 12'345'678'901;
            s.retransmits = 12345;
            s.meanRttUs = 1234;
            s.maxCwndBytes = 3'456'789;
            result.streams.append(s);
        }
        model.setResult(result);
        QTRY_VERIFY(table.horizontalHeader()->length() <= table.viewport()->width());
        QVERIFY(!table.horizontalScrollBar()->isVisible());
        // The figures that matter are whole, "Data" included; what was left out is named.
        for (int column : {int(StreamResultsModel::StreamId), int(StreamResultsModel::Throughput),
                           int(StreamResultsModel::Received)}) {
            QVERIFY(!table.isColumnHidden(column));
            const QString text = model.index(0, column).data().toString();
            // The cell's own margins too (the delegate's, each side): the text advance alone
            // passed while the view elided ("2.49 GB..." at 1280x720).
            const int margin = table.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &table) + 1;
            const int needs = table.fontMetrics().horizontalAdvance(text) + 2 * margin;
            QVERIFY2(
                table.columnWidth(column) >= needs,
                qPrintable(QStringLiteral("%1: %2 px, needs %3").arg(text).arg(table.columnWidth(column)).arg(needs)));
        }
        bool anyHidden = false;
        for (int c = 0; c < model.columnCount(); ++c)
            anyHidden = anyHidden || table.isColumnHidden(c);
        QCOMPARE(table.horizontalHeader()->toolTip().isEmpty(), !anyHidden);
        // It asks for a few rows of height, not a page.
        QVERIFY(table.sizeHint().height() < 10 * table.verticalHeader()->defaultSectionSize());
    }

    void wheelOverAChartScrollsThePage()
    {
        QScrollArea area;
        auto *page = new QWidget;
        auto *layout = new QVBoxLayout(page);
        auto *plot = new QCustomPlot;
        plot->setMinimumHeight(300);
        new ChartActions(plot, QStringLiteral("test"));
        layout->addWidget(plot);
        layout->addSpacing(2000);
        area.setWidget(page);
        area.setWidgetResizable(true);
        area.resize(400, 300);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QScrollBar *bar = area.verticalScrollBar();
        QCOMPARE(bar->value(), 0);
        const QPoint at = plot->rect().center();
        const auto wheel = [&] {
            QWheelEvent event(at, plot->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(plot, &event);
        };
        wheel();
        QVERIFY2(bar->value() > 0, "the wheel over the chart did not scroll the page");

        // Ctrl+wheel is the chart's zoom (ChartZoom, review M11): the page stays.
        int before = bar->value();
        const QCPRange shown = plot->xAxis->range();
        QWheelEvent zoom(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                         Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &zoom);
        plot->replot();
        QCOMPARE(bar->value(), before);
        QVERIFY(plot->xAxis->range().size() < shown.size());

        QTest::keyClick(plot, Qt::Key_Home); // back to the whole chart

        // A chart that zooms with the plain wheel (QCustomPlot's own) keeps it.
        before = bar->value();
        plot->setInteractions(QCP::iRangeZoom);
        const QCPRange range = plot->xAxis->range();
        wheel();
        QCOMPARE(bar->value(), before);
        QVERIFY(plot->xAxis->range().size() != range.size());
    }

    void chartMenuOpensFromTheKeyboard()
    {
        CpuChart chart;
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCustomPlot *plot = chart.plot();
        QVERIFY(plot->focusPolicy() & Qt::TabFocus);
        plot->setFocus();
        QStringList texts = menuTexts([plot] { QTest::keyClick(plot, Qt::Key_F10, Qt::ShiftModifier); });
        QVERIFY2(texts.contains(QStringLiteral("Copy data as CSV")), qPrintable(texts.join(QLatin1Char('|'))));
        texts = menuTexts([plot] { QTest::keyClick(plot, Qt::Key_Menu); });
        QVERIFY(texts.contains(QStringLiteral("Save image...")));
        // A plain F10 is not the menu key.
        texts = menuTexts([plot] { QTest::keyClick(plot, Qt::Key_F10); });
        QVERIFY(texts.isEmpty());
    }

    void utilizationMenuOffersBothScales()
    {
        UtilizationChart chart;
        chart.setLinkSpeed(1e9);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->setFocus();
        const QStringList texts =
            menuTexts([&chart] { QTest::keyClick(chart.plot(), Qt::Key_F10, Qt::ShiftModifier); });
        QVERIFY2(texts.contains(QStringLiteral("Scale to Recent Peak")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(texts.contains(QStringLiteral("Scale to Link Speed")));
    }
};

QTEST_MAIN(TestGuiLiveCharts)
#include "tst_gui_livecharts.moc"
