// SPDX-License-Identifier: GPL-3.0-or-later
// TestPanel, part one: the form (its fields, the advanced section, the Run and Stop buttons)
// and the fields each test type uses. Parameters in and out of the form are in
// testpanelparams.cpp, the Target box in testpaneltarget.cpp.
#include "testview/testpanel.h"

#include "testview/formfields.h"
#include "testview/loadedlatencyfields.h"
#include "testview/testflags.h"
#include "testview/udpfields.h"
#include "window/appsettings.h"

#include <common/elidingcombobox.h>
#include <core/units.h>
#include <model/parameters.h>

#include <QAbstractItemView>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace nb::gui {

namespace {

const auto kAdvancedKey = QStringLiteral("test/advancedVisible");

} // namespace

TestPanel::TestPanel(QWidget *parent)
    : QWidget(parent)
    , m_presets(builtinPresets())
    , m_settings(new QWidget(this))
    , m_target(new QComboBox(m_settings))
    , m_preset(new nb::ui::ElidingComboBox(m_settings))
    , m_type(new nb::ui::ElidingComboBox(m_settings))
    , m_agent(new QComboBox(m_settings))
    , m_bind(new QComboBox(m_settings))
    , m_direction(new nb::ui::ElidingComboBox(m_settings))
    , m_streams(new QSpinBox(m_settings))
    , m_loaded(new LoadedLatencyFields(m_settings))
    , m_udp(new UdpFields(m_settings))
    , m_duration(new QDoubleSpinBox(m_settings))
    , m_advancedToggle(new QToolButton(m_settings))
    , m_runButton(new QToolButton(this))
    , m_stopButton(new QToolButton(this))
{
    setUpTargetFields();
    setUpTestChoices();
    setUpAmountFields();
    m_advanced = buildAdvanced();
    layOutPanel();
    connectFields();
    selectPreset(0);
    selectLoopback();
    updateTypeFields();
    setAdvancedVisible(QSettings().value(kAdvancedKey, false).toBool());
}

// Where the test goes: the target, the computer it runs on and the adapter it leaves from.
void TestPanel::setUpTargetFields()
{
    m_target->setObjectName(QStringLiteral("targetCombo"));
    m_target->setEditable(true);
    m_target->setInsertPolicy(QComboBox::NoInsert);
    m_target->lineEdit()->setPlaceholderText(tr("host name or address[:port]"));
    m_target->setToolTip(tr("The computer running a server: nicbench-cli -s, iperf3 -s, or this window's "
                            "built-in server on loopback."));
    m_target->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_target->setMinimumContentsLength(16);
    loadRecentTargets();

    m_agent->setObjectName(QStringLiteral("fromAgentCombo"));
    m_agent->setEditable(true);
    m_agent->setInsertPolicy(QComboBox::NoInsert);
    m_agent->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_agent->setMinimumContentsLength(16);
    m_agent->lineEdit()->setPlaceholderText(tr("agent host name or address[:port]"));
    m_agent->setToolTip(tr("The computer that runs the test: this one, or an agent (nicbench-cli -s --agent-key "
                           "FILE) that tests toward the target for this window. Agents are listed in Tools > "
                           "Hosts, where the key file is chosen."));
    setAgentHosts(AppSettings::agentHosts());

    m_bind->setObjectName(QStringLiteral("bindCombo"));
    m_bind->setEditable(true);
    m_bind->setInsertPolicy(QComboBox::NoInsert);
    m_bind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_bind->setMinimumContentsLength(16);
    m_bind->setToolTip(tr("The adapter the test leaves from: its address is bound (-B). Automatic lets the "
                          "routing table choose. From an agent, type one of the agent's addresses."));
    m_bind->addItem(tr("Automatic"), QString());
}

