// SPDX-License-Identifier: GPL-3.0-or-later
// TestPanel, part two: what it keeps between sessions (the last test's settings) and the
// tooltips that carry a combo's full text. The form itself is in testpanel.cpp.
#include "testview/testpanel.h"

#include "testview/udpfields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSpinBox>

namespace nb::gui {

namespace {

// The form as JSON: {"version": 1, "target", "preset", "type", "connections", "crr",
// "bind", "from" (the agent, empty for this computer), "params": TestParams::toJson(), "udp": {"bitrate", "block_size",
// "timeout_ms", "pacing_timer_us", "counters_64bit"} for the UDP types}. A new layout gets a new version; an old one is
// ignored rather than half applied.
const auto kLastTestKey = QStringLiteral("test/last");

} // namespace

void TestPanel::updateComboToolTip(QComboBox *combo)
{
    // Keeps a combo's own explanation (set once, stored as a property) and adds the full
    // current text, which the field may be too narrow to show.
    QVariant base = combo->property("nbBaseToolTip");
    if (!base.isValid()) {
        base = combo->toolTip();
        combo->setProperty("nbBaseToolTip", base);
    }
    const QString text = combo->currentText();
    const QString why = base.toString();
    combo->setToolTip(why.isEmpty() ? text : QStringLiteral("%1\n\n%2").arg(text, why));
}

void TestPanel::saveState(QSettings &settings) const
{
    nb::TestParams p;
    QString ignored;
    if (!streamParams(&p, &ignored))
        return; // keep the last good settings rather than a form with a typo
    const bool udp = isUdpType(testType());
    if (udp && !m_udp->apply(&p, testType() == TestType::UdpRequestResponse, &ignored))
        return;
    QJsonObject state{
        {QStringLiteral("version"), 1},
        {QStringLiteral("target"), targetText()}, // a lab guest's address, not its passing name
        {QStringLiteral("preset"), m_preset->currentIndex() < int(m_presets.size()) ? m_preset->currentIndex() : -1},
        {QStringLiteral("type"), int(testType())},
        {QStringLiteral("connections"), m_connections->value()},
        {QStringLiteral("crr"), m_crr->isChecked()},
        {QStringLiteral("bind"), m_bind->currentText()},
        {QStringLiteral("from"), agentFrom()},
        {QStringLiteral("params"), p.toJson()},
    };
    // The UDP fields in their own object: TestParams::toJson() keeps only what a result needs.
    if (udp)
        state.insert(QStringLiteral("udp"), QJsonObject{{QStringLiteral("bitrate"), double(p.bandwidth)},
                                                        {QStringLiteral("block_size"), double(p.blockSize)},
                                                        {QStringLiteral("timeout_ms"), p.udpRrTimeoutMs},
                                                        {QStringLiteral("pacing_timer_us"), p.pacingTimerUs},
                                                        {QStringLiteral("counters_64bit"), p.udpCounters64}});
    settings.setValue(kLastTestKey, QString::fromUtf8(QJsonDocument(state).toJson(QJsonDocument::Compact)));
}

void TestPanel::restoreState(const QSettings &settings)
{
    const QJsonObject state = QJsonDocument::fromJson(settings.value(kLastTestKey).toString().toUtf8()).object();
    if (state.value(QStringLiteral("version")).toInt() != 1)
        return;
    nb::TestParams p;
    QString error;
    if (!nb::TestParams::fromJson(state.value(QStringLiteral("params")).toObject(), &p, &error) ||
        !p.validate().isEmpty())
        return;
    if (const QJsonValue udp = state.value(QStringLiteral("udp")); udp.isObject()) {
        const QJsonObject u = udp.toObject();
        nb::TestParams withUdp = p;
        withUdp.udp = true;
        withUdp.bandwidth = std::uint64_t(u.value(QStringLiteral("bitrate")).toDouble(double(p.bandwidth)));
        withUdp.blockSize = std::uint32_t(u.value(QStringLiteral("block_size")).toDouble(p.blockSize));
        withUdp.udpRrTimeoutMs = u.value(QStringLiteral("timeout_ms")).toInt(p.udpRrTimeoutMs);
        withUdp.pacingTimerUs = u.value(QStringLiteral("pacing_timer_us")).toInt(p.pacingTimerUs);
        withUdp.udpCounters64 = u.value(QStringLiteral("counters_64bit")).toBool();
        if (withUdp.validate().isEmpty())
            p = withUdp;
    }
    const QString target = state.value(QStringLiteral("target")).toString();
    {
        const QSignalBlocker block(m_target);
        m_target->setCurrentText(target.isEmpty() ? loopbackLabel() : target);
    }
    onTargetChanged();
    showParams(p);
    m_applying = true;
    m_connections->setValue(state.value(QStringLiteral("connections")).toInt(1));
    m_crr->setChecked(state.value(QStringLiteral("crr")).toBool());
    setAgentFrom(state.value(QStringLiteral("from")).toString());
    const QString bind = state.value(QStringLiteral("bind")).toString();
    if (!bind.isEmpty())
        m_bind->setCurrentText(bind);
    const int type = state.value(QStringLiteral("type")).toInt();
    if (type >= int(TestType::Throughput) && type <= int(TestType::UdpRequestResponse))
        setTestType(TestType(type));
    m_applying = false;
    const int preset = state.value(QStringLiteral("preset")).toInt(-1);
    m_preset->setCurrentIndex(preset >= 0 && preset < int(m_presets.size()) ? preset : m_preset->count() - 1);
}

} // namespace nb::gui
