// SPDX-License-Identifier: GPL-3.0-or-later
#include "labview/labdialog.h"

#include "labview/labcontroller.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace nb::gui {

namespace {

// The adapter model as users name it, and what QEMU and Linux call it.
QString modelToolTip(const nb::lab::AdapterModel &m)
{
    return LabDialog::tr("QEMU device %1, Linux driver %2; MTU %3 to %4")
        .arg(m.qemuDevice, m.driver)
        .arg(nb::lab::kMinMtu)
        .arg(m.maxMtu);
}

bool phaseAllowsStart(LabView::Phase phase)
{
    return phase == LabView::Phase::Idle || phase == LabView::Phase::Failed;
}

} // namespace

LabDialog::LabDialog(LabController *lab, QWidget *parent) : QDialog(parent), m_lab(lab)
{
    setObjectName(QStringLiteral("labDialog"));
    setWindowTitle(tr("Adapter Lab"));
    auto *intro = new QLabel(tr("QEMU guests whose network adapters are driven by the guests' own Linux drivers. "
                                "Each guest boots this computer's kernel and runs a NicBench server; the guests "
                                "that are up appear in the Target box and in New Comparison."));
    intro->setWordWrap(true);
    m_validation = new QLabel;
    m_validation->setObjectName(QStringLiteral("labValidation"));
    m_validation->setWordWrap(true);
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("labMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_start = new QPushButton(tr("&Start"));
    m_start->setObjectName(QStringLiteral("labStartButton"));
    m_stop = new QPushButton(tr("S&top"));
    m_stop->setObjectName(QStringLiteral("labStopButton"));
    m_compare = new QPushButton(tr("&New Comparison..."));
    m_compare->setObjectName(QStringLiteral("labCompareButton"));
    m_compare->setToolTip(tr("Compare the guests that are up, one adapter each"));
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_start, &QPushButton::clicked, this, [this] { startLab(); });
    connect(m_stop, &QPushButton::clicked, this, &LabDialog::stopLab);
    connect(m_compare, &QPushButton::clicked, this, &LabDialog::newComparisonRequested);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_compare);
    buttons->addStretch(1);
    buttons->addWidget(close);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(buildSettings());
    layout->addWidget(m_validation);
    layout->addWidget(buildGuests(), 1);
    layout->addWidget(m_message);
    layout->addLayout(buttons);

    m_tick = new QTimer(this);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &LabDialog::renderGuests);
    connect(m_lab, &LabController::changed, this, &LabDialog::render);

    QSize size(780, 600);
    if (const QScreen *s = parent ? parent->screen() : screen())
        size = size.boundedTo(s->availableGeometry().size() - QSize(40, 60));
    resize(size.expandedTo(minimumSizeHint()));
    render();
}

QWidget *LabDialog::buildSettings()
{
    auto *box = new QGroupBox(tr("Guests to start: one per adapter"));
    auto *models = new QHBoxLayout;
    for (const nb::lab::AdapterModel &m : nb::lab::adapterModels()) {
        const QString name =
            m.name == QLatin1String("virtio") ? QStringLiteral("virtio-net") : nb::adapterModelName(m.family);
        auto *check = new QCheckBox(name);
        check->setObjectName(QStringLiteral("labAdapter_") + m.name);
        check->setToolTip(modelToolTip(m));
        // The articles' comparison is the default: E1000 against VMXNET3.
        check->setChecked(m.name == QLatin1String("e1000") || m.name == QLatin1String("vmxnet3"));
        connect(check, &QCheckBox::toggled, this, &LabDialog::onInputChanged);
        m_models.insert(m.name, check);
        models->addWidget(check);
    }
    models->addStretch(1);

    m_cpus = new QSpinBox;
    m_cpus->setObjectName(QStringLiteral("labCpus"));
    m_cpus->setRange(1, 64);
    m_cpus->setToolTip(tr("Virtual CPUs per guest: 1 is the small VM the articles measure"));
    m_memory = new QSpinBox;
    m_memory->setObjectName(QStringLiteral("labMemory"));
    m_memory->setRange(128, 65536);
    m_memory->setSingleStep(64);
    m_memory->setValue(256);
    m_memory->setSuffix(tr(" MB"));
    m_mtu = new QSpinBox;
    m_mtu->setObjectName(QStringLiteral("labMtu"));
    m_mtu->setRange(1, 65535); // every value typed is checked against the models' limits
    m_mtu->setValue(1500);
    QStringList limits;
    for (const nb::lab::AdapterModel &m : nb::lab::adapterModels())
        limits << tr("%1 %2 to %3").arg(m.name).arg(nb::lab::kMinMtu).arg(m.maxMtu);
    m_mtu->setToolTip(tr("The guests' and the bridge's MTU: %1").arg(limits.join(QStringLiteral(", "))));
    m_userNet = new QCheckBox(tr("&User-mode networking (no bridge or taps; caps throughput)"));
    m_userNet->setObjectName(QStringLiteral("labUserNet"));
    for (QSpinBox *spin : {m_cpus, m_memory, m_mtu})
        connect(spin, &QSpinBox::valueChanged, this, &LabDialog::onInputChanged);
    connect(m_userNet, &QCheckBox::toggled, this, &LabDialog::onInputChanged);
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("labNetworkNote"));
    m_note->setWordWrap(true);

    auto *grid = new QGridLayout(box);
    grid->addWidget(new QLabel(tr("Adapters:")), 0, 0);
    grid->addLayout(models, 0, 1, 1, 5);
    grid->addWidget(new QLabel(tr("CPUs per guest:")), 1, 0);
    grid->addWidget(m_cpus, 1, 1);
    grid->addWidget(new QLabel(tr("Memory per guest:")), 1, 2);
    grid->addWidget(m_memory, 1, 3);
    grid->addWidget(new QLabel(tr("MTU:")), 1, 4);
    grid->addWidget(m_mtu, 1, 5);
    grid->addWidget(m_userNet, 2, 0, 1, 7);
    grid->addWidget(m_note, 3, 0, 1, 7);
    grid->setColumnStretch(6, 1);
    return box;
}

