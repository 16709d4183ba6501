// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter table written for people: option names, sizes and ranges as text, tooltips,
// and the options part of --help (the man pages are made from --help, core/manpage.h).
#include "model/parameters.h"

#include "model/parameters_p.h"

#include <array>
#include <cmath>

namespace nb::param {

namespace {

QString numberText(double v)
{
    return QString::number(v, 'g', 12);
}

QString sectionTitle(Section s)
{
    switch (s) {
    case Section::Common:
        return QStringLiteral("Server or client:");
    case Section::Server:
        return QStringLiteral("Server:");
    case Section::Client:
        return QStringLiteral("Client:");
    case Section::RequestResponse:
        return QStringLiteral("Request/response (needs a NicBench server):");
    case Section::LoadedLatency:
        return QStringLiteral("Latency under load (the probe needs a NicBench server):");
    case Section::Agent:
        return QStringLiteral("Agents (a test between two other machines):");
    case Section::Other:
        return QStringLiteral("Other:");
    }
    return {};
}

} // namespace

QString flagName(const Parameter &p)
{
    return p.shortFlag ? QStringLiteral("-%1").arg(QLatin1Char(p.shortFlag))
                       : QStringLiteral("--%1").arg(QLatin1String(p.longFlag));
}

QString sizeText(double bytes)
{
    static const std::array<std::pair<double, char>, 3> units = {{{GiB, 'G'}, {MiB, 'M'}, {KiB, 'K'}}};
    for (const auto &[factor, suffix] : units)
        if (bytes >= factor && std::fmod(bytes, factor) == 0)
            return numberText(bytes / factor) + QLatin1Char(suffix);
    return numberText(bytes);
}

QString rangeText(const Parameter &p)
{
    if (p.type == Type::Size)
        return QStringLiteral("%1 to %2").arg(sizeText(p.min), sizeText(p.max));
    return QStringLiteral("%1 to %2").arg(numberText(p.min), numberText(p.max));
}

QString toolTip(const Parameter &p)
{
    QString text = QString::fromLatin1(p.help).replace(QLatin1Char('\n'), QLatin1Char(' '));
    text[0] = text[0].toUpper();
    if (isNumeric(p) && p.max < MaxU64)
        text += QStringLiteral(", %1%2").arg(rangeText(p), *p.unit == 's' ? QStringLiteral(" s") : QString());
    return QStringLiteral("%1 (%2).").arg(text, flagName(p));
}

QString optionsHelp(bool window)
{
    constexpr qsizetype column = 26;
    QString h;
    for (Section s : {Section::Common, Section::Server, Section::Client, Section::RequestResponse,
                      Section::LoadedLatency, Section::Agent, Section::Other}) {
        if (window && (s == Section::Server || s == Section::Agent))
            continue;
        h += sectionTitle(s) + QLatin1Char('\n');
        for (const Parameter &p : parameters()) {
            if (p.section != s)
                continue;
            QString left =
                p.shortFlag ? QStringLiteral("  -%1, ").arg(QLatin1Char(p.shortFlag)) : QStringLiteral("      ");
            left += QStringLiteral("--") + QLatin1String(p.longFlag);
            if (p.valueName)
                left += QLatin1Char(' ') + QLatin1String(p.valueName);
            left = left.leftJustified(column - 1) + QLatin1Char(' ');
            QString text = QLatin1String(p.help);
            text.replace(QLatin1Char('\n'), QLatin1Char('\n') + QString(column, QLatin1Char(' ')));
            // Range and default go after the first clause: "test duration, 0 to 86400 (default 10); ..."
            qsizetype firstLineEnd = text.indexOf(QLatin1Char(';'));
            if (firstLineEnd < 0)
                firstLineEnd = text.indexOf(QLatin1Char('\n'));
            QString extra;
            if ((p.type == Type::Int || p.type == Type::Seconds) && p.id != Id::Port)
                extra += QStringLiteral(", ") + rangeText(p);
            if (*p.defaultText)
                extra += QStringLiteral(" (default %1)").arg(QLatin1String(p.defaultText));
            text.insert(firstLineEnd < 0 ? text.size() : firstLineEnd, extra);
            h += left + text + QLatin1Char('\n');
        }
    }
    h += QStringLiteral("Sizes take K/M/G suffixes (1K = 1024), as in iperf.\n");
    return h;
}

} // namespace nb::param
