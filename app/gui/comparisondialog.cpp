// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparisondialog.h"

#include <core/units.h>
#include <test/parameters.h>
#include <test/serverinfo.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMetaObject>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace nb::gui {

namespace {

enum EndpointColumn { UseColumn, LabelColumn, FromColumn, TargetColumn, EndpointColumns };
enum PreviewColumn { PreviewLabel, PreviewTarget, PreviewTest, PreviewColumns };
constexpr int kAutoLabelRole = Qt::UserRole + 1; // true while the label follows from/target

QString anyAddressText()
{
    return QObject::tr("any (routing table decides)");
}

QString describeTest(const nb::TestParams &p)
{
    if (p.isRequestResponse())
        return QObject::tr("%1, %2 connection(s), %3 in flight, %4 s")
            .arg(nb::testKindName(p.kind).toUpper())
            .arg(p.connections())
            .arg(p.inFlight)
            .arg(p.duration);
    return QObject::tr("throughput %1, %2 stream(s), %3 s")
        .arg(nb::directionName(p.direction))
        .arg(p.streams)
        .arg(p.duration);
}

} // namespace

ComparisonDialog::ComparisonDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("New Comparison"));
    setObjectName(QStringLiteral("comparisonDialog"));

    m_validation = new QLabel;
    m_validation->setObjectName(QStringLiteral("comparisonValidation"));
    m_validation->setWordWrap(true);
    m_validation->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("comparisonSummary"));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Run Comparison"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (m_error.isEmpty())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *top = new QHBoxLayout;
    auto *left = new QVBoxLayout;
    left->addWidget(buildEndpoints(), 1);
    auto *row = new QHBoxLayout;
    row->addWidget(buildVariants(), 1);
    row->addWidget(buildRunSettings(), 1);
    left->addLayout(row);
    top->addLayout(left, 3);
    top->addWidget(buildPreview(), 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_validation);
    layout->addWidget(m_buttons);
    resize(1100, 620);

    // The built-in server until the window says otherwise.
    nb::TestParams p;
    p.host = QStringLiteral("127.0.0.1");
    setBaseParams(p);
    insertEndpointRow(nb::MatrixEndpoint{QString(), p.host, std::nullopt, QString()}, true);
    refresh();
}

ComparisonDialog::~ComparisonDialog()
{
    joinQuery();
}