QWidget *LabDialog::buildGuests()
{
    auto *box = new QGroupBox(tr("Guests"));
    m_guests = new QTableWidget(0, ColumnCount);
    m_guests->setObjectName(QStringLiteral("labGuests"));
    m_guests->setHorizontalHeaderLabels({tr("Guest"), tr("Adapter"), tr("Driver"), tr("Server"), tr("State")});
    m_guests->verticalHeader()->hide();
    m_guests->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_guests->setSelectionMode(QAbstractItemView::NoSelection);
    m_guests->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_guests->horizontalHeader()->setSectionResizeMode(StateColumn, QHeaderView::Stretch);
    m_consoleLabel = new QLabel;
    m_consoleLabel->setObjectName(QStringLiteral("labConsoleLabel"));
    m_console = new QPlainTextEdit;
    m_console->setObjectName(QStringLiteral("labConsole"));
    m_console->setReadOnly(true);
    m_console->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_console->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_guests, 1);
    layout->addWidget(m_consoleLabel);
    layout->addWidget(m_console, 2);
    return box;
}

void LabDialog::setAdapters(const QStringList &models)
{
    for (auto it = m_models.cbegin(); it != m_models.cend(); ++it)
        it.value()->setChecked(models.contains(it.key()));
}

QStringList LabDialog::adapters() const
{
    QStringList out;
    for (const nb::lab::AdapterModel &m : nb::lab::adapterModels()) {
        if (m_models.value(m.name)->isChecked())
            out << m.name;
    }
    return out;
}

// clang-format off
void LabDialog::setCpus(int cpus) { m_cpus->setValue(cpus); }
void LabDialog::setMemoryMb(int megabytes) { m_memory->setValue(megabytes); }
void LabDialog::setMtu(int mtu) { m_mtu->setValue(mtu); }
void LabDialog::setUserNetworking(bool on) { m_userNet->setChecked(on || !LabController::runningAsRoot()); }
QString LabDialog::messageText() const { return m_message->text(); }
QString LabDialog::consoleText() const { return m_console->toPlainText(); }
bool LabDialog::isConsoleShown() const { return !m_console->isHidden(); }
QString LabDialog::networkNote() const { return m_note->text(); }
// clang-format on

nb::lab::UpOptions LabDialog::options() const
{
    nb::lab::UpOptions o;
    o.adapters = adapters();
    o.cpus = m_cpus->value();
    o.memoryMb = m_memory->value();
    o.mtu = m_mtu->value();
    o.userNetworking = m_userNet->isChecked();
    o.timeoutSeconds = m_timeoutSeconds;
    return o;
}

QString LabDialog::validationError() const
{
    if (const QString why = m_lab->unavailableReason(); !why.isEmpty())
        return why;
    if (adapters().isEmpty())
        return tr("Tick at least one adapter."); // the CLI's message names --adapters
    QString error;
    if (!nb::lab::validateOptions(options(), &error))
        return error;
    return {};
}

bool LabDialog::startLab()
{
    QString error = validationError();
    const bool ok = error.isEmpty() && m_lab->start(options(), &error);
    m_refusal = ok ? QString() : error;
    render();
    return ok;
}

void LabDialog::stopLab()
{
    m_refusal.clear();
    m_lab->stop();
}

