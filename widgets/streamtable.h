// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The per-stream results table: its columns share the width it has (no horizontal
// scroll bar, long figures elided with the full text in the tooltip), it asks for little
// height, and before a test its empty area says what will appear there.

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

private:
    void fitColumns();

    QString m_emptyText;
};

} // namespace nb::ui
