// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Help > Keyboard Shortcuts: a table of every menu action that has a shortcut (read from the
// menus, so the list cannot drift from what the keys do), then the keys that belong to no menu
// item (charts, the Target box, tabs), sized to show every row.

#include <QDialog>
#include <QList>
#include <QString>

#include <utility>

class QMenuBar;

namespace nb::gui {

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    ShortcutsDialog(const QMenuBar *menus, QWidget *parent);

    // Pairs of (keys, what they do): the menus' shortcuts, each key once, then the others.
    static QList<std::pair<QString, QString>> rows(const QMenuBar *menus);
};

} // namespace nb::gui
