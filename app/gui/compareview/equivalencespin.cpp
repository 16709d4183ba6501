// SPDX-License-Identifier: GPL-3.0-or-later
#include "compareview/equivalencespin.h"

#include <compare/comparisonoptions.h>

#include <QCoreApplication>
#include <QDoubleSpinBox>

namespace nb::gui {

QDoubleSpinBox *newEquivalenceSpinBox()
{
    const compareopt::Option &row = compareopt::option(compareopt::Id::Equivalence);
    auto *spin = new QDoubleSpinBox;
    spin->setObjectName(QStringLiteral("equivalenceSpin"));
    spin->setRange(row.min, row.max);
    spin->setDecimals(1);
    spin->setSingleStep(0.5);
    spin->setPrefix(QStringLiteral("\u00b1"));
    spin->setSuffix(QStringLiteral(" %"));
    spin->setSpecialValueText(QCoreApplication::translate("EquivalenceSpin", "off"));
    spin->setValue(compareopt::kDefaultEquivalencePercent);
    spin->setToolTip(QCoreApplication::translate(
        "EquivalenceSpin", "A difference smaller than this reads \"equivalent\", not faster or slower, even when "
                           "Welch's test finds it significant; so does a difference whose whole 95% interval lies "
                           "inside it. Off: every significant difference is a verdict. Saved with the comparison "
                           "(--equivalence on the command line)."));
    return spin;
}

} // namespace nb::gui
