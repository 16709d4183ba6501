// SPDX-License-Identifier: GPL-3.0-or-later
// The Windows build, run under wine, against the Linux build on loopback: nicbench-cli.exe -s
// serving the native nicbench-cli and stock iperf3 clients, the native server serving
// nicbench-cli.exe -c, and nicbench.exe on the offscreen platform running a loopback test
// and writing a report. Every -J the Windows side writes must have the native run's keys.
//
// It uses the deployed folder (`cmake --install build-windows --prefix build-windows/deploy`,
// done by ./dev windows and ./dev test), so it also proves the folder runs without WINEPATH.
// Without that folder or wine it skips with a line saying so; ./dev test sets
// NICBENCH_REQUIRE_WINDOWS=1 after it built the Windows side, and then a skip is a failure.

#include "agentfixtures.h"
#include "integrationhelpers.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace nbtest;

namespace {

const QString kDeployDir = QStringLiteral(NICBENCH_WINDOWS_DEPLOY);
const QString kWinePrefix = QStringLiteral(NICBENCH_WINE_PREFIX);

// "a.b[].c" for every key below the root; arrays contribute the union of their elements.
void collectKeys(const QJsonValue &v, const QString &path, QSet<QString> *out)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString p = path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key();
            out->insert(p);
            collectKeys(it.value(), p, out);
        }
    } else if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            collectKeys(e, path + QStringLiteral("[]"), out);
    }
}

QSet<QString> keysOf(const QByteArray &json)
{
    QSet<QString> keys;
    collectKeys(QJsonDocument::fromJson(json).object(), {}, &keys);
    return keys;
}

// Keys that name what one system can tell and another cannot, each written only where it is
// known, as iperf3 does: TCP_INFO's figures (Windows before 10 1703, wine included, has no
// SIO_TCP_INFO), the congestion control algorithm (Windows has no per-socket choice), and
// the adapter's offloads (a map of what could be read).
bool isSystemDependentKey(const QString &path)
{
    if (path.contains(QLatin1String(".offloads.")) || path.endsWith(QLatin1String("sender_tcp_congestion")))
        return true;
    static const QSet<QString> names{
        QStringLiteral("retransmits"), QStringLiteral("snd_cwnd"), QStringLiteral("rtt"),
        QStringLiteral("rttvar"),      QStringLiteral("pmtu"),     QStringLiteral("max_snd_cwnd"),
        QStringLiteral("max_rtt"),     QStringLiteral("min_rtt"),  QStringLiteral("mean_rtt")};
    return names.contains(path.section(QLatin1Char('.'), -1));
}

QString keyDifference(const QSet<QString> &native, const QSet<QString> &windows)
{
    QStringList missing, extra;
    for (const QString &k : native)
        if (!windows.contains(k) && !isSystemDependentKey(k))
            missing << k;
    for (const QString &k : windows)
        if (!native.contains(k))
            extra << k;
    missing.sort();
    extra.sort();
    if (missing.isEmpty() && extra.isEmpty())
        return {};
    return QStringLiteral("missing on Windows: %1; only on Windows: %2")
        .arg(missing.join(QStringLiteral(", ")), extra.join(QStringLiteral(", ")));
}

double sumBitsPerSecond(const QJsonObject &root)
{
    const QJsonObject end = root.value(QStringLiteral("end")).toObject();
    return end.value(QStringLiteral("sum_received")).toObject().value(QStringLiteral("bits_per_second")).toDouble();
}

double rrTransactions(const QJsonObject &root)
{
    return root.value(QStringLiteral("nicbench"))
        .toObject()
        .value(QStringLiteral("rr"))
        .toObject()
        .value(QStringLiteral("transactions"))
        .toDouble();
}

} // namespace

class TestWine : public QObject {
    Q_OBJECT

    QProcessEnvironment m_env;
    QTemporaryDir m_dir;
    std::unique_ptr<Child> m_server; // nicbench-cli.exe -s under wine, shared by the first cases
    quint16 m_serverPort = 0;

    QString exe(const char *name) const { return kDeployDir + QLatin1Char('/') + QLatin1String(name); }
    // A Linux path as the Windows program sees it (wine maps / to drive Z:).
    static QString winPath(const QString &path) { return QStringLiteral("Z:") + path; }

