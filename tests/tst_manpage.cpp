// SPDX-License-Identifier: GPL-3.0-or-later
// The man page generator (core/manpage.h): --help text in, roff out. tst_manpagefiles checks
// the pages the build writes against the programs' real --help.
#include "core/manpage.h"

#include <QTest>

class TestManPage : public QObject {
    Q_OBJECT

private slots:
    void escape_data();
    void escape();
    void rows_data();
    void rows();
    void wholePage();
};

void TestManPage::escape_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("roff");
    QTest::newRow("flag") << QStringLiteral("--port N") << QStringLiteral("\\-\\-port N");
    QTest::newRow("backslash") << QStringLiteral("C:\\dir") << QStringLiteral("C:\\edir");
    QTest::newRow("leading dot") << QStringLiteral(".nicbench files") << QStringLiteral("\\&.nicbench files");
    QTest::newRow("leading quote") << QStringLiteral("'x'") << QStringLiteral("\\&'x'");
    QTest::newRow("quotes") << QStringLiteral("--config \"L=A\"") << QStringLiteral("\\-\\-config \\(dqL=A\\(dq");
    QTest::newRow("inner dot") << QStringLiteral("a.b") << QStringLiteral("a.b");
}

void TestManPage::escape()
{
    QFETCH(QString, text);
    QFETCH(QString, roff);
    QCOMPARE(nb::roffEscape(text), roff);
}

// One help fragment and the lines its OPTIONS section must hold, in order.
void TestManPage::rows_data()
{
    QTest::addColumn<QString>("help");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("section and row") << QStringLiteral("Server:\n  -s, --server          run as a server\n")
                                     << QStringList{QStringLiteral(".SS Server"), QStringLiteral(".TP"),
                                                    QStringLiteral(".B \\-s, \\-\\-server"),
                                                    QStringLiteral("run as a server")};
    QTest::newRow("continuation") << QStringLiteral("  -t, --time SECS   test duration;\n"
                                                    "                     0 means forever\n")
                                  << QStringList{QStringLiteral(".TP"), QStringLiteral(".B \\-t, \\-\\-time SECS"),
                                                 QStringLiteral("test duration;"), QStringLiteral("0 means forever")};
    // Flags as wide as the column leave one space before the text.
    QTest::newRow("full column") << QStringLiteral("      --rsa-public-key-path FILE the server's key\n")
                                 << QStringList{QStringLiteral(".TP"),
                                                QStringLiteral(".B \\-\\-rsa\\-public\\-key\\-path FILE"),
                                                QStringLiteral("the server's key")};
    QTest::newRow("no value") << QStringLiteral("      --no-info only\n")
                              << QStringList{QStringLiteral(".TP"), QStringLiteral(".B \\-\\-no\\-info"),
                                             QStringLiteral("only")};
    QTest::newRow("operand row") << QStringLiteral("  FILE.nicbench [FILE2 ...]   open snapshots\n")
                                 << QStringList{QStringLiteral(".TP"), QStringLiteral(".B FILE.nicbench [FILE2 ...]"),
                                                QStringLiteral("open snapshots")};
    QTest::newRow("paragraph") << QStringLiteral("Sizes take K/M/G suffixes.\nSecond line.\n")
                               << QStringList{QStringLiteral(".PP"), QStringLiteral("Sizes take K/M/G suffixes."),
                                              QStringLiteral("Second line.")};
}

void TestManPage::rows()
{
    QFETCH(QString, help);
    QFETCH(QStringList, expected);
    nb::ManPage page;
    page.name = QStringLiteral("prog");
    page.section = QStringLiteral("1");
    page.help = help;
    const QString roff = nb::manPageRoff(page);
    const QStringList lines = roff.split(QLatin1Char('\n'));
    const qsizetype options = lines.indexOf(QStringLiteral(".SH OPTIONS"));
    QVERIFY2(options >= 0, qPrintable(roff));
    QCOMPARE(lines.mid(options + 1, expected.size()), expected);
}

void TestManPage::wholePage()
{
    nb::ManPage page;
    page.name = QStringLiteral("nicbench-cli");
    page.section = QStringLiteral("1");
    page.version = QStringLiteral("1.2.3");
    page.summary = QStringLiteral("a benchmark");
    page.help = QStringLiteral("Usage: nicbench-cli -s [options]\n       nicbench-cli -c HOST\n\nCommon:\n"
                               "  -p, --port N   the port\n");
    page.description = {QStringLiteral("First."), QStringLiteral("Second.")};
    page.files = {{QStringLiteral("/etc/default/x"), QStringLiteral("options")}};
    page.seeAlso = {QStringLiteral("iperf3(1)"), QStringLiteral("nicbench(1)")};
    const QString roff = nb::manPageRoff(page);
    const QStringList want = {QStringLiteral(".TH NICBENCH-CLI 1 \"\" \"NicBench 1.2.3\" \"User Commands\""),
                              QStringLiteral(".SH NAME"),
                              QStringLiteral("nicbench\\-cli \\- a benchmark"),
                              QStringLiteral(".SH SYNOPSIS"),
                              QStringLiteral(".nf"),
                              QStringLiteral(".B nicbench\\-cli \\-s [options]"),
                              QStringLiteral(".B nicbench\\-cli \\-c HOST"),
                              QStringLiteral(".fi"),
                              QStringLiteral(".SH DESCRIPTION"),
                              QStringLiteral("First."),
                              QStringLiteral(".PP"),
                              QStringLiteral("Second."),
                              QStringLiteral(".SH OPTIONS"),
                              QStringLiteral(".SS Common"),
                              QStringLiteral(".TP"),
                              QStringLiteral(".B \\-p, \\-\\-port N"),
                              QStringLiteral("the port"),
                              QStringLiteral(".SH FILES"),
                              QStringLiteral(".TP"),
                              QStringLiteral(".I /etc/default/x"),
                              QStringLiteral("options"),
                              QStringLiteral(".SH SEE ALSO"),
                              QStringLiteral(".BR iperf3 (1),"),
                              QStringLiteral(".BR nicbench (1)"),
                              QString()};
    QStringList lines = roff.split(QLatin1Char('\n'));
    QVERIFY2(lines.first().startsWith(QStringLiteral(".\\\" Generated")), qPrintable(lines.first()));
    lines.removeFirst();
    QCOMPARE(lines, want);
}

QTEST_APPLESS_MAIN(TestManPage)
#include "tst_manpage.moc"
