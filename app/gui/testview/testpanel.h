// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The test settings: target, preset, the common parameters, and every other engine
// parameter in a collapsible advanced section. Remembers recent targets.

#include "testview/testpresets.h"

#include <model/testparams.h>
#include <platform/adapterinfo.h>

#include <QWidget>

class QAction;
class QCheckBox;
class QSettings;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace nb::gui {

class LoadedLatencyFields;
class UdpFields;

// A target the window offers by name in the Target box ("lab: e1000 (198.18.0.10)"): a lab
// guest's server. Selecting it tests `target` ("host" or "host:port").
struct NamedTarget {
    QString label;
    QString target;
    QString toolTip;
};

class TestPanel : public QWidget {
    Q_OBJECT
public:
    explicit TestPanel(QWidget *parent = nullptr);

    // The parameters the form shows. Returns false with a one-line *error when a field
    // holds something the engine cannot use.
    bool params(nb::TestParams *out, QString *error) const;
    // Shows the given parameters (the preset becomes "Custom settings").
    void setParams(const nb::TestParams &params);
    // Every test one Run starts: one, or for "both" throughput then request/response.
    bool testPlan(QList<nb::TestParams> *out, QString *error) const;

    TestType testType() const;
    void setTestType(TestType type);
    // The adapters whose addresses "Bind to" offers (-B); keeps the current choice.
    void setAdapters(const QList<nb::AdapterInfo> &adapters);
    // The local address chosen in "Bind to", empty for automatic.
    QString bindAddress() const;

    // "From": the agent that runs the test ("HOST[:PORT]", nicbench-cli -c B --from A), empty
    // for this computer. The choices are the agents of Tools > Hosts; any agent can be typed.
    QString agentFrom() const;
    void setAgentFrom(const QString &agent);
    void setAgentHosts(const QStringList &hosts);
    static QString thisComputerLabel();

    // The port of the built-in server that "This computer (loopback)" stands for.
    void setLoopbackPort(quint16 port);
    void selectLoopback();
    bool isLoopbackSelected() const;
    static QString loopbackLabel();

    void selectPreset(int index);
    int presetCount() const { return int(m_presets.size()); }

    // Adds the current target to the recent list (kept in QSettings); a named target is not
    // remembered, it lasts as long as what it names.
    void rememberCurrentTarget();
    QStringList recentTargets() const;
    // The named targets, listed after the loopback entry. A selected one that goes away is
    // replaced by its address, so the form keeps meaning the same server.
    void setNamedTargets(const QList<NamedTarget> &targets);
    QList<NamedTarget> namedTargets() const { return m_namedTargets; }
    // What Target means: the text typed, a named target's "host[:port]", or the loopback label.
    QString targetText() const;

    // The last test's settings (target, preset, type and every field) in QSettings, so
    // the next start shows them; a stored form the engine no longer accepts is ignored.
    void saveState(QSettings &settings) const;
    void restoreState(const QSettings &settings);

    void setEditingEnabled(bool enabled);
    void setRunActions(QAction *run, QAction *stop);
    void setAdvancedVisible(bool visible);

Q_SIGNALS:
    void runRequested();

private:
    // The constructor in parts, top of the panel to bottom, then the signals.
    void setUpTargetFields();
    void setUpTestChoices();
    void setUpAmountFields();
    void layOutPanel();
    void connectFields();
    QWidget *buildAdvanced();
    void createTransportFields(QWidget *box);
    void createRequestResponseFields(QWidget *box);
    void createSystemFields(QWidget *box);
    void layOutAdvanced(QWidget *box);
    void connectAdvanced();
    void loadRecentTargets();
    void onTargetChanged();
    void onPresetActivated(int index);
    void markCustom();
    void updateComboToolTip(QComboBox *combo);
    void showParams(const nb::TestParams &params);
    void updateTypeFields();
    // The form's parameters as a throughput test (the first of a "both" run).
    bool streamParams(nb::TestParams *out, QString *error) const;
    nb::TestParams asRequestResponse(nb::TestParams params) const;

    QList<TestPreset> m_presets;
    QList<NamedTarget> m_namedTargets;
    quint16 m_loopbackPort = 5201;
    bool m_applying = false;

    QWidget *m_settings;
    QComboBox *m_target;
    QComboBox *m_preset;
    QComboBox *m_type;
    QComboBox *m_agent;
    QComboBox *m_bind;
    QComboBox *m_direction;
    int m_directionBeforeLoaded = -1; // the direction chosen before latency under load showed "Both ways"
    QSpinBox *m_streams;
    LoadedLatencyFields *m_loaded;
    UdpFields *m_udp;
    QDoubleSpinBox *m_duration;
    QToolButton *m_advancedToggle;
    QWidget *m_advanced;
    QSpinBox *m_port;
    QLineEdit *m_blockSize;
    QLineEdit *m_window;
    QSpinBox *m_mss;
    QCheckBox *m_noDelay;
    QLineEdit *m_congestion;
    QLineEdit *m_bytes;
    QDoubleSpinBox *m_omit;
    QDoubleSpinBox *m_interval;
    QLineEdit *m_requestSize;
    QLineEdit *m_responseSize;
    QSpinBox *m_connections;
    QSpinBox *m_inFlight;
    QCheckBox *m_crr;
    QComboBox *m_family;
    QComboBox *m_protocol;
    QCheckBox *m_skipRxCopy;
    QCheckBox *m_zeroCopy;
    QSpinBox *m_connectTimeout;
    QSpinBox *m_threads;
    QLineEdit *m_title;
    QToolButton *m_runButton;
    QToolButton *m_stopButton;
};

} // namespace nb::gui
