// SPDX-License-Identifier: GPL-3.0-or-later
// How the comparison charts lay out: no two labels (x tick labels, legend items, bar
// annotations) intersect at the sizes a 1280x720 window gives them and at the export size,
// with long adapter and variant names and in a before/after overlay; exports come out at
// one fixed size whatever the chart's size on screen, atomically; the mouse wheel over a
// chart scrolls the page around it.
//
// With NICBENCH_CHART_SHOTS=<dir> set, screenshots() writes PNGs of the charts in light
// and dark palettes at two sizes and at the export size, for people to look at.
#include "comparisonchartdata.h"

#include <common/chartactions.h>
#include <comparison/comparisoncharts.h>

#include <compare/comparisonstatistics.h>
#include <compare/udpmetrics.h>

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

using namespace nb;
using namespace nb::ui;
using namespace chartdata;

Q_DECLARE_METATYPE(nb::Metric)

namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor base(0x1e, 0x1e, 0x1e), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    return p;
}

// "a and b" for the first two rectangles that overlap by more than half a pixel.
QString firstOverlap(const QList<QRectF> &rects)
{
    for (int i = 0; i < rects.size(); ++i)
        for (int j = i + 1; j < rects.size(); ++j) {
            const QRectF a = rects[i].adjusted(0.5, 0.5, -0.5, -0.5);
            if (a.intersects(rects[j].adjusted(0.5, 0.5, -0.5, -0.5))) {
                const auto text = [](const QRectF &r) {
                    return QStringLiteral("(%1,%2 %3x%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
                };
                return QStringLiteral("%1 #%2 and %3 #%4").arg(text(rects[i])).arg(i).arg(text(rects[j])).arg(j);
            }
        }
    return QString();
}

// Shown at `size` and laid out: a hidden widget gets its resize event only when shown.
bool showAt(QCustomPlot *plot, const QSize &size)
{
    plot->resize(size);
    plot->show();
    if (!QTest::qWaitForWindowExposed(plot))
        return false;
    plot->replot();
    return plot->viewport().size() == size;
}

// The bar chart of `metric` for the comparison, shown and laid out at `size` (an empty size,
// the export size, lays out at 500x300 on screen).
bool showBarChart(ComparisonBarChart *chart, Metric metric, const ComparisonOverlay &o,
                  const ComparisonStatistics &stats, const QSize &size)
{
    chart->setMetric(metric);
    chart->setData(o, stats);
    return showAt(chart, size.isEmpty() ? QSize(500, 300) : size);
}

// The groups on the axis of the bar chart of `metric` for the comparison.
QStringList categoriesOf(Metric metric, const ComparisonOverlay &o, const ComparisonStatistics &stats)
{
    ComparisonBarChart chart;
    chart.setMetric(metric);
    chart.setData(o, stats);
    return chart.categoryLabels();
}

// What is wrong with the labels of a chart at `size` (empty: the export size): the first two
// that overlap, or the first that leaves the chart; empty when nothing is.
QString labelFault(const QList<QRectF> &rects, const QSize &size)
{
    const QString overlap = firstOverlap(rects);
    if (!overlap.isEmpty())
        return overlap;
    const QRectF bounds(QPointF(0, 0), size.isEmpty() ? QSizeF(ComparisonChart::kExportSize) : QSizeF(size));
    for (const QRectF &r : rects) {
        if (!bounds.adjusted(-1, -1, 1, 1).contains(r))
            return QStringLiteral("(%1,%2 %3x%4) leaves the chart")
                .arg(r.x())
                .arg(r.y())
                .arg(r.width())
                .arg(r.height());
    }
    return QString();
}

// What QApplication does with a wheel event from the window system: offer it to the widget
// under the mouse, then to its parents until one accepts it. (Events sent by a test are
// not spontaneous, so Qt itself would not propagate them.)
void wheelAt(QWidget *target, QPointF pos)
{
    for (QWidget *w = target; w; w = w->parentWidget()) {
        QWheelEvent wheel(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(w, &wheel);
        if (wheel.isAccepted() || w->isWindow())
            return;
        pos += w->pos();
    }
}

} // namespace

// The rows of a chart-layout test: each metric `pick` takes, single and overlaid, at two
// on-screen sizes and the export size (an empty size).
template <typename Pick> void addChartRows(Pick pick)
{
    QTest::addColumn<bool>("overlay");
    QTest::addColumn<int>("metric");
    QTest::addColumn<QSize>("size"); // empty: the export size
    for (bool overlay : {false, true})
        for (Metric m : allMetrics())
            if (pick(m))
                for (const QSize &s : {QSize(400, 260), QSize(600, 320), QSize()})
                    QTest::addRow("%s %s %s", overlay ? "overlay" : "single", qPrintable(metricKey(m)),
                                  s.isEmpty() ? "export"
                                              : qPrintable(QStringLiteral("%1x%2").arg(s.width()).arg(s.height())))
                        << overlay << int(m) << s;
}

class TestGuiComparisonChartLayout : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void labelsNeverIntersect_data();
    void labelsNeverIntersect();
    void labelRectsSeeOverlaps();
    void loadedLatencyCharts_data();
    void loadedLatencyCharts();
    void udpCharts_data();
    void udpCharts();
    void exportsAtFixedSize();
    void exportFailureLeavesNoFile();
    void wheelScrollsThePage();
    void cpuShareAxisEndsAt100();
    void screenshots();

private:
    QTemporaryDir m_dir;
};

