// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A combo box that ends a text too long for it with "..." instead of cutting it off
// mid-word, and shows the whole text in its tooltip. For forms that must fit 1280x720.

#include <QComboBox>

namespace nb::ui {

class ElidingComboBox : public QComboBox {
    Q_OBJECT
public:
    explicit ElidingComboBox(QWidget *parent = nullptr);

    // The text drawn for the current item at the combo's present width.
    QString displayedText() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QRect textRect() const;
};

} // namespace nb::ui
