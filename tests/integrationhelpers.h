// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for the loopback and interoperability tests: free ports, child processes
// that are always reaped, and waiting for a listener without connecting to it (a probe
// connection would use up a one-off iperf3 server); our server on a thread of its own,
// servers as child processes, and one-shot runs of nicbench-cli.

#include "model/testparams.h"
#include "session/server.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QThread>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <thread>

namespace nbtest {

inline const QString kLoopback = QStringLiteral("127.0.0.1");

// A port that was free a moment ago: bind to port 0, read it, close. No connection is
// made, so nothing lingers in TIME_WAIT.
inline quint16 freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    quint16 port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

// True when some socket listens on the TCP port (IPv4 or IPv6), from /proc/net/tcp*.
inline bool isListening(quint16 port)
{
    const QByteArray hexPort = QByteArray::number(port, 16).toUpper().rightJustified(4, '0');
    for (const char *table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        QFile f{QString::fromLatin1(table)};
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> lines = f.readAll().split('\n');
        for (const QByteArray &line : lines) {
            const QList<QByteArray> cols = line.simplified().split(' ');
            // sl local_address rem_address st ...; LISTEN is state 0A.
            if (cols.size() > 3 && cols[3] == "0A" && cols[1].endsWith(':' + hexPort))
                return true;
        }
    }
    return false;
}

// 15 s: a nicbench-cli server under ASan+UBSan beside another test (ctest -j2) once took
// more than 5 s to listen (tst_udp::nicbenchBothEnds in a fresh CI run); a server that
// does listen is found within 20 ms, so only a failure waits this long.
inline bool waitListening(quint16 port, int timeoutMs = 15000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (isListening(port))
            return true;
        QThread::msleep(20);
    }
    return false;
}

inline QString cliPath()
{
    return QStringLiteral(NICBENCH_CLI_PATH);
}

inline bool haveTool(const QString &name)
{
    return !QStandardPaths::findExecutable(name).isEmpty();
}

// A child process that is killed and reaped when it goes out of scope, whatever the
// test's outcome. Only ever this process is signalled, never anything by name.
class Child {
public:
    Child() : m_process(std::make_unique<QProcess>()) {}
    Child(const Child &) = delete;
    Child &operator=(const Child &) = delete;
    ~Child() { stop(); }

