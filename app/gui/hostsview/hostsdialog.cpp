// SPDX-License-Identifier: GPL-3.0-or-later
#include "hostsview/hostsdialog.h"

#include "hostsview/hostprober.h"
#include "window/appsettings.h"

#include <common/elidedlabel.h>
#include <common/messagebanner.h>
#include <compare/comparison.h>
#include <core/format.h>

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace nb::gui {

namespace {

enum HostColumn { AgentColumn, StatusColumn, MachineColumn, AdaptersColumn, HostColumns };
enum AdapterColumn { AdapterName, AdapterKind, AdapterLink, AdapterMtu, AdapterAddresses, AdapterColumns };

QString machineWords(const nb::HostEnvironment &h)
{
    QStringList parts;
    if (!h.hostName.isEmpty())
        parts << h.hostName;
    if (!h.os.isEmpty())
        parts << h.os;
    if (h.cpuCount > 0)
        parts << HostsDialog::tr("%n core(s)", nullptr, h.cpuCount);
    return parts.join(QStringLiteral(" \u00b7 "));
}

QString adapterNames(const nb::HostEnvironment &h)
{
    QStringList names;
    for (const nb::AdapterInfo &a : h.adapters)
        names << a.name;
    return names.join(QStringLiteral(", "));
}

QTreeWidgetItem *adapterItem(const nb::AdapterInfo &a)
{
    QStringList addresses;
    for (const nb::AdapterAddress &addr : a.addresses)
        addresses << QStringLiteral("%1/%2").arg(addr.address.toString()).arg(addr.prefixLength);
    QString kind = nb::familyName(a.family);
    if (!a.driver.isEmpty() && !kind.contains(a.driver, Qt::CaseInsensitive))
        kind += QStringLiteral(" (%1)").arg(a.driver);
    const QString link = a.linkSpeedBps > 0 ? nb::formatBitrate(double(a.linkSpeedBps))
                         : a.isUp()         ? HostsDialog::tr("up")
                                            : HostsDialog::tr("down");
    auto *item = new QTreeWidgetItem(QStringList{a.name, kind, link, a.mtu > 0 ? QString::number(a.mtu) : QString(),
                                                 addresses.join(QStringLiteral(", "))});
    item->setToolTip(AdapterAddresses, addresses.join(QLatin1Char('\n')));
    item->setToolTip(AdapterKind, a.description.isEmpty() ? kind : a.description);
    return item;
}

} // namespace

HostsDialog::HostsDialog(QWidget *parent) : QDialog(parent), m_prober(new HostProber(this))
{
    setObjectName(QStringLiteral("hostsDialog"));
    setWindowTitle(tr("Hosts"));
    auto *intro = new QLabel(tr("Agents run tests for this window: start <tt>nicbench-cli -s --agent-key FILE</tt> "
                                "on each, with the same key file chosen below. The From box of the Test tab and of "
                                "New Comparison offers them."));
    intro->setWordWrap(true);

    m_list = new QTreeWidget;
    m_list->setObjectName(QStringLiteral("hostList"));
    m_list->setColumnCount(HostColumns);
    m_list->setHeaderLabels({tr("Agent"), tr("Status"), tr("Machine"), tr("Adapters")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->header()->setStretchLastSection(true);
    m_list->header()->setSectionResizeMode(QHeaderView::Interactive);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &HostsDialog::showDetails);

    m_details = new QLabel;
    m_details->setObjectName(QStringLiteral("hostDetails"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_adapters = new QTreeWidget;
    m_adapters->setObjectName(QStringLiteral("hostAdapters"));
    m_adapters->setColumnCount(AdapterColumns);
    m_adapters->setHeaderLabels({tr("Adapter"), tr("Kind"), tr("Link"), tr("MTU"), tr("Addresses")});
    m_adapters->setRootIsDecorated(false);
    m_adapters->setUniformRowHeights(true);
    auto *detailBox = new QWidget;
    auto *detailLayout = new QVBoxLayout(detailBox);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_details);
    detailLayout->addWidget(m_adapters, 1);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_list);
    split->addWidget(detailBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    m_remove = new QPushButton(tr("&Remove"));
    m_remove->setObjectName(QStringLiteral("removeHostButton"));
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (const QTreeWidgetItem *item = m_list->currentItem())
            removeHost(item->text(AgentColumn));
    });
    m_refresh = new QPushButton(tr("Re&fresh"));
    m_refresh->setObjectName(QStringLiteral("refreshHostsButton"));
    connect(m_refresh, &QPushButton::clicked, this, &HostsDialog::refresh);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_remove, QDialogButtonBox::ActionRole);
    buttons->addButton(m_refresh, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(buildAddRow());
    layout->addWidget(split, 1);
    layout->addWidget(buildKeyRow());
    layout->addWidget(buttons);

    connect(m_prober, &HostProber::probed, this, &HostsDialog::onProbed);
    m_hosts = AppSettings::agentHosts();
    for (const QString &h : std::as_const(m_hosts))
        fillRow(new QTreeWidgetItem(m_list), h);
    updateKeyLabel();
    QSize size(900, 560);
    if (const QScreen *s = parentWidget() ? parentWidget()->screen() : screen())
        size = size.boundedTo(s->availableGeometry().size() - QSize(40, 60));
    resize(size);
    m_list->setColumnWidth(AgentColumn, 170);
    m_list->setColumnWidth(StatusColumn, 130);
    m_list->setColumnWidth(MachineColumn, 300);
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    showDetails();
}

HostsDialog::~HostsDialog() = default;

QWidget *HostsDialog::buildAddRow()
{
    auto *row = new QWidget;
    m_edit = new QLineEdit;
    m_edit->setObjectName(QStringLiteral("hostEdit"));
    m_edit->setPlaceholderText(tr("host name or address[:port] of an agent"));
    auto *label = new QLabel(tr("A&gent:"));
    label->setBuddy(m_edit);
    auto *add = new QPushButton(tr("&Add"));
    add->setObjectName(QStringLiteral("addHostButton"));
    add->setAutoDefault(false);
    const auto addTyped = [this] {
        QString error;
        if (addHost(m_edit->text(), &error))
            m_edit->clear();
        m_addError->setText(error);
        m_addError->setVisible(!error.isEmpty());
    };
    connect(add, &QPushButton::clicked, this, addTyped);
    connect(m_edit, &QLineEdit::returnPressed, this, addTyped);
    m_addError = new QLabel;
    m_addError->setObjectName(QStringLiteral("addHostError"));
    m_addError->setWordWrap(true);
    m_addError->hide();
    auto *layout = new QGridLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label, 0, 0);
    layout->addWidget(m_edit, 0, 1);
    layout->addWidget(add, 0, 2);
    layout->addWidget(m_addError, 1, 1, 1, 2);
    return row;
}