QWidget *ComparisonDialog::buildEndpoints()
{
    auto *box = new QGroupBox(tr("Endpoints: where the traffic leaves and where it goes"));
    m_endpoints = new QTableWidget(0, EndpointColumns);
    m_endpoints->setObjectName(QStringLiteral("endpointTable"));
    m_endpoints->setHorizontalHeaderLabels({tr("Use"), tr("Label"), tr("From (local address)"), tr("Target host")});
    m_endpoints->verticalHeader()->hide();
    m_endpoints->horizontalHeader()->setSectionResizeMode(UseColumn, QHeaderView::ResizeToContents);
    m_endpoints->horizontalHeader()->setSectionResizeMode(LabelColumn, QHeaderView::Stretch);
    m_endpoints->horizontalHeader()->setSectionResizeMode(FromColumn, QHeaderView::Stretch);
    m_endpoints->horizontalHeader()->setSectionResizeMode(TargetColumn, QHeaderView::Stretch);
    m_endpoints->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(m_endpoints, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (m_refreshing)
            return;
        if (item->column() == LabelColumn) {
            m_refreshing = true;
            item->setData(kAutoLabelRole, item->text().trimmed().isEmpty());
            if (item->text().trimmed().isEmpty())
                item->setText(endpointAt(item->row()).defaultLabel());
            m_refreshing = false;
        } else if (item->column() == TargetColumn) {
            QTableWidgetItem *label = m_endpoints->item(item->row(), LabelColumn);
            if (label && label->data(kAutoLabelRole).toBool()) {
                m_refreshing = true;
                label->setText(endpointAt(item->row()).defaultLabel());
                m_refreshing = false;
            }
        }
        refresh();
    });

    auto *add = new QPushButton(tr("Add"));
    connect(add, &QPushButton::clicked, this, [this] {
        insertEndpointRow(nb::MatrixEndpoint{QString(), m_base.host, std::nullopt, QString()}, true);
        refresh();
    });
    auto *remove = new QPushButton(tr("Remove"));
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_endpoints->currentRow();
        if (row >= 0)
            m_endpoints->removeRow(row);
        refresh();
    });
    m_askButton = new QPushButton(tr("Ask Server for Its Adapters"));
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
    m_streams = new QLineEdit(QStringLiteral("1"));
    m_streams->setObjectName(QStringLiteral("streamsEdit"));
    m_streams->setPlaceholderText(tr("1, 4, 16"));
    m_streams->setToolTip(tr("Parallel streams (connections for request/response), separated by commas"));
    connect(m_streams, &QLineEdit::textChanged, this, &ComparisonDialog::refresh);
    m_throughput = new QCheckBox(tr("Throughput"));
    m_throughput->setChecked(true);
    m_rr = new QCheckBox(tr("Request-response"));
    connect(m_throughput, &QCheckBox::toggled, this, &ComparisonDialog::refresh);
    connect(m_rr, &QCheckBox::toggled, this, &ComparisonDialog::refresh);
    auto *kinds = new QHBoxLayout;
    kinds->addWidget(m_throughput);
    kinds->addWidget(m_rr);
    kinds->addStretch(1);

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
    m_port = new QSpinBox;
    m_port->setRange(1, 65535);
    connect(m_port, &QSpinBox::valueChanged, this, &ComparisonDialog::refresh);

    auto *form = new QFormLayout(box);
    form->addRow(tr("Streams:"), m_streams);
    form->addRow(tr("Kinds:"), kinds);
    form->addRow(tr("Duration:"), m_duration);
    form->addRow(tr("Port:"), m_port);
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
    m_order = new QComboBox;
    m_order->addItem(tr("Interleaved (A B C A B C)"), int(nb::OrderPolicy::Interleaved));
    m_order->addItem(tr("Shuffled rounds"), int(nb::OrderPolicy::Shuffled));
    m_order->setToolTip(tr("Interleaving keeps slow drift on the machine from favouring one configuration"));
    connect(m_order, &QComboBox::currentIndexChanged, this, &ComparisonDialog::refresh);
    m_pause = new QDoubleSpinBox;
    m_pause->setRange(0, 3600);
    m_pause->setDecimals(1);
    m_pause->setValue(1.0);
    m_pause->setSuffix(tr(" s"));
    m_pause->setToolTip(tr("Idle time between runs, so one run's tail does not load the next"));
    connect(m_pause, &QDoubleSpinBox::valueChanged, this, &ComparisonDialog::refresh);
    m_title = new QLineEdit;
    m_title->setPlaceholderText(tr("E1000 vs VMXNET3"));
    auto *form = new QFormLayout(box);
    form->addRow(tr("Title:"), m_title);
    form->addRow(tr("Repeats:"), m_repeats);
    form->addRow(tr("Order:"), m_order);
    form->addRow(tr("Pause between runs:"), m_pause);
    return box;
}

QWidget *ComparisonDialog::buildPreview()
{
    auto *box = new QGroupBox(tr("Configurations (double-click a label to rename it)"));
    m_preview = new QTableWidget(0, PreviewColumns);
    m_preview->setObjectName(QStringLiteral("previewTable"));
    m_preview->setHorizontalHeaderLabels({tr("Label"), tr("Target"), tr("Test")});
    m_preview->verticalHeader()->hide();
    m_preview->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_preview->horizontalHeader()->setStretchLastSection(true);
    connect(m_preview, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (!m_refreshing && item->column() == PreviewLabel)
            setConfigurationLabel(item->row(), item->text());
    });
    m_baseline = new QComboBox;
    m_baseline->setObjectName(QStringLiteral("dialogBaselineCombo"));
    connect(m_baseline, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_refreshing)
            refresh();
    });
    auto *form = new QFormLayout;
    form->addRow(tr("Baseline:"), m_baseline);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_preview, 1);
    layout->addLayout(form);
    return box;
}