    struct Run {
        int code = -1;
        QByteArray out, err;
        // The error first: QTest cuts a message at about 1,000 characters, and a -J document
        // says why it failed in its "error" key (a fresh CI run once showed only the middle
        // of a 32-connection document).
        QString describe(const QString &what) const
        {
            const QString jsonError = QJsonDocument::fromJson(out).object().value(QStringLiteral("error")).toString();
            return QStringLiteral("%1 -> %2\nerror: %3\nstderr:\n%4\nstdout:\n%5")
                .arg(what)
                .arg(code)
                .arg(jsonError, QString::fromUtf8(err.right(400)), QString::fromUtf8(out.right(300)));
        }
    };

    Run run(const QString &program, const QStringList &args, int timeoutMs, bool underWine)
    {
        QProcess p;
        p.setProcessEnvironment(m_env);
        if (underWine)
            p.start(QStringLiteral("wine"), QStringList{program} + args);
        else
            p.start(program, args);
        Run r;
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished(5000);
            r.code = -2;
        } else {
            r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -3;
        }
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

private slots:
    void initTestCase()
    {
        const bool required = qEnvironmentVariableIntValue("NICBENCH_REQUIRE_WINDOWS") == 1;
        QString why;
        if (!haveTool(QStringLiteral("wine")))
            why = QStringLiteral("wine is not installed");
        else if (!QFileInfo(exe("nicbench-cli.exe")).isFile())
            why = QStringLiteral("no Windows build at %1 (./dev windows makes it)").arg(kDeployDir);
        if (!why.isEmpty()) {
            if (required)
                QFAIL(qPrintable(QStringLiteral("NICBENCH_REQUIRE_WINDOWS=1 but ") + why));
            QSKIP(qPrintable(QStringLiteral("skipping the Windows tests: ") + why));
        }
        QVERIFY(m_dir.isValid());
        m_env = QProcessEnvironment::systemEnvironment();
        QDir().mkpath(kWinePrefix);
        m_env.insert(QStringLiteral("WINEPREFIX"), kWinePrefix);
        m_env.insert(QStringLiteral("WINEDEBUG"), QStringLiteral("-all"));
        m_env.insert(QStringLiteral("WINEDLLOVERRIDES"), QStringLiteral("mscoree,mshtml="));
        // wine drops QT_* variables: the WINE-prefixed names reach the Windows program.
        m_env.insert(QStringLiteral("WINEQT_FORCE_STDERR_LOGGING"), QStringLiteral("1"));
        m_env.insert(QStringLiteral("WINEQT_QPA_FONTDIR"), QStringLiteral("Z:/usr/share/fonts/truetype/dejavu"));
        m_env.remove(QStringLiteral("WINEPATH")); // the deployed folder must be enough
        m_env.remove(QStringLiteral("DISPLAY"));
        // The first start of a prefix (wineboot) takes about half a minute.
        const Run version = run(exe("nicbench-cli.exe"), {QStringLiteral("--version")}, 180000, true);
        QVERIFY2(version.code == 0, qPrintable(version.describe(QStringLiteral("nicbench-cli.exe --version"))));
        QVERIFY2(version.out.contains(NICBENCH_VERSION), version.out.constData());
    }

    void cleanupTestCase()
    {
        m_server.reset();
        if (!m_env.isEmpty()) {
            // Ends this prefix's wineserver (and anything left in it), nothing else.
            QProcess w;
            w.setProcessEnvironment(m_env);
            w.start(QStringLiteral("wineserver"), {QStringLiteral("-k")});
            w.waitForFinished(10000);
        }
    }

