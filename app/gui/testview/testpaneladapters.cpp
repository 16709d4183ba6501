// SPDX-License-Identifier: GPL-3.0-or-later
// TestPanel, part three: the "From" box, which offers the local adapters' addresses for -B.
// The form itself is in testpanel.cpp.
#include "testview/testpanel.h"

#include <QComboBox>

namespace nb::gui {

void TestPanel::setAdapters(const QList<nb::AdapterInfo> &adapters)
{
    const QString current = m_from->currentText();
    const QString currentData = m_from->currentData().toString();
    const QSignalBlocker block(m_from);
    while (m_from->count() > 1)
        m_from->removeItem(1);
    for (const nb::AdapterInfo &a : adapters) {
        if (!a.isUp())
            continue;
        for (const nb::AdapterAddress &addr : a.addresses) {
            // Link-local IPv6 needs a scope id, which -B does not carry.
            if (addr.address.isLinkLocal())
                continue;
            const QString ip = addr.address.toString();
            m_from->addItem(QStringLiteral("%1 \u2013 %2").arg(a.name, ip), ip);
        }
    }
    const int i = currentData.isEmpty() ? (current == m_from->itemText(0) ? 0 : -1) : m_from->findData(currentData);
    if (i >= 0)
        m_from->setCurrentIndex(i);
    else
        m_from->setCurrentText(current);
}

QString TestPanel::bindAddress() const
{
    const QString text = m_from->currentText().trimmed();
    const int i = m_from->findText(text);
    if (i >= 0)
        return m_from->itemData(i).toString();
    return text; // typed by hand
}

} // namespace nb::gui
