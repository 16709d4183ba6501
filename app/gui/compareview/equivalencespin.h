// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The equivalence threshold's spin box ("+-2.0 %", 0 reads "off"), as New Comparison and the
// Compare view both show it: range and default from the option table
// (compare/comparisonoptions.h, Id::Equivalence), one tooltip.

class QDoubleSpinBox;

namespace nb::gui {

QDoubleSpinBox *newEquivalenceSpinBox();

} // namespace nb::gui
