// SPDX-License-Identifier: GPL-3.0-or-later
// ComparisonDialog's widgets: the adapters (endpoint table and its buttons), the variants,
// the run settings and the preview, and the dialog's size. The behaviour is in
// comparisondialog.cpp.
#include "compareview/comparisondialog.h"

#include "compareview/endpointtable.h"
#include "compareview/equivalencespin.h"
#include "window/appsettings.h"

#include <common/elidingcombobox.h>
#include <model/parameters.h>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMetaObject>
#include <QPushButton>
#include <QScreen>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace nb::gui {

void ComparisonDialog::fitToScreen()
{
    // 1100 x 640 when there is room; on a 1280x720 screen the whole dialog (title bar
    // and buttons included) stays on screen.
    QSize size(1100, 640);
    if (const QScreen *s = parentWidget() ? parentWidget()->screen() : screen()) {
        const QRect available = s->availableGeometry();
        size = size.boundedTo(available.size() - QSize(40, 60));
    }
    resize(size.expandedTo(minimumSizeHint()));
}

QWidget *ComparisonDialog::buildEndpoints()
{
    auto *box = new QGroupBox(tr("Adapters: where the traffic comes from and where it goes"));
    m_endpoints = new EndpointTable;
    m_endpoints->setAgentHosts(AppSettings::agentHosts());
    connect(m_endpoints, &EndpointTable::endpointsChanged, this, &ComparisonDialog::refresh);

    auto *add = new QPushButton(tr("&Add"));
    add->setObjectName(QStringLiteral("addEndpointButton"));
    connect(add, &QPushButton::clicked, this, [this] {
        m_endpoints->addEndpoint(nb::MatrixEndpoint{QString(), m_base.host, std::nullopt, QString()}, true);
    });
    auto *remove = new QPushButton(tr("&Remove"));
    remove->setObjectName(QStringLiteral("removeEndpointButton"));
    connect(remove, &QPushButton::clicked, this, [this] { removeEndpointRow(m_endpoints->currentRow()); });
    m_askButton = new QPushButton(tr("Ask &Server for Its Adapters"));
    m_askButton->setObjectName(QStringLiteral("askServerButton"));
    m_askButton->setToolTip(
        tr("A NicBench server lists its adapters; pairs on the same subnet are added as endpoints"));
    connect(m_askButton, &QPushButton::clicked, this, &ComparisonDialog::askServer);
    m_serverLabel = new QLabel;
    m_serverLabel->setObjectName(QStringLiteral("serverInfoLabel"));
    m_serverLabel->setWordWrap(true);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    buttons->addWidget(m_askButton);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_endpoints, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_serverLabel);
    return box;
}

