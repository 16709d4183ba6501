// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for the loopback and interoperability tests: free ports, child processes
// that are always reaped, and waiting for a listener without connecting to it (a probe
// connection would use up a one-off iperf3 server).

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

namespace nbtest {

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

inline bool waitListening(quint16 port, int timeoutMs = 5000)
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
    bool waitStarted(int ms = 5000) { return m_process->waitForStarted(ms); }
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
    QByteArray err()
    {
        m_err += m_process->readAllStandardError();
        return m_err;
    }
    QJsonObject outJson()
    {
        return QJsonDocument::fromJson(out()).object();
    }
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
        return QStringLiteral("%1 exit=%2 stderr=[%3] stdout(last 400)=[%4]")
            .arg(m_program)
            .arg(exitCode())
            .arg(QString::fromLocal8Bit(err().trimmed()))
            .arg(QString::fromLocal8Bit(out().right(400)));
    }

private:
    std::unique_ptr<QProcess> m_process;
    QString m_program;
    QByteArray m_out, m_err;
};

} // namespace nbtest
