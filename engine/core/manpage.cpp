// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/manpage.h"

#include <QRegularExpression>

namespace nb {

namespace {

qsizetype manIndent(const QString &line)
{
    qsizetype i = 0;
    while (i < line.size() && line.at(i) == QLatin1Char(' '))
        ++i;
    return i;
}

// An option row's left column ends at the first run of two spaces; when the flags fill the
// column there is one space only, so then the flag words (-x, --name, VALUE) end it.
std::pair<QString, QString> splitOptionRow(const QString &trimmed)
{
    const qsizetype gap = trimmed.indexOf(QStringLiteral("  "));
    if (gap > 0)
        return {trimmed.left(gap), trimmed.mid(gap).trimmed()};
    static const QRegularExpression flagWords(
        QStringLiteral("^(-[^\\s,]+,?(\\s+-[^\\s,]+,?)*)(\\s+[A-Z][A-Z0-9_/\\[\\]=,.:|-]*)?"));
    const QRegularExpressionMatch m = flagWords.match(trimmed);
    if (m.hasMatch() && m.capturedLength() < trimmed.size())
        return {m.captured(), trimmed.mid(m.capturedLength()).trimmed()};
    return {trimmed, QString()};
}

} // namespace

QString roffEscape(const QString &text)
{
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar c : text) {
        if (c == QLatin1Char('\\'))
            out += QStringLiteral("\\e");
        else if (c == QLatin1Char('-'))
            out += QStringLiteral("\\-");
        else if (c == QLatin1Char('"')) // a quote would end a macro's argument (.B "x y")
            out += QStringLiteral("\\(dq");
        else
            out += c;
    }
    if (out.startsWith(QLatin1Char('.')) || out.startsWith(QLatin1Char('\'')))
        out.prepend(QStringLiteral("\\&"));
    return out;
}

QString manPageRoff(const ManPage &page)
{
    QString r;
    r += QStringLiteral(".\\\" Generated from `%1 --help` at build time; do not edit.\n").arg(page.name);
    r += QStringLiteral(".TH %1 %2 \"\" \"NicBench %3\" \"User Commands\"\n")
             .arg(page.name.toUpper(), page.section, page.version);
    r += QStringLiteral(".SH NAME\n%1 \\- %2\n").arg(roffEscape(page.name), roffEscape(page.summary));

    const QStringList lines = page.help.split(QLatin1Char('\n'));
    qsizetype i = 0;
    QStringList synopsis;
    // Leading blank lines, then the usage block up to the first blank line.
    while (i < lines.size() && lines.at(i).trimmed().isEmpty())
        ++i;
    if (i < lines.size() && lines.at(i).startsWith(QLatin1String("Usage:"))) {
        synopsis.append(lines.at(i).mid(6).trimmed());
        for (++i; i < lines.size() && !lines.at(i).trimmed().isEmpty(); ++i)
            synopsis.append(lines.at(i).trimmed());
    }
    if (!synopsis.isEmpty()) {
        r += QStringLiteral(".SH SYNOPSIS\n.nf\n");
        for (const QString &s : synopsis)
            r += QStringLiteral(".B ") + roffEscape(s) + QLatin1Char('\n');
        r += QStringLiteral(".fi\n");
    }
    if (!page.description.isEmpty()) {
        r += QStringLiteral(".SH DESCRIPTION\n");
        for (const QString &p : page.description)
            r += roffEscape(p) + QStringLiteral("\n.PP\n");
        r.chop(4);
    }
    r += QStringLiteral(".SH OPTIONS\n");
    enum class Last { None, Row, Text } last = Last::None;
    for (; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty()) {
            last = Last::None;
            continue;
        }
        const qsizetype indent = manIndent(line);
        if (indent >= 8 && last == Last::Row) {
            r += roffEscape(trimmed) + QLatin1Char('\n');
            continue;
        }
        if (indent == 0 && trimmed.endsWith(QLatin1Char(':'))) {
            r += QStringLiteral(".SS ") + roffEscape(trimmed.chopped(1)) + QLatin1Char('\n');
            last = Last::None;
            continue;
        }
        if (indent > 0) {
            const auto [tag, text] = splitOptionRow(trimmed);
            r += QStringLiteral(".TP\n.B ") + roffEscape(tag) + QLatin1Char('\n');
            if (!text.isEmpty())
                r += roffEscape(text) + QLatin1Char('\n');
            last = Last::Row;
            continue;
        }
        if (last != Last::Text)
            r += QStringLiteral(".PP\n");
        r += roffEscape(trimmed) + QLatin1Char('\n');
        last = Last::Text;
    }
    if (!page.files.isEmpty()) {
        r += QStringLiteral(".SH FILES\n");
        for (const auto &[path, what] : page.files)
            r += QStringLiteral(".TP\n.I ") + roffEscape(path) + QLatin1Char('\n') + roffEscape(what) +
                 QLatin1Char('\n');
    }
    if (!page.seeAlso.isEmpty()) {
        r += QStringLiteral(".SH SEE ALSO\n");
        for (qsizetype k = 0; k < page.seeAlso.size(); ++k) {
            const QString &s = page.seeAlso.at(k);
            const QString comma = k + 1 < page.seeAlso.size() ? QStringLiteral(",") : QString();
            const qsizetype paren = s.indexOf(QLatin1Char('('));
            r += paren > 0 ? QStringLiteral(".BR %1 %2%3\n").arg(roffEscape(s.left(paren)), s.mid(paren), comma)
                           : roffEscape(s) + comma + QLatin1Char('\n');
        }
    }
    return r;
}

} // namespace nb
