// SPDX-License-Identifier: GPL-3.0-or-later
// Results you can keep (issue 29, review M9): every test the window finishes is kept in the
// run history (NICBENCH_HISTORY_DIR, a temporary folder here), File > History lists it with
// its date, target, kind, headline and adapter, reopens it in the Test tab, saves it as the
// -J document, an interval CSV or a one-page PDF, compares two past runs and deletes them.
// Real tests against the built-in server on loopback, real widgets on the offscreen platform.

#include "guihelpers.h"

#include <common/messagebanner.h>
#include <compareview/comparisonview.h>
#include <historyview/historymodel.h>
#include <historyview/historywindow.h>
#include <model/resultexport.h>
#include <testview/resultfiles.h>
#include <testview/testview.h>
#include <window/appsettings.h>
#include <window/apptheme.h>
#include <window/mainwindow.h>

#include <QAction>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using nb::gui::HistoryModel;
using nb::gui::HistoryWindow;
using nb::gui::MainWindow;

namespace {

// One short real test on the window's built-in server; false when it did not end well.
bool runShortTest(MainWindow &w, double seconds = 1.0)
{
    auto *duration = w.findChild<QDoubleSpinBox *>(QStringLiteral("durationSpin"));
    auto *interval = w.findChild<QDoubleSpinBox *>(QStringLiteral("intervalSpin"));
    if (!duration || !interval)
        return false;
    duration->setValue(seconds);
    interval->setValue(0.5);
    QSignalSpy finished(&w, &MainWindow::testFinished);
    w.runAction()->trigger();
    if (!finished.wait(30000) && finished.isEmpty())
        return false;
    return finished.constFirst().constFirst().value<nb::TestResult>().ok();
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The run files in the history folder ("<id>.json", not the index).
QStringList runFiles(const QString &dir)
{
    QStringList files = QDir(dir).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    files.removeAll(QStringLiteral("index.json"));
    return files;
}

// What the History table shows in `column` of the run `id`.
QString shownText(HistoryWindow *h, const QString &id, int column)
{
    const QAbstractItemModel *m = h->table()->model();
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, 0).data(HistoryModel::IdRole).toString() == id)
            return m->index(r, column).data().toString();
    }
    return {};
}

} // namespace

