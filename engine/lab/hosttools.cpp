// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/hosttools.h"

#include <QFile>
#include <QProcess>
#include <QSaveFile>
#include <QStandardPaths>

namespace nb::lab {

QString findTool(const QString &name)
{
    static const QStringList sbin{QStringLiteral("/usr/local/sbin"), QStringLiteral("/usr/sbin"),
                                  QStringLiteral("/sbin"),           QStringLiteral("/usr/local/bin"),
                                  QStringLiteral("/usr/bin"),        QStringLiteral("/bin")};
    QString p = QStandardPaths::findExecutable(name);
    if (p.isEmpty())
        p = QStandardPaths::findExecutable(name, sbin);
    return p;
}

int runTool(const QString &program, const QStringList &args, QString *output)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return -1;
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished(2000);
        return -1;
    }
    if (output)
        *output = QString::fromLocal8Bit(p.readAll()).trimmed();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

bool runningAsRoot()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    // /proc files have no size: read them whole, never with atEnd().
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("Uid:")) {
            const QList<QByteArray> ids = line.mid(4).simplified().split(' ');
            return ids.size() > 1 && ids.at(1) == "0";
        }
    }
    return false;
}

bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile f(path);
    if (f.open(QIODevice::WriteOnly) && f.write(data) == data.size() && f.commit())
        return true;
    *error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
    return false;
}

QString shellQuote(const QString &text)
{
    QString q = text;
    q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

} // namespace nb::lab
