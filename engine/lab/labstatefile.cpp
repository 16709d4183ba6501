// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labstatefile.h"

#include "lab/hosttools.h"

#include <QFile>
#include <QJsonDocument>

namespace nb::lab {

QString defaultStateDirectory()
{
    const QString xdg = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!xdg.isEmpty())
        return xdg + QStringLiteral("/nicbench-lab");
    if (runningAsRoot())
        return QStringLiteral("/run/nicbench-lab");
    return QStringLiteral("/tmp/nicbench-lab-%1").arg(qEnvironmentVariable("USER", QStringLiteral("user")));
}

bool readStateFile(const QString &path, LabState *state, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("no lab is up (no %1): start one with nicbench-cli lab up").arg(path);
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        *error = QStringLiteral("%1: %2").arg(path, pe.errorString());
        return false;
    }
    return LabState::fromJson(doc.object(), state, error);
}

bool writeStateFile(const QString &path, const LabState &state, QString *error)
{
    return writeFileAtomically(path, QJsonDocument(state.toJson()).toJson(), error);
}

} // namespace nb::lab
