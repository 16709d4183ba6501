// SPDX-License-Identifier: GPL-3.0-or-later
// Zoom and pan on the charts (review M11): Ctrl+wheel zooms around the mouse, a drag pans,
// Shift+drag zooms to the dragged span, the keyboard and the Reset button (the plain wheel
// still scrolling the page: tst_gui_livecharts); a live chart keeps
// the user's view while data arrives and Reset shows the chart's own range again. The
// utilization view keeps the session (RateHistory) and shows packets/s and drops.

#include "adapters/adaptermonitor.h"
#include "adapters/adapterpanel.h"
#include "adapters/ratehistory.h"
#include "common/chartactions.h"
#include "common/chartzoom.h"
#include "comparison/latencydistributionchart.h"
#include "live/livetestchart.h"
#include "live/utilizationchart.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>
#include <QToolButton>

using namespace nb::ui;

namespace {

nb::IntervalReport second(int i, std::uint64_t bytes)
{
    nb::IntervalReport report;
    nb::StreamInterval s;
    s.id = 1;
    s.sender = true;
    s.start = i;
    s.end = i + 1;
    s.bytes = bytes;
    report.streams.append(s);
    return report;
}

void wheel(QWidget *target, QPoint at, int notches, Qt::KeyboardModifiers mods)
{
    QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, mods,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}

// With NICBENCH_SCREENSHOTS=DIR, a picture of the widget for a person to look at.
void saveShot(QWidget *widget, const char *name)
{
    const QString dir = qEnvironmentVariable("NICBENCH_SCREENSHOTS");
    if (!dir.isEmpty())
        widget->grab().save(QStringLiteral("%1/%2.png").arg(dir, QLatin1String(name)));
}

QPoint inRect(const QCustomPlot *plot, double fx, double fy)
{
    const QRect r = plot->axisRect()->rect();
    return QPoint(r.left() + int(r.width() * fx), r.top() + int(r.height() * fy));
}

} // namespace