// What kind of test: the preset, the type and the direction.
void TestPanel::setUpTestChoices()
{
    m_preset->setObjectName(QStringLiteral("presetCombo"));
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(16);
    for (const TestPreset &p : std::as_const(m_presets)) {
        m_preset->addItem(p.name);
        m_preset->setItemData(m_preset->count() - 1, QStringLiteral("%1\n%2").arg(p.flags, p.why), Qt::ToolTipRole);
    }
    m_preset->addItem(tr("Custom settings"));
    m_preset->view()->setMinimumWidth(m_preset->view()->sizeHintForColumn(0) + 24);

    m_type->setObjectName(QStringLiteral("testTypeCombo"));
    m_type->addItem(tr("Throughput"), int(TestType::Throughput));
    m_type->setItemData(0, tr("Bulk TCP transfer: bits per second, retransmits (iperf, netperf TCP_STREAM)."),
                        Qt::ToolTipRole);
    m_type->addItem(tr("Request/response"), int(TestType::RequestResponse));
    m_type->setItemData(1, tr("Small transactions: transactions per second and latency (netperf TCP_RR)."),
                        Qt::ToolTipRole);
    m_type->addItem(tr("Both (throughput, then request/response)"), int(TestType::Both));
    m_type->setItemData(2, tr("Runs the throughput test, then a request/response test of the same duration."),
                        Qt::ToolTipRole);
    m_type->addItem(tr("Latency under load"), int(TestType::LoadedLatency));
    m_type->setItemData(3, tr("A request/response probe while download, upload and both-way load run in turn."),
                        Qt::ToolTipRole);
    m_type->addItem(tr("UDP"), int(TestType::Udp));
    m_type->setItemData(4, tr("Datagrams at a set rate: received rate, loss and jitter (iperf3 -u)."), Qt::ToolTipRole);
    m_type->addItem(tr("UDP request/response"), int(TestType::UdpRequestResponse));
    m_type->setItemData(5,
                        tr("One datagram each way per transaction: transactions/s, latency, lost requests "
                           "(netperf UDP_RR)."),
                        Qt::ToolTipRole);
    m_type->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_type->setMinimumContentsLength(16);

    m_direction->setObjectName(QStringLiteral("directionCombo"));
    m_direction->addItem(tr("Upload"), int(nb::Direction::Upload));
    m_direction->setItemData(0, tr("This computer sends to the target."), Qt::ToolTipRole);
    m_direction->addItem(tr("Download (-R)"), int(nb::Direction::Download));
    m_direction->setItemData(1, tr("The target sends to this computer."), Qt::ToolTipRole);
    m_direction->addItem(tr("Both ways (--bidir)"), int(nb::Direction::Bidirectional));
    m_direction->setItemData(2, tr("Both send at the same time."), Qt::ToolTipRole);
    m_direction->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_direction->setMinimumContentsLength(16);
}

// How much: streams, duration, and the toggle for the advanced settings.
void TestPanel::setUpAmountFields()
{
    m_streams->setObjectName(QStringLiteral("streamsSpin"));
    rangeFromTable(m_streams, nb::param::Id::Streams);

    m_duration->setObjectName(QStringLiteral("durationSpin"));
    rangeFromTable(m_duration, nb::param::Id::Duration);
    m_duration->setDecimals(1);
    m_duration->setSuffix(tr(" s"));
    // 0 runs until the byte count (-n) is sent; with both, the first limit ends the test.
    m_duration->setSpecialValueText(tr("no limit"));

    m_advancedToggle->setObjectName(QStringLiteral("advancedToggle"));
    m_advancedToggle->setText(tr("Advanced settings"));
    m_advancedToggle->setCheckable(true);
    m_advancedToggle->setAutoRaise(true);
    m_advancedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_advancedToggle->setArrowType(Qt::RightArrow);
}

void TestPanel::layOutPanel()
{
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("T&arget:"), m_target);
    form->addRow(tr("F&rom:"), m_agent);
    form->addRow(tr("&Bind to:"), m_bind);
    form->addRow(tr("&Preset:"), m_preset);
    form->addRow(tr("T&ype:"), m_type);
    form->addRow(tr("&Direction:"), m_direction);
    form->addRow(tr("&Streams:"), m_streams);
    form->addRow(tr("D&uration:"), m_duration);
    form->addRow(m_loaded);
    m_udp->addRows(form);

    auto *settingsLayout = new QVBoxLayout(m_settings);
    settingsLayout->setContentsMargins(0, 0, 0, 0);
    settingsLayout->addLayout(form);
    settingsLayout->addWidget(m_advancedToggle);
    settingsLayout->addWidget(m_advanced);

    m_runButton->setObjectName(QStringLiteral("runButton"));
    m_stopButton->setObjectName(QStringLiteral("stopButton"));
    for (QToolButton *b : {m_runButton, m_stopButton}) {
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_stopButton);

    auto *layout = new QVBoxLayout(this);
    setMinimumWidth(fontMetrics().averageCharWidth() * 40);
    layout->addWidget(m_settings);
    layout->addLayout(buttons);
    layout->addStretch(1);
}

