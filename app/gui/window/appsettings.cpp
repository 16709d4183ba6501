// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/appsettings.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace nb::gui {

namespace {

const auto kRecentSnapshotsKey = QStringLiteral("files/recentSnapshots");
const auto kThemeKey = QStringLiteral("view/theme");
const auto kAgentHostsKey = QStringLiteral("agents/hosts");
const auto kAgentKeyPathKey = QStringLiteral("agents/keyPath");

QString folderKey(AppSettings::Folder kind)
{
    switch (kind) {
    case AppSettings::Folder::Snapshot:
        return QStringLiteral("files/lastDir/snapshot");
    case AppSettings::Folder::Export:
        return QStringLiteral("files/lastDir/export");
    case AppSettings::Folder::Report:
        return QStringLiteral("files/lastDir/report");
    case AppSettings::Folder::Spec:
        return QStringLiteral("files/lastDir/spec");
    }
    return QStringLiteral("files/lastDir/other");
}

} // namespace

QString AppSettings::historyDirectory()
{
    if (const QString dir = qEnvironmentVariable("NICBENCH_HISTORY_DIR"); !dir.isEmpty())
        return dir;
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("history"));
}

QString AppSettings::lastDirectory(Folder kind)
{
    const QString stored = QSettings().value(folderKey(kind)).toString();
    if (!stored.isEmpty() && QFileInfo(stored).isDir())
        return stored;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!documents.isEmpty() && QFileInfo(documents).isDir())
        return documents;
    return QDir::homePath();
}

void AppSettings::setLastDirectory(Folder kind, const QString &fileOrFolder)
{
    if (fileOrFolder.isEmpty())
        return;
    const QFileInfo info(fileOrFolder);
    const QString folder = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
    QSettings().setValue(folderKey(kind), QDir::cleanPath(folder));
}

QStringList AppSettings::recentSnapshots()
{
    QStringList recent;
    for (const QString &path : QSettings().value(kRecentSnapshotsKey).toStringList()) {
        if (QFileInfo(path).isFile() && !recent.contains(path))
            recent.append(path);
        if (recent.size() == kMaxRecent)
            break;
    }
    return recent;
}

void AppSettings::addRecentSnapshot(const QString &path)
{
    if (path.isEmpty())
        return;
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    QStringList recent = recentSnapshots();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(kRecentSnapshotsKey, recent);
    setLastDirectory(Folder::Snapshot, absolute);
}

void AppSettings::clearRecentSnapshots()
{
    QSettings().remove(kRecentSnapshotsKey);
}

AppSettings::Theme AppSettings::theme()
{
    const QString name = QSettings().value(kThemeKey).toString();
    if (name == QLatin1String("light"))
        return Theme::Light;
    if (name == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

void AppSettings::setTheme(Theme theme)
{
    const QString name = theme == Theme::Light  ? QStringLiteral("light")
                         : theme == Theme::Dark ? QStringLiteral("dark")
                                                : QStringLiteral("system");
    QSettings().setValue(kThemeKey, name);
}

QStringList AppSettings::agentHosts()
{
    QStringList hosts;
    for (const QString &h : QSettings().value(kAgentHostsKey).toStringList()) {
        const QString t = h.trimmed();
        if (!t.isEmpty() && !hosts.contains(t))
            hosts.append(t);
    }
    return hosts;
}

void AppSettings::setAgentHosts(const QStringList &hosts)
{
    QSettings().setValue(kAgentHostsKey, hosts);
}

QString AppSettings::agentKeyPath()
{
    return QSettings().value(kAgentKeyPathKey).toString();
}

void AppSettings::setAgentKeyPath(const QString &path)
{
    if (path.isEmpty())
        QSettings().remove(kAgentKeyPathKey);
    else
        QSettings().setValue(kAgentKeyPathKey, QDir::cleanPath(QFileInfo(path).absoluteFilePath()));
}

} // namespace nb::gui