void TestGuiComparisonChartLayout::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestGuiComparisonChartLayout::labelsNeverIntersect_data()
{
    addChartRows([](Metric m) {
        return m == Metric::Throughput || m == Metric::LocalCpuPerGbps || m == Metric::TransactionsPerSecond ||
               m == Metric::LocalCpu;
    });
}

void TestGuiComparisonChartLayout::loadedLatencyCharts_data()
{
    addChartRows([](Metric m) { return isLoadedLatencyMetric(m); });
}

// Issue 16: the latency-under-load metrics in a comparison that also has P=1 and TCP_RR:
// each chart has only the latency-under-load group (no empty slots for the variants that do
// not measure it), a bar per series, one unit, and no label over another.
void TestGuiComparisonChartLayout::loadedLatencyCharts()
{
    QFETCH(bool, overlay);
    QFETCH(int, metric);
    QFETCH(QSize, size);
    const ComparisonOverlay o =
        overlay ? beforeAfter(withLoadedLatency(), withLoadedLatency(0.8)) : single(withLoadedLatency());
    const ComparisonStatistics stats = computeStatistics(o.merged);
    ComparisonBarChart chart;
    QVERIFY(showBarChart(&chart, Metric(metric), o, stats, size));
    QCOMPARE(chart.categoryLabels(), QStringList{QStringLiteral("Latency under load")});
    QCOMPARE(chart.barCount(), overlay ? 4 : 2);
    const QString unit = chart.unitLabel();
    QVERIFY2(isBitrateMetric(Metric(metric)) ? unit.endsWith(QLatin1String("bit/s"))
                                             : (unit == QStringLiteral("\u00b5s") || unit == QLatin1String("ms")),
             qPrintable(unit));
    const QList<QRectF> rects = chart.labelRects();
    QVERIFY(rects.size() >= 1 + (overlay ? 4 : 2));
    const QString fault = labelFault(rects, size);
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
    // And the stream and RR charts of the same comparison leave no slot for it.
    for (Metric other : {Metric::Throughput, Metric::TransactionsPerSecond, Metric::LatencyP99}) {
        const QStringList categories = categoriesOf(other, o, stats);
        QVERIFY(!categories.contains(QStringLiteral("Latency under load")));
        QCOMPARE(categories.size(), 1);
    }
}

