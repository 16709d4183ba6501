// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "New Comparison": builds a comparison matrix from endpoints (a local address and a
// target) x variants (stream counts, throughput and/or request/response) on top of the
// test panel's parameters, with a live preview of the configurations whose labels can be
// edited. "Ask server for its adapters" queries a NicBench server (on a worker thread)
// and offers the adapter pairs that share a subnet as endpoints. Every input has a setter
// so tests drive the dialog without clicking.

#include <compare/adapterpairs.h>
#include <compare/comparison.h>
#include <compare/comparisonmatrix.h>
#include <platform/adapterinfo.h>
#include <platform/hostenvironment.h>

#include <QDialog>
#include <QMap>

#include <thread>

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

class ComparisonDialog : public QDialog {
    Q_OBJECT
public:
    explicit ComparisonDialog(QWidget *parent = nullptr);
    // Waits for a server query still running (bounded by its timeout).
    ~ComparisonDialog() override;

    // Inputs from the window: the test panel's parameters (the target and port of the
    // default endpoint, everything the variants do not change) and the live adapters.
    void setBaseParams(const nb::TestParams &params);
    void setAdapters(const QList<nb::AdapterInfo> &adapters);

    // Endpoint rows. Each row: enabled, label (empty: the default), bind address (empty:
    // any), target host.
    void setEndpoints(const QList<nb::MatrixEndpoint> &endpoints);
    QList<nb::MatrixEndpoint> endpoints() const; // the enabled rows
    int endpointRowCount() const;
    void setEndpointEnabled(int row, bool enabled);

    void setStreamsText(const QString &text); // "1, 4, 16"
    void setKinds(bool throughput, bool requestResponse);
    void setDuration(double seconds);
    void setPort(quint16 port);
    void setRepeats(int repeats);
    void setOrder(nb::OrderPolicy order);
    void setPauseSeconds(double seconds);
    void setTitle(const QString &title);
    void setBaselineIndex(int index);
    // Renames a configuration of the preview (kept while the matrix keeps that entry).
    void setConfigurationLabel(int index, const QString &label);

    // The configurations of the preview, in order.
    QList<nb::Configuration> configurations() const;
    // The comparison to run; meaningful when validationError() is empty.
    nb::Comparison comparison() const;
    // One line for the user, empty when the comparison can run.
    QString validationError() const { return m_error; }

    // Queries the server of the current (else first enabled) endpoint for its adapters.
    void askServer();
    bool isAskingServer() const { return m_asking; }
    // What the last answer offered (also added as endpoint rows).
    QList<nb::AdapterPair> suggestions() const { return m_suggestions; }
    QString serverStatus() const;

Q_SIGNALS:
    void serverAnswered(bool ok, const QString &text);

private:
    QWidget *buildEndpoints();
    QWidget *buildVariants();
    QWidget *buildRunSettings();
    QWidget *buildPreview();
    void insertEndpointRow(const nb::MatrixEndpoint &endpoint, bool enabled);
    QComboBox *bindCombo(const QString &current);
    nb::MatrixEndpoint endpointAt(int row) const;
    bool variants(QList<nb::MatrixVariant> *out, QString *error) const;
    nb::TestParams base() const;
    void refresh();
    void onServerAnswer(quint64 job, bool ok, const nb::HostEnvironment &info, const QString &error);
    void joinQuery();

    nb::TestParams m_base;
    QList<nb::AdapterInfo> m_adapters;
    QList<nb::Configuration> m_configurations; // the preview, labels edited
    QMap<QString, QString> m_labelEdits;       // default label -> the user's label
    QString m_error;
    bool m_refreshing = false;

    QTableWidget *m_endpoints = nullptr;
    QPushButton *m_askButton = nullptr;
    QLabel *m_serverLabel = nullptr;
    QLineEdit *m_streams = nullptr;
    QCheckBox *m_throughput = nullptr;
    QCheckBox *m_rr = nullptr;
    QLabel *m_baseLabel = nullptr;
    QDoubleSpinBox *m_duration = nullptr;
    QSpinBox *m_port = nullptr;
    QSpinBox *m_repeats = nullptr;
    QComboBox *m_order = nullptr;
    QDoubleSpinBox *m_pause = nullptr;
    QLineEdit *m_title = nullptr;
    QTableWidget *m_preview = nullptr;
    QComboBox *m_baseline = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_validation = nullptr;
    QDialogButtonBox *m_buttons = nullptr;

    quint64 m_queryJob = 0;
    bool m_asking = false;
    QString m_serverStatus;
    QList<nb::AdapterPair> m_suggestions;
    std::thread m_query;
};

} // namespace nb::gui
