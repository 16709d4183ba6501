// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A combo box for the New Comparison dialog that ends a text too long for it with "..."
// and shows the whole text in its tooltip, and whose popup is wide enough for the longest
// item. Its size hint asks for a few characters only, so a long address never widens the
// dialog past a 1280x720 screen.

#include <QComboBox>

namespace nb::gui {

class ElidingCombo : public QComboBox {
public:
    explicit ElidingCombo(QWidget *parent = nullptr);

    // The current text as drawn at the present width.
    QString displayedText() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    void showPopup() override;

private:
    QRect textRect() const;
};

} // namespace nb::gui
