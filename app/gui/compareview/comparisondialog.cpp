// SPDX-License-Identifier: GPL-3.0-or-later
// ComparisonDialog's behaviour: what it inherits and shows, the variants and configurations it
// makes, the preview. Its widgets are in comparisondialoglayout.cpp, "Ask Server for Its
// Adapters" in comparisondialogquery.cpp.
#include "compareview/comparisondialog.h"
#include "core/format.h"

#include "compareview/endpointtable.h"
#include "window/appsettings.h"

#include <core/units.h>
#include <model/parameters.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace nb::gui {

namespace {

// What one configuration runs beside its variant's name, for the preview: "1 connection,
// 1 in flight, 10 s" (request/response), "upload, 4 streams, 10 s" (throughput).
QString describeTest(const nb::TestParams &p)
{
    if (p.isLoadedLatency()) { // "5 phases x 5 s = 25 s, both directions, 4 streams"
        const nb::LoadSchedule s = p.loadSchedule();
        return ComparisonDialog::tr("%1 phases x %2 s = %3 s, both directions, %4")
            .arg(s.size())
            .arg(p.phaseSeconds)
            .arg(s.total())
            .arg(p.streams == 1 ? ComparisonDialog::tr("1 stream") : ComparisonDialog::tr("%1 streams").arg(p.streams));
    }
    if (p.isRequestResponse()) {
        const int n = p.connections();
        return ComparisonDialog::tr("%1, %2 in flight, %3 s")
            .arg(n == 1 ? ComparisonDialog::tr("1 connection") : ComparisonDialog::tr("%1 connections").arg(n))
            .arg(p.inFlight)
            .arg(p.duration);
    }
    if (p.udp)
        return ComparisonDialog::tr("UDP %1 bit/s per stream, %2, %3, %4 s")
            .arg(nb::MatrixVariant::rateText(p.bandwidth), nb::directionName(p.direction),
                 p.streams == 1 ? ComparisonDialog::tr("1 stream") : ComparisonDialog::tr("%1 streams").arg(p.streams))
            .arg(p.duration);
    return ComparisonDialog::tr("%1, %2, %3 s")
        .arg(nb::directionName(p.direction))
        .arg(p.streams == 1 ? ComparisonDialog::tr("1 stream") : ComparisonDialog::tr("%1 streams").arg(p.streams))
        .arg(p.duration);
}

// Where it goes: "127.0.0.1:5201", "198.18.1.2:5201 from 198.18.1.1"; run by an agent,
// "198.18.0.2:5201 -> 198.18.1.2:5201" (from -> to).
QString describeTarget(const nb::Configuration &c)
{
    const nb::TestParams &p = c.params;
    const QString where = QStringLiteral("%1:%2").arg(p.host).arg(p.port);
    if (c.from.isSet())
        return QStringLiteral("%1 -> %2").arg(c.from.text(), where);
    return p.bindAddress.isEmpty() ? where : ComparisonDialog::tr("%1 from %2").arg(where, p.bindAddress);
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
    top->addLayout(left, 5);
    top->addWidget(buildPreview(), 4);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_validation);
    layout->addWidget(m_buttons);

    // The built-in server until the window says otherwise: one row, built once here;
    // setEndpoints() replaces it with its widgets.
    nb::TestParams p;
    p.host = QStringLiteral("127.0.0.1");
    setBaseParams(p);
    m_endpoints->setEndpoints({nb::MatrixEndpoint{QString(), p.host, std::nullopt, QString()}});
    refresh();
    fitToScreen();
    // The variants first: the endpoint row is usually right, and a focused table draws a
    // focus frame in the empty part of the Use cell.
    m_streams->setFocus();
}

ComparisonDialog::~ComparisonDialog() = default; // m_query waits for the query

