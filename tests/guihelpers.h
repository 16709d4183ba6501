// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the GUI tests of the Test tab share: settings in a folder of the test's own, the
// window on screen with its built-in server, synthetic intervals of a client's two streams,
// and reading a chart's graph back.

#include <model/results.h>
#include <window/mainwindow.h>

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QSize>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>

namespace nbtest {

// Settings for the tests that save and restore the window's or the form's state: nothing
// leaks between runs, between tests or into the user's settings.
class GuiTestSettings {
public:
    // Call from initTestCase(): INI settings in a temporary folder (removed with this
    // object), under the test's own application name, cleared; the run history
    // (NICBENCH_HISTORY_DIR) in "history" there, so tests never write the user's; TestResult
    // registered for the signal spies. False when the folder could not be made.
    bool init(const QString &applicationName)
    {
        if (!m_dir.isValid())
            return false;
        qputenv("NICBENCH_HISTORY_DIR", QFile::encodeName(historyDirectory()));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.path());
        QCoreApplication::setOrganizationName(QStringLiteral("NicBenchTest"));
        QCoreApplication::setApplicationName(applicationName);
        QSettings().clear();
        qRegisterMetaType<nb::TestResult>();
        return true;
    }

    // The window's run history during the test.
    QString historyDirectory() const { return m_dir.filePath(QStringLiteral("history")); }

private:
    QTemporaryDir m_dir;
};

// Starts the window's built-in server and shows the window, at `size` when one is given:
// empty when all went well, else the step that failed.
inline QString showWithBuiltinServer(nb::gui::MainWindow &w, const QSize &size = QSize())
{
    if (!w.startBuiltinServer())
        return QStringLiteral("the built-in server did not start");
    if (size.isValid())
        w.resize(size);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return QStringLiteral("the window was not exposed");
    return {};
}

// One 1 s interval ending at `end` of the client's two streams: stream 1 sends upBps, stream
// 2 receives downBps.
inline nb::IntervalReport twoStreamInterval(double end, double upBps, double downBps)
{
    nb::IntervalReport r;
    for (bool sender : {true, false}) {
        nb::StreamInterval s;
        s.id = sender ? 1 : 2;
        s.sender = sender;
        s.start = end - 1;
        s.end = end;
        s.bytes = std::uint64_t((sender ? upBps : downBps) / 8);
        r.streams.append(s);
    }
    return r;
}

// The graph's value at `key`, or -1 when it has no point there.
inline double graphValueAt(const QCPGraph *g, double key)
{
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
        if (qFuzzyCompare(it->key + 1, key + 1)) // + 1: key 0 compares too
            return it->value;
    }
    return -1;
}

} // namespace nbtest
