// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/messagebanner.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QToolButton>

namespace nb::ui {

namespace {

QColor blend(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

} // namespace

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("messageBanner"));
    setFrameShape(QFrame::StyledPanel);
    m_text->setObjectName(QStringLiteral("messageText"));
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    // Three lines at most, the whole text in the tooltip: a long error must not make the
    // window taller than a 720-pixel screen (review M3).
    m_text->setMaximumHeight(m_text->fontMetrics().lineSpacing() * 3 + 2);
    // Nor wider than the screen: a long path is one word that word wrap cannot break.
    m_text->setMinimumWidth(m_text->fontMetrics().averageCharWidth() * 30);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAccessibleName(tr("Dismiss message"));
    connect(m_close, &QToolButton::clicked, this, &MessageBanner::dismiss);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 4, 6);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void MessageBanner::showMessage(Kind kind, const QString &text)
{
    m_kind = kind;
    m_text->setText(text);
    m_text->setToolTip(text);
    applyStyle();
    show();
}

void MessageBanner::dismiss()
{
    hide();
}

QString MessageBanner::text() const
{
    return m_text->text();
}

void MessageBanner::paintEvent(QPaintEvent *event)
{
    // Tinting the current window colour at paint time keeps contrast in light and dark
    // palettes and follows palette changes without bookkeeping.
    QPainter painter(this);
    painter.fillRect(rect(), blend(palette().color(QPalette::Window), tintColor(), 0.22));
    painter.end();
    QFrame::paintEvent(event);
}

QColor MessageBanner::tintColor() const
{
    switch (m_kind) {
    case Kind::Warning:
        return QColor(0xE6, 0x9F, 0x00);
    case Kind::Error:
        return QColor(0xD5, 0x5E, 0x00);
    case Kind::Information:
        break;
    }
    return QColor(0x00, 0x72, 0xB2);
}

void MessageBanner::applyStyle()
{
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxInformation;
    if (m_kind == Kind::Warning)
        icon = QStyle::SP_MessageBoxWarning;
    else if (m_kind == Kind::Error)
        icon = QStyle::SP_MessageBoxCritical;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    update();
}

QString MessageBanner::sentence(QString text)
{
    text = text.trimmed();
    if (text.isEmpty())
        return text;
    text[0] = text[0].toUpper();
    if (!text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}

} // namespace nb::ui
