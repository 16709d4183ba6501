// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The New Comparison dialog's endpoint rows: Use (a check box), Label (the adapter's name
// in the charts, editable), From (this computer, or an agent of Tools > Hosts that runs the
// row's tests: an editable combo), Bind to (-B, a combo of this computer's adapters;
// from an agent, automatic) and Target host (with ":port" where its server listens
// elsewhere). Each row is built once, and its combos are deleted with their row, so no cell
// widget outlives the row it belongs to.
//
// Labels: a row whose label was not typed shows the short default of nb::defaultLabels()
// over all rows ("E1000", "VMXNET3", the interface name for a veth), made unique; it
// follows the From and Target cells until the user types a label. Clearing a label goes
// back to the default. endpointAt() always carries the label shown, so the comparison's
// adapters are named exactly as the table says.

#include <compare/comparisonmatrix.h>
#include <platform/adapterinfo.h>

#include <QList>
#include <QTableWidget>

class QComboBox;

namespace nb::gui {

class EndpointTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { UseColumn, LabelColumn, AgentColumn, BindColumn, TargetColumn, ColumnCount };

    explicit EndpointTable(QWidget *parent = nullptr);

    // This computer's adapters: the From combos' choices and the adapter of a bind address.
    void setAdapters(const QList<nb::AdapterInfo> &adapters);
    const QList<nb::AdapterInfo> &adapters() const { return m_adapters; }
    // The agents the From combos offer (Tools > Hosts); keeps each row's choice.
    void setAgentHosts(const QStringList &hosts);

    // Replaces every row (their cell widgets go with them).
    void setEndpoints(const QList<nb::MatrixEndpoint> &endpoints, bool enabled = true);
    // Appends a row; an endpoint with an empty label gets the default one. Returns the row.
    int addEndpoint(const nb::MatrixEndpoint &endpoint, bool enabled);
    void removeEndpoint(int row);
    // True when a row already goes from `bindAddress` to `target`.
    bool contains(const QString &bindAddress, const QString &target) const;
    // True when a row reaches `target` through the adapter `adapterName` as far as is
    // known (its bind address is on it, or the target is loopback and it is lo).
    bool reaches(const QString &adapterName, const QString &target) const;

    // The row's endpoint: bind address, target, the local adapter when known, and the label
    // shown (typed or default).
    nb::MatrixEndpoint endpointAt(int row) const;
    QList<nb::MatrixEndpoint> enabledEndpoints() const;
    // Why the row's Target cell ("host" or "host:port") cannot be used; empty when it can.
    QString targetError(int row) const;
    QList<int> enabledRows() const;
    bool isRowEnabled(int row) const;
    void setRowEnabled(int row, bool enabled);
    // Types a label into the row; empty goes back to the default.
    void setLabel(int row, const QString &label);
    QString label(int row) const;
    bool hasTypedLabel(int row) const;
    QComboBox *bindCombo(int row) const;
    QComboBox *agentCombo(int row) const;
    // Chooses the agent of a row ("HOST[:PORT]"; empty: this computer).
    void setAgent(int row, const QString &agent);

Q_SIGNALS:
    // Any change of a row: ticked, renamed, From or Target changed, added or removed.
    void endpointsChanged();

private:
    QComboBox *makeBindCombo(const QString &current);
    QComboBox *makeAgentCombo(const QString &current);
    void fillAgentCombo(QComboBox *combo, const QString &current) const;
    QString agentOf(int row) const;
    void onAgentChanged(QComboBox *combo);
    void fillBindCombo(QComboBox *combo, const QString &current) const;
    int rowOfCombo(const QComboBox *combo) const;
    void deleteCellWidgets(int row);
    nb::MatrixEndpoint rawEndpointAt(int row) const; // the typed label only
    void relabel();                                  // the default labels of untyped rows
    void onItemChanged(QTableWidgetItem *item);

    QList<nb::AdapterInfo> m_adapters;
    QStringList m_agentHosts;
    bool m_updating = false;
};

} // namespace nb::gui
