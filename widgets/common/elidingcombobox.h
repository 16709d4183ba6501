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

    // Compact, with the tooltip following the text: for dialogs that must fit 1280x720.
    static ElidingComboBox *newCompact(QWidget *parent = nullptr);

    // The text drawn for the current item at the combo's present width.
    QString displayedText() const;
    // The tooltip shows the current text whole (for combos with no tooltip of their own).
    void setToolTipFollowsText();
    // Asks for a few characters only, so a long item never widens its dialog past a
    // 1280x720 screen.
    void setCompact(int characters = 10);

protected:
    void paintEvent(QPaintEvent *event) override;
    // The popup shows every item whole, however narrow the combo is.
    void showPopup() override;

private:
    QRect textRect() const;
};

} // namespace nb::ui
