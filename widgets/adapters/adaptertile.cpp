// SPDX-License-Identifier: GPL-3.0-or-later
#include "adapters/adaptertile.h"
#include "core/format.h"

#include "common/elidedlabel.h"
#include "common/ratescale.h"
#include "live/sparkline.h"

#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QVBoxLayout>

namespace nb::ui {

AdapterTile::AdapterTile(const nb::AdapterInfo &adapter, QWidget *parent)
    : QFrame(parent)
    , m_name(new QLabel(this))
    , m_family(new QLabel(this))
    , m_send(new ElidedLabel(this))
    , m_receive(new ElidedLabel(this))
    , m_sparkline(new Sparkline(this))
{
    setObjectName(QStringLiteral("adapterTile"));
    setCursor(Qt::PointingHandCursor);
    setAutoFillBackground(false);
    QFont bold = m_name->font();
    bold.setBold(true);
    m_name->setFont(bold);
    m_send->setObjectName(QStringLiteral("tileSend"));
    m_receive->setObjectName(QStringLiteral("tileReceive"));
    for (QLabel *l : {m_name, m_family})
        l->setTextFormat(Qt::PlainText);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 5, 6, 6);
    layout->setSpacing(1);
    layout->addWidget(m_name);
    layout->addWidget(m_family);
    layout->addWidget(m_send);
    layout->addWidget(m_receive);
    layout->addSpacing(2);
    layout->addWidget(m_sparkline);
    setAdapter(adapter);
    m_send->setFullText(tr("Send %1").arg(nb::formatBitrate(0)));
    m_receive->setFullText(tr("Receive %1").arg(nb::formatBitrate(0)));
}

QString AdapterTile::sendText() const
{
    return m_send->fullText();
}

QString AdapterTile::receiveText() const
{
    return m_receive->fullText();
}

QString AdapterTile::familyLabel(const nb::AdapterInfo &a)
{
    if (a.family == nb::AdapterFamily::Other)
        return a.driver.isEmpty() ? tr("other") : a.driver;
    return nb::familyName(a.family);
}

void AdapterTile::setAdapter(const nb::AdapterInfo &adapter)
{
    m_adapter = adapter;
    m_name->setText(adapter.name);
    QString family = familyLabel(adapter);
    if (!adapter.isUp())
        family += tr(" (%1)").arg(adapter.operState.isEmpty() ? tr("down") : adapter.operState);
    m_family->setText(family);
    QStringList tip{adapter.name};
    if (!adapter.description.isEmpty())
        tip.append(adapter.description);
    if (!adapter.driver.isEmpty())
        tip.append(tr("Driver: %1").arg(adapter.driver));
    for (const nb::AdapterAddress &addr : adapter.addresses)
        tip.append(QStringLiteral("%1/%2").arg(addr.address.toString()).arg(addr.prefixLength));
    tip.append(tr("Send and Receive count all traffic on the adapter, not only a test's."));
    setToolTip(tip.join(QLatin1Char('\n')));
    QColor dim = palette().color(QPalette::WindowText);
    if (!adapter.isUp())
        dim = palette().color(QPalette::PlaceholderText);
    QPalette pal = m_family->palette();
    pal.setColor(QPalette::WindowText, dim);
    m_family->setPalette(pal);
}

void AdapterTile::updateRates(const AdapterMonitor &monitor)
{
    const RatePoint avg = monitor.recentAverage(m_adapter.name);
    // One line per direction, each in its own unit: "Receive 35.4 Mbit/s", never
    // "0.0354 Gbit/s" borrowed from the busier direction. Narrow columns elide.
    m_send->setFullText(tr("Send %1").arg(nb::formatBitrate(avg.sendBps)));
    m_receive->setFullText(tr("Receive %1").arg(nb::formatBitrate(avg.receiveBps)));
    m_sparkline->setData(monitor.history(m_adapter.name), double(m_adapter.linkSpeedBps));
}

void AdapterTile::setSelected(bool selected)
{
    if (m_selected == selected)
        return;
    m_selected = selected;
    update();
}

void AdapterTile::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        Q_EMIT clicked();
    QFrame::mousePressEvent(event);
}

void AdapterTile::paintEvent(QPaintEvent *event)
{
    QPainter painter(this);
    const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    QColor border = palette().color(QPalette::WindowText);
    border.setAlpha(40);
    if (m_selected) {
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(45);
        painter.fillRect(r, fill);
        border = palette().color(QPalette::Highlight);
        painter.fillRect(QRectF(r.left(), r.top(), 3, r.height()), border);
    }
    painter.setPen(QPen(border, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(r);
    QFrame::paintEvent(event);
}

} // namespace nb::ui
