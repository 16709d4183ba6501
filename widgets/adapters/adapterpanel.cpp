// SPDX-License-Identifier: GPL-3.0-or-later
#include "adapters/adapterpanel.h"
#include "core/format.h"

#include "adapters/adaptertile.h"
#include "common/chartstyle.h"
#include "common/elidedlabel.h"
#include "common/ratescale.h"
#include "common/utilizationscale.h"
#include "live/utilizationchart.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <cmath>

namespace nb::ui {

namespace {

QString offloadsText(const QMap<QString, bool> &offloads)
{
    if (offloads.isEmpty())
        return QCoreApplication::translate("nb::ui::AdapterPanel", "not readable");
    QStringList on, off;
    for (auto it = offloads.constBegin(); it != offloads.constEnd(); ++it)
        (it.value() ? on : off).append(it.key().toUpper());
    QString text =
        on.isEmpty() ? QCoreApplication::translate("nb::ui::AdapterPanel", "none on") : on.join(QLatin1Char(' '));
    if (!off.isEmpty())
        text += QCoreApplication::translate("nb::ui::AdapterPanel", " (off: %1)").arg(off.join(QLatin1Char(' ')));
    return text;
}

// "950", "9,500", "114 k", "2.3 M": short, so the row keeps its width as the rate grows.
QString packetRateText(double pps)
{
    if (pps < 10'000)
        return nb::formatGrouped(std::round(pps));
    if (pps < 1e6)
        return QStringLiteral("%1 k").arg(nb::formatSignificant(pps / 1e3, 3));
    return QStringLiteral("%1 M").arg(nb::formatSignificant(pps / 1e6, 3));
}

} // namespace

AdapterPanel::AdapterPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_subtitle(new QLabel(this))
    , m_scale(new QComboBox(this))
    , m_chart(new UtilizationChart(this))
    , m_details(new ElidedLabel(this))
    , m_allTraffic(new ElidedLabel(this))
{
    setObjectName(QStringLiteral("adapterPanel"));
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setObjectName(QStringLiteral("adapterTitle"));
    m_subtitle->setObjectName(QStringLiteral("adapterSubtitle"));
    m_subtitle->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_chart->setObjectName(QStringLiteral("utilizationChart"));

    m_scale->setObjectName(QStringLiteral("scaleCombo"));
    m_scale->addItem(tr("Scale: recent peak"), QVariant::fromValue(int(UtilizationScale::RecentPeak)));
    m_scale->addItem(tr("Scale: link speed"), QVariant::fromValue(int(UtilizationScale::LinkSpeed)));
    m_scale->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_scale->setToolTip(tr("Recent peak: the graph's top is a little above the busiest moment in view, so light "
                           "traffic is visible (as in Windows 10 Task Manager).\nLink speed: the top is the "
                           "adapter's nominal speed, so the height is the utilization."));
    connect(m_scale, qOverload<int>(&QComboBox::activated), this,
            [this](int index) { setScale(UtilizationScale(m_scale->itemData(index).toInt())); });
    connect(m_chart, &UtilizationChart::scaleChosen, this, &AdapterPanel::setScale);
    connect(m_chart, &UtilizationChart::expandRequested, this, [this] { setExpanded(!m_expanded); });

    auto *header = new QHBoxLayout;
    header->addWidget(m_title);
    header->addStretch(1);
    header->addWidget(m_subtitle);
    header->addSpacing(8);
    header->addWidget(m_scale);

    // One line of figures, caption beside value, as in the sketch (UI.md): the graph
    // keeps the height a second line would take.
    auto *figures = new QHBoxLayout;
    figures->setSpacing(4);
    const QString allTrafficTip =
        tr("Everything the adapter sends and receives, measured from its counters: other programs' traffic "
           "counts too, so during a test this can be more than the test's own rate.");
    m_utilization = addFigure(figures, new QLabel(tr("Utilization"), this), QStringLiteral("utilizationValue"));
    // The captions double as the chart's legend: solid Send, dashed Receive.
    m_sendCaption = new QLabel(tr("Send \u2014\u2014"), this);
    m_send = addFigure(figures, m_sendCaption, QStringLiteral("sendValue"));
    m_receiveCaption = new QLabel(tr("Receive - - -"), this);
    m_receive = addFigure(figures, m_receiveCaption, QStringLiteral("receiveValue"));
    for (QLabel *l : {m_utilization, m_send, m_receive, m_sendCaption, m_receiveCaption})
        l->setToolTip(allTrafficTip);
    applyCaptionColors();
    // Link speed and MTU are in the header; the row has packets and drops (review M11).
    m_packets = addFigure(figures, new QLabel(tr("Packets/s"), this), QStringLiteral("packetsValue"));
    m_packets->setToolTip(tr("Packets per second sent / received, over the last second"));
    m_dropped = addFigure(figures, new QLabel(tr("Dropped"), this), QStringLiteral("droppedValue"));
    figures->addStretch(1);
    // Minor 21: the panel and a test can disagree (other traffic on the adapter).
    m_allTraffic->setObjectName(QStringLiteral("allTrafficHint"));
    // Elided before it widens the window past a 1024-pixel screen while the figures grow.
    m_allTraffic->setFullText(tr("all traffic on the adapter"));
    m_allTraffic->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_allTraffic->setToolTip(allTrafficTip);
    QPalette dim = m_allTraffic->palette();
    dim.setColor(QPalette::WindowText, dim.color(QPalette::PlaceholderText));
    m_allTraffic->setPalette(dim);
    figures->addWidget(m_allTraffic, 1);

    // One line, elided with the whole text in the tooltip: a second line would come out
    // of the graph's height on a 720-pixel screen.
    m_details->setObjectName(QStringLiteral("adapterDetails"));
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(3);
    layout->addLayout(header);
    layout->addWidget(m_chart, 1);
    layout->addLayout(figures);
    layout->addWidget(m_details);

    // The remembered choice; nothing is written until the user picks one.
    const UtilizationScale saved = utilizationScaleFromKey(QSettings().value(QLatin1String(kScaleKey)).toString());
    m_chart->setScale(saved);
    m_scale->setCurrentIndex(m_scale->findData(int(saved)));
}

QLabel *AdapterPanel::addFigure(QBoxLayout *row, QLabel *caption, const QString &objectName)
{
    QPalette pal = caption->palette();
    pal.setColor(QPalette::WindowText, pal.color(QPalette::PlaceholderText));
    caption->setPalette(pal);
    auto *value = new QLabel(QStringLiteral("-"), this);
    value->setObjectName(objectName);
    QFont f = value->font();
    f.setPointSizeF(f.pointSizeF() * 1.15);
    value->setFont(f);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(caption, 0, Qt::AlignBaseline);
    row->addWidget(value, 0, Qt::AlignBaseline);
    row->addSpacing(14);
    return value;
}

UtilizationScale AdapterPanel::scale() const
{
    return m_chart->scale();
}

void AdapterPanel::setScale(UtilizationScale scale)
{
    m_chart->setScale(scale);
    m_scale->setCurrentIndex(m_scale->findData(int(scale)));
    QSettings().setValue(QLatin1String(kScaleKey), utilizationScaleKey(scale));
}

void AdapterPanel::setExpanded(bool expanded)
{
    if (expanded == m_expanded)
        return;
    m_expanded = expanded;
    m_details->setVisible(!expanded);
    Q_EMIT expandedChanged(expanded);
}

void AdapterPanel::applyCaptionColors()
{
    for (auto [label, color] :
         {std::pair{m_sendCaption, sendColor(palette())}, std::pair{m_receiveCaption, receiveColor(palette())}}) {
        QPalette pal = label->palette();
        pal.setColor(QPalette::WindowText, color);
        label->setPalette(pal);
        QFont f = label->font();
        f.setBold(true);
        label->setFont(f);
    }
}

void AdapterPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange && m_sendCaption)
        applyCaptionColors();
    QWidget::changeEvent(event);
}

