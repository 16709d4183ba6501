// SPDX-License-Identifier: GPL-3.0-or-later
// Help > About NicBench and Help > Documentation on the offscreen platform: the About box
// names the version, the git revision, the licence and the Qt and QCustomPlot versions;
// its Licence button shows the full GPL text; Documentation finds the installed README.

#include <window/aboutdialog.h>
#include <window/mainwindow.h>

#include <qcustomplot.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using nb::gui::AboutDialog;

class TestGuiAbout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("NicBenchTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_about"));
        QSettings().clear();
    }

    void aboutNamesVersionsAndLicence()
    {
        AboutDialog box;
        box.show();
        QVERIFY(QTest::qWaitForWindowExposed(&box));
        auto *label = box.findChild<QLabel *>(QStringLiteral("aboutText"));
        QVERIFY(label);
        const QString text = label->text();
        for (const QString &want :
             {QStringLiteral("NicBench " NICBENCH_VERSION), QStringLiteral("GPL-3.0-or-later"),
              QStringLiteral("Qt " QT_VERSION_STR), QStringLiteral("running on Qt ") + QString::fromLatin1(qVersion()),
              QStringLiteral("QCustomPlot " QCUSTOMPLOT_VERSION_STR),
              QStringLiteral("Revision ") + AboutDialog::revision()})
            QVERIFY2(text.contains(want), qPrintable(QStringLiteral("'%1' not in: %2").arg(want, text)));
    }

    // The revision is a commit of this repository (or "unknown" outside a checkout).
    void revisionIsACommit()
    {
        const QString rev = AboutDialog::revision();
        if (rev == QLatin1String("unknown")) {
            QVERIFY2(!QFile::exists(QStringLiteral(NICBENCH_SOURCE_ROOT "/.git")),
                     "the build is in a git checkout but the revision is unknown");
            return;
        }
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("^([0-9a-f]{7,40})(-dirty)?$")).match(rev);
        QVERIFY2(m.hasMatch(), qPrintable(rev));
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty())
            QSKIP("no git to look the revision up");
        QProcess git;
        git.start(QStringLiteral("git"),
                  {QStringLiteral("-C"), QStringLiteral(NICBENCH_SOURCE_ROOT), QStringLiteral("cat-file"),
                   QStringLiteral("-e"), m.captured(1) + QStringLiteral("^{commit}")});
        QVERIFY(git.waitForFinished(30000));
        QVERIFY2(git.exitCode() == 0, qPrintable(QStringLiteral("%1 is no commit of this repository").arg(rev)));
    }

    // One click: the licence's full text, hidden before.
    void licenceIsOneClickAway()
    {
        AboutDialog box;
        box.show();
        QVERIFY(QTest::qWaitForWindowExposed(&box));
        QVERIFY(!box.licenceView()->isVisible());
        const int heightBefore = box.height();
        QTest::mouseClick(box.licenceButton(), Qt::LeftButton);
        QTRY_VERIFY(box.licenceView()->isVisible());
        const QString licence = box.licenceView()->toPlainText();
        QFile source(QStringLiteral(NICBENCH_SOURCE_ROOT "/LICENSE"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QCOMPARE(licence, QString::fromUtf8(source.readAll()));
        QVERIFY(licence.contains(QStringLiteral("GNU GENERAL PUBLIC LICENSE")) &&
                licence.contains(QStringLiteral("Version 3, 29 June 2007")));
        QVERIFY2(box.height() > heightBefore,
                 qPrintable(QStringLiteral("%1 -> %2").arg(heightBefore).arg(box.height())));
        QTest::mouseClick(box.licenceButton(), Qt::LeftButton);
        QTRY_VERIFY(!box.licenceView()->isVisible());
    }

    void helpMenuHasDocumentationAndAbout()
    {
        nb::gui::MainWindow w;
        QStringList help;
        for (QAction *top : w.menuBar()->actions()) {
            if (top->text().remove(QLatin1Char('&')) != QLatin1String("Help"))
                continue;
            for (QAction *a : top->menu()->actions())
                help.append(a->text().remove(QLatin1Char('&')));
        }
        QVERIFY2(help.contains(QStringLiteral("Documentation")) && help.contains(QStringLiteral("About NicBench")),
                 qPrintable(help.join(QLatin1Char('|'))));
        QVERIFY(w.findChild<QAction *>(QStringLiteral("documentationAction")));
    }

    // The installed README first (beside the executable's prefix), then /usr/share/doc, then
    // the source tree; the first that exists wins.
    void documentationCandidates()
    {
        const QStringList c = nb::gui::documentationCandidates();
        QVERIFY(c.size() >= 2);
        QCOMPARE(c.first(), QDir::cleanPath(QCoreApplication::applicationDirPath() +
                                            QStringLiteral("/../share/doc/nicbench/README.md")));
        QVERIFY(c.contains(QStringLiteral("/usr/share/doc/nicbench/README.md")));
        QVERIFY2(c.contains(QStringLiteral(NICBENCH_SOURCE_ROOT "/README.md")), qPrintable(c.join(QLatin1Char(' '))));
        // From a build tree (no share/doc beside it) the source README is found.
        QVERIFY(!nb::gui::findDocumentation(c).isEmpty());

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString missing = dir.filePath(QStringLiteral("missing/README.md"));
        const QString present = dir.filePath(QStringLiteral("README.md"));
        QFile f(present);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QCOMPARE(nb::gui::findDocumentation({missing, present}), present);
        QCOMPARE(nb::gui::findDocumentation({missing}), QString());
        QCOMPARE(nb::gui::findDocumentation({dir.path(), present}), present); // a folder is no README
    }
};

QTEST_MAIN(TestGuiAbout)
#include "tst_gui_about.moc"
