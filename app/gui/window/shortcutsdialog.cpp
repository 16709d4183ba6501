// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace nb::gui {

QList<std::pair<QString, QString>> ShortcutsDialog::rows(const QMenuBar *menus)
{
    QList<std::pair<QString, QString>> rows;
    std::function<void(const QMenu *)> walk = [&](const QMenu *menu) {
        for (QAction *a : menu->actions()) {
            if (a->menu()) {
                walk(a->menu());
                continue;
            }
            if (a->shortcut().isEmpty())
                continue;
            QString what = a->text().remove(QLatin1Char('&'));
            if (what.endsWith(QStringLiteral("...")))
                what.chop(3);
            const QString keys = a->shortcut().toString(QKeySequence::NativeText);
            if (std::none_of(rows.cbegin(), rows.cend(), [&](const auto &r) { return r.first == keys; }))
                rows.append({keys, what});
        }
    };
    for (QAction *top : menus->actions()) {
        if (top->menu())
            walk(top->menu());
    }
    rows.append({tr("Enter in Target"), tr("Run the test")});
    rows.append({tr("Alt + underlined letter"), tr("Open a menu or go to a field")});
    rows.append({tr("Ctrl+Tab"), tr("Next tab (Test, Compare)")});
    rows.append({tr("Right click on a chart"), tr("Copy or save the chart, copy its data as CSV")});
    rows.append({tr("Ctrl+wheel on a chart"), tr("Zoom in or out around the mouse")});
    rows.append({tr("Drag on a chart"), tr("Pan a zoomed chart (Shift+drag: zoom to the dragged span)")});
    rows.append({tr("+, -, arrows, Home on a chart"), tr("Zoom, pan, show the whole chart again")});
    return rows;
}

ShortcutsDialog::ShortcutsDialog(const QMenuBar *menus, QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    const QList<std::pair<QString, QString>> list = rows(menus);
    auto *table = new QTableWidget(int(list.size()), 2, this);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({tr("Keys"), tr("Action")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    for (int i = 0; i < list.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(list.at(i).first));
        table->setItem(i, 1, new QTableWidgetItem(list.at(i).second));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    // As large as its rows, so none is cut off (it was a fixed 560x360 that scrolled: review
    // minor), within most of the screen.
    table->resizeRowsToContents();
    const int rowsHeight = table->verticalHeader()->length() + table->horizontalHeader()->height();
    const int width = table->horizontalHeader()->length() + 2 * table->frameWidth() + 40;
    const QScreen *shown = parent && parent->screen() ? parent->screen() : QGuiApplication::primaryScreen();
    const QRect screen = shown ? shown->availableGeometry() : QRect(0, 0, 1280, 720);
    resize(
        std::min(std::max(width, 560), screen.width() * 9 / 10),
        std::min(rowsHeight + 2 * table->frameWidth() + buttons->sizeHint().height() + 40, screen.height() * 8 / 10));
}

} // namespace nb::gui
