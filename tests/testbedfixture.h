// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The testbed fixture shared by the ground-truth tests (tst_testbed, tst_testbedloaded):
// namespaces built and torn down by scripts/testbed, nicbench-cli run inside them, and the
// bounded retry of a measurement that fell outside its tolerance. docs/testbed.md.

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <unistd.h>

namespace {

inline QString cliPath()
{
    return QStringLiteral(NICBENCH_CLI_PATH);
}
inline QString scriptPath()
{
    return QDir::cleanPath(QStringLiteral(NICBENCH_TEST_DATA "/../../scripts/testbed"));
}
inline QString delaylinkPath()
{
    return QFileInfo(cliPath()).dir().filePath(QStringLiteral("delaylink"));
}

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline Run run(const QString &program, const QStringList &args, int timeoutMs = 30000)
{
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(5000)) {
        r.err = "cannot start " + program.toLocal8Bit();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        r.err = "timed out: " + program.toLocal8Bit() + ' ' + args.join(QLatin1Char(' ')).toLocal8Bit();
        r.out = p.readAllStandardOutput();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// Goodput TCP can reach through a shaper that counts `overhead` bytes besides the IP packet
// (14 for Ethernet on veth, 0 on a TUN): MSS with timestamps = MTU - 20 (IP) - 20 (TCP) - 12.
inline double expectedGoodput(double rateBps, int mtu, int overhead = 14)
{
    return rateBps * double(mtu - 52) / double(mtu + overhead);
}

// A testbed whose namespaces and processes go away when it goes out of scope, also when a
// QVERIFY returns early: the destructor runs `scripts/testbed down --prefix P`.
class Testbed {
public:
    explicit Testbed(const QString &tag) : m_prefix(QStringLiteral("nbtt%1-%2").arg(getpid() % 100000).arg(tag)) {}
    ~Testbed()
    {
        stopServer();
        if (m_up)
            run(QStringLiteral("bash"), {scriptPath(), QStringLiteral("down"), QStringLiteral("--prefix"), m_prefix});
    }
    Testbed(const Testbed &) = delete;
    Testbed &operator=(const Testbed &) = delete;

    QString prefix() const { return m_prefix; }
    QString clientNs() const { return m_prefix + QStringLiteral("-cli"); }
    QString serverNs() const { return m_prefix + QStringLiteral("-srv"); }

    bool up(const QString &profileText, QString *error)
    {
        if (!m_dir.isValid()) {
            *error = QStringLiteral("no temporary directory");
            return false;
        }
        const QString file = m_dir.filePath(QStringLiteral("test.profile"));
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly)) {
            *error = QStringLiteral("cannot write %1").arg(file);
            return false;
        }
        f.write(profileText.toUtf8());
        f.close();
        m_up = true; // from here on, always tear down (up cleans up after itself too)
        QStringList args{scriptPath(), QStringLiteral("up"), file, QStringLiteral("--prefix"), m_prefix};
        if (QFileInfo(delaylinkPath()).isExecutable())
            args << QStringLiteral("--delaylink") << delaylinkPath();
        const Run r = run(QStringLiteral("bash"), args, 60000);
        if (r.exitCode != 0) {
            *error = QStringLiteral("testbed up failed: %1").arg(QString::fromLocal8Bit(r.err + r.out));
            return false;
        }
        return true;
    }

    // realtime: run under SCHED_FIFO (chrt), so that on a busy machine the time the
    // process waits for a CPU does not pass for network latency. Only for RR tests: the
    // processes block in recv() between transactions and never spin.
    void setRealtime(bool on) { m_realtime = on && QFileInfo::exists(QStringLiteral("/usr/bin/chrt")); }
    bool realtime() const { return m_realtime; }

    QStringList nsCommand(const QString &ns, const QStringList &command) const
    {
        QStringList all{QStringLiteral("netns"), QStringLiteral("exec"), ns};
        if (m_realtime)
            all << QStringLiteral("/usr/bin/chrt") << QStringLiteral("-f") << QStringLiteral("5");
        return all + command;
    }

    bool startServer(QString *error)
    {
        m_server.setProcessChannelMode(QProcess::MergedChannels);
        m_server.start(QStringLiteral("ip"), nsCommand(serverNs(), {cliPath(), QStringLiteral("-s")}));
        QElapsedTimer t;
        t.start();
        QByteArray seen;
        while (t.elapsed() < 10000) {
            if (m_server.state() == QProcess::NotRunning)
                break;
            m_server.waitForReadyRead(200);
            seen += m_server.readAll();
            if (seen.contains("listening"))
                return true;
        }
        *error = QStringLiteral("server did not start: %1").arg(QString::fromLocal8Bit(seen));
        return false;
    }

    void stopServer()
    {
        if (m_server.state() != QProcess::NotRunning) {
            m_server.terminate();
            if (!m_server.waitForFinished(3000)) {
                m_server.kill();
                m_server.waitForFinished(2000);
            }
        }
    }