class TestGuiChartZoom : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void liveChartHoldsTheUsersView()
    {
        LiveTestChart chart;
        chart.resize(700, 400);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.startTest(20);
        for (int i = 0; i < 10; ++i)
            chart.addInterval(second(i, 125'000'000));
        QCustomPlot *plot = chart.plot();
        plot->replot();
        ChartZoom *zoom = ChartZoom::of(plot);
        QVERIFY(zoom);
        QVERIFY(!zoom->isZoomed());
        auto *reset = plot->findChild<QToolButton *>(QStringLiteral("resetZoomButton"));
        QVERIFY(reset);
        QVERIFY(!reset->isVisible());
        const QCPRange whole = plot->xAxis->range();
        const QCPRange values = plot->yAxis->range();

        // The plain wheel zooms nothing; Ctrl+wheel zooms time around the mouse.
        const QPoint at = inRect(plot, 0.25, 0.5);
        wheel(plot, at, 1, Qt::NoModifier);
        plot->replot();
        QCOMPARE(plot->xAxis->range(), whole);
        const double under = plot->xAxis->pixelToCoord(at.x());
        wheel(plot, at, 2, Qt::ControlModifier);
        plot->replot();
        QVERIFY(zoom->isZoomed());
        QVERIFY2(plot->xAxis->range().size() < whole.size() * 0.8, "Ctrl+wheel did not zoom in");
        QVERIFY(qAbs(plot->xAxis->pixelToCoord(at.x()) - under) < 0.05); // the point under the mouse stays
        QCOMPARE(plot->yAxis->range(), values);                          // only time zooms
        QTRY_VERIFY(reset->isVisible());
        saveShot(&chart, "zoomed-live-chart");

        // New seconds arrive: the chart's own range grows, the shown one stays the user's.
        const QCPRange held = plot->xAxis->range();
        for (int i = 10; i < 18; ++i)
            chart.addInterval(second(i, 125'000'000));
        plot->replot();
        QCOMPARE(plot->xAxis->range(), held);

        // Dragging pans: 100 px to the right shows earlier seconds.
        const QPoint from = inRect(plot, 0.5, 0.5);
        const double perPixel = held.size() / plot->axisRect()->width();
        QTest::mousePress(plot, Qt::LeftButton, {}, from);
        for (int step = 1; step <= 5; ++step)
            QTest::mouseMove(plot, from + QPoint(20 * step, 0));
        QMouseEvent move(QEvent::MouseMove, from + QPoint(100, 0), plot->mapToGlobal(from + QPoint(100, 0)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(plot, &move);
        QTest::mouseRelease(plot, Qt::LeftButton, {}, from + QPoint(100, 0));
        plot->replot();
        QVERIFY2(
            qAbs(plot->xAxis->range().lower - (held.lower - 100 * perPixel)) < 2 * perPixel,
            qPrintable(QStringLiteral("%1 after the drag, %2 before").arg(plot->xAxis->range().lower).arg(held.lower)));
        QCOMPARE(plot->xAxis->range().size(), held.size());

        // Reset: the chart's own range again (the planned 20 s).
        QTest::mouseClick(reset, Qt::LeftButton);
        plot->replot();
        QVERIFY(!zoom->isZoomed());
        QVERIFY(!reset->isVisible());
        QCOMPARE(plot->xAxis->range(), whole);

        // Shift+drag zooms to the dragged span.
        const QPoint a = inRect(plot, 0.2, 0.5);
        const QPoint b = inRect(plot, 0.4, 0.5);
        const double ka = plot->xAxis->pixelToCoord(a.x());
        const double kb = plot->xAxis->pixelToCoord(b.x());
        QTest::mousePress(plot, Qt::LeftButton, Qt::ShiftModifier, a);
        QMouseEvent drag(QEvent::MouseMove, b, plot->mapToGlobal(b), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(plot, &drag);
        QTest::mouseRelease(plot, Qt::LeftButton, Qt::ShiftModifier, b);
        plot->replot();
        QVERIFY(zoom->isZoomed());
        QVERIFY(qAbs(plot->xAxis->range().lower - ka) < 0.1);
        QVERIFY(qAbs(plot->xAxis->range().upper - kb) < 0.1);

        // A new test shows itself whole.
        chart.startTest(5);
        QVERIFY(!zoom->isZoomed());
    }

    void keyboardAndMenu()
    {
        LiveTestChart chart;
        chart.resize(600, 360);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.startTest(10);
        for (int i = 0; i < 10; ++i)
            chart.addInterval(second(i, 1'000'000));
        QCustomPlot *plot = chart.plot();
        plot->replot();
        const QCPRange whole = plot->xAxis->range();
        plot->setFocus();
        QTest::keyClick(plot, Qt::Key_Plus);
        plot->replot();
        QVERIFY(plot->xAxis->range().size() < whole.size());
        const QCPRange zoomed = plot->xAxis->range();
        QTest::keyClick(plot, Qt::Key_Left);
        plot->replot();
        QVERIFY(plot->xAxis->range().lower < zoomed.lower);
        QTest::keyClick(plot, Qt::Key_Home);
        plot->replot();
        QCOMPARE(plot->xAxis->range(), whole);
        QVERIFY(!ChartZoom::of(plot)->isZoomed());
    }

    void barsAndBoxesZoomTheirValues()
    {
        LatencyDistributionChart chart;
        chart.resize(700, 420);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        ChartZoom *zoom = chart.actions()->zoom();
        QCOMPARE(zoom->orientation(), Qt::Vertical); // box plots: the latencies zoom
        chart.xAxis->setRange(0.5, 2.5);
        chart.yAxis->setRange(0, 1000);
        chart.replot();
        const QCPRange categories = chart.xAxis->range();
        wheel(&chart, inRect(&chart, 0.5, 0.8), 2, Qt::ControlModifier);
        chart.replot();
        QVERIFY(chart.yAxis->range().size() < 1000 * 0.8);
        QCOMPARE(chart.xAxis->range(), categories);
        chart.setMode(LatencyDistributionChart::Mode::Cdf); // the distribution zooms its latencies
        QVERIFY(!zoom->isZoomed());
        QCOMPARE(zoom->orientation(), Qt::Horizontal);
    }

    void rateHistoryKeepsTheSessionBounded()
    {
        RateHistory h;
        // Two hours at 10 samples a second, 1 Mbit/s sent, one drop a second.
        const int samples = 2 * 3600 * 10;
        for (int i = 0; i < samples; ++i)
            h.add({i * 0.1, 1e6, 2e6, 100, 200, (i % 10 == 0) ? 1.0 : 0.0, 0});
        QVERIFY(h.recent().size() >= 600 && h.recent().size() <= 601); // every sample of the last minute
        const std::vector<RatePoint> all = h.all();
        QCOMPARE(all.size(), h.size());
        // 60 s of samples, then one point a second for the hour before, 10 s each before that.
        QVERIFY2(all.size() > 600 + 3500 + 350 && all.size() < 600 + 3600 + 370,
                 qPrintable(QString::number(all.size())));
        QVERIFY(std::is_sorted(all.begin(), all.end(),
                               [](const RatePoint &a, const RatePoint &b) { return a.time < b.time; }));
        QVERIFY(all.front().time < 10); // the first seconds are still there (as a 10 s average)
        for (const RatePoint &p : all) {
            QCOMPARE(p.sendBps, 1e6); // averages of a steady rate are that rate
            QCOMPARE(p.receivePps, 200.0);
        }
        QCOMPARE(h.droppedTotal(), double(samples / 10));
        double dropped = 0;
        for (const RatePoint &p : all)
            dropped += p.dropped;
        QCOMPARE(dropped, h.droppedTotal()); // averages keep the counts

        // A day and more: nothing older than a day, and never more than about 12,500 points.
        RateHistory day;
        for (int i = 0; i < 26 * 3600; ++i) // one sample a second (the bound holds whatever the rate)
            day.add({double(i), 1, 1, 0, 0, 0, 0});
        QVERIFY(day.oldestTime() >= 26 * 3600 - 86400 - 20);
        QVERIFY2(day.size() < 12'500, qPrintable(QString::number(day.size())));
    }

    void utilizationViewReachesBackAndCountsPackets()
    {
        AdapterMonitor monitor; // fed by hand
        monitor.refreshAdapters();
        if (!monitor.adapter(QStringLiteral("lo")))
            QSKIP("no loopback interface here");
        QMap<QString, nb::InterfaceCounters> c;
        // 2 s at 10 Hz: 1000 packets/s out, 500 in, 3 drops and 1 error in all.
        for (std::uint64_t i = 0; i <= 20; ++i) {
            nb::InterfaceCounters k;
            k.txBytes = i * 1'250'000;
            k.rxBytes = i * 125'000;
            k.txPackets = i * 100;
            k.rxPackets = i * 50;
            k.rxDropped = i >= 10 ? 3 : 0;
            k.txErrors = i >= 15 ? 1 : 0;
            k.timestampNs = std::int64_t(1'000'000'000 + i * 100'000'000);
            c[QStringLiteral("lo")] = k;
            monitor.addReading(c);
        }
        QCOMPARE(monitor.droppedSinceStart(QStringLiteral("lo")), 3.0);
        QCOMPARE(monitor.errorsSinceStart(QStringLiteral("lo")), 1.0);
        AdapterPanel panel;
        panel.setMonitor(&monitor);
        panel.resize(900, 420);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setAdapter(QStringLiteral("lo"));
        QCOMPARE(panel.packetsText(), QStringLiteral("1,000 / 500"));
        QCOMPARE(panel.droppedText(), QStringLiteral("3 + 1 errors"));
        // lo has no link speed: the Scale box does not offer it (the graph's menu did not either).
        auto *scale = panel.findChild<QComboBox *>(QStringLiteral("scaleCombo"));
        QVERIFY(scale);
        auto *model = qobject_cast<QStandardItemModel *>(scale->model());
        QVERIFY(model);
        QVERIFY(model->item(0)->isEnabled());
        QVERIFY(!model->item(scale->findData(int(UtilizationScale::LinkSpeed)))->isEnabled());

        // The chart's own view is the last 60 s; 10 min, an hour or everything kept on request.
        UtilizationChart *chart = panel.chart();
        std::vector<RatePoint> points;
        for (int i = 0; i <= 3000; ++i) // 50 minutes, one a second, a burst 20 min ago
            points.push_back({double(i), i == 1800 ? 9e9 : 1e6, 1e6, 0, 0, 0, 0});
        chart->setHistory(points);
        chart->plot()->replot();
        QCOMPARE(chart->plot()->xAxis->range(), QCPRange(2940, 3000));
        QVERIFY(chart->axisMax() < 1e8); // the burst is out of view
        chart->setSpan(3600);
        chart->plot()->replot();
        QCOMPARE(chart->plot()->xAxis->range(), QCPRange(-600, 3000));
        QVERIFY(chart->axisMax() >= 9e9); // the axis fits the busiest moment in view
        chart->setSpan(0);
        chart->plot()->replot();
        QCOMPARE(chart->plot()->xAxis->range(), QCPRange(0, 3000));
        QCOMPARE(UtilizationChart::ageText(1200), QStringLiteral("20 min"));
        QCOMPARE(UtilizationChart::ageText(45), QStringLiteral("45 s"));
        QCOMPARE(UtilizationChart::ageText(5400), QStringLiteral("1 h 30 min"));

        // Zoomed out from 60 s with Ctrl+wheel, the burst comes into view and the axis follows.
        chart->setSpan(60);
        chart->plot()->replot();
        QCustomPlot *plot = chart->plot();
        for (int i = 0; i < 25 && plot->xAxis->range().lower > 1800; ++i) {
            wheel(plot, inRect(plot, 0.99, 0.5), -3, Qt::ControlModifier);
            plot->replot();
        }
        QVERIFY2(plot->xAxis->range().lower < 1800, qPrintable(QString::number(plot->xAxis->range().lower)));
        QVERIFY(chart->axisMax() >= 9e9);
        saveShot(&panel, "utilization-zoomed-out");
        QVERIFY(chart->toCsv().startsWith(
            QStringLiteral("seconds_ago,send_bps,receive_bps,send_pps,receive_pps,dropped,errors\n3000.0,")));
    }
};

QTEST_MAIN(TestGuiChartZoom)
#include "tst_gui_chartzoom.moc"