    void windowsServer_data()
    {
        QTest::addColumn<QString>("client");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("rr");
        const QString ours = cliPath();
        QTest::newRow("nicbench forward") << ours << QStringList{QStringLiteral("-t"), QStringLiteral("2")} << false;
        QTest::newRow("nicbench -R") << ours
                                     << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("-R")}
                                     << false;
        QTest::newRow("nicbench -P 4 --bidir")
            << ours
            << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("-P"), QStringLiteral("4"),
                           QStringLiteral("--bidir")}
            << false;
        QTest::newRow("nicbench --rr") << ours
                                       << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("--rr")}
                                       << true;
        QTest::newRow("nicbench --crr") << ours
                                        << QStringList{QStringLiteral("-t"), QStringLiteral("2"),
                                                       QStringLiteral("--crr")}
                                        << true;
        QTest::newRow("nicbench --rr --connections 32")
            << ours
            << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("--rr"),
                           QStringLiteral("--connections"), QStringLiteral("32")}
            << true;
        QTest::newRow("iperf3 forward") << QStringLiteral("iperf3")
                                        << QStringList{QStringLiteral("-t"), QStringLiteral("2")} << false;
        QTest::newRow("iperf3 -R") << QStringLiteral("iperf3")
                                   << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("-R")}
                                   << false;
    }

    // nicbench-cli.exe -s under wine serves the Linux client and stock iperf3.
    void windowsServer()
    {
        QFETCH(QString, client);
        QFETCH(QStringList, args);
        QFETCH(bool, rr);
        if (client == QLatin1String("iperf3") && !haveTool(client))
            QSKIP("iperf3 is not installed");
        if (!m_server) {
            m_serverPort = freePort();
            QVERIFY(m_serverPort != 0);
            m_server = std::make_unique<Child>();
            m_server->process()->setProcessEnvironment(m_env);
            m_server->process()->setProcessChannelMode(QProcess::MergedChannels);
            m_server->start(QStringLiteral("wine"),
                            {exe("nicbench-cli.exe"), QStringLiteral("-s"), QStringLiteral("-B"), kLoopback,
                             QStringLiteral("-p"), QString::number(m_serverPort)});
            QVERIFY(m_server->waitStarted());
            QVERIFY2(m_server->waitForOutput("Server listening", 60000), qPrintable(m_server->describe()));
        }
        QStringList full{QStringLiteral("-c"), kLoopback, QStringLiteral("-p"), QString::number(m_serverPort),
                         QStringLiteral("-J")};
        full += args;
        const Run r = run(client, full, 60000, false);
        QVERIFY2(r.code == 0, qPrintable(r.describe(client + QLatin1Char(' ') + full.join(QLatin1Char(' '))) +
                                         QStringLiteral("\nserver: ") + m_server->describe()));
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        if (rr)
            QVERIFY2(rrTransactions(root) > 0, r.out.right(2000).constData());
        else
            QVERIFY2(sumBitsPerSecond(root) > 1e6, r.out.right(2000).constData());
        QVERIFY2(m_server->running(), qPrintable(m_server->describe()));
    }

    void windowsClient_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("rr");
        QTest::newRow("forward") << QStringList{QStringLiteral("-t"), QStringLiteral("2")} << false;
        QTest::newRow("-R") << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("-R")} << false;
        QTest::newRow("-P 4") << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("-P"),
                                             QStringLiteral("4")}
                              << false;
        QTest::newRow("--rr") << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("--rr")} << true;
        QTest::newRow("--crr") << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("--crr")}
                               << true;
    }

    // The native server serves nicbench-cli.exe -c under wine; its -J has the native
    // client's keys for the same test.
    void windowsClient()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, rr);
        ServerProcess server;
        const QString error = server.start(cliPath(), {QStringLiteral("-s"), QStringLiteral("-B"), kLoopback});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList full{QStringLiteral("-c"), kLoopback, QStringLiteral("-p"), QString::number(server.port()),
                         QStringLiteral("-J")};
        full += args;
        const Run windows = run(exe("nicbench-cli.exe"), full, 90000, true);
        QVERIFY2(windows.code == 0,
                 qPrintable(windows.describe(QStringLiteral("nicbench-cli.exe ") + full.join(QLatin1Char(' '))) +
                            QStringLiteral("\nserver: ") + server.output()));
        const Run native = run(cliPath(), full, 60000, false);
        QVERIFY2(native.code == 0, qPrintable(native.describe(full.join(QLatin1Char(' ')))));
        const QJsonObject root = QJsonDocument::fromJson(windows.out).object();
        if (rr)
            QVERIFY2(rrTransactions(root) > 0, windows.out.right(2000).constData());
        else
            QVERIFY2(sumBitsPerSecond(root) > 1e6, windows.out.right(2000).constData());
        const QString diff = keyDifference(keysOf(native.out), keysOf(windows.out));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void windowsAgent_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("rr");
        QTest::newRow("stream") << QStringList{QStringLiteral("-t"), QStringLiteral("2")} << false;
        QTest::newRow("--rr") << QStringList{QStringLiteral("-t"), QStringLiteral("2"), QStringLiteral("--rr")} << true;
    }

    // nicbench-cli.exe -s --agent-key under wine is an agent: the Linux controller has it run a
    // test toward the native server, and gets the Windows side's document with driven_by.
    void windowsAgent()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, rr);
        KeyFile key;
        const quint16 agentPort = freePort();
        QVERIFY(agentPort != 0);
        Child agent;
        agent.process()->setProcessEnvironment(m_env);
        agent.process()->setProcessChannelMode(QProcess::MergedChannels);
        agent.start(QStringLiteral("wine"),
                    {exe("nicbench-cli.exe"), QStringLiteral("-s"), QStringLiteral("-B"), kLoopback,
                     QStringLiteral("-p"), QString::number(agentPort), QStringLiteral("--agent-key"),
                     winPath(key.path()), QStringLiteral("--agent-targets"), QStringLiteral("127.0.0.0/8")});
        QVERIFY(agent.waitStarted());
        QVERIFY2(agent.waitForOutput("Server listening", 60000), qPrintable(agent.describe()));
        ServerProcess server;
        const QString error = server.start(cliPath(), {QStringLiteral("-s"), QStringLiteral("-B"), kLoopback});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList full{QStringLiteral("-c"),          kLoopback,
                         QStringLiteral("-p"),          QString::number(server.port()),
                         QStringLiteral("--from"),      QStringLiteral("%1:%2").arg(kLoopback).arg(agentPort),
                         QStringLiteral("--agent-key"), key.path(),
                         QStringLiteral("-J")};
        full += args;
        const Run r = run(cliPath(), full, 90000, false);
        QVERIFY2(r.code == 0,
                 qPrintable(r.describe(full.join(QLatin1Char(' '))) + QStringLiteral("\nagent: ") + agent.describe()));
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        if (rr)
            QVERIFY2(rrTransactions(root) > 0, r.out.right(2000).constData());
        else
            QVERIFY2(sumBitsPerSecond(root) > 1e6, r.out.right(2000).constData());
        const QJsonObject by =
            root.value(QStringLiteral("nicbench")).toObject().value(QStringLiteral("driven_by")).toObject();
        QCOMPARE(by.value(QStringLiteral("agent")).toString(), QStringLiteral("%1:%2").arg(kLoopback).arg(agentPort));
        QCOMPARE(by.value(QStringLiteral("controller")).toString(), kLoopback);
        // The document is the Windows side's, as it wrote it: its system_info is Windows'.
        const QString systemInfo =
            root.value(QStringLiteral("start")).toObject().value(QStringLiteral("system_info")).toString();
        QVERIFY2(systemInfo.startsWith(QStringLiteral("winnt ")), qPrintable(systemInfo));
        QVERIFY2(agent.running(), qPrintable(agent.describe()));
    }

    // nicbench.exe on the offscreen platform: a test against its built-in loopback server,
    // to the end, with the result written like -J.
    void guiLoopbackRun()
    {
        const QString json = m_dir.filePath(QStringLiteral("gui.json"));
        QProcessEnvironment env = m_env;
        env.insert(QStringLiteral("WINEQT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("wine"),
                {exe("nicbench.exe"), QStringLiteral("--run"), QStringLiteral("-t"), QStringLiteral("2"),
                 QStringLiteral("--quit-when-done"), QStringLiteral("--json-out"), winPath(json)});
        const bool finished = p.waitForFinished(120000);
        if (!finished) {
            p.kill();
            p.waitForFinished(5000);
        }
        const QByteArray output = p.readAll();
        QVERIFY2(finished && p.exitCode() == 0, output.constData());
        QFile f(json);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(json));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY2(sumBitsPerSecond(root) > 1e6, output.constData());
    }

    // nicbench.exe --report-pdf on a snapshot written on Linux: the one-page report.
    void guiReportPdf()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
        const QString snapshot = QStringLiteral(NICBENCH_TEST_DATA "/snapshots/cli-v1-loopback.nicbench");
        const Run r =
            run(exe("nicbench.exe"), {QStringLiteral("--report-pdf"), winPath(pdf), winPath(snapshot)}, 120000, true);
        QVERIFY2(r.code == 0, qPrintable(r.describe(QStringLiteral("nicbench.exe --report-pdf"))));
        QFile f(pdf);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(pdf));
        QVERIFY(f.readAll().startsWith("%PDF"));
    }
};

QTEST_GUILESS_MAIN(TestWine)
#include "tst_wine.moc"