void TestPanel::connectFields()
{
    connect(m_target, &QComboBox::currentTextChanged, this, &TestPanel::onTargetChanged);
    connect(m_target->lineEdit(), &QLineEdit::returnPressed, this, &TestPanel::runRequested);
    connect(m_preset, &QComboBox::activated, this, &TestPanel::onPresetActivated);
    connect(m_advancedToggle, &QToolButton::toggled, this, &TestPanel::setAdvancedVisible);
    connect(m_direction, &QComboBox::currentIndexChanged, this, &TestPanel::markCustom);
    connect(m_type, &QComboBox::currentIndexChanged, this, [this] {
        updateTypeFields();
        markCustom();
    });
    connect(m_bind, &QComboBox::currentTextChanged, this, &TestPanel::markCustom);
    connect(m_agent->lineEdit(), &QLineEdit::returnPressed, this, &TestPanel::runRequested);
    connect(m_streams, &QSpinBox::valueChanged, this, &TestPanel::markCustom);
    connect(m_duration, &QDoubleSpinBox::valueChanged, this, &TestPanel::markCustom);
    connect(m_udp, &UdpFields::edited, this, &TestPanel::markCustom);
    connect(m_loaded, &LoadedLatencyFields::edited, this, [this] {
        m_duration->setValue(m_loaded->totalSeconds());
        markCustom();
    });

    // A combo narrower than its text cuts it off; the tooltip carries the whole text.
    for (QComboBox *c : {m_target, m_agent, m_preset, m_type, m_bind, m_direction}) {
        connect(c, &QComboBox::currentTextChanged, this, [this, c] { updateComboToolTip(c); });
        updateComboToolTip(c);
    }
}

// The advanced section: transport settings, request/response settings, then the rest, in
// the order the form shows them (and Tab walks them).
QWidget *TestPanel::buildAdvanced()
{
    auto *box = new QWidget(m_settings);
    box->setObjectName(QStringLiteral("advancedSection"));
    createTransportFields(box);
    createRequestResponseFields(box);
    createSystemFields(box);
    layOutAdvanced(box);
    connectAdvanced();
    return box;
}

void TestPanel::createTransportFields(QWidget *box)
{
    m_port = new QSpinBox(box);
    m_port->setObjectName(QStringLiteral("portSpin"));
    rangeFromTable(m_port, nb::param::Id::Port);
    m_blockSize = new QLineEdit(box);
    m_blockSize->setObjectName(QStringLiteral("blockSizeEdit"));
    m_blockSize->setToolTip(tr("Bytes per send or receive call; K and M suffixes as in iperf (128K)."));
    m_window = new QLineEdit(box);
    m_window->setObjectName(QStringLiteral("windowEdit"));
    m_window->setPlaceholderText(tr("system default"));
    m_window->setToolTip(tr("Socket send and receive buffer size (64K, 4M)."));
    m_mss = new QSpinBox(box);
    rangeFromTable(m_mss, nb::param::Id::Mss);
    m_mss->setSpecialValueText(tr("system default"));
    m_noDelay = new QCheckBox(tr("No delay (-N, disable Nagle)"), box);
    m_congestion = new QLineEdit(box);
    m_congestion->setPlaceholderText(tr("system default"));
    m_congestion->setToolTip(tr("TCP congestion control algorithm, e.g. cubic or bbr (Linux)."));
    m_bytes = new QLineEdit(box);
    m_bytes->setObjectName(QStringLiteral("bytesEdit"));
    m_bytes->setPlaceholderText(tr("use the duration"));
    m_bytes->setToolTip(tr("Send this many bytes (1G, 500M). With a duration, the first limit reached ends the "
                           "test; set the duration to \"no limit\" to run until the bytes are sent."));
    m_omit = new QDoubleSpinBox(box);
    rangeFromTable(m_omit, nb::param::Id::Omit);
    m_omit->setDecimals(1);
    m_omit->setSuffix(tr(" s"));
    m_interval = new QDoubleSpinBox(box);
    m_interval->setObjectName(QStringLiteral("intervalSpin"));
    rangeFromTable(m_interval, nb::param::Id::Interval);
    m_interval->setDecimals(1);
    m_interval->setSingleStep(m_interval->minimum()); // the shortest interval is also the step
    m_interval->setSuffix(tr(" s"));
    m_interval->setValue(DefaultIntervalSecs); // saved settings or a preset may change it
}