void LabDialog::updateInputs()
{
    // Without root there is no bridge or tap: user-mode networking, and its MTU, 1500.
    const bool root = LabController::runningAsRoot();
    if (!root) {
        const QSignalBlocker block(m_userNet);
        m_userNet->setChecked(true);
    }
    if (m_userNet->isChecked() && m_mtu->value() != 1500) {
        const QSignalBlocker block(m_mtu);
        m_mtu->setValue(1500);
    }
    const bool idle = phaseAllowsStart(m_lab->view().phase);
    for (QCheckBox *c : std::as_const(m_models))
        c->setEnabled(idle);
    m_cpus->setEnabled(idle);
    m_memory->setEnabled(idle);
    m_mtu->setEnabled(idle && !m_userNet->isChecked());
    m_userNet->setEnabled(idle && root);
    if (m_userNet->isChecked())
        m_note->setText(
            tr("%1QEMU's user-mode networking: each guest's server is reached at 127.0.0.1 through a "
               "port forward, at MTU 1500. That path caps throughput (about 0.2 Gbit/s for virtio-net "
               "where a tap gives 1.2), so its figures describe QEMU's user-mode stack, not the "
               "adapter.%2")
                .arg(root ? QString() : tr("Without root the guests use "),
                     root ? QString()
                          : tr(" Taps on a bridge need root: run NicBench, or nicbench-cli lab up, as root.")));
    else
        m_note->setText(tr("As root the guests get taps on a bridge (nblab-br: this computer at 198.18.0.1/15, the "
                           "guests from 198.18.0.10) with no route out, so no test packet leaves this computer."));
    const QString error = m_refusal.isEmpty() ? (idle ? validationError() : QString()) : m_refusal;
    m_validation->setText(error);
    m_validation->setVisible(!error.isEmpty());
    m_start->setEnabled(idle && validationError().isEmpty());
}

void LabDialog::onInputChanged()
{
    m_refusal.clear(); // the last refusal was about other settings
    updateInputs();
}

QString LabDialog::stateText(const nb::lab::GuestState &g) const
{
    if (g.state == QLatin1String("booting")) {
        if (g.startedMs <= 0)
            return tr("booting");
        return tr("booting, %1 s").arg((QDateTime::currentMSecsSinceEpoch() - g.startedMs) / 1000);
    }
    if (g.state == QLatin1String("up"))
        return g.bootSeconds > 0 ? tr("up (booted in %1 s)").arg(g.bootSeconds, 0, 'f', 1) : tr("up");
    if (g.state == QLatin1String("failed"))
        return tr("failed: its console's last lines are below");
    if (g.state == QLatin1String("stopped"))
        return tr("stopped");
    return tr("waiting");
}

void LabDialog::renderGuests()
{
    const LabView &view = m_lab->view();
    m_guests->setRowCount(int(view.lab.guests.size()));
    bool booting = false;
    for (int row = 0; row < view.lab.guests.size(); ++row) {
        const nb::lab::GuestState &g = view.lab.guests.at(row);
        booting = booting || g.state == QLatin1String("booting");
        const QString server = view.lab.userNetworking ? labServerAddress(g) : g.address;
        const QString cells[] = {g.name, labAdapterLabel(g), g.driver, server, stateText(g)};
        for (int column = 0; column < ColumnCount; ++column) {
            auto *item = m_guests->item(row, column);
            if (!item) {
                item = new QTableWidgetItem;
                m_guests->setItem(row, column, item);
            }
            item->setText(cells[column]);
        }
        m_guests->item(row, AddressColumn)
            ->setToolTip(view.lab.userNetworking ? tr("Through QEMU's port forward on this computer")
                                                 : tr("Its server on port %1").arg(g.port));
    }
    if (booting && !m_tick->isActive())
        m_tick->start();
    else if (!booting)
        m_tick->stop();
}

void LabDialog::render()
{
    const LabView &view = m_lab->view();
    updateInputs();
    renderGuests();
    const bool failedGuest = !view.console.isEmpty();
    m_consoleLabel->setText(tr("Console of %1, its last lines:").arg(view.failedGuest));
    m_consoleLabel->setVisible(failedGuest);
    m_console->setVisible(failedGuest);
    if (m_console->toPlainText() != view.console)
        m_console->setPlainText(view.console);
    m_message->setText(view.message.isEmpty() ? tr("No lab is up.") : view.message);
    m_stop->setEnabled(view.phase == LabView::Phase::Starting || view.phase == LabView::Phase::Up);
    m_compare->setEnabled(!view.reachableGuests().isEmpty());
}

QString LabDialog::guestCell(const QString &guest, Column column) const
{
    for (int row = 0; row < m_guests->rowCount(); ++row) {
        if (m_guests->item(row, GuestColumn) && m_guests->item(row, GuestColumn)->text() == guest)
            return m_guests->item(row, column) ? m_guests->item(row, column)->text() : QString();
    }
    return {};
}

void LabDialog::showEvent(QShowEvent *event)
{
    m_lab->setWatched(true);
    QDialog::showEvent(event);
}

void LabDialog::hideEvent(QHideEvent *event)
{
    m_lab->setWatched(false);
    QDialog::hideEvent(event);
}

} // namespace nb::gui
