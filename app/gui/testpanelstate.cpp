// SPDX-License-Identifier: GPL-3.0-or-later
// TestPanel, part two: what it keeps between sessions (the last test's settings) and the
// tooltips that carry a combo's full text. The form itself is in testpanel.cpp.
#include "testpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSpinBox>

namespace nb::gui {

namespace {

// The form as JSON: {"version": 1, "target", "preset", "type", "connections", "crr",
// "bind", "params": TestParams::toJson()}. A new layout gets a new version; an old one is
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
    const QJsonObject state{
        {QStringLiteral("version"), 1},
        {QStringLiteral("target"), m_target->currentText().trimmed()},
        {QStringLiteral("preset"), m_preset->currentIndex() < int(m_presets.size()) ? m_preset->currentIndex() : -1},
        {QStringLiteral("type"), int(testType())},
        {QStringLiteral("connections"), m_connections->value()},
        {QStringLiteral("crr"), m_crr->isChecked()},
        {QStringLiteral("bind"), m_from->currentText()},
        {QStringLiteral("params"), p.toJson()},
    };
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
    const QString bind = state.value(QStringLiteral("bind")).toString();
    if (!bind.isEmpty())
        m_from->setCurrentText(bind);
    const int type = state.value(QStringLiteral("type")).toInt();
    if (type >= int(TestType::Throughput) && type <= int(TestType::LoadedLatency))
        setTestType(TestType(type));
    m_applying = false;
    const int preset = state.value(QStringLiteral("preset")).toInt(-1);
    m_preset->setCurrentIndex(preset >= 0 && preset < int(m_presets.size()) ? preset : m_preset->count() - 1);
}

} // namespace nb::gui
