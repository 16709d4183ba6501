// SPDX-License-Identifier: GPL-3.0-or-later
// TestPanel, part three: the "From" box (this computer or an agent of Tools > Hosts) and the
// "Bind to" box, which offers the local adapters' addresses for -B. The form itself is in
// testpanel.cpp.
#include "testview/testpanel.h"

#include <QComboBox>

namespace nb::gui {

void TestPanel::setAdapters(const QList<nb::AdapterInfo> &adapters)
{
    const QString current = m_bind->currentText();
    const QString currentData = m_bind->currentData().toString();
    const QSignalBlocker block(m_bind);
    while (m_bind->count() > 1)
        m_bind->removeItem(1);
    for (const nb::AdapterInfo &a : adapters) {
        if (!a.isUp())
            continue;
        for (const nb::AdapterAddress &addr : a.addresses) {
            // Link-local IPv6 needs a scope id, which -B does not carry.
            if (addr.address.isLinkLocal())
                continue;
            const QString ip = addr.address.toString();
            m_bind->addItem(QStringLiteral("%1 \u2013 %2").arg(a.name, ip), ip);
        }
    }
    const int i = currentData.isEmpty() ? (current == m_bind->itemText(0) ? 0 : -1) : m_bind->findData(currentData);
    if (i >= 0)
        m_bind->setCurrentIndex(i);
    else
        m_bind->setCurrentText(current);
}

QString TestPanel::bindAddress() const
{
    const QString text = m_bind->currentText().trimmed();
    const int i = m_bind->findText(text);
    if (i >= 0)
        return m_bind->itemData(i).toString();
    return text; // typed by hand
}

QString TestPanel::thisComputerLabel()
{
    return tr("This computer");
}

void TestPanel::setAgentHosts(const QStringList &hosts)
{
    const QString current = agentFrom();
    const QSignalBlocker block(m_agent);
    m_agent->clear();
    m_agent->addItem(thisComputerLabel(), QString());
    m_agent->setItemData(0, tr("The test runs here, in this window"), Qt::ToolTipRole);
    for (const QString &h : hosts) {
        m_agent->addItem(h, h);
        m_agent->setItemData(m_agent->count() - 1, tr("The agent %1 runs the test").arg(h), Qt::ToolTipRole);
    }
    setAgentFrom(current);
}

QString TestPanel::agentFrom() const
{
    const QString text = m_agent->currentText().trimmed();
    if (text.isEmpty() || text == thisComputerLabel())
        return {};
    const int i = m_agent->findText(text);
    return i >= 0 ? m_agent->itemData(i).toString() : text;
}

void TestPanel::setAgentFrom(const QString &agent)
{
    const int i = agent.isEmpty() ? 0 : m_agent->findData(agent);
    if (i >= 0)
        m_agent->setCurrentIndex(i);
    else
        m_agent->setCurrentText(agent);
    updateComboToolTip(m_agent);
}

} // namespace nb::gui
