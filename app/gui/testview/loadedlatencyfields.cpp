// SPDX-License-Identifier: GPL-3.0-or-later
#include "testview/loadedlatencyfields.h"
#include "core/format.h"

#include <model/parameters.h>

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace nb::gui {

LoadedLatencyFields::LoadedLatencyFields(QWidget *parent)
    : QWidget(parent)
    , m_phases(new QLineEdit(this))
    , m_phaseSeconds(new QDoubleSpinBox(this))
    , m_probeDscp(new QSpinBox(this))
    , m_total(new QLabel(this))
{
    setObjectName(QStringLiteral("loadedLatencyFields"));
    using nb::param::Id;
    const nb::param::Parameter &phases = nb::param::parameter(Id::Phases);
    m_phases->setObjectName(QStringLiteral("phasesEdit"));
    m_phases->setPlaceholderText(QString::fromLatin1(nb::LoadSchedule::DefaultOrder));
    m_phases->setToolTip(nb::param::toolTip(phases));
    const nb::param::Parameter &seconds = nb::param::parameter(Id::PhaseSeconds);
    m_phaseSeconds->setObjectName(QStringLiteral("phaseSecondsSpin"));
    m_phaseSeconds->setRange(seconds.min, seconds.max);
    m_phaseSeconds->setDecimals(1);
    m_phaseSeconds->setSuffix(tr(" s"));
    m_phaseSeconds->setToolTip(nb::param::toolTip(seconds));
    const nb::param::Parameter &dscp = nb::param::parameter(Id::ProbeDscp);
    m_probeDscp->setObjectName(QStringLiteral("probeDscpSpin"));
    m_probeDscp->setRange(int(dscp.min), int(dscp.max));
    m_probeDscp->setSpecialValueText(tr("unmarked"));
    m_probeDscp->setToolTip(nb::param::toolTip(dscp));
    m_total->setObjectName(QStringLiteral("loadedLatencyTotal"));

    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("P&hases:"), m_phases);
    form->addRow(tr("Phase &length:"), m_phaseSeconds);
    form->addRow(tr("Probe DSCP:"), m_probeDscp);
    form->addRow(QString(), m_total);

    show(nb::TestParams());
    connect(m_phases, &QLineEdit::textEdited, this, [this] {
        updateTotal();
        Q_EMIT edited();
    });
    connect(m_phaseSeconds, &QDoubleSpinBox::valueChanged, this, [this] {
        updateTotal();
        Q_EMIT edited();
    });
    connect(m_probeDscp, &QSpinBox::valueChanged, this, &LoadedLatencyFields::edited);
}

bool LoadedLatencyFields::apply(nb::TestParams *params, QString *error) const
{
    nb::TestParams p = *params;
    p.kind = nb::TestKind::LoadedLatency;
    const QString text = m_phases->text().trimmed();
    p.phases = text.isEmpty() ? QString::fromLatin1(nb::LoadSchedule::DefaultOrder) : text;
    QString why;
    if (!nb::LoadSchedule::parseOrder(p.phases, &why)) {
        *error = tr("Phases: %1").arg(why);
        return false;
    }
    p.phaseSeconds = m_phaseSeconds->value();
    p.probeDscp = m_probeDscp->value();
    // The phases set the directions and the length; a byte count or warm-up does not apply.
    p.direction = nb::Direction::Bidirectional;
    p.bytes = 0;
    p.omit = 0;
    *params = p.normalized();
    return true;
}

void LoadedLatencyFields::show(const nb::TestParams &params)
{
    const QSignalBlocker b1(m_phases), b2(m_phaseSeconds), b3(m_probeDscp);
    m_phases->setText(params.phases);
    m_phases->setCursorPosition(0); // the list's start, not its end, when the field is narrow
    m_phaseSeconds->setValue(params.phaseSeconds);
    m_probeDscp->setValue(params.probeDscp);
    updateTotal();
}

double LoadedLatencyFields::totalSeconds() const
{
    QString ignored;
    const QString text = m_phases->text().trimmed();
    const auto phases = nb::LoadSchedule::parseOrder(
        text.isEmpty() ? QString::fromLatin1(nb::LoadSchedule::DefaultOrder) : text, &ignored);
    return phases ? double(phases->size()) * m_phaseSeconds->value() : 0.0;
}

void LoadedLatencyFields::updateTotal()
{
    const double total = totalSeconds();
    m_total->setText(total > 0 ? tr("The test runs %1 s.").arg(nb::formatSeconds(total))
                               : tr("Phases: idle, download, upload, bidir, comma-separated."));
}

} // namespace nb::gui
