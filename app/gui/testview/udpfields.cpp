// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/udpfields.h"

#include "testview/formfields.h"

#include <core/udpaccounting.h>
#include <model/parameters.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>

#include <cmath>

namespace nb::gui {

namespace {

// The rate's units as -b counts them (K/M/G = 1000s).
constexpr double kUdpRateUnits[] = {1e3, 1e6, 1e9};

// "100", "2.5", "0.125": the rate without trailing zeros, as -b is written.
class RateSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;

protected:
    QString textFromValue(double value) const override
    {
        QLocale l = locale();
        l.setNumberOptions(QLocale::OmitGroupSeparator);
        return l.toString(value, 'f', QLocale::FloatingPointShortest);
    }
};

} // namespace

UdpFields::UdpFields(QWidget *parent)
    : QObject(parent)
    , m_rateRow(new QHBoxLayout)
    , m_rate(new RateSpinBox(parent))
    , m_rateUnit(new QComboBox(parent))
    , m_datagram(new QLineEdit(parent))
    , m_timeout(new QSpinBox(parent))
    , m_rateLabel(new QLabel(tr("&Rate:"), parent))
    , m_datagramLabel(new QLabel(tr("Data&gram:"), parent))
    , m_timeoutLabel(new QLabel(tr("&Timeout:"), parent))
{
    setObjectName(QStringLiteral("udpFields"));
    m_rateLabel->setObjectName(QStringLiteral("udpRateLabel"));
    using nb::param::Id;
    const nb::param::Parameter &rate = nb::param::parameter(Id::Bitrate);
    m_rate->setObjectName(QStringLiteral("udpRateSpin"));
    m_rate->setDecimals(3);
    m_rate->setSpecialValueText(tr("unlimited"));
    m_rate->setToolTip(nb::param::toolTip(rate));
    m_rateUnit->setObjectName(QStringLiteral("udpRateUnit"));
    m_rateUnit->addItem(tr("kbit/s"), kUdpRateUnits[0]);
    m_rateUnit->addItem(tr("Mbit/s"), kUdpRateUnits[1]);
    m_rateUnit->addItem(tr("Gbit/s"), kUdpRateUnits[2]);
    m_rateUnit->setToolTip(m_rate->toolTip());
    m_datagram->setObjectName(QStringLiteral("udpDatagramEdit"));
    m_datagram->setPlaceholderText(tr("path MSS (iperf3 default)"));
    m_datagram->setToolTip(tr("Bytes per datagram, %1 to %2; K suffix as in iperf (1400, 8K). Empty: the control "
                              "connection's MSS, as iperf3 chooses (-l).")
                               .arg(nb::udp::MinDatagram)
                               .arg(nb::udp::MaxDatagram));
    m_timeout->setObjectName(QStringLiteral("udpRrTimeoutSpin"));
    rangeFromTable(m_timeout, Id::UdpRrTimeout);
    m_timeout->setSingleStep(100);
    m_timeout->setSuffix(tr(" ms"));
    m_rateLabel->setBuddy(m_rate);
    m_datagramLabel->setBuddy(m_datagram);
    m_timeoutLabel->setBuddy(m_timeout);

    m_rateRow->setContentsMargins(0, 0, 0, 0);
    m_rateRow->addWidget(m_rate, 1);
    m_rateRow->addWidget(m_rateUnit);

    show(nb::TestParams());
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, &UdpFields::edited);
    connect(m_rateUnit, &QComboBox::currentIndexChanged, this, [this] {
        // The spin's range follows the unit, so 1e12 bit/s is the limit in every unit.
        const double max = nb::param::parameter(nb::param::Id::Bitrate).max;
        m_rate->setMaximum(max / m_rateUnit->currentData().toDouble());
        Q_EMIT edited();
    });
    connect(m_datagram, &QLineEdit::textEdited, this, &UdpFields::edited);
    connect(m_timeout, &QSpinBox::valueChanged, this, &UdpFields::edited);
}

double UdpFields::bitsPerSecond() const
{
    return std::round(m_rate->value() * m_rateUnit->currentData().toDouble());
}

bool UdpFields::apply(nb::TestParams *params, bool requestResponse, QString *error) const
{
    nb::TestParams p = *params;
    p.udp = true;
    p.kind = requestResponse ? nb::TestKind::Rr : nb::TestKind::Stream;
    p.bandwidth = std::uint64_t(bitsPerSecond());
    p.udpRrTimeoutMs = m_timeout->value();
    p.pacingTimerUs = m_pacingTimerUs;
    p.udpCounters64 = m_counters64;
    p.zeroCopy = false; // a TCP option (sendfile)
    std::uint64_t size = 0;
    if (!sizeField(m_datagram, tr("Datagram size"), sizeMax(nb::param::Id::BlockSize), &size, error))
        return false;
    // Empty: the TCP default stays in blockSize, which the engine reads as "iperf3's UDP default".
    p.blockSize = size > 0 ? std::uint32_t(size) : nb::TestParams().blockSize;
    *params = p;
    return true;
}

void UdpFields::show(const nb::TestParams &params)
{
    const QSignalBlocker b1(m_rate), b2(m_rateUnit), b3(m_datagram), b4(m_timeout);
    // The largest unit that keeps the number at 1 or more: 100 Mbit/s, 1 Gbit/s, 500 kbit/s.
    const double bps = double(params.bandwidth);
    int unit = 1; // Mbit/s for 0 (unlimited)
    if (bps > 0) {
        unit = 0;
        while (unit + 1 < int(std::size(kUdpRateUnits)) && bps >= kUdpRateUnits[unit + 1])
            ++unit;
    }
    m_rateUnit->setCurrentIndex(unit);
    const double max = nb::param::parameter(nb::param::Id::Bitrate).max;
    m_rate->setRange(0, max / kUdpRateUnits[unit]);
    m_rate->setValue(bps / kUdpRateUnits[unit]);
    m_datagram->setText(params.udp && !params.udpDatagramSizeUnset() ? QString::number(params.blockSize) : QString());
    m_timeout->setValue(params.udpRrTimeoutMs);
    m_pacingTimerUs = params.pacingTimerUs;
    m_counters64 = params.udpCounters64;
}

void UdpFields::addRows(QFormLayout *form)
{
    m_form = form;
    form->addRow(m_rateLabel, m_rateRow);
    form->addRow(m_datagramLabel, m_datagram);
    form->addRow(m_timeoutLabel, m_timeout);
    showRows(false, false);
}

void UdpFields::showRows(bool udp, bool requestResponse)
{
    if (!m_form)
        return;
    m_form->setRowVisible(m_rateRow, udp && !requestResponse);
    m_form->setRowVisible(m_datagram, udp && !requestResponse);
    m_form->setRowVisible(m_timeout, udp && requestResponse);
}

} // namespace nb::gui
