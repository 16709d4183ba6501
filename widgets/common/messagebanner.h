// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An inline message strip above the content (error, warning or information) that never
// blocks: the window and any running test go on while it is shown.

#include <QFrame>

class QLabel;
class QToolButton;

namespace nb::ui {

class MessageBanner : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Information, Warning, Error };

    explicit MessageBanner(QWidget *parent = nullptr);

    void showMessage(Kind kind, const QString &text);
    void dismiss();
    // An engine message ("connection refused") as a banner sentence: capitalised, with a
    // full stop ("Connection refused.").
    static QString sentence(QString text);
    Kind kind() const { return m_kind; }
    QString text() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void applyStyle();
    QColor tintColor() const;

    QLabel *m_icon;
    QLabel *m_text;
    QToolButton *m_close;
    Kind m_kind = Kind::Information;
};

} // namespace nb::ui