QWidget *ComparisonDialog::buildVariants()
{
    auto *box = new QGroupBox(tr("Variants"));
    m_throughput = new QCheckBox(tr("&Throughput, streams:"));
    m_throughput->setObjectName(QStringLiteral("throughputCheck"));
    m_throughput->setChecked(true);
    m_streams = new QLineEdit(QStringLiteral("1"));
    m_streams->setObjectName(QStringLiteral("streamsEdit"));
    m_streams->setPlaceholderText(tr("1, 4, 16"));
    m_streams->setToolTip(tr("Parallel streams of the throughput variants, separated by commas: one variant each"));
    connect(m_streams, &QLineEdit::textChanged, this, &ComparisonDialog::refresh);
    connect(m_throughput, &QCheckBox::toggled, m_streams, &QWidget::setEnabled);
    connect(m_throughput, &QCheckBox::toggled, this, &ComparisonDialog::refresh);

    m_rr = new QCheckBox(tr("Re&quest/response, connections:"));
    m_rr->setObjectName(QStringLiteral("rrCheck"));
    m_rrConnections = new QSpinBox;
    m_rrConnections->setObjectName(QStringLiteral("rrConnectionsSpin"));
    {
        const nb::param::Parameter &c = nb::param::parameter(nb::param::Id::Connections);
        m_rrConnections->setRange(std::max(1, int(c.min)), int(c.max));
        m_rrConnections->setToolTip(
            tr("Connections of the request/response variant (netperf's TCP_RR uses 1); not the streams above"));
    }
    m_rrConnections->setValue(1);
    m_rrConnections->setEnabled(false);
    connect(m_rr, &QCheckBox::toggled, m_rrConnections, &QWidget::setEnabled);
    connect(m_rr, &QCheckBox::toggled, this, &ComparisonDialog::refresh);
    connect(m_rrConnections, &QSpinBox::valueChanged, this, &ComparisonDialog::refresh);

    m_loaded = new QCheckBox(tr("&Latency under load"));
    m_loaded->setObjectName(QStringLiteral("loadedLatencyCheck"));
    m_loaded->setToolTip(tr("A request/response probe while download, upload and bidirectional load run "
                            "(the test panel's phases); each phase lasts the duration below, with the first "
                            "stream count above each way"));
    connect(m_loaded, &QCheckBox::toggled, this, &ComparisonDialog::refresh);

    m_udp = new QCheckBox(tr("U&DP, rates:"));
    m_udp->setObjectName(QStringLiteral("udpCheck"));
    m_udp->setToolTip(tr("UDP streams (iperf3 -u) at each rate per stream: goodput, loss and jitter"));
    m_udpRates = new QLineEdit(QStringLiteral("100M"));
    m_udpRates->setObjectName(QStringLiteral("udpRatesEdit"));
    m_udpRates->setPlaceholderText(tr("100M, 1G; 0: unlimited"));
    m_udpRates->setToolTip(tr("Bit/s per stream of the UDP variants (K/M/G = 1000s, 0: unlimited), separated by "
                              "commas: one variant each"));
    m_udpRates->setEnabled(false);
    connect(m_udp, &QCheckBox::toggled, m_udpRates, &QWidget::setEnabled);
    connect(m_udp, &QCheckBox::toggled, this, &ComparisonDialog::refresh);
    connect(m_udpRates, &QLineEdit::textChanged, this, &ComparisonDialog::refresh);
    m_udpRr = new QCheckBox(tr("UDP request/response (UDP_&RR)"));
    m_udpRr->setObjectName(QStringLiteral("udpRrCheck"));
    m_udpRr->setToolTip(tr("Requests and responses over UDP on one socket (netperf's UDP_RR): transactions/s, "
                           "latency and requests lost"));
    connect(m_udpRr, &QCheckBox::toggled, this, &ComparisonDialog::refresh);

    m_baseLabel = new QLabel;
    m_baseLabel->setObjectName(QStringLiteral("baseParamsLabel"));
    m_baseLabel->setWordWrap(true);
    m_baseLabel->setToolTip(tr("From the test panel; change them there"));
    m_duration = new QDoubleSpinBox;
    m_duration->setObjectName(QStringLiteral("comparisonDurationSpin"));
    m_duration->setDecimals(1);
    {
        // The comparison's runs are timed, so the least is the smallest step shown, not 0.
        const nb::param::Parameter &d = nb::param::parameter(nb::param::Id::Duration);
        m_duration->setRange(std::max(d.min, std::pow(10.0, -m_duration->decimals())), d.max);
        m_duration->setToolTip(nb::param::toolTip(d));
    }
    m_duration->setSuffix(tr(" s"));
    connect(m_duration, &QDoubleSpinBox::valueChanged, this, &ComparisonDialog::refresh);
    m_direction = new QComboBox;
    m_direction->setObjectName(QStringLiteral("comparisonDirectionCombo"));
    for (nb::Direction d : {nb::Direction::Upload, nb::Direction::Download, nb::Direction::Bidirectional}) {
        QString name = nb::directionName(d);
        name[0] = name[0].toUpper();
        m_direction->addItem(name, int(d));
    }
    m_direction->setToolTip(tr("Which way throughput and UDP variants send. Request/response runs both ways by "
                               "nature; latency under load runs its phases."));
    connect(m_direction, &QComboBox::currentIndexChanged, this, &ComparisonDialog::refresh);
    m_port = new QSpinBox;
    m_port->setRange(1, 65535);
    connect(m_port, &QSpinBox::valueChanged, this, &ComparisonDialog::refresh);

    auto *form = new QFormLayout(box);
    form->addRow(m_throughput, m_streams);
    form->addRow(m_rr, m_rrConnections);
    form->addRow(m_loaded);
    form->addRow(m_udp, m_udpRates);
    form->addRow(m_udpRr);
    form->addRow(tr("D&irection:"), m_direction);
    form->addRow(tr("D&uration:"), m_duration);
    form->addRow(tr("&Port:"), m_port);
    form->addRow(tr("Other settings:"), m_baseLabel);
    return box;
}