    void start(const QString &program, const QStringList &args)
    {
        m_program = program;
        m_process->start(program, args);
    }
    bool waitStarted(int ms = 15000) { return m_process->waitForStarted(ms); }
    bool waitFinished(int ms) { return m_process->waitForFinished(ms); }
    bool running() const { return m_process->state() != QProcess::NotRunning; }
    void kill()
    {
        if (running()) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
    void stop() { kill(); }
    int exitCode() const { return m_process->exitCode(); }
    bool crashed() const { return m_process->exitStatus() == QProcess::CrashExit; }
    // Everything written so far (accumulates; reading the channel drains it).
    QByteArray out()
    {
        m_out += m_process->readAllStandardOutput();
        return m_out;
    }
    // Forgets what was read, before the process is started again.
    void resetOutput()
    {
        out();
        err();
        m_out.clear();
        m_err.clear();
    }
    QByteArray err()
    {
        m_err += m_process->readAllStandardError();
        return m_err;
    }
    QJsonObject outJson() { return QJsonDocument::fromJson(out()).object(); }
    // Waits until stdout contains the text.
    bool waitForOutput(const QByteArray &text, int ms)
    {
        QDeadlineTimer deadline(ms);
        while (!out().contains(text)) {
            if (deadline.hasExpired() || !running())
                return out().contains(text);
            m_process->waitForReadyRead(50);
        }
        return true;
    }
    QProcess *process() { return m_process.get(); }
    QString describe()
    {
        // What is known now: a running child's exit code is not one yet.
        const QString state = running()   ? QStringLiteral("running")
                              : crashed() ? QStringLiteral("crashed")
                                          : QStringLiteral("exit=%1").arg(exitCode());
        return QStringLiteral("%1 %2 stderr=[%3] stdout(last 400)=[%4]")
            .arg(m_program, state)
            .arg(QString::fromLocal8Bit(err().trimmed()))
            .arg(QString::fromLocal8Bit(out().right(400)));
    }

private:
    std::unique_ptr<QProcess> m_process;
    QString m_program;
    QByteArray m_out, m_err;
};

// Starts `program args -p PORT` in `server` on a free port and waits until that port
// listens (a one-off iperf3 -J server prints nothing until its test ends, so readiness is
// the socket, not a banner). Between freePort() and the server's bind another test
// (ctest -j2) may take the port: a server that exits saying "in use" is started again on
// another one, 3 tries. Returns the port, or 0 with why set to what the server printed and
// how it ended, read after it exited or was killed (a running child's pipes are only read
// while something waits on it).
inline quint16 startListening(Child &server, const QString &program, const QStringList &args, QString *why,
                              int timeoutMs = 15000)
{
    for (int attempt = 0; attempt < 3; ++attempt) {
        const quint16 port = freePort();
        if (port == 0) {
            *why = QStringLiteral("no free port");
            return 0;
        }
        if (attempt > 0)
            server.resetOutput();
        server.start(program, QStringList(args) << QStringLiteral("-p") << QString::number(port));
        if (!server.waitStarted()) {
            *why = QStringLiteral("%1 did not start: %2").arg(program, server.process()->errorString());
            return 0;
        }
        QDeadlineTimer deadline(timeoutMs);
        while (!isListening(port) && server.running() && !deadline.hasExpired())
            server.waitFinished(20);
        if (isListening(port)) {
            why->clear();
            return port;
        }
        if (server.running()) {
            server.kill();
            *why = QStringLiteral("not listening on port %1 after %2 ms (killed): %3")
                       .arg(port)
                       .arg(timeoutMs)
                       .arg(server.describe());
            return 0;
        }
        *why = QStringLiteral("exited before listening on port %1: %2").arg(port).arg(server.describe());
        if (!(server.out() + server.err()).contains("in use"))
            return 0;
    }
    return 0;
}

// A client test against a server on loopback: `seconds` long, a report every `interval` s.
inline nb::TestParams loopbackTestParams(quint16 port, double seconds, double interval)
{
    nb::TestParams p;
    p.host = kLoopback;
    p.port = port;
    p.duration = seconds;
    p.interval = interval;
    return p;
}

// Our server (the engine's) on an ephemeral port, serving on its own thread; stopped and
// joined however the test ends. The listener, when given, must outlive this object.
class ServerThread {
public:
    explicit ServerThread(const QString &bindAddress = kLoopback, nb::TestListener *listener = nullptr)
        : ServerThread(options(bindAddress), listener)
    {
    }
    // Other options: start from options(), change what the test needs.
    explicit ServerThread(const nb::ServerOptions &o, nb::TestListener *listener = nullptr)
        : m_server(std::make_unique<nb::Server>(o, listener))
    {
    }
    static nb::ServerOptions options(const QString &bindAddress = kLoopback)
    {
        nb::ServerOptions o;
        o.port = 0;
        o.bindAddress = bindAddress;
        o.idleTimeoutSecs = 10;
        return o;
    }
    ServerThread(const ServerThread &) = delete;
    ServerThread &operator=(const ServerThread &) = delete;
    ~ServerThread()
    {
        m_server->stop();
        if (m_thread.joinable())
            m_thread.join();
    }
    bool start(QString *error)
    {
        if (!m_server->listen(error))
            return false;
        m_thread = std::thread([this] { m_server->serve(); });
        return true;
    }
    quint16 port() const { return m_server->port(); }
    int testsServed() const { return m_server->testsServed(); }

private:
    std::unique_ptr<nb::Server> m_server;
    std::thread m_thread;
};

// A server as a child process (nicbench-cli -s, iperf3 -s) on a free port, given as
// "-p PORT" after the arguments; ready once it prints "Server listening". Killed and
// reaped however the test ends.
class ServerProcess {
public:
    // Empty on success, else why it could not start.
    // The free port can be taken by another test between freePort() and the server's bind
    // (ctest -j2): a server that exits saying so is started again on another port, 3 tries.
    QString start(const QString &program, const QStringList &args)
    {
        QString why;
        for (int attempt = 0; attempt < 3; ++attempt) {
            why = startOnce(program, args);
            if (why.isEmpty() || m_child.running() || !why.contains(QStringLiteral("in use")))
                return why;
            m_child.resetOutput();
        }
        return why;
    }
    quint16 port() const { return m_port; }
    // Everything it printed so far, stdout and stderr.
    QString output() { return QString::fromUtf8(m_child.out()); }

private:
    QString startOnce(const QString &program, const QStringList &args)
    {
        m_port = freePort();
        if (m_port == 0)
            return QStringLiteral("no free port");
        m_child.process()->setProcessChannelMode(QProcess::MergedChannels);
        m_child.start(program, QStringList(args) << QStringLiteral("-p") << QString::number(m_port));
        if (!m_child.waitStarted(5000))
            return QStringLiteral("%1 did not start: %2").arg(program, m_child.process()->errorString());
        if (!m_child.waitForOutput("Server listening", 5000)) {
            m_child.waitFinished(1000); // a server that failed to bind is exiting
            return QStringLiteral("%1 is not listening: %2").arg(program, output());
        }
        return {};
    }

    Child m_child;
    quint16 m_port = 0;
};

// One run of nicbench-cli to its end (killed after the timeout).
struct CliRun {
    int exitCode = -1;
    QByteArray out, err;
    bool finished = false;
    QString describe(const QStringList &args) const
    {
        // Why first: stdout's "failed: ..." lines (compare's runs) and stderr, as QTest cuts
        // long messages and a long table would push them out.
        QStringList failures;
        for (const QByteArray &line : out.split('\n'))
            if (line.contains("failed: ") && failures.size() < 10)
                failures << QString::fromUtf8(line.left(300));
        return QStringLiteral("nicbench-cli %1 -> %2\n%3stderr:\n%4\nstdout:\n%5")
            .arg(args.join(QLatin1Char(' ')))
            .arg(exitCode)
            .arg(failures.isEmpty() ? QString() : failures.join(QLatin1Char('\n')) + QLatin1Char('\n'),
                 QString::fromUtf8(err.right(2500)), QString::fromUtf8(out.right(2000)));
    }
};

// program: what to start instead (`ip netns exec NS nicbench-cli ...` passes "ip").
inline CliRun runCli(const QStringList &args, int timeoutMs, const QString &program = cliPath())
{
    CliRun r;
    QProcess p;
    p.start(program, args);
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(3000);
    }
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace nbtest
