// SPDX-License-Identifier: GPL-3.0-or-later
#include "adapters/adapterlist.h"

#include "adapters/adaptertile.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>

namespace nb::ui {

namespace {

// Physical and virtual NICs first, then bridges/veth and the like, loopback last: the
// order an admin scans for "the adapter I am testing".
int displayRank(const nb::AdapterInfo &a)
{
    if (a.loopback)
        return 3;
    if (!a.isUp())
        return 4;
    if (a.family == nb::AdapterFamily::Veth || a.family == nb::AdapterFamily::Other)
        return 2;
    return 1;
}

} // namespace

AdapterList::AdapterList(QWidget *parent)
    : QScrollArea(parent)
    , m_content(new QWidget)
    , m_tiles(new QVBoxLayout(m_content))
{
    setObjectName(QStringLiteral("adapterList"));
    setFocusPolicy(Qt::StrongFocus);
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    m_tiles->setContentsMargins(4, 0, 4, 4);
    m_tiles->setSpacing(4);
    auto *title = new QLabel(tr("ADAPTERS"), m_content);
    QFont f = title->font();
    f.setBold(true);
    title->setFont(f);
    m_tiles->addWidget(title);
    m_tiles->addStretch(1);
    setWidget(m_content);
    setMinimumWidth(fontMetrics().averageCharWidth() * 24);
}

QSize AdapterList::sizeHint() const
{
    return QSize(fontMetrics().averageCharWidth() * 28 + verticalScrollBar()->sizeHint().width(), 400);
}

void AdapterList::setMonitor(AdapterMonitor *monitor)
{
    m_monitor = monitor;
    connect(monitor, &AdapterMonitor::adaptersChanged, this, &AdapterList::rebuild);
    connect(monitor, &AdapterMonitor::updated, this, &AdapterList::refreshRates);
    rebuild();
}

void AdapterList::rebuild()
{
    if (!m_monitor)
        return;
    QList<nb::AdapterInfo> shown;
    for (const nb::AdapterInfo &a : m_monitor->adapters()) {
        if (m_showDisconnected || a.isUp())
            shown.append(a);
    }
    std::stable_sort(shown.begin(), shown.end(), [](const nb::AdapterInfo &a, const nb::AdapterInfo &b) {
        return displayRank(a) < displayRank(b);
    });
    // Reuse tiles by name so a refresh does not flicker or lose the selection.
    QList<AdapterTile *> old = m_tileList;
    m_tileList.clear();
    for (const nb::AdapterInfo &a : std::as_const(shown)) {
        auto found = std::find_if(old.begin(), old.end(), [&](AdapterTile *t) { return t->adapterName() == a.name; });
        AdapterTile *t = nullptr;
        if (found != old.end()) {
            t = *found;
            old.erase(found);
            t->setAdapter(a);
        } else {
            t = new AdapterTile(a, m_content);
            connect(t, &AdapterTile::clicked, this, [this, t] {
                setFocus(Qt::MouseFocusReason);
                selectAdapter(t->adapterName());
            });
        }
        m_tileList.append(t);
    }
    qDeleteAll(old);
    for (int i = 0; i < m_tileList.size(); ++i) {
        m_tiles->removeWidget(m_tileList.at(i));
        m_tiles->insertWidget(i + 1, m_tileList.at(i)); // after the title
    }
    if (!tile(m_current)) {
        // The first up, non-loopback adapter is the natural start; loopback otherwise.
        m_current.clear();
        if (!m_tileList.isEmpty())
            selectAdapter(m_tileList.constFirst()->adapterName());
    }
    refreshRates();
}

void AdapterList::refreshRates()
{
    if (!m_monitor)
        return;
    for (AdapterTile *t : std::as_const(m_tileList))
        t->updateRates(*m_monitor);
}

QStringList AdapterList::adapterNames() const
{
    QStringList names;
    for (const AdapterTile *t : m_tileList)
        names.append(t->adapterName());
    return names;
}

AdapterTile *AdapterList::tile(const QString &name) const
{
    for (AdapterTile *t : m_tileList) {
        if (t->adapterName() == name)
            return t;
    }
    return nullptr;
}

bool AdapterList::selectAdapter(const QString &name)
{
    AdapterTile *target = tile(name);
    if (!target)
        return false;
    for (AdapterTile *t : std::as_const(m_tileList))
        t->setSelected(t == target);
    ensureWidgetVisible(target, 0, 4);
    if (m_current != name) {
        m_current = name;
        Q_EMIT currentAdapterChanged(name);
    }
    return true;
}

void AdapterList::setShowDisconnected(bool show)
{
    if (m_showDisconnected == show)
        return;
    m_showDisconnected = show;
    rebuild();
}

void AdapterList::keyPressEvent(QKeyEvent *event)
{
    const int step = event->key() == Qt::Key_Down ? 1 : event->key() == Qt::Key_Up ? -1 : 0;
    if (step == 0 || m_tileList.isEmpty()) {
        QScrollArea::keyPressEvent(event);
        return;
    }
    const QStringList names = adapterNames();
    const int i = std::clamp(int(names.indexOf(m_current)) + step, 0, int(names.size()) - 1);
    selectAdapter(names.at(i));
}

void AdapterList::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *show = menu.addAction(tr("Show disconnected adapters"));
    show->setCheckable(true);
    show->setChecked(m_showDisconnected);
    connect(show, &QAction::toggled, this, &AdapterList::setShowDisconnected);
    if (m_monitor)
        menu.addAction(tr("Refresh adapter details"), m_monitor, &AdapterMonitor::refreshAdapters);
    menu.exec(event->globalPos());
}

} // namespace nb::ui
