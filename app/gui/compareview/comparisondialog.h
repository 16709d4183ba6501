// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "New Comparison": builds a comparison of adapters x variants on top of the test panel's
// parameters. The adapters are the endpoint rows (EndpointTable: a local address, a
// target, a short label such as "E1000"); the variants are throughput with each stream
// count of the Streams list ("P=1", "P=4") and request/response with its own connection
// count ("TCP_RR", "TCP_RR (4 conn.)"). The preview lists every configuration's adapter,
// variant and what it runs; the baseline is an adapter, whose configuration of each variant
// the others are compared with. "Ask Server for Its Adapters" queries a NicBench server (a
// JobTracker job) and offers the adapter pairs that share a subnet as endpoints. Every
// input has a setter so tests drive the dialog without clicking.

#include "window/jobtracker.h"

#include <compare/adapterpairs.h>
#include <compare/comparison.h>
#include <compare/comparisonmatrix.h>
#include <platform/adapterinfo.h>
#include <platform/hostenvironment.h>

#include <QDialog>
#include <QMap>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace nb::gui {

class EndpointTable;

class ComparisonDialog : public QDialog {
    Q_OBJECT
public:
    explicit ComparisonDialog(QWidget *parent = nullptr);
    // Waits for a server query still running (bounded by its timeout).
    ~ComparisonDialog() override;

    // Inputs from the window: the test panel's parameters (the target and port of the
    // default endpoint, the Streams field's start, everything the variants do not change)
    // and the live adapters.
    void setBaseParams(const nb::TestParams &params);
    void setAdapters(const QList<nb::AdapterInfo> &adapters);
    // The agents the From column offers (Tools > Hosts; read from the settings at first).
    void setAgentHosts(const QStringList &hosts);

    // Endpoint rows (replaced, with their widgets). An empty label gets the default.
    void setEndpoints(const QList<nb::MatrixEndpoint> &endpoints);
    QList<nb::MatrixEndpoint> endpoints() const; // the ticked rows, labels as shown
    int endpointRowCount() const;
    void setEndpointEnabled(int row, bool enabled);
    void setEndpointLabel(int row, const QString &label); // empty: the default
    void removeEndpointRow(int row);
    EndpointTable *endpointTable() const { return m_endpoints; }

    void setStreamsText(const QString &text); // "1, 4, 16": the throughput variants
    QString streamsText() const;
    void setKinds(bool throughput, bool requestResponse, bool loadedLatency = false);
    // UDP variants: a stream at each of `rates` ("100M, 500M", -b's notation; one variant
    // each) and UDP request/response.
    void setUdpKinds(bool stream, const QString &rates, bool requestResponse);
    void setRrConnections(int connections); // the request/response variant's connections
    int rrConnections() const;
    void setDuration(double seconds);
    void setPort(quint16 port);
    void setRepeats(int repeats);
    void setOrder(nb::OrderPolicy order);
    void setPauseSeconds(double seconds);
    void setTitle(const QString &title);
    // The baseline adapter (an endpoint's label); false when no ticked endpoint has it.
    bool setBaselineAdapter(const QString &adapter);
    QString baselineAdapter() const;
    QStringList baselineChoices() const;
    // The baseline adapter named by configuration `index` (kept for scripts and tests).
    void setBaselineIndex(int index);
    // Renames a configuration of the preview (kept while the matrix keeps that entry); its
    // adapter and variant stay, so charts still group it.
    void setConfigurationLabel(int index, const QString &label);

    // The configurations of the preview, in order.
    QList<nb::Configuration> configurations() const;
    // The comparison to run; meaningful when validationError() is empty. Its baselineIndex
    // is the first configuration of the baseline adapter.
    nb::Comparison comparison() const;
    // One line for the user, empty when the comparison can run.
    QString validationError() const { return m_error; }

    // Queries the server of the current (else first ticked) endpoint for its adapters.
    void askServer();
    bool isAskingServer() const { return m_asking; }
    // What the last answer offered (also added as endpoint rows, not ticked).
    QList<nb::AdapterPair> suggestions() const { return m_suggestions; }
    QString serverStatus() const { return m_serverStatus; }

Q_SIGNALS:
    void serverAnswered(bool ok, const QString &text);

private:
    enum PreviewColumn { PreviewAdapter, PreviewVariant, PreviewTest, PreviewTarget, PreviewColumns };
    QWidget *buildEndpoints();
    QWidget *buildVariants();
    QWidget *buildRunSettings();
    QWidget *buildPreview();
    void fitToScreen();
    bool variants(QList<nb::MatrixVariant> *out, QString *error) const;
    nb::TestParams base() const;
    nb::Direction direction() const; // the Direction box: throughput and UDP variants
    void refresh();
    void fillPreview();
    // Why a configuration from an agent cannot run (no key file chosen, a bad address, a
    // setting no flag can say); empty when they all can.
    QString agentError(const QList<nb::MatrixEndpoint> &eps, const QList<nb::Configuration> &configs) const;
    void fillBaselineChoices();
    void onPreviewEdited(int row, int column, const QString &text);
    void onServerAnswer(bool ok, const nb::HostEnvironment &info, const QString &error);

    nb::TestParams m_base;
    QList<nb::Configuration> m_configurations; // the preview, labels edited
    QMap<QString, QString> m_labelEdits;       // default label -> the user's label
    QString m_error;
    bool m_refreshing = false;

    EndpointTable *m_endpoints = nullptr;
    QPushButton *m_askButton = nullptr;
    QLabel *m_serverLabel = nullptr;
    QLineEdit *m_streams = nullptr;
    QCheckBox *m_throughput = nullptr;
    QCheckBox *m_rr = nullptr;
    QSpinBox *m_rrConnections = nullptr;
    QCheckBox *m_loaded = nullptr;
    QCheckBox *m_udp = nullptr;
    QLineEdit *m_udpRates = nullptr;
    QCheckBox *m_udpRr = nullptr;
    QLabel *m_baseLabel = nullptr;
    QDoubleSpinBox *m_duration = nullptr;
    QComboBox *m_direction = nullptr; // of throughput and UDP variants
    QSpinBox *m_port = nullptr;
    QSpinBox *m_repeats = nullptr;
    QComboBox *m_order = nullptr;
    QDoubleSpinBox *m_pause = nullptr;
    QDoubleSpinBox *m_equivalence = nullptr; // Comparison::equivalencePercent
    QLineEdit *m_title = nullptr;
    QTableWidget *m_preview = nullptr;
    QComboBox *m_baseline = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_validation = nullptr;
    QDialogButtonBox *m_buttons = nullptr;

    bool m_asking = false;
    QString m_serverStatus;
    QList<nb::AdapterPair> m_suggestions;
    JobTracker m_query{this}; // the server query; last: destroyed (and joined) first
};

} // namespace nb::gui