void TestPanel::createRequestResponseFields(QWidget *box)
{
    m_requestSize = new QLineEdit(box);
    m_requestSize->setObjectName(QStringLiteral("requestSizeEdit"));
    m_requestSize->setToolTip(tr("Bytes the client sends per transaction (netperf -r REQ,RESP)."));
    m_responseSize = new QLineEdit(box);
    m_responseSize->setObjectName(QStringLiteral("responseSizeEdit"));
    m_responseSize->setToolTip(tr("Bytes the server answers per transaction."));
    m_connections = new QSpinBox(box);
    m_connections->setObjectName(QStringLiteral("connectionsSpin"));
    rangeFromTable(m_connections, nb::param::Id::Connections);
    m_inFlight = new QSpinBox(box);
    m_inFlight->setObjectName(QStringLiteral("inFlightSpin"));
    rangeFromTable(m_inFlight, nb::param::Id::InFlight);
    m_crr = new QCheckBox(tr("New connection per transaction (TCP_CRR)"), box);
    m_crr->setObjectName(QStringLiteral("crrCheck"));
}

void TestPanel::createSystemFields(QWidget *box)
{
    m_family = new QComboBox(box);
    m_family->addItem(tr("IPv4 or IPv6"), int(nb::AddressFamily::Any));
    m_family->addItem(tr("IPv4 only (-4)"), int(nb::AddressFamily::IPv4));
    m_family->addItem(tr("IPv6 only (-6)"), int(nb::AddressFamily::IPv6));
    m_protocol = new QComboBox(box);
    m_protocol->addItem(tr("NicBench or iperf3"), int(nb::PeerProtocol::Iperf3));
    m_protocol->addItem(tr("iperf2 (iperf -s)"), int(nb::PeerProtocol::Iperf2));
    m_skipRxCopy = new QCheckBox(tr("Receive without copying (MSG_TRUNC)"), box);
    m_zeroCopy = new QCheckBox(tr("Zero-copy send (-Z, sendfile)"), box);
    m_threads = new QSpinBox(box);
    m_threads->setObjectName(QStringLiteral("threadsSpin"));
    rangeFromTable(m_threads, nb::param::Id::Threads);
    m_threads->setSpecialValueText(tr("one per core"));
    m_connectTimeout = new QSpinBox(box);
    rangeFromTable(m_connectTimeout, nb::param::Id::ConnectTimeout, 1000); // kept in milliseconds
    m_connectTimeout->setSingleStep(500);
    m_connectTimeout->setSuffix(tr(" ms"));
    m_title = new QLineEdit(box);
    m_title->setPlaceholderText(tr("optional label for the result"));
}