void ComparisonDialog::setBaseParams(const nb::TestParams &params)
{
    m_base = params;
    const QSignalBlocker b1(m_duration), b2(m_port);
    m_duration->setValue(params.isTimed() ? params.duration : 10.0);
    m_port->setValue(params.port);
    QStringList parts;
    parts << nb::directionName(params.direction);
    parts << tr("buffer %1").arg(nb::formatBytes(params.blockSize));
    if (params.window > 0)
        parts << tr("socket buffer %1").arg(nb::formatBytes(params.window));
    if (params.omit > 0)
        parts << tr("omit %1 s").arg(params.omit);
    parts << tr("interval %1 s").arg(params.interval);
    if (params.requestSize != 1 || params.responseSize != 1)
        parts << tr("request %1, response %2").arg(params.requestSize).arg(params.responseSize);
    if (params.inFlight > 1)
        parts << tr("%1 in flight").arg(params.inFlight);
    if (!params.congestion.isEmpty())
        parts << params.congestion;
    m_baseLabel->setText(parts.join(QStringLiteral(", ")));
    refresh();
}

void ComparisonDialog::setAdapters(const QList<nb::AdapterInfo> &adapters)
{
    m_adapters = adapters;
    // Rebuild the address choices, keeping each row's choice.
    for (int row = 0; row < m_endpoints->rowCount(); ++row) {
        const QString current = endpointAt(row).bindAddress;
        m_endpoints->setCellWidget(row, FromColumn, bindCombo(current));
    }
    refresh();
}

QComboBox *ComparisonDialog::bindCombo(const QString &current)
{
    auto *combo = new QComboBox;
    combo->addItem(anyAddressText(), QString());
    for (const nb::AdapterInfo &a : m_adapters) {
        for (const nb::AdapterAddress &addr : a.addresses) {
            if (addr.address.isLinkLocal())
                continue;
            const QString text = addr.address.toString();
            combo->addItem(QStringLiteral("%1 (%2, %3)").arg(text, a.name, nb::familyName(a.family)), text);
        }
    }
    int index = combo->findData(current);
    if (index < 0 && !current.isEmpty()) {
        combo->addItem(current, current);
        index = combo->count() - 1;
    }
    combo->setCurrentIndex(std::max(0, index));
    connect(combo, &QComboBox::currentIndexChanged, this, [this, combo] {
        for (int row = 0; row < m_endpoints->rowCount(); ++row) {
            if (m_endpoints->cellWidget(row, FromColumn) != combo)
                continue;
            QTableWidgetItem *label = m_endpoints->item(row, LabelColumn);
            if (label && label->data(kAutoLabelRole).toBool()) {
                m_refreshing = true;
                label->setText(endpointAt(row).defaultLabel());
                m_refreshing = false;
            }
        }
        refresh();
    });
    return combo;
}

void ComparisonDialog::insertEndpointRow(const nb::MatrixEndpoint &endpoint, bool enabled)
{
    m_refreshing = true;
    const int row = m_endpoints->rowCount();
    m_endpoints->insertRow(row);
    auto *use = new QTableWidgetItem;
    use->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    use->setCheckState(enabled ? Qt::Checked : Qt::Unchecked);
    m_endpoints->setItem(row, UseColumn, use);
    m_endpoints->setItem(row, TargetColumn, new QTableWidgetItem(endpoint.target));
    m_endpoints->setCellWidget(row, FromColumn, bindCombo(endpoint.bindAddress));
    auto *label = new QTableWidgetItem;
    label->setData(kAutoLabelRole, endpoint.label.isEmpty());
    m_endpoints->setItem(row, LabelColumn, label);
    label->setText(endpoint.label.isEmpty() ? endpointAt(row).defaultLabel() : endpoint.label);
    m_refreshing = false;
}

nb::MatrixEndpoint ComparisonDialog::endpointAt(int row) const
{
    nb::MatrixEndpoint e;
    if (const auto *target = m_endpoints->item(row, TargetColumn))
        e.target = target->text().trimmed();
    if (const auto *combo = qobject_cast<QComboBox *>(m_endpoints->cellWidget(row, FromColumn)))
        e.bindAddress = combo->currentData().toString();
    if (!e.bindAddress.isEmpty())
        e.adapter = nb::adapterForLocalAddress(QHostAddress(e.bindAddress), m_adapters);
    else if (const QHostAddress t(e.target); !t.isNull() && t.isLoopback())
        e.adapter = nb::adapterForLocalAddress(t, m_adapters); // loopback leaves through lo
    if (const auto *label = m_endpoints->item(row, LabelColumn); label && !label->data(kAutoLabelRole).toBool())
        e.label = label->text().trimmed();
    return e;
}

