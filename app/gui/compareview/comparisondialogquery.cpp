// SPDX-License-Identifier: GPL-3.0-or-later
// ComparisonDialog's "Ask Server for Its Adapters": the info query to the chosen row's server on
// a worker thread, and the adapter pairs on a shared subnet it suggests, added as unticked rows.
// The dialog's widgets are in comparisondialoglayout.cpp, the rest of its behaviour in
// comparisondialog.cpp.
#include "compareview/comparisondialog.h"

#include "compareview/endpointtable.h"

#include <session/serverinfo.h>

#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace nb::gui {

void ComparisonDialog::askServer()
{
    if (m_asking)
        return;
    int row = m_endpoints->currentRow();
    if (row < 0 && !m_endpoints->enabledRows().isEmpty())
        row = m_endpoints->enabledRows().first();
    const nb::MatrixEndpoint e =
        row >= 0 ? m_endpoints->endpointAt(row) : nb::MatrixEndpoint{QString(), m_base.host, std::nullopt, QString()};
    if (e.target.isEmpty()) {
        m_serverStatus = tr("Enter a target host first.");
        m_serverLabel->setText(m_serverStatus);
        Q_EMIT serverAnswered(false, m_serverStatus);
        return;
    }
    nb::ServerInfoQuery query;
    query.host = e.target;
    query.port = quint16(m_port->value());
    query.bindAddress = e.bindAddress;
    query.timeoutSeconds = 5;
    m_asking = true;
    m_askButton->setEnabled(false);
    m_serverStatus = tr("Asking %1 port %2...").arg(query.host).arg(query.port);
    m_serverLabel->setText(m_serverStatus);
    m_query.start([this, query](JobTracker::Id job) {
        nb::HostEnvironment info;
        QString error;
        const bool ok = nb::queryServerInfo(query, &info, &error);
        m_query.deliver(job, [this, ok, info, error] { onServerAnswer(ok, info, error); });
    });
}

void ComparisonDialog::onServerAnswer(bool ok, const nb::HostEnvironment &info, const QString &error)
{
    m_query.wait(); // the query has returned; its thread is ending
    m_asking = false;
    m_askButton->setEnabled(true);
    if (!ok) {
        m_serverStatus = tr("The server did not list its adapters: %1").arg(error);
        m_serverLabel->setText(m_serverStatus);
        Q_EMIT serverAnswered(false, m_serverStatus);
        return;
    }
    m_suggestions = nb::suggestAdapterPairs(m_endpoints->adapters(), info.adapters);
    int added = 0;
    for (const nb::AdapterPair &pair : std::as_const(m_suggestions)) {
        if (m_endpoints->contains(pair.localAddress, pair.remoteAddress) ||
            m_endpoints->reaches(pair.local.name, pair.remoteAddress))
            continue;
        // No label: the row gets the local adapter's short name ("E1000", "ens224").
        m_endpoints->addEndpoint(nb::MatrixEndpoint{pair.localAddress, pair.remoteAddress, pair.local, QString()},
                                 false);
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
