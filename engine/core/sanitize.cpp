// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sanitize.h"

#include <QChar>

namespace nb {

namespace {

bool isPlain(char32_t c)
{
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
        return false; // C0, DEL, C1 (C1's 0x9b is a one-byte CSI on some terminals)
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_NotAssigned:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return false;
    default:
        return true;
    }
}

} // namespace

QString printable(QStringView text, int maxLen)
{
    QString out;
    out.reserve(std::min<qsizetype>(text.size(), maxLen > 0 ? maxLen + 3 : text.size()));
    int count = 0; // characters (code points) kept
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (maxLen > 0 && count >= maxLen) {
            out += QStringLiteral("...");
            break;
        }
        char32_t c = text[i].unicode();
        const bool pair = QChar::isHighSurrogate(c) && i + 1 < text.size() && text[i + 1].isLowSurrogate();
        if (pair)
            c = QChar::surrogateToUcs4(text[i], text[i + 1]);
        if (isPlain(c)) {
            out += text[i];
            if (pair)
                out += text[i + 1];
        } else {
            out += QLatin1Char('?');
        }
        if (pair)
            ++i;
        ++count;
    }
    return out;
}

QString terminalSafe(QStringView text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        char32_t c = text[i].unicode();
        const bool pair = QChar::isHighSurrogate(c) && i + 1 < text.size() && text[i + 1].isLowSurrogate();
        if (pair)
            c = QChar::surrogateToUcs4(text[i], text[i + 1]);
        if (c == U'\n' || c == U'\t' || isPlain(c)) {
            out += text[i];
            if (pair)
                out += text[i + 1];
        } else if (c < 0x100) {
            out += QStringLiteral("\\x%1").arg(unsigned(c), 2, 16, QLatin1Char('0'));
        } else {
            out += QStringLiteral("\\u%1").arg(unsigned(c), pair ? 6 : 4, 16, QLatin1Char('0'));
        }
        if (pair)
            ++i;
    }
    return out;
}

} // namespace nb