QWidget *HostsDialog::buildKeyRow()
{
    auto *row = new QWidget;
    auto *label = new QLabel(tr("Agent key file:"));
    m_keyLabel = new nb::ui::ElidedLabel;
    m_keyLabel->setObjectName(QStringLiteral("keyPathLabel"));
    auto *choose = new QPushButton(tr("&Choose Key File..."));
    choose->setObjectName(QStringLiteral("chooseKeyButton"));
    choose->setAutoDefault(false);
    choose->setToolTip(tr("The file the agents were started with (--agent-key). Only its path is saved."));
    connect(choose, &QPushButton::clicked, this, &HostsDialog::chooseKeyFile);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label);
    layout->addWidget(m_keyLabel, 1);
    layout->addWidget(choose);
    return row;
}

bool HostsDialog::addHost(const QString &text, QString *error)
{
    nb::AgentFrom from;
    QString why;
    const QString trimmed = text.trimmed();
    if (!nb::AgentFrom::fromText(trimmed, &from, &why)) {
        if (error)
            *error = nb::ui::MessageBanner::sentence(why);
        return false;
    }
    // As typed when it names a port, else HOST alone: the list shows what the user wrote.
    const QString host = trimmed;
    if (m_hosts.contains(host)) {
        if (error)
            *error = tr("%1 is already listed.").arg(host);
        return false;
    }
    m_hosts.append(host);
    save();
    auto *item = new QTreeWidgetItem(m_list);
    m_checking.append(host);
    fillRow(item, host);
    m_list->setCurrentItem(item);
    m_prober->probe({host}, keyPath());
    return true;
}

void HostsDialog::removeHost(const QString &host)
{
    if (!m_hosts.removeOne(host))
        return;
    delete itemOf(host);
    m_status.remove(host);
    m_checking.removeAll(host);
    save();
    showDetails();
}

void HostsDialog::refresh()
{
    for (const QString &h : std::as_const(m_hosts)) {
        if (!m_checking.contains(h))
            m_checking.append(h);
        fillRow(itemOf(h), h);
    }
    showDetails();
    m_prober->probe(m_hosts, keyPath());
}

bool HostsDialog::isRefreshing() const
{
    return !m_checking.isEmpty();
}

void HostsDialog::setKeyPath(const QString &path)
{
    AppSettings::setAgentKeyPath(path);
    updateKeyLabel();
    refresh();
}

QString HostsDialog::keyPath() const
{
    return AppSettings::agentKeyPath();
}

void HostsDialog::save()
{
    AppSettings::setAgentHosts(m_hosts);
    Q_EMIT hostsChanged(m_hosts);
}

std::optional<nb::AgentStatus> HostsDialog::status(const QString &host) const
{
    const auto it = m_status.constFind(host);
    if (it == m_status.constEnd())
        return std::nullopt;
    return *it;
}

QString HostsDialog::statusWord(const nb::AgentStatus &s)
{
    using Key = nb::AgentStatus::Key;
    if (s.key == Key::Failed) {
        switch (s.keyCode) {
        case nb::ErrorCode::AuthFailed:
            return tr("Wrong key");
        case nb::ErrorCode::Busy:
            return tr("Busy");
        case nb::ErrorCode::Protocol:
            return tr("Not an agent");
        case nb::ErrorCode::InvalidParams:
            return tr("Key file unusable");
        case nb::ErrorCode::PeerClosed:
            return tr("Turned away");
        default:
            break;
        }
    }
    if (!s.reachable())
        return tr("Unreachable");
    if (s.key == Key::Accepted)
        return tr("Ready");
    return s.infoOk ? tr("Answers (key not checked)") : tr("Answers");
}