void ComparisonDialog::setEndpoints(const QList<nb::MatrixEndpoint> &endpoints)
{
    m_endpoints->setRowCount(0);
    for (const nb::MatrixEndpoint &e : endpoints)
        insertEndpointRow(e, true);
    refresh();
}

QList<nb::MatrixEndpoint> ComparisonDialog::endpoints() const
{
    QList<nb::MatrixEndpoint> out;
    for (int row = 0; row < m_endpoints->rowCount(); ++row) {
        const auto *use = m_endpoints->item(row, UseColumn);
        if (use && use->checkState() == Qt::Checked)
            out.append(endpointAt(row));
    }
    return out;
}

int ComparisonDialog::endpointRowCount() const
{
    return m_endpoints->rowCount();
}

void ComparisonDialog::setEndpointEnabled(int row, bool enabled)
{
    if (auto *use = m_endpoints->item(row, UseColumn))
        use->setCheckState(enabled ? Qt::Checked : Qt::Unchecked);
}

void ComparisonDialog::setStreamsText(const QString &text)
{
    m_streams->setText(text);
}
void ComparisonDialog::setKinds(bool throughput, bool requestResponse)
{
    m_throughput->setChecked(throughput);
    m_rr->setChecked(requestResponse);
}
void ComparisonDialog::setDuration(double seconds)
{
    m_duration->setValue(seconds);
}
void ComparisonDialog::setPort(quint16 port)
{
    m_port->setValue(port);
}
void ComparisonDialog::setRepeats(int repeats)
{
    m_repeats->setValue(repeats);
}
void ComparisonDialog::setOrder(nb::OrderPolicy order)
{
    m_order->setCurrentIndex(std::max(0, m_order->findData(int(order))));
}
void ComparisonDialog::setPauseSeconds(double seconds)
{
    m_pause->setValue(seconds);
}
void ComparisonDialog::setTitle(const QString &title)
{
    m_title->setText(title);
}
void ComparisonDialog::setBaselineIndex(int index)
{
    m_baseline->setCurrentIndex(index);
}

void ComparisonDialog::setConfigurationLabel(int index, const QString &label)
{
    if (index < 0 || index >= m_configurations.size())
        return;
    QList<nb::MatrixVariant> vars;
    QString error;
    variants(&vars, &error);
    const QList<nb::Configuration> generated = nb::buildMatrix(base(), endpoints(), vars);
    if (index < generated.size()) {
        const QString key = generated[index].label;
        if (label.trimmed().isEmpty() || label.trimmed() == key)
            m_labelEdits.remove(key);
        else
            m_labelEdits[key] = label.trimmed();
    }
    refresh();
}

bool ComparisonDialog::variants(QList<nb::MatrixVariant> *out, QString *error) const
{
    QList<int> streams;
    const QStringList parts =
        m_streams->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    const nb::param::Parameter &range = nb::param::parameter(nb::param::Id::Streams);
    for (const QString &part : parts) {
        bool ok = false;
        const int n = part.toInt(&ok);
        if (!ok || !nb::param::inRange(range, n)) {
            *error = tr("Streams: \"%1\" is not a number from %2.").arg(part, nb::param::rangeText(range));
            return false;
        }
        if (!streams.contains(n))
            streams.append(n);
    }
    // An empty list keeps the test panel's own count: streams for throughput, connections
    // for request/response (the panel gives only one of them, the other is 1).
    const QList<int> rrCounts =
        streams.isEmpty() ? QList<int>{m_base.isRequestResponse() ? m_base.connections() : 1} : streams;
    if (streams.isEmpty())
        streams.append(m_base.isRequestResponse() ? 1 : m_base.streams);
    if (!m_throughput->isChecked() && !m_rr->isChecked()) {
        *error = tr("Choose throughput, request-response or both.");
        return false;
    }
    QList<nb::MatrixVariant> vars;
    if (m_throughput->isChecked()) {
        for (int n : streams) {
            nb::MatrixVariant v = nb::MatrixVariant::withStreams(n);
            v.kind = nb::TestKind::Stream;
            if (m_base.isRequestResponse())
                v.direction = nb::Direction::Upload;
            vars.append(v);
        }
    }
    if (m_rr->isChecked()) {
        for (int n : rrCounts) {
            nb::MatrixVariant v = nb::MatrixVariant::requestResponse();
            v.kind = m_base.kind == nb::TestKind::Crr ? nb::TestKind::Crr : nb::TestKind::Rr;
            v.streams = n; // the connection count: TestParams keeps it in streams
            v.direction = nb::Direction::Upload;
            v.name = v.kind == nb::TestKind::Crr ? QStringLiteral("TCP_CRR") : QStringLiteral("TCP_RR");
            if (rrCounts.size() > 1)
                v.name += QStringLiteral(" x%1").arg(n);
            vars.append(v);
        }
    }
    *out = vars;
    return true;
}

