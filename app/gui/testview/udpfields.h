// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The test panel's fields for a UDP test (iperf3 -u): the target rate with its unit (0 is
// unlimited, -b 0), the datagram size (-l; empty keeps iperf3's default, the path's MSS)
// and, for UDP request/response, how long a request may wait for its response. Ranges and
// tooltips come from the parameter table. The rows go into the test panel's own form, so
// their labels line up with the other fields.

#include <model/testparams.h>

#include <QObject>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace nb::gui {

class UdpFields : public QObject {
    Q_OBJECT
public:
    // The fields' widgets are children of parent (the form's widget).
    explicit UdpFields(QWidget *parent);
    // Adds the rows (rate, datagram, timeout) to the form; call once.
    void addRows(QFormLayout *form);

    // Makes *params a UDP test with these fields: a stream (-u -b -l) or, with
    // requestResponse, UDP request/response (-u --rr). False with a one-line *error when
    // the datagram size does not parse.
    bool apply(nb::TestParams *params, bool requestResponse, QString *error) const;
    void show(const nb::TestParams &params);
    // Hides the rows for other tests; a UDP test shows its stream fields (rate,
    // datagram) or its request/response field (timeout).
    void showRows(bool udp, bool requestResponse);
    // The rate the fields ask for, bit/s (0: unlimited).
    double bitsPerSecond() const;

Q_SIGNALS:
    void edited();

private:
    QFormLayout *m_form = nullptr;
    QHBoxLayout *m_rateRow;
    QDoubleSpinBox *m_rate;
    QComboBox *m_rateUnit;
    QLineEdit *m_datagram;
    QSpinBox *m_timeout;
    QLabel *m_rateLabel;
    QLabel *m_datagramLabel;
    QLabel *m_timeoutLabel;
    // Set on the command line only (--pacing-timer, --udp-counters-64bit): kept as shown.
    int m_pacingTimerUs = 1000;
    bool m_counters64 = false;
};

} // namespace nb::gui
