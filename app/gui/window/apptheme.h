// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// View > Theme: the platform's look (System), or NicBench's own light or dark Fusion
// palette. The dark one works on a bare X server or Windows without a dark platform
// theme. Charts follow because they restyle themselves on QEvent::PaletteChange.

#include "window/appsettings.h"

#include <QPalette>

namespace nb::gui {

// The palette NicBench uses for Light or Dark (System: the platform's, as at startup).
QPalette themePalette(AppSettings::Theme theme);
// Switches the application's style and palette. The first call remembers the platform's
// style and palette so that System can go back to them.
void applyTheme(AppSettings::Theme theme);
// The theme applied last (System before any call).
AppSettings::Theme currentTheme();

} // namespace nb::gui
