// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tools > Adapter Lab: starts and stops the lab's QEMU guests (adapters, CPUs, memory, MTU),
// shows each guest's progress (booting, up with its address and driver, failed with its
// console's last lines) as the LabController reports it, and says what the networking
// without root means. Not modal: the window stays usable while guests boot. Every input has
// a setter, so tests drive it without clicking.

#include <lab/labmodel.h>

#include <QDialog>
#include <QMap>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace nb::gui {

class LabController;

class LabDialog : public QDialog {
    Q_OBJECT
public:
    enum Column { GuestColumn, AdapterColumn, DriverColumn, AddressColumn, StateColumn, ColumnCount };

    explicit LabDialog(LabController *lab, QWidget *parent = nullptr);

    void setAdapters(const QStringList &models); // "e1000", "vmxnet3": the boxes ticked
    QStringList adapters() const;
    void setCpus(int cpus);
    void setMemoryMb(int megabytes);
    void setMtu(int mtu);
    void setUserNetworking(bool on); // as root; without root it is always on
    void setTimeoutSeconds(int seconds) { m_timeoutSeconds = seconds; }
    nb::lab::UpOptions options() const;
    // What Start would refuse (one line), else empty.
    QString validationError() const;

    // Start and Stop, as the buttons do; false when Start was refused (the reason is shown).
    bool startLab();
    void stopLab();

    // What the dialog shows.
    QString messageText() const;
    QString guestCell(const QString &guest, Column column) const;
    QString consoleText() const;
    bool isConsoleShown() const;
    QString networkNote() const;
    QTableWidget *guestTable() const { return m_guests; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *compareButton() const { return m_compare; }

Q_SIGNALS:
    // "New Comparison..." with the guests that are up.
    void newComparisonRequested();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    QWidget *buildSettings();
    QWidget *buildGuests();
    void render();
    void renderGuests();
    void updateInputs();
    void onInputChanged();
    QString stateText(const nb::lab::GuestState &guest) const;

    LabController *m_lab;
    int m_timeoutSeconds = 0;
    QString m_refusal; // why the last Start was refused
    QMap<QString, QCheckBox *> m_models;
    QSpinBox *m_cpus = nullptr;
    QSpinBox *m_memory = nullptr;
    QSpinBox *m_mtu = nullptr;
    QCheckBox *m_userNet = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_validation = nullptr;
    QTableWidget *m_guests = nullptr;
    QLabel *m_consoleLabel = nullptr;
    QPlainTextEdit *m_console = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_compare = nullptr;
    QTimer *m_tick = nullptr; // booting guests' seconds
};

} // namespace nb::gui
