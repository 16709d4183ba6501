// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The per-stream results table: its columns fit the width it has, never a horizontal
// scroll bar. Each visible column gets the width its header and figures need and the
// spare width is shared; when that does not fit, the least needed columns (max cwnd,
// mean RTT, retransmits) are left out until the table is wider (the header's tooltip
// says which). It asks for little height, and before a test its empty area says what
// will appear there.

#include <QTableView>

namespace nb::ui {

class StreamTableView : public QTableView {
    Q_OBJECT
public:
    explicit StreamTableView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    void setEmptyText(const QString &text);
    QString emptyText() const { return m_emptyText; }

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    // The viewport narrows when the vertical scroll bar appears: fit again.
    bool viewportEvent(QEvent *event) override;

private:
    void fitColumns();

    QString m_emptyText;
};

} // namespace nb::ui