nb::TestParams ComparisonDialog::base() const
{
    nb::TestParams p = m_base;
    p.duration = m_duration->value();
    p.bytes = 0; // the comparison's runs are timed
    p.port = quint16(m_port->value());
    return p;
}

QList<nb::Configuration> ComparisonDialog::configurations() const
{
    return m_configurations;
}

nb::Comparison ComparisonDialog::comparison() const
{
    nb::Comparison c;
    c.title = m_title->text().trimmed();
    c.configurations = m_configurations;
    c.repeats = m_repeats->value();
    c.order = nb::OrderPolicy(m_order->currentData().toInt());
    c.seed = c.order == nb::OrderPolicy::Shuffled ? quint64(QDateTime::currentMSecsSinceEpoch()) : 0;
    c.pauseSeconds = m_pause->value();
    c.baselineIndex =
        std::clamp(m_baseline->currentIndex(), 0, int(std::max<qsizetype>(0, m_configurations.size() - 1)));
    return c;
}

void ComparisonDialog::refresh()
{
    if (m_refreshing || !m_preview || !m_baseline || !m_repeats)
        return;
    QString error;
    QList<nb::MatrixVariant> vars;
    const QList<nb::MatrixEndpoint> eps = endpoints();
    QList<nb::Configuration> configs;
    if (variants(&vars, &error)) {
        configs = nb::buildMatrix(base(), eps, vars);
        for (nb::Configuration &c : configs)
            c.label = m_labelEdits.value(c.label, c.label);
    }
    if (error.isEmpty() && eps.isEmpty())
        error = tr("Tick at least one endpoint.");
    for (const nb::MatrixEndpoint &e : eps) {
        if (error.isEmpty() && e.target.isEmpty())
            error = tr("Every endpoint needs a target host.");
    }
    QStringList labels;
    for (const nb::Configuration &c : std::as_const(configs)) {
        if (!error.isEmpty())
            break;
        if (c.label.isEmpty())
            error = tr("Every configuration needs a label.");
        else if (labels.contains(c.label))
            error = tr("Two configurations are labelled \"%1\": rename one.").arg(c.label);
        else if (const QString invalid = c.params.validate(); !invalid.isEmpty())
            error = tr("%1: %2").arg(c.label, invalid);
        labels << c.label;
    }
    if (error.isEmpty() && configs.size() > 1024)
        error = tr("At most 1024 configurations.");
    m_configurations = configs;
    m_error = error;

    m_refreshing = true;
    m_preview->setRowCount(int(configs.size()));
    for (int i = 0; i < configs.size(); ++i) {
        const nb::Configuration &c = configs[i];
        auto *label = new QTableWidgetItem(c.label);
        label->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable);
        m_preview->setItem(i, PreviewLabel, label);
        QString target = QStringLiteral("%1:%2").arg(c.params.host).arg(c.params.port);
        if (!c.params.bindAddress.isEmpty())
            target = tr("%1 from %2").arg(target, c.params.bindAddress);
        for (const auto &[column, text] :
             {std::pair{int(PreviewTarget), target}, std::pair{int(PreviewTest), describeTest(c.params)}}) {
            auto *item = new QTableWidgetItem(text);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            m_preview->setItem(i, column, item);
        }
    }
    const int baseline = m_baseline->currentIndex();
    m_baseline->clear();
    m_baseline->addItems(labels);
    if (!labels.isEmpty())
        m_baseline->setCurrentIndex(std::clamp(baseline, 0, int(labels.size()) - 1));
    m_refreshing = false;

    const int runs = int(configs.size()) * m_repeats->value();
    const double seconds = runs * (m_duration->value() + m_base.omit + 1.0) + std::max(0, runs - 1) * m_pause->value();
    m_summary->setText(
        tr("%1 configuration(s) x %2 repeats = %3 runs, about %4")
            .arg(configs.size())
            .arg(m_repeats->value())
            .arg(runs)
            .arg(seconds < 120 ? tr("%1 s").arg(std::ceil(seconds)) : tr("%1 min").arg(std::ceil(seconds / 60))));
    if (error.isEmpty() && m_repeats->value() < 2)
        m_validation->setText(tr("With 1 repeat there are no confidence intervals and no verdicts."));
    else
        m_validation->setText(error);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(error.isEmpty());
}

