// SPDX-License-Identifier: GPL-3.0-or-later
// TestPanel, part five: parameters in and out of the form. A preset or a given TestParams is
// shown in the fields; the fields are read back as the tests one Run starts. The form
// itself is in testpanel.cpp.
#include "testview/testpanel.h"

#include "testview/formfields.h"
#include "testview/loadedlatencyfields.h"
#include "testview/udpfields.h"

#include <model/parameters.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

namespace nb::gui {

void TestPanel::selectPreset(int index)
{
    if (index < 0 || index >= m_presets.size())
        return;
    m_preset->setCurrentIndex(index);
    onPresetActivated(index);
}

void TestPanel::onPresetActivated(int index)
{
    if (index < 0 || index >= m_presets.size())
        return; // "Custom settings" keeps what the form shows
    nb::TestParams base;
    QString ignored;
    params(&base, &ignored);
    const TestPreset &preset = m_presets.at(index);
    showParams(applyPreset(preset, base));
    if (preset.both) {
        m_applying = true;
        setTestType(TestType::Both);
        m_applying = false;
    }
    m_preset->setCurrentIndex(index);
}

void TestPanel::markCustom()
{
    if (!m_applying)
        m_preset->setCurrentIndex(m_preset->count() - 1);
}

void TestPanel::setParams(const nb::TestParams &params)
{
    showParams(params);
    if (!params.host.isEmpty()) {
        const QSignalBlocker block(m_target);
        m_target->setCurrentText(params.port != 5201 ? QStringLiteral("%1:%2").arg(params.host).arg(params.port)
                                                     : params.host);
        onTargetChanged();
    }
    m_preset->setCurrentIndex(m_preset->count() - 1);
}

void TestPanel::showParams(const nb::TestParams &p)
{
    m_applying = true;
    m_direction->setCurrentIndex(m_direction->findData(int(p.direction)));
    m_loaded->show(p);
    m_udp->show(p);
    if (p.isLoadedLatency()) {
        setTestType(TestType::LoadedLatency);
        m_streams->setValue(p.streams);
    } else if (p.isRequestResponse()) {
        setTestType(p.udp ? TestType::UdpRequestResponse : TestType::RequestResponse);
        m_connections->setValue(p.connections());
        m_crr->setChecked(p.kind == nb::TestKind::Crr);
    } else {
        setTestType(p.udp ? TestType::Udp : TestType::Throughput);
        m_streams->setValue(p.streams);
        m_connections->setValue(1);
        m_crr->setChecked(false);
    }
    m_requestSize->setText(QString::number(p.requestSize));
    m_responseSize->setText(QString::number(p.responseSize));
    m_inFlight->setValue(p.inFlight);
    m_duration->setValue(p.duration);
    if (!isLoopbackSelected())
        m_port->setValue(p.port);
    m_blockSize->setText(sizeFieldText(p.blockSize));
    m_window->setText(sizeFieldText(p.window));
    m_mss->setValue(p.mss);
    m_noDelay->setChecked(p.noDelay);
    m_congestion->setText(p.congestion);
    m_bytes->setText(sizeFieldText(p.bytes));
    m_omit->setValue(p.omit);
    m_interval->setValue(p.interval);
    {
        const int i = m_bind->findData(p.bindAddress);
        if (i >= 0)
            m_bind->setCurrentIndex(i);
        else
            m_bind->setCurrentText(p.bindAddress);
    }
    m_family->setCurrentIndex(m_family->findData(int(p.family)));
    m_protocol->setCurrentIndex(m_protocol->findData(int(p.protocol)));
    m_skipRxCopy->setChecked(p.skipRxCopy);
    m_zeroCopy->setChecked(p.zeroCopy);
    m_connectTimeout->setValue(p.connectTimeoutMs);
    m_threads->setValue(p.threads);
    m_title->setText(p.title);
    m_applying = false;
}

bool TestPanel::params(nb::TestParams *out, QString *error) const
{
    QList<nb::TestParams> plan;
    if (!testPlan(&plan, error))
        return false;
    *out = plan.constFirst();
    return true;
}

bool TestPanel::testPlan(QList<nb::TestParams> *out, QString *error) const
{
    nb::TestParams stream;
    if (!streamParams(&stream, error))
        return false;
    QList<nb::TestParams> plan;
    const TestType type = testType();
    if (type == TestType::LoadedLatency) {
        if (!m_loaded->apply(&stream, error))
            return false;
        plan.append(stream);
    } else if (isUdpType(type)) {
        const bool rr = type == TestType::UdpRequestResponse;
        nb::TestParams udp = rr ? asRequestResponse(stream) : stream;
        if (!m_udp->apply(&udp, rr, error))
            return false;
        plan.append(udp);
    } else {
        if (type != TestType::RequestResponse)
            plan.append(stream);
        if (type != TestType::Throughput)
            plan.append(asRequestResponse(stream));
    }
    for (const nb::TestParams &p : std::as_const(plan)) {
        const QString invalid = p.validate();
        if (!invalid.isEmpty()) {
            *error = invalid;
            return false;
        }
    }
    *out = plan;
    return true;
}

nb::TestParams TestPanel::asRequestResponse(nb::TestParams p) const
{
    p.kind = m_crr->isChecked() ? nb::TestKind::Crr : nb::TestKind::Rr;
    p.streams = m_connections->value();
    p.direction = nb::Direction::Upload;
    p.bytes = 0;
    return p;
}

bool TestPanel::streamParams(nb::TestParams *out, QString *error) const
{
    nb::TestParams p;
    if (isLoopbackSelected()) {
        p.host = QStringLiteral("127.0.0.1");
        p.port = m_loopbackPort;
    } else {
        int port = 0;
        if (!splitTarget(targetText(), &p.host, &port, error))
            return false;
        p.port = quint16(port > 0 ? port : m_port->value());
    }
    p.direction = nb::Direction(m_direction->currentData().toInt());
    p.streams = m_streams->value();
    p.duration = m_duration->value();
    std::uint64_t v = 0;
    if (!sizeField(m_blockSize, tr("Buffer length"), sizeMax(nb::param::Id::BlockSize), &v, error))
        return false;
    p.blockSize = v > 0 ? std::uint32_t(v) : p.blockSize;
    if (!sizeField(m_window, tr("Socket buffer"), sizeMax(nb::param::Id::Window), &v, error))
        return false;
    p.window = std::uint32_t(v);
    if (!sizeField(m_bytes, tr("Bytes"), sizeMax(nb::param::Id::Bytes), &v, error))
        return false;
    p.bytes = v;
    p.mss = m_mss->value();
    p.noDelay = m_noDelay->isChecked();
    p.congestion = m_congestion->text().trimmed();
    p.omit = m_omit->value();
    p.interval = m_interval->value();
    p.bindAddress = bindAddress();
    if (!sizeField(m_requestSize, tr("Request size"), sizeMax(nb::param::Id::RequestSize), &v, error))
        return false;
    p.requestSize = v > 0 ? std::uint32_t(v) : 1;
    if (!sizeField(m_responseSize, tr("Response size"), sizeMax(nb::param::Id::ResponseSize), &v, error))
        return false;
    p.responseSize = v > 0 ? std::uint32_t(v) : 1;
    p.inFlight = m_inFlight->value();
    p.family = nb::AddressFamily(m_family->currentData().toInt());
    p.protocol = nb::PeerProtocol(m_protocol->currentData().toInt());
    p.skipRxCopy = m_skipRxCopy->isChecked();
    p.zeroCopy = m_zeroCopy->isChecked();
    p.connectTimeoutMs = m_connectTimeout->value();
    p.threads = m_threads->value();
    p.title = m_title->text().trimmed();
    if (p.host.isEmpty()) {
        *error = tr("Enter a target: the host name or address of a computer running a server.");
        return false;
    }
    *out = p;
    return true;
}

} // namespace nb::gui
