// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tools > Hosts: the agents this window drives (nicbench-cli -s --agent-key FILE), by address
// ("HOST[:PORT]"), saved in the settings with the path of the agent key file (never the key
// itself). For each agent: whether it answers and takes the key, and if not why (the
// engine's line: refused, no answer, wrong key, busy, not an agent), its machine and its
// adapters from the info query. Add, Remove and Refresh probe off the GUI thread
// (HostProber); the dialog never waits for a host. The From boxes of the Test tab and of New
// Comparison offer these agents (hostsChanged).

#include <session/agentprobe.h>

#include <QDialog>
#include <QMap>
#include <QStringList>

#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace nb::ui {
class ElidedLabel;
}

namespace nb::gui {

class HostProber;

class HostsDialog : public QDialog {
    Q_OBJECT
public:
    explicit HostsDialog(QWidget *parent = nullptr);
    ~HostsDialog() override;

    QStringList hosts() const { return m_hosts; }
    // Adds "HOST[:PORT]" (port 5201 unless given), saves the list and probes it. False with
    // a one-line *error for an address that does not read, or one already listed.
    bool addHost(const QString &text, QString *error = nullptr);
    void removeHost(const QString &host);
    // Probes every host again.
    void refresh();
    bool isRefreshing() const;
    // The agent key file (saved as a path); every host is probed again with it.
    void setKeyPath(const QString &path);
    QString keyPath() const;

    // The last probe's answer for a host; nullopt before the first one ends.
    std::optional<nb::AgentStatus> status(const QString &host) const;
    // What the Status column says for a host ("Ready", "Unreachable", "Wrong key", ...).
    QString statusText(const QString &host) const;
    // What the details under the list say for a host: the reason in full, the machine.
    QString detailText(const QString &host) const;
    HostProber *prober() const { return m_prober; }
    QTreeWidget *hostList() const { return m_list; }
    QTreeWidget *adapterList() const { return m_adapters; }
    void selectHost(const QString &host);

    // One short word for a probe's answer, and the sentence behind it.
    static QString statusWord(const nb::AgentStatus &status);
    static QString statusSentence(const nb::AgentStatus &status);

Q_SIGNALS:
    void hostsChanged(const QStringList &hosts);
    // A probe's answer was shown.
    void hostProbed(const QString &host);

private:
    QWidget *buildAddRow();
    QWidget *buildKeyRow();
    void save();
    void fillRow(QTreeWidgetItem *item, const QString &host);
    QTreeWidgetItem *itemOf(const QString &host) const;
    void showDetails();
    void onProbed(const QString &host, const nb::AgentStatus &status);
    void chooseKeyFile();
    void updateKeyLabel();

    QStringList m_hosts;
    QMap<QString, nb::AgentStatus> m_status;
    QStringList m_checking; // probes asked for and not answered yet
    HostProber *m_prober;
    QLineEdit *m_edit = nullptr;
    QLabel *m_addError = nullptr;
    QTreeWidget *m_list = nullptr;
    QLabel *m_details = nullptr;
    QTreeWidget *m_adapters = nullptr;
    nb::ui::ElidedLabel *m_keyLabel = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_refresh = nullptr;
};

} // namespace nb::gui
