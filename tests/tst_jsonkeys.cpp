// SPDX-License-Identifier: GPL-3.0-or-later
// The -J documents keep their shape: for a fixed set of runs on loopback (client and
// server, stock iperf3 on the other side where it is installed), the set of key paths of
// each document is the recorded one in tests/data/jsonkeys/. Values are ignored and arrays
// collapsed ("intervals[].streams[].bytes"), so the lists hold what a reader of the document
// may rely on, not what one run measured. A refactor of the writers must leave them as they
// are; a deliberate change of the format re-records them:
//   NICBENCH_RECORD_JSONKEYS=1 build/tests/tst_jsonkeys
// writes the lists into the source tree (then review the diff and commit it).

#include "integrationhelpers.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QtTest>

namespace {

constexpr int RunTimeoutMs = 30000;

void collectKeys(const QJsonValue &v, const QString &path, QSet<QString> &out)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString child = path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key();
            out.insert(child);
            collectKeys(it.value(), child, out);
        }
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (const QJsonValue &e : a)
            collectKeys(e, path + QStringLiteral("[]"), out);
    }
}

QStringList keyPaths(const QByteArray &document, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(document, &pe);
    if (!doc.isObject()) {
        *error = QStringLiteral("not a JSON object: %1").arg(pe.errorString());
        return {};
    }
    QSet<QString> keys;
    collectKeys(doc.object(), {}, keys);
    QStringList sorted(keys.begin(), keys.end());
    sorted.sort();
    return sorted;
}

QString recordedPath(const QString &name)
{
    return QStringLiteral(NICBENCH_TEST_DATA "/jsonkeys/%1.txt").arg(name);
}

bool recording()
{
    return qEnvironmentVariableIntValue("NICBENCH_RECORD_JSONKEYS") != 0;
}

// Compares the document's key paths with the recorded list (or records them). Empty on
// success, else what differs.
QString checkKeys(const QString &name, const QByteArray &document)
{
    QString error;
    const QStringList keys = keyPaths(document, &error);
    if (!error.isEmpty())
        return QStringLiteral("%1: %2\n%3").arg(name, error, QString::fromUtf8(document.left(2000)));
    QFile f(recordedPath(name));
    if (recording()) {
        QDir().mkpath(QFileInfo(f).absolutePath());
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return QStringLiteral("cannot write %1").arg(f.fileName());
        f.write(keys.join(QLatin1Char('\n')).toUtf8() + '\n');
        return {};
    }
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("no recorded keys %1 (NICBENCH_RECORD_JSONKEYS=1 records them)").arg(f.fileName());
    const QStringList expected = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QSet<QString> want(expected.begin(), expected.end());
    const QSet<QString> have(keys.begin(), keys.end());
    QStringList missing = QSet<QString>(want).subtract(have).values();
    QStringList extra = QSet<QString>(have).subtract(want).values();
    if (missing.isEmpty() && extra.isEmpty())
        return {};
    missing.sort();
    extra.sort();
    return QStringLiteral("%1: keys missing [%2]; keys not recorded [%3]")
        .arg(name, missing.join(QStringLiteral(", ")), extra.join(QStringLiteral(", ")));
}

} // namespace

class JsonKeysTest : public QObject {
    Q_OBJECT
private slots:
    void documents_data();
    void documents();
};

void JsonKeysTest::documents_data()
{
    QTest::addColumn<QString>("server");   // "nicbench-cli" or "iperf3"
    QTest::addColumn<QString>("client");   // likewise
    QTest::addColumn<QStringList>("args"); // the client's test options

    const QString ours = QStringLiteral("nicbench-cli");
    const QString iperf3 = QStringLiteral("iperf3");
    const auto opts = [](const char *s) { return QString::fromLatin1(s).split(QLatin1Char(' ')); };
    QTest::newRow("tcp") << ours << ours << opts("-t 1");
    QTest::newRow("reverse") << ours << ours << opts("-t 1 -R");
    QTest::newRow("bidir") << ours << ours << opts("-t 1 --bidir");
    QTest::newRow("parallel") << ours << ours << opts("-t 1 -P 2");
    QTest::newRow("rr") << ours << ours << opts("-t 1 --rr");
    QTest::newRow("crr") << ours << ours << opts("-t 1 --crr");
    QTest::newRow("udp") << ours << ours << opts("-t 1 -u -b 50M");
    QTest::newRow("udprr") << ours << ours << opts("-t 1 -u --rr");
    QTest::newRow("loaded") << ours << ours
                            << opts("--latency-under-load --phase-seconds 1 --phases idle,download,bidir");
    QTest::newRow("iperf3server") << iperf3 << ours << opts("-t 1");
    QTest::newRow("iperf3client") << ours << iperf3 << opts("-t 1");
}

void JsonKeysTest::documents()
{
    QFETCH(QString, server);
    QFETCH(QString, client);
    QFETCH(QStringList, args);
    const QString iperf3 = QStringLiteral("iperf3");
    if ((server == iperf3 || client == iperf3) && !nbtest::haveTool(iperf3))
        QSKIP("iperf3 is not installed");

    const QString serverProgram = server == iperf3 ? iperf3 : nbtest::cliPath();
    nbtest::Child serverChild;
    QString why;
    const quint16 port = nbtest::startListening(
        serverChild, serverProgram, {QStringLiteral("-s"), QStringLiteral("-1"), QStringLiteral("-J")}, &why);
    QVERIFY2(port != 0, qPrintable(why));

    const QString clientProgram = client == iperf3 ? iperf3 : nbtest::cliPath();
    nbtest::Child clientChild;
    clientChild.start(clientProgram, QStringList{QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"),
                                                 QString::number(port), QStringLiteral("-J")} +
                                         args);
    QVERIFY(clientChild.waitStarted());
    QVERIFY2(clientChild.waitFinished(RunTimeoutMs), qPrintable(clientChild.describe()));
    QVERIFY2(serverChild.waitFinished(RunTimeoutMs), qPrintable(serverChild.describe()));
    QVERIFY2(clientChild.exitCode() == 0, qPrintable(clientChild.describe()));
    QVERIFY2(serverChild.exitCode() == 0, qPrintable(serverChild.describe()));

    const QString row = QString::fromLatin1(QTest::currentDataTag());
    QStringList failures;
    if (client != iperf3)
        failures << checkKeys(row + QStringLiteral("-client"), clientChild.out());
    // Our server prints its document after the "Server listening" banner.
    if (server != iperf3) {
        const QByteArray out = serverChild.out();
        failures << checkKeys(row + QStringLiteral("-server"), out.mid(out.indexOf("\n{") + 1));
    }
    failures.removeAll(QString());
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(JsonKeysTest)
#include "tst_jsonkeys.moc"
