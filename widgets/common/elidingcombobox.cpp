// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/elidingcombobox.h"

#include <QAbstractItemView>
#include <QStyleOptionComboBox>
#include <QStylePainter>

#include <algorithm>

namespace nb::ui {

ElidingComboBox::ElidingComboBox(QWidget *parent) : QComboBox(parent) {}

ElidingComboBox *ElidingComboBox::newCompact(QWidget *parent)
{
    auto *combo = new ElidingComboBox(parent);
    combo->setCompact();
    combo->setToolTipFollowsText();
    return combo;
}

void ElidingComboBox::setToolTipFollowsText()
{
    setToolTip(currentText());
    connect(this, &QComboBox::currentTextChanged, this, [this](const QString &text) { setToolTip(text); });
}

void ElidingComboBox::setCompact(int characters)
{
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setMinimumContentsLength(characters);
}

void ElidingComboBox::showPopup()
{
    int widest = 0;
    for (int i = 0; i < count(); ++i)
        widest = std::max(widest, fontMetrics().horizontalAdvance(itemText(i)));
    view()->setMinimumWidth(widest + 4 * fontMetrics().averageCharWidth() +
                            style()->pixelMetric(QStyle::PM_ScrollBarExtent));
    QComboBox::showPopup();
}

QRect ElidingComboBox::textRect() const
{
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    return style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
}

QString ElidingComboBox::displayedText() const
{
    if (isEditable())
        return currentText(); // the line edit scrolls its own text
    // The label is drawn 1 px in from each side of the edit field (QCommonStyle).
    return fontMetrics().elidedText(currentText(), Qt::ElideRight, textRect().width() - 2);
}

void ElidingComboBox::paintEvent(QPaintEvent *event)
{
    if (isEditable()) {
        QComboBox::paintEvent(event);
        return;
    }
    QStylePainter painter(this);
    painter.setPen(palette().color(QPalette::Text));
    QStyleOptionComboBox opt;
    initStyleOption(&opt);
    painter.drawComplexControl(QStyle::CC_ComboBox, opt);
    opt.currentText = displayedText();
    painter.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

} // namespace nb::ui
