// SPDX-License-Identifier: GPL-3.0-or-later
// UDP in the window (issue 17): the test types, fields and iperf-style presets produce the
// UDP test the CLI would run with the same flags (-u -b -l, -u --rr); the form keeps them
// between sessions; the UDP chart puts each figure in its graph, and the server's
// whole-test figures where the client saw nothing live; the summary shows loss, jitter and
// lost requests; real short runs against the built-in server fill chart and summary, and
// nothing overlaps at 1280x720.

#include "core/format.h"
#include "guihelpers.h"

#include <common/udpformat.h>
#include <live/rrchart.h>
#include <live/udpchart.h>
#include <results/resultssummary.h>
#include <results/summarycontent.h>
#include <testview/testflags.h>
#include <testview/testpanel.h>
#include <testview/testview.h>
#include <window/mainwindow.h>

#include <qcustomplot.h>

#include <model/parameters.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>

using nb::gui::MainWindow;
using nb::gui::TestPanel;
using nb::gui::TestType;
using nb::ui::UdpChart;
using Figure = nb::ui::UdpChart::Figure;
using nbtest::graphValueAt;

namespace {

int presetNamed(const QString &name)
{
    const auto presets = nb::gui::builtinPresets();
    for (int i = 0; i < presets.size(); ++i) {
        if (presets.at(i).name == name)
            return i;
    }
    return -1;
}

// One 1 s UDP interval ending at `end`: the client sent upBps (packets only, as a sender
// counts) and received downBps with the given loss and jitter.
nb::IntervalReport udpInterval(double end, double upBps, double downBps, std::uint64_t lost, double jitterMs)
{
    nb::IntervalReport r = nbtest::twoStreamInterval(end, upBps, downBps);
    for (nb::StreamInterval &s : r.streams) {
        s.udp = true;
        s.packets = 1000;
        if (!s.sender) {
            s.lostPackets = lost;
            s.jitterMs = jitterMs;
        }
    }
    return r;
}

// The visible labels and fields under `root`, in window coordinates, that overlap: empty
// when none do. Rows of one form never share pixels, so any overlap is a layout fault.
QString firstOverlap(QWidget *root)
{
    QList<QPair<QWidget *, QRect>> items;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (!w->isVisible() || w->width() <= 0 || w->height() <= 0)
            continue;
        if (!qobject_cast<QLabel *>(w) && !qobject_cast<QLineEdit *>(w) && !qobject_cast<QAbstractSpinBox *>(w) &&
            !qobject_cast<QComboBox *>(w))
            continue;
        if (qobject_cast<QLineEdit *>(w) && qobject_cast<QAbstractSpinBox *>(w->parentWidget()))
            continue; // a spin box's own editor
        if (qobject_cast<QLineEdit *>(w) && qobject_cast<QComboBox *>(w->parentWidget()))
            continue; // an editable combo's own editor
        items.append({w, QRect(w->mapTo(w->window(), QPoint(0, 0)), w->size())});
    }
    for (qsizetype i = 0; i < items.size(); ++i) {
        for (qsizetype j = i + 1; j < items.size(); ++j) {
            if (items[i].second.intersects(items[j].second))
                return QStringLiteral("%1 '%2' overlaps %3 '%4'")
                    .arg(QString::fromLatin1(items[i].first->metaObject()->className()), items[i].first->objectName(),
                         QString::fromLatin1(items[j].first->metaObject()->className()), items[j].first->objectName());
        }
    }
    return {};
}

} // namespace

namespace {

// A UDP request/response result: 91,008 transactions in 2 s, 3 requests lost.
nb::TestResult udpRrResult()
{
    nb::TestResult r;
    r.params.udp = true;
    r.params.kind = nb::TestKind::Rr;
    r.params.udpRrTimeoutMs = 1000;
    r.hasRr = true;
    r.rr.seconds = 2;
    r.rr.transactions = 91008;
    r.rr.udpLost = 3;
    r.rr.latencyUs.count = 91008;
    r.rr.latencyUs.p50 = 14.3;
    r.rr.latencyUs.p99 = 35.2;
    return r;
}

} // namespace

class TestGuiUdp : public QObject {
    Q_OBJECT

