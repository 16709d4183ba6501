// SPDX-License-Identifier: GPL-3.0-or-later
// iperf3-compatible authentication end to end on loopback: our client and server together
// (refused before any stream, the server free again at once, the info query guarded too),
// and interoperability with the stock iperf3 3.12 both ways (its client against our server,
// our client against its server) with the right and a wrong password; nicbench-cli with
// neither IPERF3_PASSWORD nor a terminal. Skips with a reason without OpenSSL, openssl or
// iperf3.
#include "authfixtures.h"

#include "session/server.h"
#include "session/serverinfo.h"
#include "session/throughputclient.h"

#include <QElapsedTimer>
#include <QTest>

using namespace nbtest;

namespace {

constexpr int DurationSecs = 1;

// Our server with authentication, on its own thread (ServerThread).
nb::ServerOptions authOptions(const QString &privateKey, const QString &users, int skew = auth::DefaultSkewSeconds)
{
    nb::ServerOptions o = ServerThread::options();
    o.rsaPrivateKeyPath = privateKey;
    o.authorizedUsersPath = users;
    o.timeSkewSeconds = skew;
    return o;
}

} // namespace

class TestAuthInterop : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void ourClientOurServer();
    void infoQueryNeedsCredentials();
    void stockClientOurServer();
    void ourClientStockServer();
    void cliWithoutPasswordOrTerminal();

private:
    nb::TestParams clientParams(quint16 port, const QString &password) const;

    AuthFiles m_files;
};

void TestAuthInterop::initTestCase()
{
    QVERIFY2(QFile::exists(cliPath()), qPrintable(cliPath()));
    if (!authSkipReason()) {
        const QString why = m_files.make();
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
}

#define REQUIRE_IPERF3()                                                                                               \
    do {                                                                                                               \
        if (!haveTool(QStringLiteral("iperf3")))                                                                       \
            QSKIP("iperf3 is not in PATH (install the Debian package iperf3 to run the interoperability tests)");      \
    } while (false)

nb::TestParams TestAuthInterop::clientParams(quint16 port, const QString &password) const
{
    nb::TestParams p = loopbackTestParams(port, DurationSecs, 1);
    p.username = kUser;
    p.rsaPublicKeyPath = m_files.publicKey;
    p.password = password;
    return p;
}

void TestAuthInterop::ourClientOurServer()
{
    NBTEST_REQUIRE_AUTH();
    ServerThread server(authOptions(m_files.privateKey, m_files.users));
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));

    // Refused before any stream opens, in a bounded time, and the server stays free.
    for (const QString &password : {QStringLiteral("wrong"), QString()}) {
        nb::TestParams p = clientParams(server.port(), password);
        if (password.isEmpty()) { // no credentials at all
            p.username.clear();
            p.rsaPublicKeyPath.clear();
        }
        QElapsedTimer t;
        t.start();
        const nb::TestResult r = nb::ThroughputClient(p).run();
        QVERIFY(!r.ok());
        QCOMPARE(r.errorCode, nb::ErrorCode::AuthFailed);
        QVERIFY2(r.error.contains(QStringLiteral("test authorization failed")), qPrintable(r.error));
        // Without credentials the message says which options the server wants.
        QCOMPARE(r.error.contains(QStringLiteral("requires --username")), password.isEmpty());
        QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(r.streams.isEmpty());
    }
    const nb::TestResult r = nb::ThroughputClient(clientParams(server.port(), kPassword)).run();
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.streams.size(), 1);
    QVERIFY(r.streams.first().bytesReceived > 0);
    QVERIFY(r.params.password.isEmpty()); // the result never holds it
}

void TestAuthInterop::infoQueryNeedsCredentials()
{
    NBTEST_REQUIRE_AUTH();
    ServerThread server(authOptions(m_files.privateKey, m_files.users));
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::ServerInfoQuery q;
    q.host = kLoopback;
    q.port = server.port();
    nb::HostEnvironment host;
    nb::ErrorCode code = nb::ErrorCode::None;
    QVERIFY(!nb::queryServerInfo(q, &host, &error, &code));
    QCOMPARE(code, nb::ErrorCode::AuthFailed);
    QVERIFY2(error.contains(QStringLiteral("requires --username")), qPrintable(error));
    q.username = kUser;
    q.rsaPublicKeyPath = m_files.publicKey;
    q.password = kPassword;
    QVERIFY2(nb::queryServerInfo(q, &host, &error, &code), qPrintable(error));
    QVERIFY(host.known);
}

