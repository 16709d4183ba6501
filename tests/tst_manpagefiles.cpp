// SPDX-License-Identifier: GPL-3.0-or-later
// The man pages the build writes (packaging/linux.cmake: `PROGRAM --man`) against the
// programs' real --help: every flag --help prints is in the page, with its text; groff
// formats the pages without a warning.
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

namespace {

// Runs a program (30 s at most) and returns its stdout; fails the test on a bad exit.
QString output(const QString &program, const QStringList &args, const QByteArray &input = {})
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return QStringLiteral("<did not start: %1>").arg(p.errorString());
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished(5000);
        return QStringLiteral("<timed out>");
    }
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString err = QString::fromUtf8(p.readAllStandardError());
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("<exit %1: %2>").arg(p.exitCode()).arg(err);
    return out + err;
}

// The page's text with roff's escapes undone, so flags read as typed.
QString pageText(const QString &name)
{
    QFile f(QStringLiteral(NICBENCH_MAN_DIR "/") + name + QStringLiteral(".1"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString t = QString::fromUtf8(f.readAll());
    t.replace(QStringLiteral("\\-"), QStringLiteral("-"));
    t.replace(QStringLiteral("\\e"), QStringLiteral("\\"));
    t.replace(QStringLiteral("\\&"), QString());
    t.replace(QStringLiteral("\\(dq"), QStringLiteral("\""));
    return t;
}

// Every -x and --long-flag in a help text (not inside words such as "k-means").
QStringList flagsIn(const QString &help)
{
    static const QRegularExpression flag(QStringLiteral("(?<![\\w-])(--?[A-Za-z0-9][A-Za-z0-9-]*)"));
    QStringList flags;
    for (auto it = flag.globalMatch(help); it.hasNext();) {
        const QString f = it.next().captured(1);
        if (!flags.contains(f))
            flags.append(f);
    }
    return flags;
}

} // namespace

class TestManPageFiles : public QObject {
    Q_OBJECT

private slots:
    void everyFlagInPage_data();
    void everyFlagInPage();
    void groffHasNoWarnings_data();
    void groffHasNoWarnings();
};

void TestManPageFiles::everyFlagInPage_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("page");
    QTest::addColumn<int>("atLeast");     // flags: a help text cut short would show here
    QTest::addColumn<int>("rowsAtLeast"); // option rows "  -x, --flag  text"
    QTest::newRow("nicbench-cli --help") << QStringLiteral(NICBENCH_CLI_PATH) << QStringList{QStringLiteral("--help")}
                                         << QStringLiteral("nicbench-cli") << 60 << 40;
    QTest::newRow("nicbench-cli compare --help")
        << QStringLiteral(NICBENCH_CLI_PATH) << QStringList{QStringLiteral("compare"), QStringLiteral("--help")}
        << QStringLiteral("nicbench-cli") << 10 << 8;
    QTest::newRow("nicbench-cli report --help")
        << QStringLiteral(NICBENCH_CLI_PATH) << QStringList{QStringLiteral("report"), QStringLiteral("--help")}
        << QStringLiteral("nicbench-cli") << 1 << 0;
    QTest::newRow("nicbench --help") << QStringLiteral(NICBENCH_GUI_PATH) << QStringList{QStringLiteral("--help")}
                                     << QStringLiteral("nicbench") << 60 << 40;
}

void TestManPageFiles::everyFlagInPage()
{
    QFETCH(QString, program);
    QFETCH(QStringList, args);
    QFETCH(QString, page);
    QFETCH(int, atLeast);
    QFETCH(int, rowsAtLeast);
    const QString help = output(program, args);
    QVERIFY2(!help.startsWith(QLatin1Char('<')), qPrintable(help));
    const QString text = pageText(page);
    QVERIFY2(!text.isEmpty(), qPrintable(QStringLiteral("no page %1.1 in " NICBENCH_MAN_DIR).arg(page)));
    const QStringList flags = flagsIn(help);
    QVERIFY2(flags.size() >= atLeast, qPrintable(flags.join(QLatin1Char(' '))));
    QStringList missing;
    for (const QString &f : flags) {
        const QRegularExpression inPage(QStringLiteral("(?<![\\w-])") + QRegularExpression::escape(f) +
                                        QStringLiteral("(?![\\w-])"));
        if (!text.contains(inPage))
            missing.append(f);
    }
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("not in %1.1: %2").arg(page, missing.join(QLatin1Char(' ')))));
    // The flags an option row starts with head a tagged paragraph (.B line) of their own,
    // not only a mention in some text.
    static const QRegularExpression rowFlags(QStringLiteral("^ +((?:-[^\\s,]+,? ?)+)"),
                                             QRegularExpression::MultilineOption);
    static const QRegularExpression tagLine(QStringLiteral("^\\.B (.*)$"), QRegularExpression::MultilineOption);
    QStringList tags;
    for (auto it = tagLine.globalMatch(text); it.hasNext();)
        tags.append(flagsIn(it.next().captured(1)));
    int tagged = 0;
    for (auto it = rowFlags.globalMatch(help); it.hasNext();) {
        for (const QString &f : flagsIn(it.next().captured(1))) {
            QVERIFY2(tags.contains(f), qPrintable(QStringLiteral("%1 heads no option in %2.1").arg(f, page)));
            ++tagged;
        }
    }
    QVERIFY2(tagged >= rowsAtLeast, qPrintable(QString::number(tagged)));
    // And their texts: each option row's description (the words after the flag column), the
    // page holding the same words.
    static const QRegularExpression row(QStringLiteral("^  +-[^ ].*?  +(\\S.*)$"), QRegularExpression::MultilineOption);
    int rows = 0;
    for (auto it = row.globalMatch(help); it.hasNext(); ++rows) {
        const QString description = it.next().captured(1).trimmed();
        QVERIFY2(text.contains(description), qPrintable(QStringLiteral("not in %1.1: %2").arg(page, description)));
    }
    QVERIFY2(rows >= rowsAtLeast, qPrintable(QStringLiteral("%1 option rows in the help text").arg(rows)));
}

void TestManPageFiles::groffHasNoWarnings_data()
{
    QTest::addColumn<QString>("page");
    QTest::newRow("nicbench-cli") << QStringLiteral("nicbench-cli");
    QTest::newRow("nicbench") << QStringLiteral("nicbench");
}

void TestManPageFiles::groffHasNoWarnings()
{
    QFETCH(QString, page);
    const QString groff = QStandardPaths::findExecutable(QStringLiteral("groff"));
    if (groff.isEmpty())
        QSKIP("no groff (Debian: groff-base)");
    QFile f(QStringLiteral(NICBENCH_MAN_DIR "/") + page + QStringLiteral(".1"));
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    // -ww: all warnings; -z: no output, only the diagnostics on stderr.
    const QString diagnostics =
        output(groff, {QStringLiteral("-man"), QStringLiteral("-Tutf8"), QStringLiteral("-ww"), QStringLiteral("-z")},
               f.readAll());
    QVERIFY2(diagnostics.isEmpty(), qPrintable(diagnostics));
}

QTEST_GUILESS_MAIN(TestManPageFiles)
#include "tst_manpagefiles.moc"