void ComparisonDialog::setBaseParams(const nb::TestParams &params)
{
    m_base = params;
    const QSignalBlocker b1(m_duration), b2(m_port), b3(m_streams), b4(m_rrConnections), b5(m_rr), b6(m_loaded);
    // A latency-under-load test's duration is its phases' total: the other variants start
    // at the throughput default instead, and its variant keeps the phase length (review M7).
    m_duration->setValue(params.isTimed() && !params.isLoadedLatency() ? params.duration : 10.0);
    {
        const QSignalBlocker b(m_direction);
        const nb::Direction d =
            params.isLoadedLatency() || params.isRequestResponse() ? nb::Direction::Upload : params.direction;
        m_direction->setCurrentIndex(std::max(0, m_direction->findData(int(d))));
    }
    m_port->setValue(params.port);
    // The test panel's count starts the field of its kind; the other kind starts at 1.
    m_streams->setText(QString::number(params.isRequestResponse() ? 1 : params.streams));
    m_rrConnections->setValue(params.isRequestResponse() ? params.connections() : 1);
    if (params.isRequestResponse() && !params.udp) {
        m_rr->setChecked(true);
        m_rrConnections->setEnabled(true);
    }
    if (params.isLoadedLatency()) // the test panel runs it: offer it as a variant
        m_loaded->setChecked(true);
    if (params.udp) { // the test panel runs UDP: offer its rate, or UDP_RR
        const QSignalBlocker b7(m_udp), b8(m_udpRates), b9(m_udpRr);
        if (params.isRequestResponse()) {
            m_udpRr->setChecked(true);
        } else {
            m_udpRates->setText(nb::MatrixVariant::rateText(params.bandwidth)
                                    .replace(QStringLiteral("unlimited"), QStringLiteral("0")));
            m_udp->setChecked(true);
            m_udpRates->setEnabled(true);
        }
    }
    QStringList parts;
    parts << tr("buffer %1").arg(nb::formatBytes(params.blockSize));
    if (params.window > 0)
        parts << tr("socket buffer %1").arg(nb::formatBytes(params.window));
    if (params.omit > 0)
        parts << tr("omit %1 s").arg(params.omit);
    parts << tr("interval %1 s").arg(params.interval);
    parts << tr("latency under load: phases %1 of %2 s").arg(params.phases).arg(params.phaseSeconds);
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
    m_endpoints->setAdapters(adapters);
}

void ComparisonDialog::setEndpoints(const QList<nb::MatrixEndpoint> &endpoints)
{
    m_endpoints->setEndpoints(endpoints);
}

QList<nb::MatrixEndpoint> ComparisonDialog::endpoints() const
{
    return m_endpoints->enabledEndpoints();
}

int ComparisonDialog::endpointRowCount() const
{
    return m_endpoints->rowCount();
}

void ComparisonDialog::setEndpointEnabled(int row, bool enabled)
{
    m_endpoints->setRowEnabled(row, enabled);
}

void ComparisonDialog::setEndpointLabel(int row, const QString &label)
{
    m_endpoints->setLabel(row, label);
}

void ComparisonDialog::removeEndpointRow(int row)
{
    m_endpoints->removeEndpoint(row);
}