void AdapterPanel::setMonitor(AdapterMonitor *monitor)
{
    m_monitor = monitor;
    connect(monitor, &AdapterMonitor::updated, this, &AdapterPanel::refreshRates);
    connect(monitor, &AdapterMonitor::adaptersChanged, this, &AdapterPanel::refreshDetails);
}

void AdapterPanel::setAdapter(const QString &name)
{
    m_name = name;
    refreshDetails();
    m_refreshes = 1; // draw the new adapter's graph at once
    refreshRates();
}

void AdapterPanel::refreshDetails()
{
    if (!m_monitor)
        return;
    const std::optional<nb::AdapterInfo> info = m_monitor->adapter(m_name);
    m_info = info.value_or(nb::AdapterInfo{});
    if (!info) {
        m_title->setText(m_name.isEmpty() ? tr("No adapter selected") : tr("%1 (gone)").arg(m_name));
        m_subtitle->clear();
        m_details->setFullText(QString());
        return;
    }
    m_title->setText(QStringLiteral("%1 \u00b7 %2").arg(info->name, AdapterTile::familyLabel(*info)));
    QString sub = linkSpeedText(double(info->linkSpeedBps));
    if (info->mtu > 0)
        sub += tr(", MTU %1").arg(info->mtu);
    if (!info->isUp())
        sub += tr(", %1").arg(info->operState);
    m_subtitle->setText(sub);
    m_chart->setLinkSpeed(double(info->linkSpeedBps));
    // Scaling to an unknown link speed means nothing: offered only with a speed, as in the
    // graph's menu (review minor).
    if (auto *model = qobject_cast<QStandardItemModel *>(m_scale->model())) {
        if (QStandardItem *link = model->item(m_scale->findData(int(UtilizationScale::LinkSpeed)))) {
            link->setEnabled(info->linkSpeedBps > 0);
            link->setToolTip(info->linkSpeedBps > 0 ? QString() : tr("This adapter reports no link speed"));
        }
    }

    QStringList addresses;
    for (const nb::AdapterAddress &a : info->addresses)
        addresses.append(QStringLiteral("%1/%2").arg(a.address.toString()).arg(a.prefixLength));
    QString driver = info->driver.isEmpty() ? tr("none") : info->driver;
    if (!info->driverVersion.isEmpty())
        driver += QLatin1Char(' ') + info->driverVersion;
    const auto row = [](const QString &caption, const QString &value) {
        return QStringLiteral("%1: %2").arg(caption, value);
    };
    QStringList parts{row(tr("Driver"), driver),
                      row(tr("Addresses"), addresses.isEmpty() ? tr("none") : addresses.join(QStringLiteral(", "))),
                      row(tr("Offloads"), offloadsText(info->offloads))};
    if (!info->description.isEmpty())
        parts.prepend(row(tr("Description"), info->description));
    m_details->setFullText(parts.join(QStringLiteral("   \u00b7   ")));
}