void TestGuiComparisonChartLayout::udpCharts_data()
{
    // The fixture's servers report no CPU: the server's CPU per Gbit/s has no chart here.
    addChartRows([](Metric m) {
        return isUdpMetric(m) && m != Metric::UdpRemoteCpuPerGbps && m != Metric::UdpRrRemoteCpuPerKtps;
    });
}

// Issue 17: the UDP metrics in a comparison that also has P=1 and TCP_RR: the UDP stream
// charts have the two UDP rates, the UDP_RR charts UDP_RR only (no empty slots for the
// variants that do not measure them), a bar per series, one unit, and no label over another;
// the TCP charts leave no slot for UDP.
void TestGuiComparisonChartLayout::udpCharts()
{
    QFETCH(bool, overlay);
    QFETCH(int, metric);
    QFETCH(QSize, size);
    const ComparisonOverlay o = overlay ? beforeAfter(withUdp(), withUdp(0.8)) : single(withUdp());
    const ComparisonStatistics stats = computeStatistics(o.merged);
    ComparisonBarChart chart;
    QVERIFY(showBarChart(&chart, Metric(metric), o, stats, size));
    const bool rr = isUdpRrMetric(Metric(metric));
    QCOMPARE(chart.categoryLabels(), rr ? QStringList{QStringLiteral("UDP_RR")}
                                        : (QStringList{QStringLiteral("UDP 100M"), QStringLiteral("UDP 500M")}));
    QCOMPARE(chart.barCount(), (overlay ? 4 : 2) * (rr ? 1 : 2));
    const QString unit = chart.unitLabel();
    if (isBitrateMetric(Metric(metric)))
        QVERIFY2(unit.endsWith(QLatin1String("bit/s")), qPrintable(unit));
    else if (isLatencyMetric(Metric(metric)))
        QVERIFY2(unit == QStringLiteral("\u00b5s") || unit == QLatin1String("ms"), qPrintable(unit));
    else if (Metric(metric) == Metric::UdpRrTransactionsPerSecond)
        QCOMPARE(unit, QStringLiteral("/s"));
    else
        QVERIFY2(unit.contains(QLatin1Char('%')), qPrintable(unit));
    const QList<QRectF> rects = chart.labelRects();
    QVERIFY(rects.size() >= (rr ? 1 : 2) + (overlay ? 4 : 2));
    const QString fault = labelFault(rects, size);
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
    for (Metric other : {Metric::Throughput, Metric::TransactionsPerSecond, Metric::LatencyP99}) {
        const QStringList categories = categoriesOf(other, o, stats);
        QCOMPARE(categories.size(), 1);
        QVERIFY(!categories.first().startsWith(QStringLiteral("UDP")));
    }
}

void TestGuiComparisonChartLayout::labelsNeverIntersect()
{
    QFETCH(bool, overlay);
    QFETCH(int, metric);
    QFETCH(QSize, size);
    const ComparisonOverlay o = overlay ? beforeAfter(longNames(), longNames(1.2)) : single(longNames());
    const ComparisonStatistics stats = computeStatistics(o.merged);
    ComparisonBarChart chart;
    QVERIFY(showBarChart(&chart, Metric(metric), o, stats, size));
    if (size.isEmpty()) {
        QString error;
        QVERIFY2(chart.exportTo(m_dir.filePath(QStringLiteral("layout.png")), &error), qPrintable(error));
    }
    const QList<QRectF> rects = chart.labelRects();
    // Every label is counted: ticks, legend items (4 series with an overlay), annotations.
    const int ticks = int(chart.categoryLabels().size());
    const int legendItems = overlay ? 4 : 2;
    QVERIFY(chart.barCount() > 0);
    QVERIFY2(rects.size() >= ticks + legendItems, qPrintable(QString::number(rects.size())));
    // No two overlap, and everything is inside the chart.
    const QString fault = labelFault(rects, size);
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
    // The full variant names are still there for the tooltip and CSV.
    if (!isRequestResponseMetric(Metric(metric)))
        QVERIFY(chart.categoryLabels().contains(QStringLiteral("P=16 -w 64k -l 128k")));

    // The other charts too.
    LatencyDistributionChart latency;
    latency.setData(o);
    ComparisonTimelineChart timeline;
    timeline.setData(o);
    for (ComparisonChart *other :
         {static_cast<ComparisonChart *>(&latency), static_cast<ComparisonChart *>(&timeline)}) {
        QVERIFY(showAt(other, size.isEmpty() ? QSize(500, 300) : size));
        if (size.isEmpty())
            QVERIFY(other->exportTo(m_dir.filePath(QStringLiteral("other.png")), nullptr));
        const QString o2 = firstOverlap(other->labelRects());
        QVERIFY2(o2.isEmpty(), qPrintable(other->objectName() + QLatin1Char(' ') + o2));
    }
}