void TestPanel::layOutAdvanced(QWidget *box)
{
    auto *form = new QFormLayout(box);
    form->setContentsMargins(12, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Port (-p):"), m_port);
    form->addRow(tr("Buffer length (-l):"), m_blockSize);
    form->addRow(tr("Socket buffer (-w):"), m_window);
    form->addRow(tr("MSS (-M):"), m_mss);
    form->addRow(m_noDelay);
    form->addRow(tr("Congestion (-C):"), m_congestion);
    form->addRow(tr("Bytes (-n):"), m_bytes);
    form->addRow(tr("Omit (-O):"), m_omit);
    form->addRow(tr("Interval (-i):"), m_interval);
    form->addRow(tr("Addresses:"), m_family);
    form->addRow(tr("Server type:"), m_protocol);
    form->addRow(m_skipRxCopy);
    form->addRow(m_zeroCopy);
    form->addRow(tr("Data threads:"), m_threads);
    form->addRow(tr("Connect timeout:"), m_connectTimeout);
    form->addRow(tr("Title (-T):"), m_title);
    auto *rrTitle = new QLabel(tr("<b>Request/response</b>"), box);
    form->addRow(rrTitle);
    form->addRow(tr("Request size:"), m_requestSize);
    form->addRow(tr("Response size:"), m_responseSize);
    form->addRow(tr("Connections:"), m_connections);
    form->addRow(tr("In flight:"), m_inFlight);
    form->addRow(m_crr);
}

void TestPanel::connectAdvanced()
{
    for (QLineEdit *e : {m_blockSize, m_window, m_congestion, m_bytes, m_title, m_requestSize, m_responseSize})
        connect(e, &QLineEdit::textEdited, this, &TestPanel::markCustom);
    for (QSpinBox *s : {m_port, m_mss, m_threads, m_connectTimeout, m_connections, m_inFlight})
        connect(s, &QSpinBox::valueChanged, this, &TestPanel::markCustom);
    for (QDoubleSpinBox *s : {m_omit, m_interval})
        connect(s, &QDoubleSpinBox::valueChanged, this, &TestPanel::markCustom);
    for (QCheckBox *c : {m_noDelay, m_skipRxCopy, m_zeroCopy, m_crr})
        connect(c, &QCheckBox::toggled, this, &TestPanel::markCustom);
    for (QComboBox *c : {m_family, m_protocol})
        connect(c, &QComboBox::currentIndexChanged, this, &TestPanel::markCustom);
}

TestType TestPanel::testType() const
{
    return TestType(m_type->currentData().toInt());
}

void TestPanel::setTestType(TestType type)
{
    m_type->setCurrentIndex(m_type->findData(int(type)));
    updateTypeFields();
}

void TestPanel::updateTypeFields()
{
    // Direction and streams mean nothing to a request/response test.
    const bool stream = testType() != TestType::RequestResponse && testType() != TestType::UdpRequestResponse;
    // UDP: the datagram size is its own field; TCP_CRR has no UDP form.
    const bool udp = isUdpType(testType());
    m_udp->showRows(udp, !stream);
    m_blockSize->setEnabled(!udp);
    m_crr->setEnabled(!udp);
    // Latency under load: the phases set the directions and the length.
    const bool loaded = testType() == TestType::LoadedLatency;
    m_loaded->setVisible(loaded);
    m_duration->setEnabled(!loaded);
    if (loaded) {
        const QSignalBlocker block(m_duration);
        m_duration->setValue(m_loaded->totalSeconds());
    }
    m_direction->setEnabled(stream && !loaded);
    // The phases send both ways (as a latency-under-load test started from the command line
    // shows it); the greyed box said "Upload" (review minor). Leaving the type gives the
    // user's direction back.
    const int bothWays = m_direction->findData(int(nb::Direction::Bidirectional));
    if (loaded && m_directionBeforeLoaded < 0) {
        m_directionBeforeLoaded = m_direction->currentIndex();
        m_direction->setCurrentIndex(bothWays);
    } else if (!loaded && m_directionBeforeLoaded >= 0) {
        if (m_direction->currentIndex() == bothWays)
            m_direction->setCurrentIndex(m_directionBeforeLoaded);
        m_directionBeforeLoaded = -1;
    }
    m_streams->setEnabled(stream);
    // The greyed-out stream count is not what a request/response test uses: say where
    // its parallelism is set instead.
    m_streams->setToolTip(stream ? nb::param::toolTip(nb::param::parameter(nb::param::Id::Streams))
                                 : tr("Not used by request/response tests: they open the number of "
                                      "Connections set under Advanced."));
}

void TestPanel::setEditingEnabled(bool enabled)
{
    m_settings->setEnabled(enabled);
}

void TestPanel::setRunActions(QAction *run, QAction *stop)
{
    m_runButton->setDefaultAction(run);
    m_stopButton->setDefaultAction(stop);
}

void TestPanel::setAdvancedVisible(bool visible)
{
    {
        const QSignalBlocker block(m_advancedToggle);
        m_advancedToggle->setChecked(visible);
    }
    m_advancedToggle->setArrowType(visible ? Qt::DownArrow : Qt::RightArrow);
    m_advanced->setVisible(visible);
    QSettings().setValue(kAdvancedKey, visible);
}

} // namespace nb::gui