QString ComparisonDialog::serverStatus() const
{
    return m_serverStatus;
}

void ComparisonDialog::askServer()
{
    if (m_asking)
        return;
    int row = m_endpoints->currentRow();
    if (row < 0) {
        for (int r = 0; r < m_endpoints->rowCount() && row < 0; ++r) {
            if (m_endpoints->item(r, UseColumn)->checkState() == Qt::Checked)
                row = r;
        }
    }
    const nb::MatrixEndpoint e =
        row >= 0 ? endpointAt(row) : nb::MatrixEndpoint{QString(), m_base.host, std::nullopt, QString()};
    if (e.target.isEmpty()) {
        m_serverStatus = tr("Enter a target host first.");
        m_serverLabel->setText(m_serverStatus);
        Q_EMIT serverAnswered(false, m_serverStatus);
        return;
    }
    joinQuery();
    nb::ServerInfoQuery query;
    query.host = e.target;
    query.port = quint16(m_port->value());
    query.bindAddress = e.bindAddress;
    query.timeoutSeconds = 5;
    const quint64 job = ++m_queryJob;
    m_asking = true;
    m_askButton->setEnabled(false);
    m_serverStatus = tr("Asking %1 port %2...").arg(query.host).arg(query.port);
    m_serverLabel->setText(m_serverStatus);
    QPointer<ComparisonDialog> self(this);
    m_query = std::thread([self, job, query] {
        nb::HostEnvironment info;
        QString error;
        const bool ok = nb::queryServerInfo(query, &info, &error);
        // The dialog joins this thread before it goes, so `self` is still the receiver's
        // guard; QPointer also covers a dialog deleted while the call waits in the queue.
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, ok, info, error] {
                if (self)
                    self->onServerAnswer(job, ok, info, error);
            },
            Qt::QueuedConnection);
    });
}

void ComparisonDialog::joinQuery()
{
    if (m_query.joinable())
        m_query.join();
}

void ComparisonDialog::onServerAnswer(quint64 job, bool ok, const nb::HostEnvironment &info, const QString &error)
{
    if (job != m_queryJob)
        return;
    joinQuery();
    m_asking = false;
    m_askButton->setEnabled(true);
    if (!ok) {
        m_serverStatus = tr("The server did not list its adapters: %1").arg(error);
        m_serverLabel->setText(m_serverStatus);
        Q_EMIT serverAnswered(false, m_serverStatus);
        return;
    }
    m_suggestions = nb::suggestAdapterPairs(m_adapters, info.adapters);
    int added = 0;
    for (const nb::AdapterPair &pair : std::as_const(m_suggestions)) {
        bool known = false;
        for (int row = 0; row < m_endpoints->rowCount() && !known; ++row) {
            const nb::MatrixEndpoint e = endpointAt(row);
            known = e.target == pair.remoteAddress && e.bindAddress == pair.localAddress;
        }
        if (known)
            continue;
        insertEndpointRow(nb::MatrixEndpoint{pair.localAddress, pair.remoteAddress, pair.local, pair.label()}, false);
        ++added;
    }
    const QString host = info.hostName.isEmpty() ? tr("The server") : info.hostName;
    m_serverStatus =
        m_suggestions.isEmpty()
            ? tr("%1 has %2 adapter(s), none on a subnet this computer shares.").arg(host).arg(info.adapters.size())
            : tr("%1 has %2 adapter(s); %3 pair(s) on a shared subnet, %4 added below: tick the ones to compare.")
                  .arg(host)
                  .arg(info.adapters.size())
                  .arg(m_suggestions.size())
                  .arg(added);
    m_serverLabel->setText(m_serverStatus);
    refresh();
    Q_EMIT serverAnswered(true, m_serverStatus);
}

} // namespace nb::gui
