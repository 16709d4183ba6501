// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/agentkey.h"

#include "platform/platform.h"

#include <QFile>
#include <QFileInfo>

namespace nb {

bool loadAgentKey(const QString &path, QByteArray *secret, QString *error)
{
    const QFileInfo info(path);
    if (!info.exists()) {
        *error = QStringLiteral("agent key %1: no such file").arg(path);
        return false;
    }
    if (!info.isFile()) {
        *error = QStringLiteral("agent key %1: not a file").arg(path);
        return false;
    }
    if (platform::isReadableByEveryone(path)) {
        *error = QStringLiteral("agent key %1 is readable by every user of this machine: chmod o-r %1 (600 or 640)")
                     .arg(path);
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("agent key %1: cannot read it: %2").arg(path, f.errorString());
        return false;
    }
    const QByteArray bytes = f.read(MaxAgentKeyFileBytes + 1);
    if (bytes.size() > MaxAgentKeyFileBytes) {
        *error =
            QStringLiteral("agent key %1 is larger than %2 bytes: not a key file").arg(path).arg(MaxAgentKeyFileBytes);
        return false;
    }
    const QByteArray key = bytes.trimmed();
    if (key.size() < MinAgentKeyBytes) {
        *error =
            QStringLiteral("agent key %1 holds %2 bytes of secret, at least %3 are needed (make one with: head -c 32 "
                           "/dev/urandom | base64 > %1)")
                .arg(path)
                .arg(key.size())
                .arg(MinAgentKeyBytes);
        return false;
    }
    *secret = key;
    return true;
}

} // namespace nb