void ComparisonDialog::setStreamsText(const QString &text)
{
    m_streams->setText(text);
}
QString ComparisonDialog::streamsText() const
{
    return m_streams->text();
}
void ComparisonDialog::setKinds(bool throughput, bool requestResponse, bool loadedLatency)
{
    m_throughput->setChecked(throughput);
    m_rr->setChecked(requestResponse);
    m_loaded->setChecked(loadedLatency);
}
void ComparisonDialog::setUdpKinds(bool stream, const QString &rates, bool requestResponse)
{
    m_udpRates->setText(rates);
    m_udp->setChecked(stream);
    m_udpRr->setChecked(requestResponse);
}
void ComparisonDialog::setRrConnections(int connections)
{
    m_rrConnections->setValue(connections);
}
int ComparisonDialog::rrConnections() const
{
    return m_rrConnections->value();
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

bool ComparisonDialog::setBaselineAdapter(const QString &adapter)
{
    const int index = m_baseline->findText(adapter);
    if (index < 0)
        return false;
    m_baseline->setCurrentIndex(index);
    return true;
}

QString ComparisonDialog::baselineAdapter() const
{
    return m_baseline->currentText();
}

QStringList ComparisonDialog::baselineChoices() const
{
    QStringList out;
    for (int i = 0; i < m_baseline->count(); ++i)
        out << m_baseline->itemText(i);
    return out;
}

void ComparisonDialog::setBaselineIndex(int index)
{
    if (index >= 0 && index < m_configurations.size())
        setBaselineAdapter(m_configurations[index].adapterName());
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

void ComparisonDialog::onPreviewEdited(int row, int column, const QString &text)
{
    if (column != PreviewAdapter || row < 0 || row >= m_configurations.size())
        return;
    // Renaming an adapter in the preview renames its endpoint, so every variant follows.
    const QString adapter = m_configurations[row].adapterName();
    for (int r : m_endpoints->enabledRows()) {
        if (m_endpoints->label(r) == adapter) {
            m_endpoints->setLabel(r, text.trimmed());
            return;
        }
    }
}

bool ComparisonDialog::variants(QList<nb::MatrixVariant> *out, QString *error) const
{
    QList<int> streams;
    const QStringList parts =
        m_streams->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    const nb::param::Parameter &range = nb::param::parameter(nb::param::Id::Streams);
    if (m_throughput->isChecked()) {
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
    }
    // An empty list keeps the test panel's stream count.
    if (streams.isEmpty())
        streams.append(m_base.isRequestResponse() ? 1 : m_base.streams);
    if (!m_throughput->isChecked() && !m_rr->isChecked() && !m_loaded->isChecked() && !m_udp->isChecked() &&
        !m_udpRr->isChecked()) {
        *error = tr("Choose throughput, request/response, latency under load or UDP.");
        return false;
    }
    QList<std::uint64_t> rates;
    if (m_udp->isChecked() && !nb::udpRatesFromText(m_udpRates->text(), &rates, error))
        return false;
    QList<nb::MatrixVariant> vars;
    if (m_throughput->isChecked()) {
        for (int n : std::as_const(streams)) {
            nb::MatrixVariant v = nb::MatrixVariant::withStreams(n);
            v.kind = nb::TestKind::Stream;
            v.udp = false; // TCP: UDP has its own variants below
            v.direction = direction();
            vars.append(v);
        }
    }
    if (m_rr->isChecked()) {
        // Its own connection count ("TCP_RR" on one, "TCP_RR (4 conn.)"), never the streams.
        nb::MatrixVariant v = nb::MatrixVariant::requestResponse(m_rrConnections->value());
        if (m_base.kind == nb::TestKind::Crr) {
            v.kind = nb::TestKind::Crr;
            v.name.replace(QStringLiteral("TCP_RR"), QStringLiteral("TCP_CRR"));
        }
        v.direction = nb::Direction::Upload;
        vars.append(v);
    }
    if (m_loaded->isChecked())
        vars.append(nb::MatrixVariant::latencyUnderLoad(streams.first(), m_base.phaseSeconds));
    // The test panel's datagram size when it runs UDP with one, else iperf3's default.
    const std::uint32_t datagram = m_base.udp && !m_base.udpDatagramSizeUnset() ? m_base.blockSize : 0;
    for (std::uint64_t rate : std::as_const(rates)) {
        nb::MatrixVariant v = nb::MatrixVariant::udpStream(rate, datagram);
        v.direction = direction();
        vars.append(v);
    }
    if (m_udpRr->isChecked()) {
        nb::MatrixVariant v = nb::MatrixVariant::udpRequestResponse();
        v.direction = nb::Direction::Upload;
        vars.append(v);
    }
    *out = vars;
    return true;
}

nb::Direction ComparisonDialog::direction() const
{
    return nb::Direction(m_direction->currentData().toInt());
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
    c.equivalencePercent = m_equivalence->value();
    c.agentKeyPath = AppSettings::agentKeyPath(); // for the configurations from an agent
    c.baselineIndex = 0;
    const QString baseline = baselineAdapter();
    for (int i = 0; i < m_configurations.size(); ++i) {
        if (m_configurations[i].adapterName() == baseline) {
            c.baselineIndex = i;
            break;
        }
    }
    return c;
}

void ComparisonDialog::refresh()
{
    if (m_refreshing || !m_preview || !m_baseline || !m_repeats || !m_endpoints)
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
        error = tr("Tick at least one adapter.");
    for (int row : m_endpoints->enabledRows()) {
        if (error.isEmpty())
            error = m_endpoints->targetError(row);
    }
    QStringList adapters;
    for (const nb::MatrixEndpoint &e : eps) {
        if (!error.isEmpty())
            break;
        if (e.target.isEmpty())
            error = tr("Every adapter needs a target host.");
        else if (e.label.isEmpty())
            error = tr("Every adapter needs a label.");
        else if (adapters.contains(e.label))
            error = tr("Two adapters are labelled \"%1\": rename one.").arg(e.label);
        adapters << e.label;
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
    if (error.isEmpty())
        error = agentError(eps, configs);
    if (error.isEmpty() && configs.size() > 1024)
        error = tr("At most 1024 configurations.");
    m_configurations = configs;
    m_error = error;

    m_refreshing = true;
    fillPreview();
    fillBaselineChoices();
    m_refreshing = false;

    const int runs = int(configs.size()) * m_repeats->value();
    double seconds = std::max(0, runs - 1) * m_pause->value();
    for (const nb::Configuration &c : std::as_const(configs)) // latency under load lasts its phases
        seconds += m_repeats->value() * (c.params.normalized().duration + c.params.normalized().omit + 1.0);
    m_summary->setText(
        tr("%1 adapter(s) x %2 variant(s) = %3 configuration(s), x %4 repeats = %5 runs, about %6")
            .arg(eps.size())
            .arg(vars.size())
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

QString ComparisonDialog::agentError(const QList<nb::MatrixEndpoint> &eps,
                                     const QList<nb::Configuration> &configs) const
{
    for (const nb::MatrixEndpoint &e : eps) {
        if (e.from.isEmpty())
            continue;
        if (AppSettings::agentKeyPath().isEmpty())
            return tr("\"%1\" runs from the agent %2: choose the agent key file first (Tools > Hosts).")
                .arg(e.label, e.from);
        for (const nb::Configuration &c : configs) {
            if (c.adapter != e.label)
                continue;
            if (const QString problem = nb::agentProblem(c, e.from); !problem.isEmpty())
                return problem;
        }
    }
    return {};
}

void ComparisonDialog::setAgentHosts(const QStringList &hosts)
{
    m_endpoints->setAgentHosts(hosts);
}

void ComparisonDialog::fillPreview()
{
    m_preview->setRowCount(int(m_configurations.size()));
    for (int i = 0; i < m_configurations.size(); ++i) {
        const nb::Configuration &c = m_configurations[i];
        const QString test = describeTest(c.params);
        const QString target = describeTarget(c);
        const QString tip = tr("%1\n%2\nto %3").arg(c.label, test, target);
        const std::pair<int, QString> cells[] = {{PreviewAdapter, c.adapterName()},
                                                 {PreviewVariant, c.variantName()},
                                                 {PreviewTest, test},
                                                 {PreviewTarget, target}};
        for (const auto &[column, text] : cells) {
            auto *item = new QTableWidgetItem(text);
            item->setToolTip(tip);
            item->setFlags(column == PreviewAdapter ? Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable
                                                    : Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            m_preview->setItem(i, column, item);
        }
    }
}

void ComparisonDialog::fillBaselineChoices()
{
    QStringList adapters;
    for (const nb::Configuration &c : std::as_const(m_configurations)) {
        if (!adapters.contains(c.adapterName()))
            adapters << c.adapterName();
    }
    const QString current = m_baseline->currentText();
    const int currentIndex = m_baseline->currentIndex();
    m_baseline->clear();
    m_baseline->addItems(adapters);
    // Keep the chosen adapter; when it was renamed, keep its place.
    int index = adapters.indexOf(current);
    if (index < 0)
        index = std::clamp(currentIndex, 0, int(std::max<qsizetype>(0, adapters.size() - 1)));
    if (!adapters.isEmpty())
        m_baseline->setCurrentIndex(index);
}

} // namespace nb::gui