QString HostsDialog::statusSentence(const nb::AgentStatus &s)
{
    using Key = nb::AgentStatus::Key;
    QString text;
    if (s.key == Key::Accepted)
        text = tr("Answers and takes the key (handshake %1 ms).").arg(s.handshakeSeconds * 1000, 0, 'f', 2);
    else if (s.key == Key::Failed)
        text = nb::ui::MessageBanner::sentence(s.keyError);
    else if (s.infoOk)
        text = tr("Answers; the key is not checked: choose the agent key file below.");
    if (!s.infoOk && (s.key != Key::Failed || s.keyError.isEmpty()))
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + nb::ui::MessageBanner::sentence(s.infoError);
    return text;
}

QString HostsDialog::statusText(const QString &host) const
{
    if (m_checking.contains(host))
        return tr("Checking...");
    const auto s = status(host);
    return s ? statusWord(*s) : tr("Not checked");
}

QString HostsDialog::detailText(const QString &host) const
{
    const auto s = status(host);
    if (m_checking.contains(host) && !s)
        return tr("%1: checking...").arg(host);
    if (!s)
        return tr("%1: not checked yet.").arg(host);
    QString text = QStringLiteral("<b>%1</b>: %2").arg(host.toHtmlEscaped(), statusSentence(*s).toHtmlEscaped());
    if (s->infoOk)
        text += QStringLiteral("<br>") + machineWords(s->info).toHtmlEscaped();
    return text;
}

void HostsDialog::fillRow(QTreeWidgetItem *item, const QString &host)
{
    if (!item)
        return;
    const auto s = status(host);
    item->setText(AgentColumn, host);
    item->setText(StatusColumn, statusText(host));
    item->setToolTip(StatusColumn, s ? statusSentence(*s) : QString());
    item->setText(MachineColumn, s && s->infoOk ? machineWords(s->info) : QString());
    item->setText(AdaptersColumn, s && s->infoOk ? adapterNames(s->info) : QString());
    item->setToolTip(AdaptersColumn, item->text(AdaptersColumn));
    const bool bad = s && !m_checking.contains(host) && !s->ok();
    item->setForeground(StatusColumn, bad ? QBrush(QColor(0xe0, 0x4a, 0x3a)) : QBrush());
}

QTreeWidgetItem *HostsDialog::itemOf(const QString &host) const
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->text(AgentColumn) == host)
            return m_list->topLevelItem(i);
    }
    return nullptr;
}

void HostsDialog::selectHost(const QString &host)
{
    if (QTreeWidgetItem *item = itemOf(host))
        m_list->setCurrentItem(item);
}

void HostsDialog::showDetails()
{
    const QTreeWidgetItem *item = m_list->currentItem();
    m_remove->setEnabled(item);
    m_adapters->clear();
    if (!item) {
        m_details->setText(m_hosts.isEmpty() ? tr("No agents yet: type one above and press Add.")
                                             : tr("Select an agent to see its adapters."));
        return;
    }
    const QString host = item->text(AgentColumn);
    m_details->setText(detailText(host));
    if (const auto s = status(host); s && s->infoOk) {
        for (const nb::AdapterInfo &a : s->info.adapters)
            m_adapters->addTopLevelItem(adapterItem(a));
        for (int c = 0; c < AdapterColumns - 1; ++c)
            m_adapters->resizeColumnToContents(c);
    }
}

void HostsDialog::onProbed(const QString &host, const nb::AgentStatus &status)
{
    if (!m_hosts.contains(host))
        return; // removed meanwhile
    m_status.insert(host, status);
    m_checking.removeAll(host);
    fillRow(itemOf(host), host);
    // The machine's words in full where there is room (the OS and cores make them long).
    if (const QTreeWidgetItem *item = itemOf(host)) {
        const int wanted = m_list->fontMetrics().horizontalAdvance(item->text(MachineColumn)) + 16;
        m_list->setColumnWidth(MachineColumn, std::min(480, std::max(m_list->columnWidth(MachineColumn), wanted)));
    }
    if (const QTreeWidgetItem *item = m_list->currentItem(); item && item->text(AgentColumn) == host)
        showDetails();
    Q_EMIT hostProbed(host);
}

void HostsDialog::chooseKeyFile()
{
    const QString current = keyPath();
    const QString start = current.isEmpty() ? QDir::homePath() : QFileInfo(current).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Agent Key File"), start);
    if (!path.isEmpty())
        setKeyPath(path);
}

void HostsDialog::updateKeyLabel()
{
    const QString path = keyPath();
    m_keyLabel->setFullText(path.isEmpty() ? tr("none chosen: agents are listed, their key is not checked")
                                           : QDir::toNativeSeparators(path));
}

} // namespace nb::gui
