// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The test panel's fields for a latency-under-load test: the phases in order, each
// phase's length and the probe's DSCP. Ranges and tooltips come from the parameter table.

#include <model/testparams.h>

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace nb::gui {

class LoadedLatencyFields : public QWidget {
    Q_OBJECT
public:
    explicit LoadedLatencyFields(QWidget *parent = nullptr);

    // Turns the form's throughput parameters into a latency-under-load test with these
    // fields (as the engine runs it: TestParams::normalized()). False with a one-line
    // *error when the phase list does not parse.
    bool apply(nb::TestParams *params, QString *error) const;
    void show(const nb::TestParams &params);
    // The test's length for the fields' values: phases x phase length, 0 when the list is bad.
    double totalSeconds() const;

Q_SIGNALS:
    void edited();

private:
    void updateTotal();

    QLineEdit *m_phases;
    QDoubleSpinBox *m_phaseSeconds;
    QSpinBox *m_probeDscp;
    QLabel *m_total;
};

} // namespace nb::gui
