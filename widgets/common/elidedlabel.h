// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A one-line label that elides its text ("Receive 35.4 Mbit/…") when narrower than the
// text, shows the full text as its tooltip then, and lets a layout shrink it.

#include <QLabel>

namespace nb::ui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setFullText(const QString &text);
    QString fullText() const { return m_full; }
    bool isElided() const { return text() != m_full; }

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void elide();

    QString m_full;
};

} // namespace nb::ui
