// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/loadedlatencyformat.h"

#include "core/format.h"

#include <QCoreApplication>

namespace nb::ui {

namespace {

QString trLoaded(const char *text)
{
    return QCoreApplication::translate("nb::ui::LoadedLatency", text);
}

} // namespace

QString loadPhaseTitle(nb::LoadPhase phase)
{
    switch (phase) {
    case nb::LoadPhase::Idle:
        return trLoaded("Idle");
    case nb::LoadPhase::Download:
        return trLoaded("Download");
    case nb::LoadPhase::Upload:
        return trLoaded("Upload");
    case nb::LoadPhase::Bidir:
        return trLoaded("Both ways");
    }
    return {};
}

QString loadedLatencyHeadline(const nb::LoadedLatencyResult &r)
{
    const int worst = r.worstLoadedPhase();
    const auto p99 = worst >= 0 ? r.increaseUs(worst, &nb::LatencySummary::p99) : std::nullopt;
    if (!p99)
        return trLoaded("Under load: no probe figures");
    return trLoaded("Under load p99 %1 (%2)")
        .arg(nb::formatLatencyChange(*p99), loadPhaseTitle(r.phases.at(worst).phase).toLower());
}

QStringList loadedLatencyPhaseLines(const nb::LoadedLatencyResult &r)
{
    QStringList lines;
    const int baseline = r.baselineIndex();
    for (int i = 0; i < r.phases.size(); ++i) {
        const nb::LoadPhaseResult &p = r.phases.at(i);
        QStringList parts;
        if (!p.hasProbe || p.latencyUs.count == 0) {
            parts.append(trLoaded("no probe figures"));
        } else {
            const QString values =
                trLoaded("p50 %1, p99 %2")
                    .arg(nb::formatMicroseconds(p.latencyUs.p50), nb::formatMicroseconds(p.latencyUs.p99));
            const auto up50 = r.increaseUs(i, &nb::LatencySummary::p50);
            const auto up99 = r.increaseUs(i, &nb::LatencySummary::p99);
            if (i == baseline)
                parts.append(trLoaded("%1 (baseline)").arg(values));
            else if (up50 && up99)
                parts.append(
                    trLoaded("p50 %1, p99 %2").arg(nb::formatLatencyChange(*up50), nb::formatLatencyChange(*up99)));
            else
                parts.append(values);
        }
        // Only the directions that carried load: an idle phase's zeros say nothing.
        QStringList load;
        if (p.uploadBitsPerSecond > 0)
            load.append(trLoaded("up %1").arg(nb::formatBitrate(p.uploadBitsPerSecond)));
        if (p.downloadBitsPerSecond > 0)
            load.append(trLoaded("down %1").arg(nb::formatBitrate(p.downloadBitsPerSecond)));
        if (!load.isEmpty())
            parts.append(load.join(QStringLiteral(", ")));
        if (p.hasProbe)
            parts.append(nb::formatTransactionsPerSecond(p.transactionsPerSecond()));
        lines.append(QStringLiteral("%1 %2: %3")
                         .arg(i + 1)
                         .arg(loadPhaseTitle(p.phase), parts.join(QStringLiteral(" \u00b7 "))));
    }
    return lines;
}

} // namespace nb::ui
