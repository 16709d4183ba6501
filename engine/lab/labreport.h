// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the lab reports to programs: the events of `lab up` while it works (`nicbench-cli lab
// up --json` writes one JSON object per line) and the state `lab status --json` prints. The
// CLI writes them and the window reads them with these same functions, so both sides agree
// on every key (docs/lab.md, "Machine-readable output").

#include "lab/labmodel.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace nb::lab {

struct UpEvent {
    enum class Kind {
        Starting, // lab: the lab as planned (guests, networking, accelerator); text: kernel and all
        Booting,  // guest: its name, adapter, device, address, port
        Up,       // guest.name; seconds since its QEMU started
        Failed,   // guest.name; text: why; console: its console's last lines (and QEMU's)
        Ready,    // every guest is up
        Error,    // text: why `lab up` failed (its first line); written by the CLI at the end
    };
    Kind kind = Kind::Starting;
    LabState lab; // Starting only
    GuestState guest;
    QString text;    // the line `lab up` prints for it
    QString console; // Failed only
    double seconds = -1;

    static UpEvent starting(const LabState &lab, const QString &text);
    static UpEvent booting(const GuestState &guest, const QString &text);
    static UpEvent up(const GuestState &guest, double seconds, const QString &text);
    static UpEvent failed(const GuestState &guest, const QString &why, const QString &console);
    static UpEvent ready(const QString &text);
    static UpEvent error(const QString &text);

    QJsonObject toJson() const;
    // nullopt for an object that is not an event of a kind we know.
    static std::optional<UpEvent> fromJson(const QJsonObject &json);
};

// `lab status --json`: the lab, its guests with their state, and where its state is kept.
QJsonObject statusJson(const LabState &state, const QString &stateDirectory);
// Back from statusJson()'s document (the guests' live fields too: state, MTU, speed, memory).
bool statusFromJson(const QJsonObject &json, LabState *out, QString *error);

} // namespace nb::lab
