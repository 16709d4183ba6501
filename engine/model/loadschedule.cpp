// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loadschedule.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace nb {

QString loadPhaseName(LoadPhase p)
{
    switch (p) {
    case LoadPhase::Idle:
        return QStringLiteral("idle");
    case LoadPhase::Download:
        return QStringLiteral("download");
    case LoadPhase::Upload:
        return QStringLiteral("upload");
    case LoadPhase::Bidir:
        return QStringLiteral("bidir");
    }
    return {};
}

std::optional<LoadPhase> loadPhaseFromName(const QString &name)
{
    for (LoadPhase p : {LoadPhase::Idle, LoadPhase::Download, LoadPhase::Upload, LoadPhase::Bidir})
        if (name == loadPhaseName(p))
            return p;
    return std::nullopt;
}

bool clientSendsIn(LoadPhase p)
{
    return p == LoadPhase::Upload || p == LoadPhase::Bidir;
}

bool serverSendsIn(LoadPhase p)
{
    return p == LoadPhase::Download || p == LoadPhase::Bidir;
}

LoadSchedule::LoadSchedule(QList<LoadPhase> phases, double phaseSeconds)
    : m_phases(std::move(phases))
    , m_phaseSeconds(phaseSeconds)
{
}

std::optional<QList<LoadPhase>> LoadSchedule::parseOrder(const QString &text, QString *error)
{
    QList<LoadPhase> out;
    const QStringList names = text.split(QLatin1Char(','));
    for (const QString &raw : names) {
        const QString name = raw.trimmed().toLower();
        const std::optional<LoadPhase> p = loadPhaseFromName(name);
        if (!p) {
            *error = QStringLiteral("unknown load phase '%1' (--phases takes idle, download, upload and bidir, "
                                    "separated by commas)")
                         .arg(name.left(40));
            return std::nullopt;
        }
        out.append(*p);
        if (out.size() > MaxPhases) {
            *error = QStringLiteral("more than %1 load phases (--phases)").arg(MaxPhases);
            return std::nullopt;
        }
    }
    return out;
}

QString LoadSchedule::orderText(const QList<LoadPhase> &phases)
{
    QStringList names;
    for (LoadPhase p : phases)
        names.append(loadPhaseName(p));
    return names.join(QLatin1Char(','));
}

int LoadSchedule::phaseAt(double t) const
{
    if (m_phases.isEmpty() || m_phaseSeconds <= 0 || t <= 0)
        return 0;
    return std::min(int(m_phases.size()) - 1, int(std::floor(t / m_phaseSeconds)));
}

double LoadSchedule::nextBoundary(double t) const
{
    if (m_phaseSeconds <= 0 || t >= total())
        return total();
    if (t < 0)
        return 0;
    // The boundary just after t; floating point may put t a hair below a boundary it reached.
    double next = m_phaseSeconds * (std::floor(t / m_phaseSeconds) + 1);
    if (next - t < 1e-9)
        next += m_phaseSeconds;
    return std::min(next, total());
}

int LoadSchedule::baselinePhase() const
{
    const auto it = std::find(m_phases.begin(), m_phases.end(), LoadPhase::Idle);
    return it == m_phases.end() ? -1 : int(it - m_phases.begin());
}

} // namespace nb