    nbtest::GuiTestSettings m_settings;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_settings.init(QStringLiteral("tst_gui_udp"))); }

    void presets_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("type");
        QTest::addColumn<qulonglong>("bandwidth");
        QTest::newRow("iperf3 default") << QStringLiteral("UDP 1 Mbit/s (iperf3 default)") << int(TestType::Udp)
                                        << qulonglong(1000000);
        QTest::newRow("100M") << QStringLiteral("UDP 100 Mbit/s") << int(TestType::Udp) << qulonglong(100000000);
        QTest::newRow("1G") << QStringLiteral("UDP 1 Gbit/s") << int(TestType::Udp) << qulonglong(1000000000);
        QTest::newRow("unlimited") << QStringLiteral("UDP unlimited (-b 0)") << int(TestType::Udp) << qulonglong(0);
        QTest::newRow("rr") << QStringLiteral("UDP request/response") << int(TestType::UdpRequestResponse)
                            << qulonglong(1000000);
    }
    void presets()
    {
        QFETCH(QString, name);
        QFETCH(int, type);
        QFETCH(qulonglong, bandwidth);
        TestPanel panel;
        const int index = presetNamed(name);
        QVERIFY2(index >= 0, qPrintable(name));
        panel.selectPreset(index);
        QCOMPARE(int(panel.testType()), type);
        QList<nb::TestParams> plan;
        QString error;
        QVERIFY2(panel.testPlan(&plan, &error), qPrintable(error));
        QCOMPARE(plan.size(), 1);
        const nb::TestParams &p = plan.constFirst();
        QVERIFY(p.udp);
        QCOMPARE(p.bandwidth, std::uint64_t(bandwidth));
        QCOMPARE(p.kind, type == int(TestType::Udp) ? nb::TestKind::Stream : nb::TestKind::Rr);
        QVERIFY(p.udpDatagramSizeUnset() || p.isRequestResponse()); // -l left to iperf3's default
        QVERIFY2(p.validate().isEmpty(), qPrintable(p.validate()));
        // The preset is what its flags give the CLI.
        nb::TestParams cli;
        QVERIFY(
            nb::gui::parseTestFlags(nb::gui::builtinPresets().at(index).flags.split(QLatin1Char(' ')), &cli, &error));
        QCOMPARE(cli.udp, p.udp);
        QCOMPARE(cli.bandwidth, p.bandwidth);
        QCOMPARE(cli.kind, p.kind);
        QCOMPARE(cli.duration, p.duration);
    }

    void fieldsReachTheParameters()
    {
        TestPanel panel;
        panel.setTestType(TestType::Udp);
        auto *rate = panel.findChild<QDoubleSpinBox *>(QStringLiteral("udpRateSpin"));
        auto *unit = panel.findChild<QComboBox *>(QStringLiteral("udpRateUnit"));
        auto *datagram = panel.findChild<QLineEdit *>(QStringLiteral("udpDatagramEdit"));
        auto *timeout = panel.findChild<QSpinBox *>(QStringLiteral("udpRrTimeoutSpin"));
        auto *blockSize = panel.findChild<QLineEdit *>(QStringLiteral("blockSizeEdit"));
        QVERIFY(rate && unit && datagram && timeout && blockSize);
        QVERIFY(rate->isVisibleTo(&panel));
        QVERIFY(datagram->isVisibleTo(&panel));
        QVERIFY(!timeout->isVisibleTo(&panel));
        QVERIFY(!blockSize->isEnabled()); // the datagram field is UDP's -l
        // The engine's default (-b unset: 1 Mbit/s) and the table's range (1e12 bit/s).
        QCOMPARE(unit->currentText(), QStringLiteral("Mbit/s"));
        QCOMPARE(rate->value(), 1.0);
        QCOMPARE(rate->maximum(), nb::param::parameter(nb::param::Id::Bitrate).max / 1e6);
        QCOMPARE(rate->specialValueText(), QStringLiteral("unlimited"));
        unit->setCurrentIndex(unit->findText(QStringLiteral("Gbit/s")));
        QCOMPARE(rate->maximum(), 1000.0);
        rate->setValue(2.5);
        datagram->setText(QStringLiteral("1400"));
        nb::TestParams p;
        QString error;
        QVERIFY2(panel.params(&p, &error), qPrintable(error));
        QVERIFY(p.udp);
        QCOMPARE(p.kind, nb::TestKind::Stream);
        QCOMPARE(p.bandwidth, std::uint64_t(2500000000));
        QCOMPARE(p.blockSize, 1400u);
        // Out of range or not a size: one line, no test.
        datagram->setText(QStringLiteral("70000"));
        QVERIFY(!panel.params(&p, &error));
        QVERIFY2(error.contains(QStringLiteral("65507")), qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
        datagram->setText(QStringLiteral("lots"));
        QVERIFY(!panel.params(&p, &error));
        QVERIFY2(error.startsWith(QStringLiteral("Datagram size")), qPrintable(error));
        datagram->clear();
        QVERIFY2(panel.params(&p, &error), qPrintable(error));
        QVERIFY(p.udpDatagramSizeUnset());

        // UDP request/response: the timeout instead of rate and datagram.
        panel.setTestType(TestType::UdpRequestResponse);
        QVERIFY(timeout->isVisibleTo(&panel));
        QVERIFY(!rate->isVisibleTo(&panel));
        QCOMPARE(timeout->maximum(), int(nb::param::parameter(nb::param::Id::UdpRrTimeout).max));
        timeout->setValue(250);
        QVERIFY2(panel.params(&p, &error), qPrintable(error));
        QVERIFY(p.udp);
        QCOMPARE(p.kind, nb::TestKind::Rr);
        QCOMPARE(p.udpRrTimeoutMs, 250);
        // Back to TCP throughput: no UDP left in the test.
        panel.setTestType(TestType::Throughput);
        QVERIFY(!rate->isVisibleTo(&panel));
        QVERIFY2(panel.params(&p, &error), qPrintable(error));
        QVERIFY(!p.udp);
    }

    // The window's command line takes the CLI's UDP flags and shows them in the form.
    void commandLineShowsUdpFlags()
    {
        const nb::gui::GuiCommandLine cmd =
            nb::gui::parseGuiCommandLine({QStringLiteral("nicbench"), QStringLiteral("-u"), QStringLiteral("-b"),
                                          QStringLiteral("250M"), QStringLiteral("-l"), QStringLiteral("1200"),
                                          QStringLiteral("-R"), QStringLiteral("-t"), QStringLiteral("3")});
        QVERIFY2(cmd.error.isEmpty(), qPrintable(cmd.error));
        TestPanel panel;
        panel.setParams(cmd.params);
        QCOMPARE(panel.testType(), TestType::Udp);
        QCOMPARE(panel.findChild<QLineEdit *>(QStringLiteral("udpDatagramEdit"))->text(), QStringLiteral("1200"));
        nb::TestParams p;
        QString error;
        QVERIFY2(panel.params(&p, &error), qPrintable(error));
        QVERIFY(p.udp);
        QCOMPARE(p.bandwidth, std::uint64_t(250000000));
        QCOMPARE(p.blockSize, 1200u);
        QCOMPARE(p.direction, nb::Direction::Download);
        QCOMPARE(p.duration, 3.0);
    }

    void settingsKeepUdp()
    {
        {
            TestPanel panel;
            panel.selectPreset(presetNamed(QStringLiteral("UDP 100 Mbit/s")));
            panel.findChild<QLineEdit *>(QStringLiteral("udpDatagramEdit"))->setText(QStringLiteral("8K"));
            QSettings settings;
            panel.saveState(settings);
        }
        TestPanel restored;
        restored.restoreState(QSettings());
        QCOMPARE(restored.testType(), TestType::Udp);
        nb::TestParams p;
        QString error;
        QVERIFY2(restored.params(&p, &error), qPrintable(error));
        QVERIFY(p.udp);
        QCOMPARE(p.bandwidth, std::uint64_t(100000000));
        QCOMPARE(p.blockSize, 8192u);
        {
            TestPanel panel;
            panel.selectPreset(presetNamed(QStringLiteral("UDP request/response")));
            QSettings settings;
            panel.saveState(settings);
        }
        TestPanel rr;
        rr.restoreState(QSettings());
        QCOMPARE(rr.testType(), TestType::UdpRequestResponse);
        QSettings().clear();
    }

    void chartFigures()
    {
        UdpChart chart;
        chart.resize(760, 340);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.startTest(3);
        chart.addIntervals({udpInterval(1, 100e6, 90e6, 0, 0.02), udpInterval(2, 100e6, 80e6, 100, 0.5),
                            udpInterval(3, 100e6, 95e6, 10, 0.1)});
        QCOMPARE(chart.sampleCount(), 6);
        QCOMPARE(chart.graph(true, Figure::Sent)->dataCount(), 3);
        QCOMPARE(graphValueAt(chart.graph(true, Figure::Sent), 2), 100e6);
        QCOMPARE(graphValueAt(chart.graph(false, Figure::Received), 2), 80e6);
        QCOMPARE(graphValueAt(chart.graph(false, Figure::LossPercent), 2), 10.0); // 100 of 1000
        QCOMPARE(graphValueAt(chart.graph(false, Figure::JitterMs), 2), 0.5);
        // The client cannot see the upload's receiver live.
        QCOMPARE(chart.graph(true, Figure::Received)->dataCount(), 0);
        QCOMPARE(chart.graph(true, Figure::LossPercent)->dataCount(), 0);
        QVERIFY(!chart.graph(true, Figure::LossPercent)->visible());

        // The server's whole-test figures arrive with the result: a flat line over the test.
        nb::TestResult r;
        r.params.udp = true;
        r.params.direction = nb::Direction::Bidirectional;
        for (bool sender : {true, false}) {
            nb::StreamSummary s;
            s.id = sender ? 1 : 2;
            s.sender = sender;
            s.seconds = 3;
            s.receiverSeconds = 3;
            s.udp = true;
            s.bytesSent = std::uint64_t(3 * 100e6 / 8);
            s.bytesReceived = std::uint64_t(3 * (sender ? 97e6 : 88e6) / 8);
            s.packetsSent = 3000;
            s.packetsReceived = 3000;
            s.lostPackets = sender ? 90 : 110;
            s.jitterMs = sender ? 0.25 : 0.2;
            r.streams.append(s);
        }
        chart.finishTest(r);
        QCOMPARE(chart.graph(true, Figure::LossPercent)->dataCount(), 2);
        QCOMPARE(graphValueAt(chart.graph(true, Figure::LossPercent), 3), 3.0);
        QCOMPARE(graphValueAt(chart.graph(true, Figure::JitterMs), 0), 0.25);
        QVERIFY(std::abs(graphValueAt(chart.graph(true, Figure::Received), 3) - 97e6) < 1e3);
        QCOMPARE(chart.graph(true, Figure::Received)->name(), QStringLiteral("Upload received (server)"));
        // Loss and jitter of the server stay apart by line style as they do live.
        QVERIFY(chart.graph(true, Figure::LossPercent)->pen().style() !=
                chart.graph(true, Figure::JitterMs)->pen().style());
        // What was seen live stays as measured.
        QCOMPARE(chart.graph(false, Figure::Received)->dataCount(), 3);
        QCOMPARE(chart.graph(false, Figure::Received)->name(), QStringLiteral("Download received"));
        // Four rate lines, two named "(server)", in a narrow chart: the legend takes more
        // rows rather than cutting names off.
        chart.resize(520, 340);
        chart.plot()->replot();
        QCPLegend *legend = chart.plot()->legend;
        QCOMPARE(legend->itemCount(), 4);
        // The lower pane names its loss and jitter lines, the server's too (review minor).
        auto *lower = chart.plot()->findChild<QCPLegend *>(QStringLiteral("lossLegend"));
        QVERIFY(lower && lower->visible());
        QCOMPARE(lower->itemCount(), 4);
        QVERIFY(lower->hasItemWithPlottable(chart.graph(true, Figure::JitterMs)));
        QVERIFY(lower->hasItemWithPlottable(chart.graph(false, Figure::LossPercent)));
        QVERIFY(!legend->hasItemWithPlottable(chart.graph(false, Figure::LossPercent)));
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = legend->item(i);
            QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                     qPrintable(QStringLiteral("legend item %1 is cut off").arg(i)));
        }
        // A new test starts empty with its plain names.
        chart.startTest(5);
        QCOMPARE(chart.graph(true, Figure::Received)->dataCount(), 0);
        QCOMPARE(chart.graph(true, Figure::Received)->name(), QStringLiteral("Upload received"));
    }

    void summaryOfUdpRr()
    {
        const nb::TestResult r = udpRrResult();
        nb::ui::ResultsSummary summary;
        summary.showResults({r});
        QCOMPARE(summary.udpLostRequestsText(),
                 QStringLiteral("3 of 91,011 requests (0.0033%) had no response within 1000 ms"));
        QVERIFY2(summary.toText().contains(QStringLiteral("UDP_RR")), qPrintable(summary.toText()));
        QVERIFY(summary.udpText().isEmpty());
    }

    // What the summary shows is worked out without a widget (summaryContent) and put on the
    // labels as is: the same lines, a row only for what the result has.
    void summaryContentWithoutWidgets()
    {
        const nb::TestResult r = udpRrResult();
        const nb::ui::SummaryContent c = nb::ui::summaryContent({r});
        QCOMPARE(c.headline, QStringList{QStringLiteral("Transactions 45,500/s, p99 35.2 \u00b5s")});
        QCOMPARE(c.transactionsPerSecond, 45504.0);
        QVERIFY(c.latencyShown);
        QCOMPARE(c.udpLostRequests.value_or(QString()),
                 QStringLiteral("3 of 91,011 requests (0.0033%) had no response within 1000 ms"));
        QVERIFY(!c.directionsSet && !c.anyStream && !c.loadedLatency);
        QCOMPARE(c.test.size(), 1);

        nb::ui::ResultsSummary summary;
        summary.showResults({r});
        QCOMPARE(summary.udpLostRequestsText(), *c.udpLostRequests);
        QCOMPARE(summary.latencyText(), c.latency.value_or(QString()));
        QCOMPARE(summary.testText(), c.test.join(QLatin1Char('\n')));
    }

    // Real short runs against the built-in server: a UDP --bidir run at 50 Mbit/s fills the
    // UDP chart (live and, for the upload, the server's figures) and the summary's loss and
    // jitter; a UDP request/response run fills the request/response chart and counts lost
    // requests. Nothing in the test panel or the summary overlaps at 1280x720.
    void realRuns()
    {
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        nb::TestParams p;
        p.udp = true;
        p.bandwidth = 50000000;
        p.blockSize = 1400;
        p.direction = nb::Direction::Bidirectional;
        p.duration = 2;
        QSignalSpy finished(w.testView(), &nb::gui::TestView::testFinished);
        w.testView()->runTest(p);
        QCOMPARE(w.testView()->testPanel()->testType(), TestType::Udp);
        QCOMPARE(w.testView()->runningDescription(), QStringLiteral("UDP at 50.0 Mbit/s to this computer"));
        QVERIFY(finished.wait(60000));
        auto result = finished.takeFirst().constFirst().value<nb::TestResult>();
        QVERIFY2(result.ok(), qPrintable(result.error));
        UdpChart *chart = w.testView()->udpChart();
        auto *tabs = w.testView()->findChild<QTabWidget *>(QStringLiteral("chartTabs"));
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget *>(chart));
        QVERIFY(chart->graph(true, Figure::Sent)->dataCount() >= 1);
        QVERIFY(chart->graph(false, Figure::Received)->dataCount() >= 1);
        QVERIFY(chart->graph(false, Figure::JitterMs)->dataCount() >= 1);
        QCOMPARE(chart->graph(true, Figure::JitterMs)->dataCount(), 2); // the server's whole-test line
        const nb::DirectionSum up = result.sum(true);
        QVERIFY(up.udp && up.packetsReceived > 0);
        nb::ui::ResultsSummary *summary = w.testView()->summary();
        const QStringList udp = summary->udpText().split(QLatin1Char('\n'));
        QCOMPARE(udp.size(), 2);
        QVERIFY2(
            udp.at(0).startsWith(QStringLiteral("Upload: lost %1/%2 (").arg(up.lostPackets).arg(up.packetsReceived)),
            qPrintable(udp.at(0)));
        QVERIFY2(udp.at(1).contains(QStringLiteral("jitter ")), qPrintable(udp.at(1)));
        QVERIFY2(summary->testText().startsWith(QStringLiteral("UDP bidirectional")), qPrintable(summary->testText()));
        QVERIFY2(summary->toText().contains(QStringLiteral("Upload ")), qPrintable(summary->toText()));
        // No TCP retransmits row for datagrams.
        QVERIFY2(!summary->toText().contains(QStringLiteral("retransmits")), qPrintable(summary->toText()));
        QVERIFY2(summary->cpuPerGbpsText().size() > 0 || !result.localCpuKnown, qPrintable(summary->toText()));
        QString overlap = firstOverlap(w.testView()->testPanel());
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        overlap = firstOverlap(summary);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));

        nb::TestParams rr;
        rr.udp = true;
        rr.kind = nb::TestKind::Rr;
        rr.duration = 1;
        w.testView()->runTest(rr);
        QCOMPARE(w.testView()->testPanel()->testType(), TestType::UdpRequestResponse);
        QVERIFY(finished.wait(60000));
        result = finished.takeFirst().constFirst().value<nb::TestResult>();
        QVERIFY2(result.ok(), qPrintable(result.error));
        QVERIFY(result.rr.transactions > 0);
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget *>(w.testView()->rrChart()));
        QVERIFY(w.testView()->rrChart()->sampleCount() >= 1);
        QVERIFY2(summary->udpLostRequestsText().contains(QStringLiteral("had no response within 1000 ms")),
                 qPrintable(summary->toText()));
        QVERIFY2(summary->latencyText().contains(QStringLiteral("p99")), qPrintable(summary->toText()));
        overlap = firstOverlap(w.testView()->testPanel());
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
    }
};

QTEST_MAIN(TestGuiUdp)
#include "tst_gui_udp.moc"