void AdapterPanel::refreshRates()
{
    if (!m_monitor || m_name.isEmpty())
        return;
    if (!isVisible())
        return; // nothing to draw; the history keeps filling in the monitor
    const RatePoint avg = m_monitor->recentAverage(m_name);
    m_send->setText(nb::formatBitrate(avg.sendBps));
    m_receive->setText(nb::formatBitrate(avg.receiveBps));
    const double pct = utilizationPercent(busierDirection(avg.sendBps, avg.receiveBps), double(m_info.linkSpeedBps));
    // No link speed (loopback, some virtual adapters): utilization does not apply, which is
    // not the same as a figure we failed to measure ("-").
    m_utilization->setText(m_info.linkSpeedBps > 0 ? nb::formatPercent(pct) : tr("n/a"));
    m_packets->setText(QStringLiteral("%1 / %2").arg(packetRateText(avg.sendPps), packetRateText(avg.receivePps)));
    const double dropped = m_monitor->droppedSinceStart(m_name);
    const double errors = m_monitor->errorsSinceStart(m_name);
    QString drops = nb::formatCount(std::uint64_t(dropped));
    if (errors > 0)
        drops += tr(" + %1 errors").arg(nb::formatCount(std::uint64_t(errors)));
    m_dropped->setText(drops);
    // Drops in the last second stand out; older ones are only counted.
    QFont f = m_dropped->font();
    f.setBold(avg.dropped + avg.errors > 0);
    m_dropped->setFont(f);
    m_dropped->setToolTip(tr("Packets the adapter or its driver dropped, both ways, since NicBench started watching "
                             "(%1 ago); packets with errors are counted apart. Last second: %2 dropped, %3 errors.")
                              .arg(UtilizationChart::ageText(m_monitor->now()),
                                   nb::formatCount(std::uint64_t(avg.dropped)),
                                   nb::formatCount(std::uint64_t(avg.errors))));
    // The graph redraws at 5 Hz (the figures and tiles at 10 Hz): a 60-second graph does
    // not look different, and the GUI stays cheap next to a running test.
    if (++m_refreshes % 2 == 0)
        m_chart->setHistory(m_monitor->sessionHistory(m_name));
}

QString AdapterPanel::utilizationText() const
{
    return m_utilization->text();
}

QString AdapterPanel::mtuText() const
{
    return m_info.mtu > 0 ? QString::number(m_info.mtu) : tr("unknown");
}

QString AdapterPanel::packetsText() const
{
    return m_packets->text();
}

QString AdapterPanel::droppedText() const
{
    return m_dropped->text();
}

} // namespace nb::ui