QWidget *ComparisonDialog::buildRunSettings()
{
    auto *box = new QGroupBox(tr("Runs"));
    m_repeats = new QSpinBox;
    m_repeats->setObjectName(QStringLiteral("repeatsSpin"));
    m_repeats->setRange(1, 1000);
    m_repeats->setValue(3);
    m_repeats->setToolTip(tr("Runs per configuration; 2 or more give confidence intervals and verdicts"));
    connect(m_repeats, &QSpinBox::valueChanged, this, &ComparisonDialog::refresh);
    m_order = nb::ui::ElidingComboBox::newCompact();
    m_order->setObjectName(QStringLiteral("orderCombo"));
    m_order->addItem(tr("Interleaved (A B C A B C)"), int(nb::OrderPolicy::Interleaved));
    m_order->addItem(tr("Shuffled rounds"), int(nb::OrderPolicy::Shuffled));
    m_order->setWhatsThis(tr("Interleaving keeps slow drift on the machine from favouring one configuration"));
    connect(m_order, &QComboBox::currentIndexChanged, this, &ComparisonDialog::refresh);
    m_pause = new QDoubleSpinBox;
    m_pause->setRange(0, 3600);
    m_pause->setDecimals(1);
    m_pause->setValue(1.0);
    m_pause->setSuffix(tr(" s"));
    m_pause->setToolTip(tr("Idle time between runs, so one run's tail does not load the next"));
    connect(m_pause, &QDoubleSpinBox::valueChanged, this, &ComparisonDialog::refresh);
    m_equivalence = newEquivalenceSpinBox();
    m_title = new QLineEdit;
    m_title->setObjectName(QStringLiteral("comparisonTitleEdit"));
    m_title->setPlaceholderText(tr("E1000 vs VMXNET3"));
    auto *form = new QFormLayout(box);
    form->addRow(tr("T&itle:"), m_title);
    form->addRow(tr("R&epeats:"), m_repeats);
    form->addRow(tr("&Order:"), m_order);
    form->addRow(tr("Pause &between runs:"), m_pause);
    form->addRow(tr("E&quivalent within:"), m_equivalence);
    return box;
}

QWidget *ComparisonDialog::buildPreview()
{
    auto *box = new QGroupBox(tr("Configurations: adapters x variants"));
    m_preview = new QTableWidget(0, PreviewColumns);
    m_preview->setObjectName(QStringLiteral("previewTable"));
    m_preview->setHorizontalHeaderLabels({tr("Adapter"), tr("Variant"), tr("Test"), tr("Target")});
    m_preview->horizontalHeaderItem(PreviewAdapter)->setToolTip(tr("Double-click to rename the adapter"));
    m_preview->verticalHeader()->hide();
    m_preview->setWordWrap(false);
    m_preview->setTextElideMode(Qt::ElideRight);
    m_preview->horizontalHeader()->setSectionResizeMode(PreviewAdapter, QHeaderView::ResizeToContents);
    m_preview->horizontalHeader()->setSectionResizeMode(PreviewVariant, QHeaderView::ResizeToContents);
    m_preview->horizontalHeader()->setSectionResizeMode(PreviewTest, QHeaderView::Stretch);
    m_preview->horizontalHeader()->setSectionResizeMode(PreviewTarget, QHeaderView::ResizeToContents);
    connect(m_preview, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (m_refreshing)
            return;
        // Queued: the rename refills the preview, which deletes the item being edited.
        QMetaObject::invokeMethod(
            this,
            [this, row = item->row(), column = item->column(), text = item->text()] {
                onPreviewEdited(row, column, text);
            },
            Qt::QueuedConnection);
    });
    m_baseline = nb::ui::ElidingComboBox::newCompact();
    m_baseline->setObjectName(QStringLiteral("dialogBaselineCombo"));
    m_baseline->setWhatsThis(tr("The adapter the others are compared with, variant by variant"));
    connect(m_baseline, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_refreshing)
            refresh();
    });
    auto *form = new QFormLayout;
    form->addRow(tr("Base&line adapter:"), m_baseline);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_preview, 1);
    layout->addLayout(form);
    return box;
}

} // namespace nb::gui