// Stock iperf3 -c --username against nicbench-cli -s: accepted with the right password,
// refused with iperf3's own "test authorization failed" with a wrong one.
void TestAuthInterop::stockClientOurServer()
{
    NBTEST_REQUIRE_AUTH();
    REQUIRE_IPERF3();
    ServerProcess server;
    const QString why =
        server.start(cliPath(), {QStringLiteral("-s"), QStringLiteral("--rsa-private-key-path"), m_files.privateKey,
                                 QStringLiteral("--authorized-users-path"), m_files.users});
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QStringList args{QStringLiteral("-c"),
                           kLoopback,
                           QStringLiteral("-p"),
                           QString::number(server.port()),
                           QStringLiteral("-t"),
                           QString::number(DurationSecs),
                           QStringLiteral("--username"),
                           kUser,
                           QStringLiteral("--rsa-public-key-path"),
                           m_files.publicKey};
    {
        Child client;
        client.process()->setProcessEnvironment(withPassword(QStringLiteral("wrong")));
        client.start(QStringLiteral("iperf3"), args);
        QVERIFY2(client.waitFinished(15000), qPrintable(client.describe()));
        QVERIFY2(client.exitCode() != 0, qPrintable(client.describe()));
        QVERIFY2(client.out().contains("test authorization failed") ||
                     client.err().contains("test authorization failed"),
                 qPrintable(client.describe()));
    }
    {
        Child client;
        client.process()->setProcessEnvironment(withPassword(kPassword));
        client.start(QStringLiteral("iperf3"), QStringList(args) << QStringLiteral("-J"));
        QVERIFY2(client.waitFinished((DurationSecs + 15) * 1000), qPrintable(client.describe()));
        QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
        const QJsonObject end = client.outJson().value(QStringLiteral("end")).toObject();
        QVERIFY2(end.value(QStringLiteral("sum_received")).toObject().value(QStringLiteral("bytes")).toDouble() > 0,
                 qPrintable(client.describe()));
    }
    // The server's log names the user and the reason (the client learns neither).
    QTRY_VERIFY2_WITH_TIMEOUT(
        server.output().contains(QStringLiteral("authentication failed for user 'alice': wrong password")),
        qPrintable(server.output()), 5000);
    QTRY_VERIFY2_WITH_TIMEOUT(server.output().contains(QStringLiteral("Authenticated user 'alice'")),
                              qPrintable(server.output()), 5000);
}

// nicbench-cli -c --username against stock iperf3 -s --rsa-private-key-path.
void TestAuthInterop::ourClientStockServer()
{
    NBTEST_REQUIRE_AUTH();
    REQUIRE_IPERF3();
    // iperf3 writes its banner into a pipe buffer, so readiness is its listening socket.
    Child server;
    server.process()->setProcessChannelMode(QProcess::MergedChannels);
    QString why;
    const quint16 port =
        nbtest::startListening(server, QStringLiteral("iperf3"),
                               {QStringLiteral("-s"), QStringLiteral("--rsa-private-key-path"), m_files.privateKey,
                                QStringLiteral("--authorized-users-path"), m_files.users},
                               &why);
    QVERIFY2(port != 0, qPrintable(why));
    const QStringList args{QStringLiteral("-c"),
                           kLoopback,
                           QStringLiteral("-p"),
                           QString::number(port),
                           QStringLiteral("-t"),
                           QString::number(DurationSecs),
                           QStringLiteral("--username"),
                           kUser,
                           QStringLiteral("--rsa-public-key-path"),
                           m_files.publicKey};
    {
        Child client;
        client.process()->setProcessEnvironment(withPassword(QStringLiteral("wrong")));
        client.start(cliPath(), args);
        QVERIFY2(client.waitFinished(15000), qPrintable(client.describe()));
        QVERIFY2(client.exitCode() != 0, qPrintable(client.describe()));
        QVERIFY2(client.err().contains("test authorization failed"), qPrintable(client.describe()));
    }
    {
        Child client;
        client.process()->setProcessEnvironment(withPassword(kPassword));
        client.start(cliPath(), QStringList(args) << QStringLiteral("-J"));
        QVERIFY2(client.waitFinished((DurationSecs + 15) * 1000), qPrintable(client.describe()));
        QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
        const QJsonObject end = client.outJson().value(QStringLiteral("end")).toObject();
        QVERIFY2(end.value(QStringLiteral("sum_received")).toObject().value(QStringLiteral("bytes")).toDouble() > 0,
                 qPrintable(client.describe()));
    }
}

// No IPERF3_PASSWORD and standard input not a terminal: one clear line, before connecting.
void TestAuthInterop::cliWithoutPasswordOrTerminal()
{
    NBTEST_REQUIRE_AUTH();
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QLatin1String(auth::PasswordVariable));
    p.setProcessEnvironment(env);
    p.start(cliPath(),
            {QStringLiteral("-c"), kLoopback, QStringLiteral("-p"), QStringLiteral("9"), QStringLiteral("--username"),
             kUser, QStringLiteral("--rsa-public-key-path"), m_files.publicKey});
    QVERIFY(p.waitForStarted(5000));
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished(10000));
    QVERIFY(p.exitCode() != 0);
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(err.contains("set IPERF3_PASSWORD"), err.constData());
    QVERIFY2(!err.contains("Connecting") && !p.readAllStandardOutput().contains("Connecting"), err.constData());
}

QTEST_GUILESS_MAIN(TestAuthInterop)
#include "tst_authinterop.moc"