    // Runs nicbench-cli -c in the client namespace; returns its -J document.
    bool client(const QStringList &args, QJsonObject *out, QString *error, int timeoutMs = 30000)
    {
        QStringList all = nsCommand(clientNs(), QStringList{cliPath()} + args);
        all << QStringLiteral("-J");
        const Run r = run(QStringLiteral("ip"), all, timeoutMs);
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
        if (r.exitCode != 0 || !doc.isObject()) {
            *error = QStringLiteral("nicbench-cli %1 failed (exit %2): %3 %4")
                         .arg(args.join(QLatin1Char(' ')))
                         .arg(r.exitCode)
                         .arg(QString::fromLocal8Bit(r.err), QString::fromLocal8Bit(r.out.left(500)));
            return false;
        }
        *out = doc.object();
        return true;
    }

    // A counter of an interface in the client namespace (/sys/class/net/IF/statistics/NAME).
    qint64 clientCounter(const QString &ifname, const QString &counter)
    {
        const Run r = run(QStringLiteral("ip"),
                          {QStringLiteral("netns"), QStringLiteral("exec"), clientNs(), QStringLiteral("cat"),
                           QStringLiteral("/sys/class/net/%1/statistics/%2").arg(ifname, counter)});
        bool ok = false;
        const qint64 v = r.out.trimmed().toLongLong(&ok);
        return ok ? v : -1;
    }

private:
    QString m_prefix;
    QTemporaryDir m_dir;
    QProcess m_server;
    bool m_up = false;
    bool m_realtime = false;
};

inline double relErr(double measured, double expected)
{
    return (measured - expected) / expected;
}

inline QString pct(double rel)
{
    return QString::number(rel * 100.0, 'f', 2) + QLatin1Char('%');
}

inline double receivedBps(const QJsonObject &doc)
{
    return doc.value(QStringLiteral("end"))
        .toObject()
        .value(QStringLiteral("sum_received"))
        .toObject()
        .value(QStringLiteral("bits_per_second"))
        .toDouble();
}

inline QJsonObject nicbench(const QJsonObject &doc)
{
    return doc.value(QStringLiteral("nicbench")).toObject();
}

// What one measuring attempt found: within the tolerance, outside it (worth another try:
// on a shared machine a process that loses its CPU for a while under-fills the link or
// stretches a transaction, a shortfall of the run rather than a measuring error), or an
// error that no retry cures (the client failed, the document lacks a field).
struct Attempt {
    enum Kind { Within, Outside, Error };
    Kind kind = Error;
    QString text;
    static Attempt within() { return {Within, {}}; }
    static Attempt outside(const QString &why) { return {Outside, why}; }
    static Attempt error(const QString &why) { return {Error, why}; }
};

// Runs `measure(attempt number)` until it is within the tolerance or errs, at most
// `attempts` times, `pauseMs` apart (CPU-starved spells on a 2-core VM last seconds, so
// back-to-back attempts tend to miss together). Every attempt logs its own figures; the
// caller fails on anything but Within, with the last attempt's reason. The bound stays
// the same on every attempt: only bad luck is retried, never a looser check.
template <typename Measure> inline Attempt retryWithinTolerance(int attempts, int pauseMs, Measure &&measure)
{
    Attempt last;
    for (int attempt = 1; attempt <= attempts; ++attempt) {
        if (attempt > 1)
            QTest::qWait(pauseMs);
        last = measure(attempt);
        if (last.kind != Attempt::Outside)
            return last;
    }
    last.text += QStringLiteral(" (all %1 attempts outside the tolerance)").arg(attempts);
    return last;
}

// Every accuracy case runs through retryWithinTolerance with these, unless an attempt is
// costly (the comparison's nine runs).
constexpr int kAttempts = 5;
constexpr int kPauseMs = 2000;

inline QString retryTag(int attempt)
{
    return attempt > 1 ? QStringLiteral(" [retry %1]").arg(attempt - 1) : QString();
}

} // namespace

namespace {

// Why the testbed cannot run here (empty when it can): not root, no scripts/testbed, `ip
// netns` refused (a container without CAP_SYS_ADMIN), no tc.
inline QString testbedUnavailable()
{
    if (geteuid() != 0)
        return QStringLiteral("the testbed needs root (network namespaces, tc); run as root to include these tests");
    if (!QFileInfo::exists(scriptPath()))
        return QStringLiteral("scripts/testbed not found at %1").arg(scriptPath());
    const QString probe = QStringLiteral("nbtt%1-probe").arg(getpid() % 100000);
    const Run add = run(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("add"), probe});
    if (add.exitCode != 0)
        return QStringLiteral("`ip netns add` does not work here: %1").arg(QString::fromLocal8Bit(add.err).trimmed());
    run(QStringLiteral("ip"), {QStringLiteral("netns"), QStringLiteral("del"), probe});
    if (run(QStringLiteral("tc"), {QStringLiteral("-V")}).exitCode != 0)
        return QStringLiteral("tc (iproute2) is not installed");
    return {};
}

// A skip, or a failure when NICBENCH_REQUIRE_TESTBED=1 (CI's way to insist).
inline void noteUnavailable(const QString &why, QString *skipReason)
{
    *skipReason = why;
    if (qEnvironmentVariableIntValue("NICBENCH_REQUIRE_TESTBED") == 1)
        QFAIL(qPrintable(QStringLiteral("NICBENCH_REQUIRE_TESTBED=1 but ") + why));
}

} // namespace