class TestGuiHistory : public QObject {
    Q_OBJECT

private:
    nbtest::GuiTestSettings m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_settings.init(QStringLiteral("tst_gui_history")));
        QCOMPARE(nb::gui::AppSettings::historyDirectory(), m_settings.historyDirectory());
    }

    // Each test starts with an empty history.
    void init() { QVERIFY(QDir(m_settings.historyDirectory()).removeRecursively()); }

    // A finished test is in the history folder and in File > History, with when it ended,
    // its target, kind, headline figure and adapter.
    void finishedRunIsListed()
    {
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        QVERIFY(runShortTest(w));
        const nb::TestResult result = w.testView()->shownResults().constLast();

        QCOMPARE(runFiles(m_settings.historyDirectory()).size(), 1);
        const QList<nb::HistoryEntry> entries = w.runHistory()->entries();
        QCOMPARE(entries.size(), 1);
        const nb::HistoryEntry &e = entries.constFirst();
        QVERIFY(e.ok && e.readable);
        QVERIFY2(e.kind.startsWith(QStringLiteral("TCP upload P=1")), qPrintable(e.kind));
        QVERIFY2(e.headline.endsWith(QStringLiteral("bit/s")), qPrintable(e.headline));
        QVERIFY2(e.adapter.startsWith(QStringLiteral("lo")), qPrintable(e.adapter));
        QVERIFY2(e.target.endsWith(QStringLiteral(":%1").arg(result.params.port)), qPrintable(e.target));
        QVERIFY(qAbs(e.finishedAt.secsTo(QDateTime::currentDateTimeUtc())) < 120);

        QVERIFY(w.historyAction());
        w.historyAction()->trigger();
        HistoryWindow *h = w.historyWindow();
        QVERIFY(QTest::qWaitForWindowExposed(h));
        QCOMPARE(h->rowCount(), 1);
        QCOMPARE(h->shownIds(), QStringList{e.id});
        QCOMPARE(shownText(h, e.id, HistoryModel::Kind), e.kind);
        QCOMPARE(shownText(h, e.id, HistoryModel::Headline), e.headline);
        QCOMPARE(shownText(h, e.id, HistoryModel::Adapter), e.adapter);
        QCOMPARE(shownText(h, e.id, HistoryModel::Target), e.target);
        QCOMPARE(shownText(h, e.id, HistoryModel::Finished), HistoryModel::timeText(e.finishedAt));
        QVERIFY2(h->summaryLabel()->text().contains(QDir::toNativeSeparators(m_settings.historyDirectory())),
                 qPrintable(h->summaryLabel()->text()));

        // A second window (the next start) reads the same run from the folder.
        nb::RunHistory again(m_settings.historyDirectory());
        QCOMPARE(again.entries().size(), 1);
        QCOMPARE(again.entries().constFirst().id, e.id);
    }

    // Open puts the past run back in the Test tab: the same results, said to be from the
    // history; Save then writes what was reopened.
    void reopenShowsThePastRun()
    {
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        QVERIFY(runShortTest(w, 1.0));
        const nb::TestResult first = w.testView()->shownResults().constLast();
        QVERIFY(runShortTest(w, 2.0));
        QVERIFY(w.testView()->shownResults().constLast().params.duration == 2.0);

        HistoryWindow *h = w.historyWindow();
        w.showHistory();
        QCOMPARE(h->rowCount(), 2);
        const QString oldest = h->shownIds().constLast(); // newest first
        h->selectIds({oldest});
        QVERIFY(h->button(QStringLiteral("historyOpenButton"))->isEnabled());
        QVERIFY(h->openSelected());
        const QList<nb::TestResult> reopened = w.testView()->shownResults();
        QCOMPARE(reopened.size(), 1);
        QCOMPARE(reopened.constFirst().params.duration, 1.0);
        QCOMPARE(reopened.constFirst().intervals.size(), first.intervals.size());
        QCOMPARE(reopened.constFirst().timestampSecs, first.timestampSecs);
        QVERIFY2(w.testView()->progressLabel()->text().startsWith(QStringLiteral("Past run, ")),
                 qPrintable(w.testView()->progressLabel()->text()));
        QVERIFY2(w.testView()->progressLabel()->toolTip().contains(QStringLiteral("from the history")),
                 qPrintable(w.testView()->progressLabel()->toolTip()));
        QCOMPARE(w.findChild<QTabWidget *>(QStringLiteral("areaTabs"))->currentWidget(), w.testView());
        QVERIFY(w.testView()->reopenedAt().isValid());
        // Reopening is not a new run.
        QCOMPARE(w.runHistory()->entries().size(), 2);

        QTemporaryDir out;
        const QString json = out.filePath(QStringLiteral("reopened.json"));
        QVERIFY(w.testView()->saveResults(json));
        const QJsonObject doc = QJsonDocument::fromJson(readAll(json)).object();
        QCOMPARE(doc.value(QStringLiteral("intervals")).toArray().size(), first.intervals.size());
    }

    // Save Result As: the -J document parses and has every interval, the CSV has a row per
    // interval, the PDF is a PDF that names the test; an unknown suffix is refused.
    void savesJsonCsvPdf()
    {
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        QAction *save = w.testView()->saveResultAction();
        QVERIFY(save && !save->isEnabled()); // nothing to save yet
        QVERIFY(runShortTest(w, 2.0));
        QVERIFY(save->isEnabled());
        const nb::TestResult result = w.testView()->shownResults().constLast();
        QVERIFY(result.intervals.size() >= 3);

        QTemporaryDir out;
        const QString json = out.filePath(QStringLiteral("run.json"));
        QVERIFY(w.testView()->saveResults(json));
        QJsonParseError parse{};
        const QJsonDocument doc = QJsonDocument::fromJson(readAll(json), &parse);
        QCOMPARE(parse.error, QJsonParseError::NoError);
        const QJsonArray intervals = doc.object().value(QStringLiteral("intervals")).toArray();
        QCOMPARE(intervals.size(), result.intervals.size());
        QVERIFY(doc.object().contains(QStringLiteral("end")));
        QList<nb::TestResult> back;
        QString error;
        QVERIFY2(nb::resultsFromDocument(doc.object(), &back, &error), qPrintable(error));
        QCOMPARE(back.constFirst().intervals.size(), result.intervals.size());

        const QString csv = out.filePath(QStringLiteral("run.csv"));
        QVERIFY(w.testView()->saveResults(csv));
        const QStringList lines = QString::fromUtf8(readAll(csv)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(!lines.isEmpty());
        const QStringList header = lines.constFirst().split(QLatin1Char(','));
        QCOMPARE(header, nb::intervalCsvHeader());
        const int rowColumn = int(header.indexOf(QStringLiteral("row")));
        const int endColumn = int(header.indexOf(QStringLiteral("end_s")));
        QList<double> sumEnds;
        for (const QString &line : lines.mid(1)) {
            const QStringList cells = line.split(QLatin1Char(','));
            QCOMPARE(cells.size(), header.size());
            if (cells.at(rowColumn) == QLatin1String("sum"))
                sumEnds << cells.at(endColumn).toDouble();
        }
        QCOMPARE(sumEnds.size(), result.intervals.size()); // one stream, one direction
        for (qsizetype i = 0; i < sumEnds.size(); ++i)
            QVERIFY(qAbs(sumEnds[i] - result.intervals[i].sum(true).end) < 1e-3);

        const QString pdf = out.filePath(QStringLiteral("run.pdf"));
        QVERIFY(w.testView()->saveResults(pdf));
        QVERIFY(readAll(pdf).startsWith("%PDF"));
        if (const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
            !pdftotext.isEmpty()) {
            QProcess p;
            p.start(pdftotext, {QStringLiteral("-raw"), pdf, QStringLiteral("-")});
            QVERIFY(p.waitForFinished(30000));
            const QString text = QString::fromUtf8(p.readAllStandardOutput());
            QVERIFY2(text.contains(QStringLiteral("TCP")) && text.contains(QStringLiteral("bit/s")), qPrintable(text));
        }

        const QString bad = out.filePath(QStringLiteral("run.txt"));
        QVERIFY(!w.testView()->saveResults(bad));
        QVERIFY(!QFile::exists(bad));
        QVERIFY2(w.testView()->banner()->text().contains(QStringLiteral(".csv")),
                 qPrintable(w.testView()->banner()->text()));

        // The History window saves the stored run the same way.
        HistoryWindow *h = w.historyWindow();
        w.showHistory();
        h->selectIds(h->shownIds());
        const QString fromHistory = out.filePath(QStringLiteral("history.csv"));
        QVERIFY(h->saveSelected(fromHistory));
        QCOMPARE(readAll(fromHistory), readAll(csv));
    }

    // Two past runs, compared: the Compare tab shows them as one comparison with a
    // configuration each; Add to Comparison adds another source.
    void comparesTwoRuns()
    {
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        QVERIFY(runShortTest(w));
        QVERIFY(runShortTest(w));
        HistoryWindow *h = w.historyWindow();
        w.showHistory();
        const QStringList ids = h->shownIds();
        QCOMPARE(ids.size(), 2);
        h->selectIds({ids.constFirst()});
        QVERIFY(!h->button(QStringLiteral("historyCompareButton"))->isEnabled());
        QVERIFY(h->labelSelected(QStringLiteral("second run")));
        h->selectIds({ids.constLast()});
        QVERIFY(h->labelSelected(QStringLiteral("first run")));
        h->selectIds(ids);
        QVERIFY(h->button(QStringLiteral("historyCompareButton"))->isEnabled());
        QVERIFY(h->compareSelected());

        QCOMPARE(w.findChild<QTabWidget *>(QStringLiteral("areaTabs"))->currentWidget(),
                 static_cast<QWidget *>(w.comparisonView()));
        QCOMPARE(w.comparisonView()->sourceCount(), 1);
        const nb::Comparison &c = w.comparisonView()->overlay().merged;
        QCOMPARE(c.configurations.size(), 2);
        QCOMPARE(c.runs.size(), 2);
        const QStringList series = w.comparisonView()->overlay().seriesLabels;
        QVERIFY2(series.contains(QStringLiteral("first run")) && series.contains(QStringLiteral("second run")),
                 qPrintable(series.join(QStringLiteral(", "))));

        h->selectIds({ids.constFirst()});
        QVERIFY(h->addSelectedToComparison());
        QCOMPARE(w.comparisonView()->sourceCount(), 2);
    }

    // Delete removes the run's file and its row; the others stay.
    void deletesRuns()
    {
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, QSize(1280, 720));
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        QVERIFY(runShortTest(w));
        QVERIFY(runShortTest(w));
        HistoryWindow *h = w.historyWindow();
        w.showHistory();
        const QStringList ids = h->shownIds();
        QCOMPARE(ids.size(), 2);
        QCOMPARE(runFiles(m_settings.historyDirectory()).size(), 2);
        h->selectIds({ids.constFirst()});
        QVERIFY(h->button(QStringLiteral("historyDeleteButton"))->isEnabled());
        QVERIFY(h->deleteSelected());
        QCOMPARE(h->shownIds(), QStringList{ids.constLast()});
        QCOMPARE(runFiles(m_settings.historyDirectory()), QStringList{ids.constLast() + QStringLiteral(".json")});
        nb::RunHistory again(m_settings.historyDirectory());
        QCOMPARE(again.entries().size(), 1);
        h->selectIds(h->shownIds());
        QVERIFY(h->deleteSelected());
        QCOMPARE(h->rowCount(), 0);
        QVERIFY(runFiles(m_settings.historyDirectory()).isEmpty());
        QVERIFY(h->findChild<QLabel *>(QStringLiteral("historyEmptyLabel"))->isVisible());
    }

    // The History window and the Save Result As dialog on the screens a user has (1280x720,
    // 1024x768), light and dark: nothing leaves the window; grabbed when NICBENCH_SCREENSHOTS
    // names a folder.
    void fitsTheScreen_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<bool>("dark");
        for (const QSize s : {QSize(1280, 720), QSize(1024, 768)}) {
            for (bool dark : {false, true}) {
                QTest::addRow("%dx%d %s", s.width(), s.height(), dark ? "dark" : "light") << s << dark;
            }
        }
    }

    void fitsTheScreen()
    {
        QFETCH(QSize, screen);
        QFETCH(bool, dark);
        nb::gui::applyTheme(dark ? nb::gui::AppSettings::Theme::Dark : nb::gui::AppSettings::Theme::Light);
        MainWindow w;
        const QString shown = nbtest::showWithBuiltinServer(w, screen);
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        QVERIFY(runShortTest(w));
        QVERIFY(runShortTest(w, 2.0));
        HistoryWindow *h = w.historyWindow();
        h->resize(std::min(h->width(), screen.width() - 40), std::min(h->height(), screen.height() - 80));
        w.showHistory();
        QVERIFY(QTest::qWaitForWindowExposed(h));
        h->selectIds({h->shownIds().constFirst()});
        QVERIFY(h->width() <= screen.width() && h->height() <= screen.height());
        // Every button whole and inside the window.
        for (const char *name : {"historyOpenButton", "historySaveButton", "historyCompareButton", "historyAddButton",
                                 "historyLabelButton", "historyDeleteButton"}) {
            QPushButton *b = h->button(QLatin1String(name));
            const QRect r(b->mapTo(h, QPoint(0, 0)), b->size());
            QVERIFY2(h->rect().contains(r), name);
            QVERIFY2(b->width() >= b->sizeHint().width(), name);
        }
        const QString dir = qEnvironmentVariable("NICBENCH_SCREENSHOTS");
        const QString tag = QStringLiteral("%1x%2-%3")
                                .arg(screen.width())
                                .arg(screen.height())
                                .arg(dark ? QStringLiteral("dark") : QStringLiteral("light"));
        if (!dir.isEmpty())
            QVERIFY(h->grab().save(dir + QStringLiteral("/history-%1.png").arg(tag)));

        h->selectIds({h->shownIds().constLast()});
        QVERIFY(h->openSelected());
        if (!dir.isEmpty())
            QVERIFY(w.grab().save(dir + QStringLiteral("/history-reopened-%1.png").arg(tag)));

        nb::gui::TestReportInput input{w.testView()->shownResults(), nb::HostEnvironment(), {}, {}};
        std::unique_ptr<QFileDialog> dialog(nb::gui::newResultDialog(&w, input));
        dialog->setOption(QFileDialog::DontUseNativeDialog);
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
        QVERIFY(dialog->width() <= screen.width() && dialog->height() <= screen.height());
        QCOMPARE(dialog->nameFilters().size(), 3);
        QVERIFY2(dialog->selectedFiles().value(0).endsWith(QStringLiteral(".json")),
                 qPrintable(dialog->selectedFiles().value(0)));
        if (!dir.isEmpty())
            QVERIFY(dialog->grab().save(dir + QStringLiteral("/save-result-%1.png").arg(tag)));
        // Another type: the name's suffix follows.
        dialog->selectNameFilter(dialog->nameFilters().at(1));
        QVERIFY2(dialog->selectedFiles().value(0).endsWith(QStringLiteral(".csv")),
                 qPrintable(dialog->selectedFiles().value(0)));
        dialog->close();
        h->close();
        nb::gui::applyTheme(nb::gui::AppSettings::Theme::Light);
    }
};

QTEST_MAIN(TestGuiHistory)
#include "tst_gui_history.moc"
