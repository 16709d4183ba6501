// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/endpointtable.h"
#include "testview/formfields.h"

#include <common/elidingcombobox.h>

#include <QHeaderView>
#include <QHostAddress>
#include <QLineEdit>
#include <QPainter>
#include <QStyledItemDelegate>

namespace nb::gui {

namespace {

constexpr int kTypedLabelRole = Qt::UserRole + 1; // true once the user typed the label

QString anyAddressText()
{
    return EndpointTable::tr("any (routing table decides)");
}

QString thisComputerText()
{
    return EndpointTable::tr("This computer");
}

// Draws the Use check box with a frame in the text colour: some palettes (GTK's Adwaita
// dark under Fusion) draw an unticked item-view check box in almost the base colour.
class UseDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::paint(painter, option, index);
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        if (!(opt.features & QStyleOptionViewItem::HasCheckIndicator))
            return;
        const QWidget *widget = option.widget;
        const QStyle *style = widget ? widget->style() : nullptr;
        if (!style)
            return;
        const QRect box = style->subElementRect(QStyle::SE_ItemViewItemCheckIndicator, &opt, widget);
        QColor frame = opt.palette.color(QPalette::Text);
        frame.setAlpha(150);
        painter->save();
        painter->setPen(QPen(frame, 1));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(box.adjusted(0, 0, -1, -1));
        painter->restore();
    }
};

} // namespace