void TestGuiComparisonChartLayout::labelRectsSeeOverlaps()
{
    // The hook reports where QCustomPlot really draws the tick labels: every inked pixel
    // below the axis lies in a reported rectangle, and every rectangle holds ink. So an
    // overlap on screen is an overlap of the rectangles.
    const ComparisonOverlay o = single(longNames());
    ComparisonBarChart chart;
    chart.setData(o, computeStatistics(o.merged));
    QVERIFY(showAt(&chart, QSize(600, 320)));
    const QImage image = chart.toPixmap(600, 320, 1.0).toImage();
    const int ticks = int(chart.categoryLabels().size());
    QCOMPARE(ticks, 2); // P=1 and the long P=16 variant
    const QList<QRectF> rects = chart.labelRects().mid(0, ticks);
    const QRect axis = chart.axisRect()->rect();
    const QRgb background = image.pixel(image.width() - 2, image.height() - 2);
    QList<int> ink(ticks, 0);
    for (int y = axis.bottom() + 2; y < image.height(); ++y) {
        for (int x = axis.left(); x <= axis.right(); ++x) {
            if (image.pixel(x, y) == background)
                continue;
            bool inside = false;
            for (int i = 0; i < ticks; ++i) {
                if (rects[i].adjusted(-2, -2, 2, 2).contains(QPointF(x + 0.5, y + 0.5))) {
                    inside = true;
                    ++ink[i];
                }
            }
            QVERIFY2(inside, qPrintable(QStringLiteral("ink at %1,%2").arg(x).arg(y)));
        }
    }
    for (int i = 0; i < ticks; ++i)
        QVERIFY2(ink[i] > 20, qPrintable(QString::number(ink[i])));
    // The long variant is wrapped or elided to its group.
    for (const QRectF &r : rects)
        QVERIFY(r.width() < axis.width() / 2.0);
}

void TestGuiComparisonChartLayout::exportsAtFixedSize()
{
    const ComparisonOverlay o = single(mixed());
    ComparisonBarChart small, large;
    for (ComparisonBarChart *c : {&small, &large})
        c->setData(o, computeStatistics(o.merged));
    small.resize(300, 210);
    large.resize(900, 500);
    large.show(); // a visible chart exports at the same size as a hidden one
    QVERIFY(QTest::qWaitForWindowExposed(&large));
    const QSize expected = ComparisonChart::kExportSize * 2; // PNGs at 2x
    for (ComparisonBarChart *c : {&small, &large}) {
        const QString path = m_dir.filePath(QStringLiteral("bars-%1.png").arg(c->width()));
        QString error;
        QVERIFY2(ComparisonChart::exportImage(c, path, &error), qPrintable(error));
        QCOMPARE(QImage(path).size(), expected);
    }
    // The widget keeps its own size and lays out again for the screen.
    QCOMPARE(large.size(), QSize(900, 500));
    large.replot();
    QCOMPARE(large.viewport().size(), QSize(900, 500));

    // PDF and SVG too, for any chart.
    LatencyDistributionChart latency;
    latency.setData(o);
    QString error;
    const QString pdf = m_dir.filePath(QStringLiteral("latency.pdf"));
    QVERIFY2(latency.exportTo(pdf, &error), qPrintable(error));
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().startsWith("%PDF"));
    if (ChartActions::imageFilters().contains(QStringLiteral("*.svg"))) {
        const QString svg = m_dir.filePath(QStringLiteral("timeline.svg"));
        ComparisonTimelineChart timeline;
        timeline.setData(o);
        QVERIFY2(timeline.exportTo(svg, &error), qPrintable(error));
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        QVERIFY(
            s.readAll().contains(QByteArray("width=\"") + QByteArray::number(ComparisonChart::kExportSize.width())));
    }
}

