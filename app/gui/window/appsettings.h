// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small settings every part of the window shares, in one place with one set of keys:
// the folder each kind of file dialog opened last, the recently opened snapshots, the
// colour theme, and the agents of Tools > Hosts with the path of their key file. Backed by QSettings (organization and
// application names set in main()).
//
// File dialogs use it like this:
//   const QString path = QFileDialog::getSaveFileName(this, title,
//       AppSettings::lastDirectory(AppSettings::Folder::Export), filter);
//   if (!path.isEmpty()) AppSettings::setLastDirectory(AppSettings::Folder::Export, path);

#include <QString>
#include <QStringList>

namespace nb::gui {

class AppSettings {
public:
    // What a file dialog is for; each remembers its own folder.
    enum class Folder {
        Snapshot, // .nicbench snapshots, opened and saved
        Export,   // chart images, CSV and Markdown tables
        Report,   // PDF reports
        Spec,     // comparison spec files
    };
    // Light and Dark are NicBench's own Fusion palettes; System is the platform's.
    enum class Theme { System, Light, Dark };

    // The folder last used for this kind, else the user's documents folder (else home).
    static QString lastDirectory(Folder kind);
    // Accepts the folder or a file path in it (what a file dialog returns).
    static void setLastDirectory(Folder kind, const QString &fileOrFolder);

    // Most recent first, at most kMaxRecent, only files that still exist.
    static constexpr int kMaxRecent = 8;
    static QStringList recentSnapshots();
    // Puts a path at the top of the list (absolute, no duplicates).
    static void addRecentSnapshot(const QString &path);
    static void clearRecentSnapshots();

    // Where the run history lives: $NICBENCH_HISTORY_DIR when set (tests, a second
    // history), else QStandardPaths::AppDataLocation + "/history" (docs/run-history.md).
    static QString historyDirectory();

    static Theme theme();
    static void setTheme(Theme theme);

    // The agents of Tools > Hosts, "HOST[:PORT]", in the order added, each once.
    static QStringList agentHosts();
    static void setAgentHosts(const QStringList &hosts);
    // The agent key file (--agent-key): its path only, never the key's bytes. Empty: none.
    static QString agentKeyPath();
    static void setAgentKeyPath(const QString &path);
};

} // namespace nb::gui
