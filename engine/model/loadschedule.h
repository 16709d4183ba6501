// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The phases of a latency-under-load test (--latency-under-load): which directions carry
// load when, on one clock that starts with the test. Both ends run the same schedule from
// the parameters, each on its own clock (the client's starts a one-way trip plus its own
// scheduling delay after the server's: README), and each gates only its own senders. Pure
// functions: tst_loadschedule.

#include <QList>
#include <QString>

#include <optional>

namespace nb {

enum class LoadPhase { Idle, Download, Upload, Bidir };

// "idle", "download", "upload", "bidir": the names the command line, the JSON and the GUI use.
QString loadPhaseName(LoadPhase p);
std::optional<LoadPhase> loadPhaseFromName(const QString &name);
// Whether the client (upload) or the server (download) sends during the phase.
bool clientSendsIn(LoadPhase p);
bool serverSendsIn(LoadPhase p);

class LoadSchedule {
public:
    // At most this many phases (the GUI's chart and the JSON stay readable).
    static constexpr int MaxPhases = 16;
    static constexpr const char *DefaultOrder = "idle,download,upload,bidir,idle";

    LoadSchedule() = default;
    LoadSchedule(QList<LoadPhase> phases, double phaseSeconds);
    // "idle,download,upload,bidir,idle": comma-separated names, spaces allowed. Empty
    // optional with *error for an unknown name, an empty list or more than MaxPhases.
    static std::optional<QList<LoadPhase>> parseOrder(const QString &text, QString *error);
    static QString orderText(const QList<LoadPhase> &phases);

    const QList<LoadPhase> &phases() const { return m_phases; }
    int size() const { return int(m_phases.size()); }
    double phaseSeconds() const { return m_phaseSeconds; }
    double total() const { return m_phaseSeconds * double(m_phases.size()); }
    // The phase running t seconds after the start: the first one before 0, the last one
    // from the end on.
    int phaseAt(double t) const;
    double phaseStart(int i) const { return m_phaseSeconds * i; }
    double phaseEnd(int i) const { return m_phaseSeconds * (i + 1); }
    // The first phase boundary after t (total() at and after the last one).
    double nextBoundary(double t) const;
    // The first idle phase: the baseline loaded latency is measured against; -1 without one.
    int baselinePhase() const;

private:
    QList<LoadPhase> m_phases;
    double m_phaseSeconds = 0;
};

} // namespace nb
