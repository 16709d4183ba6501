// SPDX-License-Identifier: GPL-3.0-or-later
// The New Comparison dialog on the offscreen platform: no cell widget outlives its endpoint
// row (issue 14 B1: a stray "any (routing table decides)" combo over row 1), a click on a
// Use cell ticks it, the request/response variant has its own connection count (M4), short
// adapter labels that can be typed over (minor 23), the baseline is an adapter, combos
// elide with a tooltip, UDP variants (issue 17), and the dialog fits a 1280x720 screen. Adapters are made up
// (E1000 and VMXNET3 families on 198.18.x addresses) except for the server query, which
// asks a real server on loopback.

#include <common/elidingcombobox.h>
#include <compareview/comparisondialog.h>
#include <compareview/endpointtable.h>
#include <window/mainwindow.h>

#include <platform/platform.h>
#include <session/server.h>

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionViewItem>
#include <QTest>

#include <memory>
#include <thread>

using nb::gui::ComparisonDialog;
using nb::gui::EndpointTable;

namespace {

nb::AdapterInfo adapter(const QString &name, nb::AdapterFamily family, const QString &address)
{
    nb::AdapterInfo a;
    a.name = name;
    a.family = family;
    a.operState = QStringLiteral("up");
    a.addresses.append(nb::AdapterAddress{QHostAddress(address), 24});
    return a;
}

QList<nb::AdapterInfo> fakeAdapters()
{
    return {adapter(QStringLiteral("ens160"), nb::AdapterFamily::E1000, QStringLiteral("198.18.1.1")),
            adapter(QStringLiteral("ens192"), nb::AdapterFamily::Vmxnet3, QStringLiteral("198.18.2.1")),
            adapter(QStringLiteral("veth-nb0"), nb::AdapterFamily::Veth, QStringLiteral("198.18.3.1"))};
}

QList<nb::MatrixEndpoint> fakeEndpoints()
{
    return {nb::MatrixEndpoint{QStringLiteral("198.18.1.1"), QStringLiteral("198.18.1.2"), std::nullopt, QString()},
            nb::MatrixEndpoint{QStringLiteral("198.18.2.1"), QStringLiteral("198.18.2.2"), std::nullopt, QString()}};
}

// Combo boxes and line edits inside the endpoint table's viewport, and how many combos sit
// in a row's From (agent, editable: one line edit each) or Bind to cell: the rest
// would be strays. Each row has two.
struct CellWidgets {
    int combos = 0;
    int lineEdits = 0;
    int inRows = 0;
};

CellWidgets cellWidgets(const EndpointTable *table)
{
    CellWidgets out;
    const auto combos = table->viewport()->findChildren<QComboBox *>();
    out.combos = int(combos.size());
    out.lineEdits = int(table->viewport()->findChildren<QLineEdit *>().size());
    for (QComboBox *c : combos) {
        for (int row = 0; row < table->rowCount(); ++row) {
            if (table->cellWidget(row, EndpointTable::BindColumn) == c ||
                table->cellWidget(row, EndpointTable::AgentColumn) == c)
                ++out.inRows;
        }
    }
    return out;
}

// Where the check box of a check-box cell is drawn (what the delegate hit-tests).
QRect checkRect(const EndpointTable *table, int row)
{
    QStyleOptionViewItem opt;
    opt.initFrom(table->viewport());
    opt.rect = table->visualItemRect(table->item(row, EndpointTable::UseColumn));
    opt.features = QStyleOptionViewItem::HasCheckIndicator;
    return table->style()->subElementRect(QStyle::SE_ItemViewItemCheckIndicator, &opt, table);
}

} // namespace

class TestComparisonDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // B1: the window's way of making the dialog (constructor row, then setAdapters and
    // setEndpoints) leaves exactly one From combo per row, and removing rows removes theirs
    // at once (not on a later event-loop turn).
    void noStrayCellWidgets()
    {
        nb::gui::MainWindow w;
        std::unique_ptr<ComparisonDialog> dialog(w.createComparisonDialog());
        EndpointTable *table = dialog->endpointTable();
        QCOMPARE(table->rowCount(), 1);
        CellWidgets c = cellWidgets(table);
        QCOMPARE(c.combos, 2);
        QCOMPARE(c.inRows, 2);
        QCOMPARE(c.lineEdits, 1);
        const int dialogCombos = int(dialog->findChildren<QComboBox *>().size());
        const int dialogEdits = int(dialog->findChildren<QLineEdit *>().size());

        dialog->setAdapters(fakeAdapters());
        dialog->setEndpoints(fakeEndpoints() + fakeEndpoints().mid(0, 1));
        QCOMPARE(table->rowCount(), 3);
        c = cellWidgets(table);
        QCOMPARE(c.combos, 6);
        QCOMPARE(c.inRows, 6);
        QCOMPARE(c.lineEdits, 3);
        QCOMPARE(int(dialog->findChildren<QComboBox *>().size()), dialogCombos + 4);
        QCOMPARE(int(dialog->findChildren<QLineEdit *>().size()), dialogEdits + 2);

        dialog->setAdapters(fakeAdapters()); // again: the same combos get the choices
        QCOMPARE(cellWidgets(table).combos, 6);

        dialog->removeEndpointRow(0);
        dialog->removeEndpointRow(0);
        QCOMPARE(table->rowCount(), 1);
        c = cellWidgets(table);
        QCOMPARE(c.combos, 2);
        QCOMPARE(c.inRows, 2);
        QCOMPARE(int(dialog->findChildren<QComboBox *>().size()), dialogCombos);
        QCOMPARE(int(dialog->findChildren<QLineEdit *>().size()), dialogEdits);

        // Shown, every combo sits in its own cell.
        dialog->setEndpoints(fakeEndpoints());
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
        for (int row = 0; row < table->rowCount(); ++row) {
            for (int column : {int(EndpointTable::AgentColumn), int(EndpointTable::BindColumn)}) {
                QWidget *combo = table->cellWidget(row, column);
                QVERIFY(combo->isVisible());
                QCOMPARE(combo->geometry(), table->visualRect(table->model()->index(row, column)));
            }
        }
    }

    // B1: a click on a row's Use check box ticks or unticks it; nothing covers the cell.
    void clickOnUseTogglesTheRow()
    {
        nb::gui::MainWindow w;
        std::unique_ptr<ComparisonDialog> dialog(w.createComparisonDialog());
        dialog->setAdapters(fakeAdapters());
        dialog->setEndpoints(fakeEndpoints());
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
        EndpointTable *table = dialog->endpointTable();
        for (int row : {0, 1}) {
            const QRect box = checkRect(table, row);
            QVERIFY(!box.isEmpty());
            QCOMPARE(table->viewport()->childAt(box.center()), nullptr);
            QVERIFY(table->isRowEnabled(row));
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, box.center());
            QVERIFY2(!table->isRowEnabled(row), qPrintable(QStringLiteral("row %1 still ticked").arg(row)));
            QCOMPARE(QApplication::activePopupWidget(), nullptr);
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, box.center());
            QVERIFY(table->isRowEnabled(row));
        }
        QCOMPARE(dialog->endpoints().size(), 2);
    }

    // M4: the RR variant has its own connection count; the Streams field starts from the
    // test panel's stream count.
    void requestResponseHasItsOwnConnections()
    {
        nb::gui::MainWindow w;
        auto *panelStreams = w.findChild<QSpinBox *>(QStringLiteral("streamsSpin"));
        QVERIFY(panelStreams);
        panelStreams->setValue(4);
        std::unique_ptr<ComparisonDialog> dialog(w.createComparisonDialog());
        QCOMPARE(dialog->streamsText(), QStringLiteral("4"));
        QCOMPARE(dialog->rrConnections(), 1);

        dialog->setAdapters(fakeAdapters());
        dialog->setEndpoints(fakeEndpoints());
        dialog->setKinds(true, true);
        QVERIFY2(dialog->validationError().isEmpty(), qPrintable(dialog->validationError()));
        QList<nb::Configuration> configs = dialog->configurations();
        QCOMPARE(configs.size(), 4);
        QStringList variants;
        for (const nb::Configuration &c : configs)
            variants << c.variantName();
        QCOMPARE(variants, (QStringList{QStringLiteral("P=4"), QStringLiteral("TCP_RR"), QStringLiteral("P=4"),
                                        QStringLiteral("TCP_RR")}));
        QCOMPARE(configs[0].params.streams, 4);
        QVERIFY(configs[1].params.isRequestResponse());
        QCOMPARE(configs[1].params.connections(), 1);

        dialog->setStreamsText(QStringLiteral("1, 16"));
        dialog->setRrConnections(4);
        configs = dialog->configurations();
        QCOMPARE(configs.size(), 6);
        QCOMPARE(configs[2].variantName(), QStringLiteral("TCP_RR (4 conn.)"));
        QCOMPARE(configs[2].params.connections(), 4);
        QCOMPARE(configs[1].params.streams, 16);

        // The preview says what each configuration runs.
        auto *preview = dialog->findChild<QTableWidget *>(QStringLiteral("previewTable"));
        QVERIFY(preview);
        QCOMPARE(preview->rowCount(), 6);
        QCOMPARE(preview->item(2, 0)->text(), QStringLiteral("E1000"));
        QCOMPARE(preview->item(2, 1)->text(), QStringLiteral("TCP_RR (4 conn.)"));
        QVERIFY2(preview->item(2, 2)->text().contains(QStringLiteral("4 connection")),
                 qPrintable(preview->item(2, 2)->text()));
        QVERIFY(preview->item(1, 2)->text().contains(QStringLiteral("16 stream")));

        dialog->setKinds(false, true); // RR only: the Streams list no longer matters
        dialog->setStreamsText(QStringLiteral("x"));
        QVERIFY2(dialog->validationError().isEmpty(), qPrintable(dialog->validationError()));
        QCOMPARE(dialog->configurations().size(), 2);
    }

    // Issue 17: UDP variants, a stream per rate and UDP_RR, beside TCP ones; the preview
    // says what they run; a bad rate is a one-line error; a UDP test panel offers its rate.
    void udpVariants()
    {
        ComparisonDialog dialog;
        nb::TestParams base;
        base.host = QStringLiteral("127.0.0.1");
        dialog.setBaseParams(base);
        dialog.setAdapters(fakeAdapters());
        dialog.setEndpoints(fakeEndpoints());
        dialog.setKinds(true, false);
        dialog.setUdpKinds(true, QStringLiteral("100M, 500M"), true);
        QVERIFY2(dialog.validationError().isEmpty(), qPrintable(dialog.validationError()));
        const QList<nb::Configuration> configs = dialog.configurations();
        QStringList variants;
        for (const nb::Configuration &c : configs)
            variants << c.variantName();
        QCOMPARE(variants, (QStringList{QStringLiteral("P=1"), QStringLiteral("UDP 100M"), QStringLiteral("UDP 500M"),
                                        QStringLiteral("UDP_RR"), QStringLiteral("P=1"), QStringLiteral("UDP 100M"),
                                        QStringLiteral("UDP 500M"), QStringLiteral("UDP_RR")}));
        QVERIFY(!configs[0].params.udp);
        QVERIFY(configs[2].params.udp);
        QCOMPARE(configs[2].params.bandwidth, std::uint64_t(500000000));
        QCOMPARE(configs[2].params.kind, nb::TestKind::Stream);
        QVERIFY(configs[2].params.udpDatagramSizeUnset());
        QVERIFY(configs[3].params.udp);
        QCOMPARE(configs[3].params.kind, nb::TestKind::Rr);
        for (const nb::Configuration &c : configs)
            QVERIFY2(c.params.validate().isEmpty(), qPrintable(c.label + QStringLiteral(": ") + c.params.validate()));
        auto *preview = dialog.findChild<QTableWidget *>(QStringLiteral("previewTable"));
        QVERIFY(preview);
        QVERIFY2(preview->item(1, 2)->text().startsWith(QStringLiteral("UDP 100M bit/s per stream")),
                 qPrintable(preview->item(1, 2)->text()));

        dialog.setUdpKinds(true, QStringLiteral("100M, fast"), false);
        QVERIFY2(dialog.validationError().contains(QStringLiteral("\"fast\"")), qPrintable(dialog.validationError()));
        QVERIFY(!dialog.validationError().contains(QLatin1Char('\n')));
        dialog.setUdpKinds(true, QStringLiteral("0"), false);
        QVERIFY2(dialog.validationError().isEmpty(), qPrintable(dialog.validationError()));
        QCOMPARE(dialog.configurations()[1].variantName(), QStringLiteral("UDP unlimited"));

        // The test panel runs UDP at 20 Mbit/s with 1200-byte datagrams: offered as it is.
        ComparisonDialog fromPanel;
        nb::TestParams udp = base;
        udp.udp = true;
        udp.bandwidth = 20000000;
        udp.blockSize = 1200;
        fromPanel.setBaseParams(udp);
        fromPanel.setAdapters(fakeAdapters());
        fromPanel.setEndpoints(fakeEndpoints());
        fromPanel.setKinds(false, false);
        QVERIFY2(fromPanel.validationError().isEmpty(), qPrintable(fromPanel.validationError()));
        QCOMPARE(fromPanel.configurations().first().variantName(), QStringLiteral("UDP 20M 1200B"));
        QCOMPARE(fromPanel.configurations().first().params.blockSize, 1200u);
    }

    // Review M7: after a latency-under-load test (5 phases x 5 s, both ways) the dialog offers
    // throughput at the default 10 s, upload, with a Direction box to change it, and describes
    // the latency-under-load variant as its phases, not as "upload, 25 s".
    void inheritsWhatItShows()
    {
        ComparisonDialog dialog;
        nb::TestParams lul;
        lul.host = QStringLiteral("127.0.0.1");
        lul.kind = nb::TestKind::LoadedLatency;
        lul.streams = 4;
        lul.phaseSeconds = 5;
        lul.direction = nb::Direction::Bidirectional;
        lul.duration = 25;
        dialog.setBaseParams(lul);
        dialog.setAdapters(fakeAdapters());
        dialog.setEndpoints(fakeEndpoints());
        QList<nb::Configuration> configs = dialog.configurations();
        QVERIFY2(dialog.validationError().isEmpty(), qPrintable(dialog.validationError()));
        QCOMPARE(configs.size(), 4); // P=4 and latency under load, per adapter
        QCOMPARE(configs[0].params.kind, nb::TestKind::Stream);
        QCOMPARE(configs[0].params.direction, nb::Direction::Upload);
        QCOMPARE(configs[0].params.duration, 10.0);
        QVERIFY(configs[1].params.isLoadedLatency());
        QCOMPARE(configs[1].params.phaseSeconds, 5.0);
        auto *preview = dialog.findChild<QTableWidget *>(QStringLiteral("previewTable"));
        QVERIFY(preview);
        QCOMPARE(preview->item(1, 2)->text(), QStringLiteral("5 phases x 5 s = 25 s, both directions, 4 streams"));
        QCOMPARE(preview->item(0, 2)->text(), QStringLiteral("upload, 4 streams, 10 s"));

        auto *direction = dialog.findChild<QComboBox *>(QStringLiteral("comparisonDirectionCombo"));
        QVERIFY(direction);
        direction->setCurrentIndex(direction->findData(int(nb::Direction::Download)));
        configs = dialog.configurations();
        QCOMPARE(configs[0].params.direction, nb::Direction::Download);
        QVERIFY(configs[1].params.isLoadedLatency()); // its phases decide its directions
        QVERIFY2(preview->item(0, 2)->text().startsWith(QStringLiteral("download")),
                 qPrintable(preview->item(0, 2)->text()));
        // "Other settings" lists what cannot be changed here; the direction can.
        auto *other = dialog.findChild<QLabel *>(QStringLiteral("baseParamsLabel"));
        QVERIFY(other && !other->text().contains(QStringLiteral("bidirectional")));
        if (const QString dir = qEnvironmentVariable("NICBENCH_SCREENSHOTS"); !dir.isEmpty()) {
            for (const QSize size : {QSize(1260, 680), QSize(1004, 720)}) {
                dialog.resize(size);
                dialog.show();
                QTest::qWait(100);
                dialog.grab().save(
                    QStringLiteral("%1/newcomparison-lul-%2x%3.png").arg(dir).arg(size.width()).arg(size.height()));
            }
        }
    }

    // Minor 23 / B2: short default labels, typed labels, and the adapter as the baseline.
    void labelsAndBaselineAdapter()
    {
        ComparisonDialog dialog;
        dialog.setAdapters(fakeAdapters());
        QList<nb::MatrixEndpoint> eps = fakeEndpoints();
        eps.append(
            nb::MatrixEndpoint{QStringLiteral("198.18.3.1"), QStringLiteral("198.18.3.2"), std::nullopt, QString()});
        dialog.setEndpoints(eps);
        EndpointTable *table = dialog.endpointTable();
        QCOMPARE(table->label(0), QStringLiteral("E1000"));
        QCOMPARE(table->label(1), QStringLiteral("VMXNET3"));
        QCOMPARE(table->label(2), QStringLiteral("veth-nb0"));
        QVERIFY(table->item(0, EndpointTable::LabelColumn)->flags() & Qt::ItemIsEditable);

        dialog.setStreamsText(QStringLiteral("4"));
        dialog.setKinds(true, true);
        QList<nb::Configuration> configs = dialog.configurations();
        QCOMPARE(configs.size(), 6);
        QCOMPARE(configs[0].adapter, QStringLiteral("E1000"));
        QCOMPARE(configs[0].variant, QStringLiteral("P=4"));
        QCOMPARE(configs[0].label, QStringLiteral("E1000, P=4"));
        QCOMPARE(configs[3].adapter, QStringLiteral("VMXNET3"));
        QCOMPARE(configs[3].variant, QStringLiteral("TCP_RR"));

        // The baseline is an adapter; comparison() points at its first configuration and
        // every variant is compared with that adapter's configuration of the same variant.
        QCOMPARE(dialog.baselineChoices(),
                 (QStringList{QStringLiteral("E1000"), QStringLiteral("VMXNET3"), QStringLiteral("veth-nb0")}));
        QVERIFY(dialog.setBaselineAdapter(QStringLiteral("VMXNET3")));
        nb::Comparison c = dialog.comparison();
        QCOMPARE(c.baselineIndex, 2);
        QCOMPARE(c.baselineFor(0), 2); // E1000 P=4 against VMXNET3 P=4
        QCOMPARE(c.baselineFor(1), 3); // E1000 TCP_RR against VMXNET3 TCP_RR
        QCOMPARE(c.baselineFor(5), 3);

        // A typed label names the adapter everywhere and keeps the baseline choice.
        dialog.setEndpointLabel(1, QStringLiteral("VMXNET3 new"));
        QCOMPARE(dialog.configurations()[2].adapter, QStringLiteral("VMXNET3 new"));
        QCOMPARE(dialog.baselineAdapter(), QStringLiteral("VMXNET3 new"));
        QCOMPARE(dialog.comparison().baselineIndex, 2);
        dialog.setEndpointLabel(0, QStringLiteral("VMXNET3 new"));
        QVERIFY2(dialog.validationError().contains(QStringLiteral("rename")), qPrintable(dialog.validationError()));
        dialog.setEndpointLabel(0, QString()); // back to the default
        QCOMPARE(table->label(0), QStringLiteral("E1000"));
        QVERIFY2(dialog.validationError().isEmpty(), qPrintable(dialog.validationError()));

        // Renaming an adapter in the preview renames its endpoint row, so every variant follows.
        auto *preview = dialog.findChild<QTableWidget *>(QStringLiteral("previewTable"));
        QVERIFY(preview);
        preview->item(1, 0)->setText(QStringLiteral("old NIC")); // E1000's TCP_RR row
        QTRY_COMPARE_WITH_TIMEOUT(table->label(0), QStringLiteral("old NIC"), 2000);
        QCOMPARE(dialog.configurations()[0].adapter, QStringLiteral("old NIC"));
        QCOMPARE(preview->item(0, 0)->text(), QStringLiteral("old NIC"));
        dialog.setEndpointLabel(0, QString());

        // Unticking the baseline adapter moves the baseline to one still ticked.
        dialog.setEndpointEnabled(1, false);
        QVERIFY(!dialog.baselineChoices().contains(QStringLiteral("VMXNET3 new")));
        c = dialog.comparison();
        QCOMPARE(c.configurations[c.baselineIndex].adapter, dialog.baselineAdapter());
    }

    // "Ask Server for Its Adapters" against a real server on loopback: the rows it adds
    // carry the local adapter's short name, not "loopback lo -> lo".
    void askServerGivesShortLabels()
    {
        nb::ServerOptions options;
        options.port = 0;
        options.bindAddress = QStringLiteral("127.0.0.1");
        options.family = nb::AddressFamily::IPv4;
        nb::Server server(options);
        QString error;
        QVERIFY2(server.listen(&error), qPrintable(error));
        std::thread serving([&server] { server.serve(); });
        const auto stopServer = qScopeGuard([&] {
            server.stop();
            serving.join();
        });

        ComparisonDialog dialog;
        dialog.setAdapters(nb::platform::listAdapters());
        dialog.setEndpoints({nb::MatrixEndpoint{QString(), QStringLiteral("127.0.0.1"), std::nullopt, QString()}});
        dialog.setPort(server.port());
        QSignalSpy answered(&dialog, &ComparisonDialog::serverAnswered);
        dialog.askServer();
        QVERIFY(dialog.isAskingServer());
        QTRY_COMPARE_WITH_TIMEOUT(answered.size(), 1, 10000);
        QVERIFY2(answered.first().at(0).toBool(), qPrintable(answered.first().at(1).toString()));
        QVERIFY(!dialog.isAskingServer());
        QVERIFY2(!dialog.suggestions().isEmpty(), qPrintable(dialog.serverStatus()));
        EndpointTable *table = dialog.endpointTable();
        QVERIFY(table->rowCount() >= 2);
        for (int row = 1; row < table->rowCount(); ++row) {
            const QString label = table->label(row);
            QVERIFY2(!label.contains(QStringLiteral("->")), qPrintable(label));
            QVERIFY2(label.size() <= 20, qPrintable(label));
            QVERIFY(!table->isRowEnabled(row)); // offered, not ticked
        }
        QCOMPARE(cellWidgets(table).combos, 2 * table->rowCount());
    }

    // Minor 5 and 1280x720: long From texts are elided with the whole text in the tooltip,
    // and the dialog with its buttons fits the screen.
    void fitsAt1280x720WithElidedCombos()
    {
        ComparisonDialog dialog;
        QList<nb::AdapterInfo> adapters = fakeAdapters();
        adapters[1].name = QStringLiteral("an-adapter-name-long-enough-to-be-cut");
        dialog.setAdapters(adapters);
        dialog.setEndpoints(fakeEndpoints());
        QVERIFY(dialog.minimumSizeHint().width() <= 1280 - 40);
        QVERIFY(dialog.minimumSizeHint().height() <= 720 - 60);
        dialog.resize(1280 - 40, 720 - 60);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QCOMPARE(dialog.size(), QSize(1280 - 40, 720 - 60));

        auto *combo = static_cast<nb::ui::ElidingComboBox *>(dialog.endpointTable()->bindCombo(1));
        QVERIFY(combo->currentText().contains(QStringLiteral("to-be-cut")));
        QVERIFY2(combo->displayedText().endsWith(QChar(0x2026)), qPrintable(combo->displayedText()));
        QCOMPARE(combo->toolTip(), combo->currentText());

        // NICBENCH_KEEP_SHOTS=DIR keeps a picture of the dialog with E1000/VMXNET3 rows.
        if (const QString keep = qEnvironmentVariable("NICBENCH_KEEP_SHOTS"); !keep.isEmpty()) {
            dialog.setStreamsText(QStringLiteral("1, 4"));
            dialog.setKinds(true, true);
            dialog.grab().save(keep + QStringLiteral("/comparisondialog-1240x660.png"));
        }

        auto *buttons = dialog.findChild<QDialogButtonBox *>();
        QPushButton *run = buttons->button(QDialogButtonBox::Ok);
        QVERIFY(run->isVisible());
        const QRect inDialog(run->mapTo(&dialog, QPoint(0, 0)), run->size());
        QVERIFY(dialog.rect().contains(inDialog));
    }
};

QTEST_MAIN(TestComparisonDialog)
#include "tst_gui_comparisondialog.moc"