void TestGuiComparisonChartLayout::exportFailureLeavesNoFile()
{
    const ComparisonOverlay o = single(mixed());
    ComparisonBarChart chart;
    chart.setData(o, computeStatistics(o.merged));
    const QString dir = m_dir.filePath(QStringLiteral("missing/dir"));
    for (const QString &suffix : {QStringLiteral("png"), QStringLiteral("pdf")}) {
        const QString path = dir + QStringLiteral("/chart.") + suffix;
        QString error;
        QVERIFY(!ComparisonChart::exportImage(&chart, path, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFile::exists(path));
    }
}

// Review minor: "Local/Remote CPU charts use a 0-150 % axis for a figure capped at 100 %".
void TestGuiComparisonChartLayout::cpuShareAxisEndsAt100()
{
    const ComparisonOverlay o = single(mixed(0.48)); // E1000 about 97% busy
    ComparisonBarChart chart;
    chart.setMetric(Metric::LocalCpu);
    chart.setData(o, computeStatistics(o.merged));
    chart.resize(520, 220);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.replot();
    qInfo("CPU share axis: 0 .. %g", chart.yAxis->range().upper);
    const QVector<double> ticks = chart.yAxis->tickVector();
    QVERIFY(!ticks.isEmpty());
    QVERIFY2(*std::max_element(ticks.begin(), ticks.end()) <= 100,
             qPrintable(QStringLiteral("a tick at %1").arg(*std::max_element(ticks.begin(), ticks.end()))));
    QVERIFY2(chart.yAxis->range().upper < 150, qPrintable(QString::number(chart.yAxis->range().upper)));
    QVERIFY(chart.yAxis->range().upper >= 97);
    // Other metrics tick on as before.
    chart.setMetric(Metric::Throughput);
    chart.replot();
    QVERIFY(chart.yAxis->range().upper > 0);
}

void TestGuiComparisonChartLayout::wheelScrollsThePage()
{
    const ComparisonOverlay o = single(mixed());
    const auto scrolled = [&](QCustomPlot *chart) {
        QScrollArea area;
        area.resize(500, 300);
        auto *page = new QWidget;
        auto *layout = new QVBoxLayout(page);
        chart->setMinimumHeight(260);
        layout->addWidget(chart);
        auto *tall = new QWidget;
        tall->setMinimumHeight(1500);
        layout->addWidget(tall);
        area.setWidget(page);
        area.setWidgetResizable(true);
        area.show();
        if (!QTest::qWaitForWindowExposed(&area))
            return -1;
        QScrollBar *bar = area.verticalScrollBar();
        const int before = bar->value();
        wheelAt(chart, QPointF(chart->width() / 2.0, chart->height() / 2.0));
        const int moved = bar->value() - before;
        layout->removeWidget(chart);
        chart->setParent(nullptr);
        return moved;
    };
    ComparisonBarChart chart;
    chart.setData(o, computeStatistics(o.merged));
    QVERIFY(scrolled(&chart) > 0);
    LatencyDistributionChart latency;
    latency.setData(o);
    QVERIFY(scrolled(&latency) > 0);
    // A plain QCustomPlot keeps the wheel: the control that the test can fail.
    QCustomPlot plain;
    QCOMPARE(scrolled(&plain), 0);
}

void TestGuiComparisonChartLayout::screenshots()
{
    const QString dir = qEnvironmentVariable("NICBENCH_CHART_SHOTS");
    if (dir.isEmpty())
        QSKIP("set NICBENCH_CHART_SHOTS=<dir> to write screenshots of the comparison charts");
    QVERIFY(QDir().mkpath(dir));
    const ComparisonOverlay one = single(longNames());
    const ComparisonOverlay two = beforeAfter(mixed(), mixed(1.2));
    for (bool dark : {false, true}) {
        const QPalette pal = dark ? darkPalette() : QPalette();
        const QString theme = dark ? QStringLiteral("dark") : QStringLiteral("light");
        for (const QSize &size : {QSize(400, 260), QSize(600, 320)}) {
            const QString suffix = QStringLiteral("-%1-%2x%3.png").arg(theme).arg(size.width()).arg(size.height());
            const auto shoot = [&](ComparisonChart *w, const QString &name) {
                w->setPalette(pal);
                w->resize(size);
                w->show();
                QCoreApplication::processEvents();
                w->replot();
                QVERIFY(w->grab().save(dir + QLatin1Char('/') + name + suffix));
                if (size.width() == 600)
                    QVERIFY(w->exportTo(dir + QLatin1Char('/') + name + QStringLiteral("-%1-export.png").arg(theme),
                                        nullptr));
                w->hide();
            };
            for (const ComparisonOverlay *o : {&one, &two}) {
                const QString src = QString::number(o->sourceCount());
                for (Metric m : {Metric::Throughput, Metric::LocalCpuPerGbps, Metric::TransactionsPerSecond,
                                 Metric::LatencyP99, Metric::LocalCpu}) {
                    ComparisonBarChart chart;
                    chart.setMetric(m);
                    chart.setData(*o, computeStatistics(o->merged));
                    shoot(&chart, QStringLiteral("bars-%1-%2src").arg(metricKey(m), src));
                }
                const ComparisonOverlay loaded = o->sourceCount() > 1
                                                     ? beforeAfter(withLoadedLatency(), withLoadedLatency(0.8))
                                                     : single(withLoadedLatency());
                for (Metric m :
                     {Metric::LoadedBidirP99Increase, Metric::LoadedIdleP50, Metric::LoadedDownloadThroughput}) {
                    ComparisonBarChart chart;
                    chart.setMetric(m);
                    chart.setData(loaded, computeStatistics(loaded.merged));
                    shoot(&chart, QStringLiteral("bars-%1-%2src").arg(metricKey(m), src));
                }
                const ComparisonOverlay udp =
                    o->sourceCount() > 1 ? beforeAfter(withUdp(), withUdp(0.8)) : single(withUdp());
                for (Metric m :
                     {Metric::UdpGoodput, Metric::UdpLossPercent, Metric::UdpJitter, Metric::UdpRrLostPercent}) {
                    ComparisonBarChart chart;
                    chart.setMetric(m);
                    chart.setData(udp, computeStatistics(udp.merged));
                    shoot(&chart, QStringLiteral("bars-%1-%2src").arg(metricKey(m), src));
                }
                ComparisonTimelineChart timeline;
                timeline.setData(*o);
                shoot(&timeline, QStringLiteral("timeline-%1src").arg(src));
                for (auto mode : {LatencyDistributionChart::Mode::Box, LatencyDistributionChart::Mode::Cdf}) {
                    LatencyDistributionChart latency;
                    latency.setMode(mode);
                    latency.setData(*o);
                    shoot(&latency, QStringLiteral("latency-%1-%2src")
                                        .arg(mode == LatencyDistributionChart::Mode::Box ? QStringLiteral("box")
                                                                                         : QStringLiteral("cdf"),
                                             src));
                }
            }
        }
    }
}

QTEST_MAIN(TestGuiComparisonChartLayout)
#include "tst_gui_comparisonchartlayout.moc"
