// SPDX-License-Identifier: GPL-3.0-or-later
#include "elidingcombobox.h"

#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace nb::ui {

ElidingComboBox::ElidingComboBox(QWidget *parent) : QComboBox(parent) {}

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
