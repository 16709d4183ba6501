// SPDX-License-Identifier: GPL-3.0-or-later
// TestPanel, part four: the Target box, with the recent targets (kept in QSettings) and the
// loopback entry that stands for the built-in server. The form itself is in testpanel.cpp.
#include "testview/testpanel.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

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
    for (const QString &t : recentTargets())
        m_target->addItem(t);
    m_target->setCurrentText(current.isEmpty() ? loopbackLabel() : current);
}

QStringList TestPanel::recentTargets() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void TestPanel::rememberCurrentTarget()
{
    const QString text = m_target->currentText().trimmed();
    if (text.isEmpty() || text == loopbackLabel())
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
    m_port->setEnabled(!loopback);
    m_port->setToolTip(loopback ? tr("The built-in server's port") : QString());
}

} // namespace nb::gui
