// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/apptheme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace nb::gui {

namespace {

struct SystemLook {
    bool captured = false;
    QString styleName;
    QPalette palette;
};

SystemLook &systemLook()
{
    static SystemLook look;
    return look;
}

AppSettings::Theme &current()
{
    static AppSettings::Theme theme = AppSettings::Theme::System;
    return theme;
}

void setGroups(QPalette &p, QPalette::ColorRole role, const QColor &active, const QColor &disabled)
{
    p.setColor(QPalette::Active, role, active);
    p.setColor(QPalette::Inactive, role, active);
    p.setColor(QPalette::Disabled, role, disabled);
}

// Text on its background stays above 7:1 (WCAG AAA) in both palettes; disabled text
// stays readable (about 3:1) without looking enabled.
QPalette darkPalette()
{
    QPalette p;
    const QColor text(0xe8, 0xe8, 0xe8);
    const QColor disabledText(0x80, 0x80, 0x80);
    setGroups(p, QPalette::Window, QColor(0x2b, 0x2b, 0x2e), QColor(0x2b, 0x2b, 0x2e));
    setGroups(p, QPalette::WindowText, text, disabledText);
    setGroups(p, QPalette::Base, QColor(0x1e, 0x1e, 0x20), QColor(0x26, 0x26, 0x28));
    setGroups(p, QPalette::AlternateBase, QColor(0x29, 0x29, 0x2c), QColor(0x29, 0x29, 0x2c));
    setGroups(p, QPalette::Text, text, disabledText);
    setGroups(p, QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a), disabledText);
    setGroups(p, QPalette::Button, QColor(0x3a, 0x3a, 0x3e), QColor(0x33, 0x33, 0x36));
    setGroups(p, QPalette::ButtonText, text, disabledText);
    setGroups(p, QPalette::BrightText, QColor(0xff, 0x6b, 0x6b), QColor(0xff, 0x6b, 0x6b));
    setGroups(p, QPalette::Light, QColor(0x4e, 0x4e, 0x53), QColor(0x4e, 0x4e, 0x53));
    setGroups(p, QPalette::Midlight, QColor(0x42, 0x42, 0x46), QColor(0x42, 0x42, 0x46));
    setGroups(p, QPalette::Mid, QColor(0x33, 0x33, 0x37), QColor(0x33, 0x33, 0x37));
    setGroups(p, QPalette::Dark, QColor(0x1a, 0x1a, 0x1c), QColor(0x1a, 0x1a, 0x1c));
    setGroups(p, QPalette::Shadow, QColor(0x0a, 0x0a, 0x0a), QColor(0x0a, 0x0a, 0x0a));
    setGroups(p, QPalette::Highlight, QColor(0x2f, 0x6f, 0xc8), QColor(0x44, 0x44, 0x48));
    setGroups(p, QPalette::HighlightedText, QColor(0xff, 0xff, 0xff), disabledText);
    setGroups(p, QPalette::Link, QColor(0x7a, 0xb8, 0xff), QColor(0x7a, 0xb8, 0xff));
    setGroups(p, QPalette::LinkVisited, QColor(0xc0, 0x9c, 0xff), QColor(0xc0, 0x9c, 0xff));
    setGroups(p, QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3e), QColor(0x3a, 0x3a, 0x3e));
    setGroups(p, QPalette::ToolTipText, text, text);
    return p;
}

QPalette lightPalette()
{
    QPalette p;
    const QColor text(0x1a, 0x1a, 0x1a);
    const QColor disabledText(0x8c, 0x8c, 0x8c);
    setGroups(p, QPalette::Window, QColor(0xef, 0xef, 0xef), QColor(0xef, 0xef, 0xef));
    setGroups(p, QPalette::WindowText, text, disabledText);
    setGroups(p, QPalette::Base, QColor(0xff, 0xff, 0xff), QColor(0xf4, 0xf4, 0xf4));
    setGroups(p, QPalette::AlternateBase, QColor(0xf5, 0xf5, 0xf7), QColor(0xf5, 0xf5, 0xf7));
    setGroups(p, QPalette::Text, text, disabledText);
    setGroups(p, QPalette::PlaceholderText, QColor(0x6b, 0x6b, 0x6b), disabledText);
    setGroups(p, QPalette::Button, QColor(0xe6, 0xe6, 0xe6), QColor(0xee, 0xee, 0xee));
    setGroups(p, QPalette::ButtonText, text, disabledText);
    setGroups(p, QPalette::BrightText, QColor(0xc0, 0x00, 0x00), QColor(0xc0, 0x00, 0x00));
    setGroups(p, QPalette::Light, QColor(0xff, 0xff, 0xff), QColor(0xff, 0xff, 0xff));
    setGroups(p, QPalette::Midlight, QColor(0xf2, 0xf2, 0xf2), QColor(0xf2, 0xf2, 0xf2));
    setGroups(p, QPalette::Mid, QColor(0xb8, 0xb8, 0xb8), QColor(0xb8, 0xb8, 0xb8));
    setGroups(p, QPalette::Dark, QColor(0x9f, 0x9f, 0x9f), QColor(0x9f, 0x9f, 0x9f));
    setGroups(p, QPalette::Shadow, QColor(0x76, 0x76, 0x76), QColor(0x76, 0x76, 0x76));
    setGroups(p, QPalette::Highlight, QColor(0x25, 0x63, 0xbd), QColor(0xc8, 0xc8, 0xc8));
    setGroups(p, QPalette::HighlightedText, QColor(0xff, 0xff, 0xff), disabledText);
    setGroups(p, QPalette::Link, QColor(0x0b, 0x57, 0xd0), QColor(0x0b, 0x57, 0xd0));
    setGroups(p, QPalette::LinkVisited, QColor(0x6a, 0x1b, 0x9a), QColor(0x6a, 0x1b, 0x9a));
    setGroups(p, QPalette::ToolTipBase, QColor(0xff, 0xff, 0xe1), QColor(0xff, 0xff, 0xe1));
    setGroups(p, QPalette::ToolTipText, text, text);
    return p;
}

} // namespace

QPalette themePalette(AppSettings::Theme theme)
{
    switch (theme) {
    case AppSettings::Theme::Light:
        return lightPalette();
    case AppSettings::Theme::Dark:
        return darkPalette();
    case AppSettings::Theme::System:
        break;
    }
    return systemLook().captured ? systemLook().palette : QApplication::palette();
}

void applyTheme(AppSettings::Theme theme)
{
    SystemLook &look = systemLook();
    if (!look.captured) {
        look.captured = true;
        look.styleName = QApplication::style()->name();
        look.palette = QApplication::palette();
    }
    if (theme == AppSettings::Theme::System) {
        if (current() != AppSettings::Theme::System) {
            if (QStyle *style = QStyleFactory::create(look.styleName))
                QApplication::setStyle(style);
            QApplication::setPalette(look.palette);
        }
    } else {
        // Fusion draws everything from the palette, so the colours are exactly these.
        if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
            QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(themePalette(theme));
    }
    current() = theme;
}

AppSettings::Theme currentTheme()
{
    return current();
}

} // namespace nb::gui
