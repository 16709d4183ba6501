// SPDX-License-Identifier: GPL-3.0-or-later
// TestPanel, part four: the Target box, with the recent targets (kept in QSettings), the
// loopback entry that stands for the built-in server and the named targets (lab guests).
// The form itself is in testpanel.cpp.
#include "testview/testpanel.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>

namespace nb::gui {

namespace {

constexpr int kMaxRecentTargets = 10;
const auto kRecentKey = QStringLiteral("test/recentTargets");

} // namespace

QString TestPanel::loopbackLabel()
{
    return tr("This computer (loopback)");
}

void TestPanel::loadRecentTargets()
{
    const QString current = m_target->currentText();
    const QSignalBlocker block(m_target);
    m_target->clear();
    m_target->addItem(loopbackLabel());
    m_target->setItemData(0, tr("The built-in server on 127.0.0.1"), Qt::ToolTipRole);
    for (const NamedTarget &t : std::as_const(m_namedTargets)) {
        m_target->addItem(t.label);
        m_target->setItemData(m_target->count() - 1, t.toolTip, Qt::ToolTipRole);
    }
    for (const QString &t : recentTargets())
        m_target->addItem(t);
    m_target->setCurrentText(current.isEmpty() ? loopbackLabel() : current);
}

void TestPanel::setNamedTargets(const QList<NamedTarget> &targets)
{
    // The lab refreshes every few seconds: an unchanged list leaves the box (and what is
    // being typed in it) alone.
    const auto same = [](const NamedTarget &a, const NamedTarget &b) {
        return a.label == b.label && a.target == b.target && a.toolTip == b.toolTip;
    };
    if (std::equal(targets.cbegin(), targets.cend(), m_namedTargets.cbegin(), m_namedTargets.cend(), same))
        return;
    // A named target that was selected and is gone: its address, so Run still means it.
    const QString current = m_target->currentText().trimmed();
    QString replacement;
    for (const NamedTarget &t : std::as_const(m_namedTargets)) {
        if (t.label == current &&
            std::none_of(targets.cbegin(), targets.cend(), [&](const NamedTarget &n) { return n.label == current; }))
            replacement = t.target;
    }
    m_namedTargets = targets;
    loadRecentTargets();
    if (!replacement.isEmpty())
        m_target->setCurrentText(replacement);
    onTargetChanged();
}

QString TestPanel::targetText() const
{
    const QString text = m_target->currentText().trimmed();
    for (const NamedTarget &t : m_namedTargets) {
        if (t.label == text)
            return t.target;
    }
    return text;
}

QStringList TestPanel::recentTargets() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void TestPanel::rememberCurrentTarget()
{
    const QString text = m_target->currentText().trimmed();
    if (text.isEmpty() || text == loopbackLabel() || text != targetText())
        return;
    QStringList recent = recentTargets();
    recent.removeAll(text);
    recent.prepend(text);
    while (recent.size() > kMaxRecentTargets)
        recent.removeLast();
    QSettings().setValue(kRecentKey, recent);
    loadRecentTargets();
}

void TestPanel::setLoopbackPort(quint16 port)
{
    m_loopbackPort = port;
    onTargetChanged();
}

void TestPanel::selectLoopback()
{
    m_target->setCurrentIndex(0);
    m_target->setCurrentText(loopbackLabel());
    onTargetChanged();
}

bool TestPanel::isLoopbackSelected() const
{
    return m_target->currentText().trimmed() == loopbackLabel();
}

void TestPanel::onTargetChanged()
{
    // The loopback entry always means the built-in server, wherever it listens.
    const bool loopback = isLoopbackSelected();
    if (loopback) {
        const QSignalBlocker block(m_port);
        m_port->setValue(m_loopbackPort);
    }
    // A named target carries its port too ("198.18.0.10:5201").
    const bool named = !loopback && targetText() != m_target->currentText().trimmed();
    // A long chosen entry shows its start ("lab: e1000 (127.0.0.1:4..."), not its end.
    if (named && m_target->lineEdit() && !m_target->lineEdit()->hasFocus())
        m_target->lineEdit()->setCursorPosition(0);
    m_port->setEnabled(!loopback && !named);
    m_port->setToolTip(loopback ? tr("The built-in server's port")
                       : named  ? tr("The port of the server named in Target")
                                : QString());
}

} // namespace nb::gui