EndpointTable::EndpointTable(QWidget *parent) : QTableWidget(0, ColumnCount, parent)
{
    setObjectName(QStringLiteral("endpointTable"));
    setHorizontalHeaderLabels({tr("Use"), tr("Label"), tr("From"), tr("Bind to"), tr("Target host")});
    horizontalHeaderItem(TargetColumn)
        ->setToolTip(tr("Host name or address; host:port where its server does not listen on the comparison's port"));
    horizontalHeaderItem(LabelColumn)->setToolTip(tr("The adapter's name in the charts and tables; type to rename"));
    horizontalHeaderItem(AgentColumn)
        ->setToolTip(tr("The computer that runs the tests: this one, or an agent (Tools > Hosts) that tests "
                        "toward the target for this window"));
    horizontalHeaderItem(BindColumn)->setToolTip(tr("This computer's address the traffic leaves from (-B)"));
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(UseColumn, QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(LabelColumn, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(AgentColumn, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(BindColumn, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(TargetColumn, QHeaderView::Stretch);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setItemDelegateForColumn(UseColumn, new UseDelegate(this));
    setWordWrap(false);
    setTextElideMode(Qt::ElideRight);
    connect(this, &QTableWidget::itemChanged, this, &EndpointTable::onItemChanged);
}

void EndpointTable::setAdapters(const QList<nb::AdapterInfo> &adapters)
{
    m_adapters = adapters;
    // The same combos get the new choices: replacing a cell widget would leave the old
    // one alive (deleted only later) and drawn over the row.
    m_updating = true;
    for (int row = 0; row < rowCount(); ++row) {
        if (QComboBox *combo = bindCombo(row))
            fillBindCombo(combo, combo->currentData().toString());
    }
    m_updating = false;
    relabel();
    Q_EMIT endpointsChanged();
}

void EndpointTable::setEndpoints(const QList<nb::MatrixEndpoint> &endpoints, bool enabled)
{
    m_updating = true;
    for (int row = rowCount() - 1; row >= 0; --row) {
        deleteCellWidgets(row);
        removeRow(row);
    }
    m_updating = false;
    for (const nb::MatrixEndpoint &e : endpoints)
        addEndpoint(e, enabled);
    relabel();
    Q_EMIT endpointsChanged();
}

int EndpointTable::addEndpoint(const nb::MatrixEndpoint &endpoint, bool enabled)
{
    m_updating = true;
    const int row = rowCount();
    insertRow(row);
    auto *use = new QTableWidgetItem;
    use->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    use->setCheckState(enabled ? Qt::Checked : Qt::Unchecked);
    use->setToolTip(tr("Compare this endpoint"));
    setItem(row, UseColumn, use);
    auto *label = new QTableWidgetItem(endpoint.label);
    label->setData(kTypedLabelRole, !endpoint.label.isEmpty());
    setItem(row, LabelColumn, label);
    setItem(row, TargetColumn, new QTableWidgetItem(joinTarget(endpoint.target, endpoint.port)));
    setCellWidget(row, AgentColumn, makeAgentCombo(endpoint.from));
    setCellWidget(row, BindColumn, makeBindCombo(endpoint.bindAddress));
    bindCombo(row)->setEnabled(endpoint.from.isEmpty());
    m_updating = false;
    relabel();
    Q_EMIT endpointsChanged();
    return row;
}

void EndpointTable::removeEndpoint(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    m_updating = true;
    deleteCellWidgets(row);
    removeRow(row);
    m_updating = false;
    relabel();
    Q_EMIT endpointsChanged();
}

void EndpointTable::deleteCellWidgets(int row)
{
    for (int column = 0; column < ColumnCount; ++column) {
        if (QWidget *w = cellWidget(row, column)) {
            removeCellWidget(row, column); // the view forgets it (and would delete it later)
            delete w;                      // now, so it cannot be drawn over another row
        }
    }
}

void EndpointTable::setAgentHosts(const QStringList &hosts)
{
    m_agentHosts = hosts;
    m_updating = true;
    for (int row = 0; row < rowCount(); ++row) {
        if (QComboBox *combo = agentCombo(row))
            fillAgentCombo(combo, agentOf(row));
    }
    m_updating = false;
}

QComboBox *EndpointTable::makeAgentCombo(const QString &current)
{
    auto *combo = new QComboBox;
    combo->setObjectName(QStringLiteral("endpointAgentCombo"));
    combo->setEditable(true);
    combo->setInsertPolicy(QComboBox::NoInsert);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
    combo->lineEdit()->setPlaceholderText(tr("agent[:port]"));
    fillAgentCombo(combo, current);
    connect(combo, &QComboBox::currentTextChanged, this, [this, combo] { onAgentChanged(combo); });
    return combo;
}

void EndpointTable::fillAgentCombo(QComboBox *combo, const QString &current) const
{
    const QSignalBlocker blocker(combo);
    combo->clear();
    combo->addItem(thisComputerText(), QString());
    for (const QString &h : m_agentHosts)
        combo->addItem(h, h);
    const int index = current.isEmpty() ? 0 : combo->findData(current);
    if (index >= 0)
        combo->setCurrentIndex(index);
    else
        combo->setCurrentText(current);
    combo->setToolTip(current.isEmpty() ? tr("The tests run here") : tr("The agent %1 runs the tests").arg(current));
}

void EndpointTable::onAgentChanged(QComboBox *combo)
{
    const int row = [&] {
        for (int r = 0; r < rowCount(); ++r) {
            if (cellWidget(r, AgentColumn) == combo)
                return r;
        }
        return -1;
    }();
    if (row < 0)
        return;
    const QString agent = agentOf(row);
    combo->setToolTip(agent.isEmpty() ? tr("The tests run here") : tr("The agent %1 runs the tests").arg(agent));
    // -B names an address of the computer that runs the test: this computer's adapters
    // mean nothing to an agent.
    if (QComboBox *bind = bindCombo(row)) {
        bind->setEnabled(agent.isEmpty());
        if (!agent.isEmpty() && bind->currentIndex() != 0) {
            const QSignalBlocker blocker(bind);
            bind->setCurrentIndex(0);
        }
    }
    if (m_updating)
        return;
    relabel();
    Q_EMIT endpointsChanged();
}

QString EndpointTable::agentOf(int row) const
{
    const QComboBox *combo = agentCombo(row);
    if (!combo)
        return {};
    const QString text = combo->currentText().trimmed();
    if (text.isEmpty() || text == thisComputerText())
        return {};
    const int i = combo->findText(text);
    return i >= 0 ? combo->itemData(i).toString() : text;
}

QComboBox *EndpointTable::agentCombo(int row) const
{
    return qobject_cast<QComboBox *>(cellWidget(row, AgentColumn));
}

void EndpointTable::setAgent(int row, const QString &agent)
{
    if (QComboBox *combo = agentCombo(row)) {
        const int i = agent.isEmpty() ? 0 : combo->findData(agent);
        if (i >= 0)
            combo->setCurrentIndex(i);
        else
            combo->setCurrentText(agent);
    }
}

bool EndpointTable::contains(const QString &bindAddress, const QString &target) const
{
    for (int row = 0; row < rowCount(); ++row) {
        const nb::MatrixEndpoint e = rawEndpointAt(row);
        if (e.from.isEmpty() && e.bindAddress == bindAddress && e.target == target)
            return true;
    }
    return false;
}

bool EndpointTable::reaches(const QString &adapterName, const QString &target) const
{
    for (int row = 0; row < rowCount(); ++row) {
        const nb::MatrixEndpoint e = rawEndpointAt(row);
        if (e.target == target && e.adapter && e.adapter->name == adapterName)
            return true;
    }
    return false;
}

QComboBox *EndpointTable::makeBindCombo(const QString &current)
{
    auto *combo = nb::ui::ElidingComboBox::newCompact();
    combo->setObjectName(QStringLiteral("endpointBindCombo"));
    fillBindCombo(combo, current);
    connect(combo, &QComboBox::currentIndexChanged, this, [this, combo] {
        if (m_updating)
            return;
        // A click on the combo selects its row, so Remove and Ask Server act on it.
        if (const int row = rowOfCombo(combo); row >= 0)
            setCurrentCell(row, BindColumn);
        relabel();
        Q_EMIT endpointsChanged();
    });
    return combo;
}

void EndpointTable::fillBindCombo(QComboBox *combo, const QString &current) const
{
    const QSignalBlocker blocker(combo);
    combo->clear();
    combo->addItem(anyAddressText(), QString());
    for (const nb::AdapterInfo &a : m_adapters) {
        for (const nb::AdapterAddress &addr : a.addresses) {
            if (addr.address.isLinkLocal())
                continue;
            const QString text = addr.address.toString();
            combo->addItem(tr("%1 (%2, %3)").arg(text, a.name, nb::familyName(a.family)), text);
        }
    }
    int index = combo->findData(current);
    if (index < 0 && !current.isEmpty()) {
        combo->addItem(current, current);
        index = combo->count() - 1;
    }
    combo->setCurrentIndex(std::max(0, index));
    combo->setToolTip(combo->currentText());
}

int EndpointTable::rowOfCombo(const QComboBox *combo) const
{
    for (int row = 0; row < rowCount(); ++row) {
        if (cellWidget(row, BindColumn) == combo)
            return row;
    }
    return -1;
}

QComboBox *EndpointTable::bindCombo(int row) const
{
    return qobject_cast<QComboBox *>(cellWidget(row, BindColumn));
}

nb::MatrixEndpoint EndpointTable::rawEndpointAt(int row) const
{
    nb::MatrixEndpoint e;
    if (const QTableWidgetItem *target = item(row, TargetColumn)) {
        // "host" or "host:port"; text that does not split stays whole (targetError says why).
        e.target = target->text().trimmed();
        int port = 0;
        QString host;
        QString ignored;
        if (splitTarget(e.target, &host, &port, &ignored)) {
            e.target = host;
            e.port = quint16(port);
        }
    }
    e.from = agentOf(row);
    if (const QComboBox *combo = bindCombo(row); combo && e.from.isEmpty())
        e.bindAddress = combo->currentData().toString();
    if (!e.from.isEmpty())
        e.adapter.reset(); // the agent's adapters are not this computer's
    else if (!e.bindAddress.isEmpty())
        e.adapter = nb::adapterForLocalAddress(QHostAddress(e.bindAddress), m_adapters);
    else if (const QHostAddress t(e.target); !t.isNull() && t.isLoopback())
        e.adapter = nb::adapterForLocalAddress(t, m_adapters); // loopback leaves through lo
    if (hasTypedLabel(row))
        e.label = item(row, LabelColumn)->text().trimmed();
    return e;
}

QString EndpointTable::targetError(int row) const
{
    const QTableWidgetItem *target = item(row, TargetColumn);
    QString host;
    int port = 0;
    QString error;
    if (!target || splitTarget(target->text(), &host, &port, &error))
        return {};
    return error;
}

nb::MatrixEndpoint EndpointTable::endpointAt(int row) const
{
    nb::MatrixEndpoint e = rawEndpointAt(row);
    e.label = label(row);
    return e;
}

QList<nb::MatrixEndpoint> EndpointTable::enabledEndpoints() const
{
    QList<nb::MatrixEndpoint> out;
    for (int row : enabledRows())
        out.append(endpointAt(row));
    return out;
}

QList<int> EndpointTable::enabledRows() const
{
    QList<int> rows;
    for (int row = 0; row < rowCount(); ++row) {
        if (isRowEnabled(row))
            rows.append(row);
    }
    return rows;
}

bool EndpointTable::isRowEnabled(int row) const
{
    const QTableWidgetItem *use = item(row, UseColumn);
    return use && use->checkState() == Qt::Checked;
}

void EndpointTable::setRowEnabled(int row, bool enabled)
{
    if (QTableWidgetItem *use = item(row, UseColumn))
        use->setCheckState(enabled ? Qt::Checked : Qt::Unchecked);
}

void EndpointTable::setLabel(int row, const QString &text)
{
    if (QTableWidgetItem *label = item(row, LabelColumn))
        label->setText(text); // onItemChanged decides typed or default
}

QString EndpointTable::label(int row) const
{
    const QTableWidgetItem *label = item(row, LabelColumn);
    return label ? label->text().trimmed() : QString();
}

bool EndpointTable::hasTypedLabel(int row) const
{
    const QTableWidgetItem *label = item(row, LabelColumn);
    return label && label->data(kTypedLabelRole).toBool();
}

void EndpointTable::relabel()
{
    QList<nb::MatrixEndpoint> all;
    for (int row = 0; row < rowCount(); ++row)
        all.append(rawEndpointAt(row));
    const QStringList defaults = nb::defaultLabels(all);
    m_updating = true;
    for (int row = 0; row < rowCount(); ++row) {
        QTableWidgetItem *label = item(row, LabelColumn);
        if (!label)
            continue;
        if (!hasTypedLabel(row) && label->text() != defaults[row])
            label->setText(defaults[row]);
        label->setToolTip(hasTypedLabel(row) ? tr("%1 (typed; clear it for the default)").arg(label->text())
                                             : tr("%1 (default from the adapter; type to rename)").arg(label->text()));
    }
    m_updating = false;
}

void EndpointTable::onItemChanged(QTableWidgetItem *changed)
{
    if (m_updating)
        return;
    if (changed->column() == LabelColumn) {
        m_updating = true;
        changed->setData(kTypedLabelRole, !changed->text().trimmed().isEmpty());
        m_updating = false;
    }
    relabel();
    Q_EMIT endpointsChanged();
}

} // namespace nb::gui
