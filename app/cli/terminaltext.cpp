// SPDX-License-Identifier: GPL-3.0-or-later
#include "terminaltext.h"

#include <algorithm>

namespace nb::cli {

namespace {

bool needsEscape(char16_t c)
{
    if (c == u'\n' || c == u'\t')
        return false;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
        return true;
    // Bidirectional embeddings, overrides and isolates reorder what follows them.
    return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f || c == 0x061c;
}

} // namespace

QString terminalSafe(const QString &text)
{
    const auto unsafe = [](QChar c) { return needsEscape(c.unicode()); };
    if (std::none_of(text.begin(), text.end(), unsafe))
        return text;
    QString out;
    out.reserve(text.size() + 16);
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (!needsEscape(u))
            out.append(c);
        else if (u < 0x100)
            out.append(QStringLiteral("\\x%1").arg(unsigned(u), 2, 16, QLatin1Char('0')));
        else
            out.append(QStringLiteral("\\u%1").arg(unsigned(u), 4, 16, QLatin1Char('0')));
    }
    return out;
}

} // namespace nb::cli
