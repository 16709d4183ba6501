// SPDX-License-Identifier: GPL-3.0-or-later
// iperf3-compatible authentication (protocol/auth.h, test/authoptions.h): the token's wire
// form checked with the openssl command line, the server's checks one by one, the command
// line's rules, and interoperability with the stock iperf3 3.12 both ways (its client
// against our server, our client against its server), with the right and a wrong password.
// Keys are made in a temporary folder with `openssl genrsa` / `openssl rsa -pubout`; the
// tests skip with a reason when openssl or iperf3 is missing. A build without OpenSSL
// checks only that the options are refused with one clear line.
#include "integrationhelpers.h"

#include "protocol/auth.h"
#include "test/authoptions.h"
#include "test/commandline.h"
#include "test/server.h"
#include "test/serverinfo.h"
#include "test/throughputclient.h"

#include <QElapsedTimer>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

namespace auth = nb::proto::auth;
using nbtest::Child;

namespace {

constexpr int DurationSecs = 1;
const QString kUser = QStringLiteral("alice");
// No blanks: iperf3 3.12's server reads the password up to the first one (ours reads the line).
const QString kPassword = QStringLiteral("correct-horse");

// Runs a program to its end (at most 30 s); false with *why on failure.
bool runTool(const QString &program, const QStringList &args, QString *why, const QByteArray &input = {},
             QByteArray *out = nullptr)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForStarted(5000)) {
        *why = QStringLiteral("%1 did not start").arg(program);
        return false;
    }
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished(3000);
        *why = QStringLiteral("%1 did not finish").arg(program);
        return false;
    }
    if (out)
        *out = p.readAllStandardOutput();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *why = QStringLiteral("%1 %2 failed: %3")
                   .arg(program, args.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAllStandardError()));
        return false;
    }
    return true;
}

QProcessEnvironment withPassword(const QString &password)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QLatin1String(auth::PasswordVariable), password);
    return env;
}

// Our server with authentication on its own thread; stopped and joined however the test ends.
class AuthServer {
public:
    AuthServer(const QString &privateKey, const QString &users, int skew = auth::DefaultSkewSeconds)
    {
        nb::ServerOptions o;
        o.port = 0;
        o.bindAddress = nbtest::kLoopback;
        o.idleTimeoutSecs = 10;
        o.rsaPrivateKeyPath = privateKey;
        o.authorizedUsersPath = users;
        o.timeSkewSeconds = skew;
        m_server = std::make_unique<nb::Server>(o);
    }
    ~AuthServer()
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

} // namespace

class TestAuth : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void optionsRefusedWithoutOpenSsl();
    void passwordHashIsIperf3s();
    void tokenDecryptsWithOpensslCli();
    void serverChecks_data();
    void serverChecks();
    void replayRefused();
    void usersFileForms();
    void keyFiles();
    void commandLineRules_data();
    void commandLineRules();
    void ourClientOurServer();
    void infoQueryNeedsCredentials();
    void stockClientOurServer();
    void ourClientStockServer();
    void cliWithoutPasswordOrTerminal();

private:
    void requireAuth();
    void requireIperf3();
    nb::TestParams clientParams(quint16 port, const QString &password) const;
    QString token(const QString &user, const QString &password, qint64 ts, const QString &publicKey = {});

    QTemporaryDir m_dir;
    QString m_private, m_public, m_otherPublic, m_users;
    QString m_setupError;
};

void TestAuth::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (!auth::available() || !nbtest::haveTool(QStringLiteral("openssl")))
        return; // the cases say why they skip
    m_private = m_dir.filePath(QStringLiteral("server.pem"));
    m_public = m_dir.filePath(QStringLiteral("public.pem"));
    m_otherPublic = m_dir.filePath(QStringLiteral("other-public.pem"));
    const QString otherPrivate = m_dir.filePath(QStringLiteral("other.pem"));
    QString why;
    for (const QStringList &args :
         {QStringList{QStringLiteral("genrsa"), QStringLiteral("-out"), m_private, QStringLiteral("2048")},
          QStringList{QStringLiteral("rsa"), QStringLiteral("-in"), m_private, QStringLiteral("-pubout"),
                      QStringLiteral("-out"), m_public},
          QStringList{QStringLiteral("genrsa"), QStringLiteral("-out"), otherPrivate, QStringLiteral("2048")},
          QStringList{QStringLiteral("rsa"), QStringLiteral("-in"), otherPrivate, QStringLiteral("-pubout"),
                      QStringLiteral("-out"), m_otherPublic}})
        QVERIFY2(runTool(QStringLiteral("openssl"), args, &why), qPrintable(why));
    QVERIFY(QFile::setPermissions(m_private, QFile::ReadOwner | QFile::WriteOwner));
    // The users file as the iperf3 man page describes it, the hash made by sha256sum.
    QByteArray hash;
    QVERIFY2(runTool(QStringLiteral("sha256sum"), {}, &why, (QStringLiteral("{%1}%2").arg(kUser, kPassword)).toUtf8(),
                     &hash),
             qPrintable(why));
    m_users = m_dir.filePath(QStringLiteral("users.csv"));
    QFile f(m_users);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# file format: username,sha256\n");
    f.write("bob," + auth::passwordHash(QStringLiteral("bob"), QStringLiteral("other")).toLatin1() + "\n");
    f.write(kUser.toUtf8() + ',' + hash.left(64) + "\n");
}

void TestAuth::requireAuth()
{
    if (!auth::available())
        QSKIP("this build has no authentication (configured without OpenSSL's libcrypto)");
    if (m_private.isEmpty())
        QSKIP("the openssl command is not in PATH (install the Debian package openssl)");
}

void TestAuth::requireIperf3()
{
    if (!nbtest::haveTool(QStringLiteral("iperf3")))
        QSKIP("iperf3 is not in PATH (install the Debian package iperf3 to run the interoperability tests)");
}

nb::TestParams TestAuth::clientParams(quint16 port, const QString &password) const
{
    nb::TestParams p = nbtest::loopbackTestParams(port, DurationSecs, 1);
    p.username = kUser;
    p.rsaPublicKeyPath = m_public;
    p.password = password;
    return p;
}

QString TestAuth::token(const QString &user, const QString &password, qint64 ts, const QString &publicKey)
{
    QString error;
    const QString t = auth::makeToken(user, password, publicKey.isEmpty() ? m_public : publicKey, ts, &error);
    if (t.isEmpty())
        qWarning("makeToken: %s", qPrintable(error));
    return t;
}

void TestAuth::optionsRefusedWithoutOpenSsl()
{
    if (auth::available())
        QSKIP("this build has authentication; the refusal is for builds without OpenSSL");
    for (const QStringList &args :
         {QStringList{QStringLiteral("-c"), QStringLiteral("h"), QStringLiteral("--username"), QStringLiteral("u"),
                      QStringLiteral("--rsa-public-key-path"), QStringLiteral("k")},
          QStringList{QStringLiteral("-s"), QStringLiteral("--rsa-private-key-path"), QStringLiteral("k"),
                      QStringLiteral("--authorized-users-path"), QStringLiteral("u")}}) {
        nb::CommandLine cl;
        QString error;
        QVERIFY(!nb::parseCommandLine(args, &cl, &error));
        QVERIFY2(error.contains(QStringLiteral("this build has no authentication")), qPrintable(error));
    }
}

// The hash of the iperf3 man page's example (mario / rossi).
void TestAuth::passwordHashIsIperf3s()
{
    QCOMPARE(auth::passwordHash(QStringLiteral("mario"), QStringLiteral("rossi")),
             QStringLiteral("bf7a49a846d44b454a5d11e7acfaf13d138bbe0b7483aa3e050879700572709b"));
}

// Our token is what iperf3 3.12 sends: PKCS#1 v1.5, the three lines, no NUL.
void TestAuth::tokenDecryptsWithOpensslCli()
{
    requireAuth();
    const QString t = token(kUser, kPassword, 1796317256);
    QVERIFY(!t.isEmpty());
    const QString cipher = m_dir.filePath(QStringLiteral("token.bin"));
    QFile f(cipher);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromBase64(t.toLatin1()));
    f.close();
    QByteArray plain;
    QString why;
    QVERIFY2(
        runTool(QStringLiteral("openssl"),
                {QStringLiteral("pkeyutl"), QStringLiteral("-decrypt"), QStringLiteral("-inkey"), m_private,
                 QStringLiteral("-pkeyopt"), QStringLiteral("rsa_padding_mode:pkcs1"), QStringLiteral("-in"), cipher},
                &why, {}, &plain),
        qPrintable(why));
    QCOMPARE(plain, QByteArray("user: alice\npwd:  correct-horse\nts:   1796317256"));
}

void TestAuth::serverChecks_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<int>("offset"); // token time minus server time
    // 0 our token, 1 none, 2 not a string, 3 not base64, 4 other key, 5 OAEP by the openssl CLI
    QTest::addColumn<int>("form");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<QString>("reason");
    QTest::newRow("right") << kUser << kPassword << 0 << 0 << true << QString();
    QTest::newRow("9 s behind") << kUser << kPassword << -9 << 0 << true << QString();
    QTest::newRow("9 s ahead") << kUser << kPassword << 9 << 0 << true << QString();
    QTest::newRow("11 s behind") << kUser << kPassword << -11 << 0 << false << QStringLiteral("time");
    QTest::newRow("11 s ahead") << kUser << kPassword << 11 << 0 << false << QStringLiteral("time");
    QTest::newRow("wrong password") << kUser << QStringLiteral("wrong") << 0 << 0 << false
                                    << QStringLiteral("wrong password");
    QTest::newRow("unknown user") << QStringLiteral("mallory") << kPassword << 0 << 0 << false
                                  << QStringLiteral("unknown user");
    QTest::newRow("other user's password")
        << QStringLiteral("bob") << kPassword << 0 << 0 << false << QStringLiteral("wrong password");
    QTest::newRow("no token") << kUser << kPassword << 0 << 1 << false << QStringLiteral("no credentials");
    QTest::newRow("token not a string") << kUser << kPassword << 0 << 2 << false << QStringLiteral("not a string");
    QTest::newRow("not base64") << kUser << kPassword << 0 << 3 << false << QStringLiteral("base64");
    QTest::newRow("another server's key") << kUser << kPassword << 0 << 4 << false << QStringLiteral("decrypt");
    QTest::newRow("OAEP (iperf3 3.17+)") << kUser << kPassword << 0 << 5 << true << QString();
    QTest::newRow("OAEP, wrong password")
        << kUser << QStringLiteral("wrong") << 0 << 5 << false << QStringLiteral("wrong password");
}

void TestAuth::serverChecks()
{
    requireAuth();
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(int, offset);
    QFETCH(int, form);
    QFETCH(bool, accepted);
    QFETCH(QString, reason);
    auth::Authenticator a;
    QString error, warning;
    QVERIFY2(a.load(m_private, m_users, auth::DefaultSkewSeconds, &error, &warning), qPrintable(error));
    QVERIFY2(warning.isEmpty(), qPrintable(warning));
    const qint64 now = 1800000000;
    QJsonValue value;
    switch (form) {
    case 0:
        value = token(user, password, now + offset);
        break;
    case 1:
        value = QJsonValue(QJsonValue::Undefined); // as QJsonObject::value() gives for a missing key
        break;
    case 2:
        value = 42;
        break;
    case 3:
        value = QStringLiteral("not*base64!");
        break;
    case 4:
        value = token(user, password, now + offset, m_otherPublic);
        break;
    case 5: {
        QByteArray cipher;
        QVERIFY2(runTool(QStringLiteral("openssl"),
                         {QStringLiteral("pkeyutl"), QStringLiteral("-encrypt"), QStringLiteral("-pubin"),
                          QStringLiteral("-inkey"), m_public, QStringLiteral("-pkeyopt"),
                          QStringLiteral("rsa_padding_mode:oaep")},
                         &error, auth::credentialsText(user, password, now + offset), &cipher),
                 qPrintable(error));
        value = QString::fromLatin1(cipher.toBase64());
        break;
    }
    }
    QString who, why;
    QCOMPARE(a.check(value, now, &who, &why), accepted);
    if (accepted)
        QCOMPARE(who, user);
    else
        QVERIFY2(why.contains(reason), qPrintable(why));
}

// iperf3 3.12 accepts the same token again within the window; we do not.
void TestAuth::replayRefused()
{
    requireAuth();
    auth::Authenticator a;
    QString error, warning, who, why;
    QVERIFY2(a.load(m_private, m_users, auth::DefaultSkewSeconds, &error, &warning), qPrintable(error));
    const qint64 now = 1800000000;
    const QString t = token(kUser, kPassword, now);
    QVERIFY(a.check(t, now, &who, &why));
    QVERIFY(!a.check(t, now + 1, &who, &why));
    QVERIFY2(why.contains(QStringLiteral("replay")), qPrintable(why));
    // A fresh token of the same second is another ciphertext (random padding): accepted.
    QVERIFY2(a.check(token(kUser, kPassword, now), now + 1, &who, &why), qPrintable(why));
}

// CRLF line ends, upper-case hashes, blank lines and comments, a blank in a password; an
// edited file applies at once, a removed one refuses everyone.
void TestAuth::usersFileForms()
{
    requireAuth();
    const QString path = m_dir.filePath(QStringLiteral("users-crlf.csv"));
    auto write = [&path](const QByteArray &text) {
        QFile f(path);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
    };
    const QString spaced = QStringLiteral("two words");
    QVERIFY(write("# users\r\n\r\n  alice , " + auth::passwordHash(kUser, kPassword).toUpper().toLatin1() +
                  "\r\ncarol," + auth::passwordHash(QStringLiteral("carol"), spaced).toLatin1() + "\r\n"));
    auth::Authenticator a;
    QString error, warning, who, why;
    QVERIFY2(a.load(m_private, path, auth::DefaultSkewSeconds, &error, &warning), qPrintable(error));
    const qint64 now = 1800000000;
    QVERIFY2(a.check(token(kUser, kPassword, now), now, &who, &why), qPrintable(why));
    // A blank in the password (iperf3 3.12's server would cut it there).
    QVERIFY2(a.check(token(QStringLiteral("carol"), spaced, now), now, &who, &why), qPrintable(why));
    QCOMPARE(who, QStringLiteral("carol"));
    QVERIFY(write("# alice removed\n"));
    QVERIFY(!a.check(token(kUser, kPassword, now), now, &who, &why));
    QVERIFY2(why.contains(QStringLiteral("unknown user")), qPrintable(why));
    QVERIFY(QFile::remove(path));
    QVERIFY(!a.check(token(kUser, kPassword, now), now, &who, &why));
    QVERIFY2(why.contains(QStringLiteral("cannot read")), qPrintable(why));
}

void TestAuth::keyFiles()
{
    requireAuth();
    auth::Authenticator a;
    QString error, warning;
    // Readable by others: loads, with a warning.
    const QString open = m_dir.filePath(QStringLiteral("open.pem"));
    QVERIFY(QFile::copy(m_private, open));
    QVERIFY(QFile::setPermissions(open, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    QVERIFY2(a.load(open, m_users, 10, &error, &warning), qPrintable(error));
    QVERIFY2(warning.contains(QStringLiteral("can be read by other users")), qPrintable(warning));
    // A passphrase-protected key is refused, not prompted for.
    const QString locked = m_dir.filePath(QStringLiteral("locked.pem"));
    QString why;
    QVERIFY2(runTool(QStringLiteral("openssl"),
                     {QStringLiteral("rsa"), QStringLiteral("-in"), m_private, QStringLiteral("-aes128"),
                      QStringLiteral("-passout"), QStringLiteral("pass:secret"), QStringLiteral("-out"), locked},
                     &why),
             qPrintable(why));
    auth::Authenticator b;
    QVERIFY(!b.load(locked, m_users, 10, &error, &warning));
    QVERIFY2(error.contains(QStringLiteral("without a passphrase")), qPrintable(error));
    // The public key where the private one belongs, a missing file, a missing users file.
    QVERIFY(!b.load(m_public, m_users, 10, &error, &warning));
    QVERIFY2(error.contains(QStringLiteral("no RSA private key")), qPrintable(error));
    QVERIFY(!b.load(m_dir.filePath(QStringLiteral("none.pem")), m_users, 10, &error, &warning));
    QVERIFY2(error.contains(QStringLiteral("cannot read")), qPrintable(error));
    QVERIFY(!b.load(m_private, m_dir.filePath(QStringLiteral("none.csv")), 10, &error, &warning));
    QVERIFY2(error.contains(QStringLiteral("authorized users file")), qPrintable(error));
    QVERIFY(!b.enabled());
    // The client: the private key where the public one belongs.
    QVERIFY(auth::makeToken(kUser, kPassword, m_private, 0, &error).isEmpty());
    QVERIFY2(error.contains(QStringLiteral("BEGIN PUBLIC KEY")), qPrintable(error));
}

void TestAuth::commandLineRules_data()
{
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("message"); // empty: accepted
    QTest::newRow("client") << QStringLiteral("-c h --username u --rsa-public-key-path k") << QString();
    QTest::newRow("user alone") << QStringLiteral("-c h --username u")
                                << QStringLiteral("--username and --rsa-public-key-path go together");
    QTest::newRow("key alone") << QStringLiteral("-c h --rsa-public-key-path k")
                               << QStringLiteral("--username and --rsa-public-key-path go together");
    QTest::newRow("server") << QStringLiteral("-s --rsa-private-key-path k --authorized-users-path u "
                                              "--time-skew-threshold 30")
                            << QString();
    QTest::newRow("server key alone") << QStringLiteral("-s --rsa-private-key-path k")
                                      << QStringLiteral(
                                             "--rsa-private-key-path and --authorized-users-path go together");
    QTest::newRow("skew 0") << QStringLiteral("-s --time-skew-threshold 0")
                            << QStringLiteral("--time-skew-threshold: '0' must be a whole number from 1 to 3600");
}

void TestAuth::commandLineRules()
{
    if (!auth::available())
        QSKIP("this build has no authentication (optionsRefusedWithoutOpenSsl covers it)");
    QFETCH(QString, args);
    QFETCH(QString, message);
    nb::CommandLine cl;
    QString error;
    QCOMPARE(nb::parseCommandLine(args.split(QLatin1Char(' ')), &cl, &error), message.isEmpty());
    QCOMPARE(error, message);
    if (message.isEmpty() && cl.mode == nb::CommandLine::Mode::Server) {
        QCOMPARE(cl.server.rsaPrivateKeyPath, QStringLiteral("k"));
        QCOMPARE(cl.server.authorizedUsersPath, QStringLiteral("u"));
        QCOMPARE(cl.server.timeSkewSeconds, 30);
    } else if (message.isEmpty()) {
        QCOMPARE(cl.params.username, QStringLiteral("u"));
        QCOMPARE(cl.params.rsaPublicKeyPath, QStringLiteral("k"));
    }
}

void TestAuth::ourClientOurServer()
{
    requireAuth();
    AuthServer server(m_private, m_users);
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
        QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(r.streams.isEmpty());
    }
    const nb::TestResult r = nb::ThroughputClient(clientParams(server.port(), kPassword)).run();
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.streams.size(), 1);
    QVERIFY(r.streams.first().bytesReceived > 0);
    QVERIFY(r.params.password.isEmpty()); // the result never holds it
}

void TestAuth::infoQueryNeedsCredentials()
{
    requireAuth();
    AuthServer server(m_private, m_users);
    QString error;
    QVERIFY2(server.start(&error), qPrintable(error));
    nb::ServerInfoQuery q;
    q.host = nbtest::kLoopback;
    q.port = server.port();
    nb::HostEnvironment host;
    nb::ErrorCode code = nb::ErrorCode::None;
    QVERIFY(!nb::queryServerInfo(q, &host, &error, &code));
    QCOMPARE(code, nb::ErrorCode::AuthFailed);
    QVERIFY2(error.contains(QStringLiteral("requires --username")), qPrintable(error));
    q.username = kUser;
    q.rsaPublicKeyPath = m_public;
    q.password = kPassword;
    QVERIFY2(nb::queryServerInfo(q, &host, &error, &code), qPrintable(error));
    QVERIFY(host.known);
}

// Stock iperf3 -c --username against nicbench-cli -s: accepted with the right password,
// refused with iperf3's own "test authorization failed" with a wrong one.
void TestAuth::stockClientOurServer()
{
    requireAuth();
    requireIperf3();
    nbtest::ServerProcess server;
    const QString why =
        server.start(nbtest::cliPath(), {QStringLiteral("-s"), QStringLiteral("--rsa-private-key-path"), m_private,
                                         QStringLiteral("--authorized-users-path"), m_users});
    QVERIFY2(why.isEmpty(), qPrintable(why));
    const QStringList args{QStringLiteral("-c"),
                           nbtest::kLoopback,
                           QStringLiteral("-p"),
                           QString::number(server.port()),
                           QStringLiteral("-t"),
                           QString::number(DurationSecs),
                           QStringLiteral("--username"),
                           kUser,
                           QStringLiteral("--rsa-public-key-path"),
                           m_public};
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
void TestAuth::ourClientStockServer()
{
    requireAuth();
    requireIperf3();
    // iperf3 writes its banner into a pipe buffer, so readiness is its listening socket.
    const quint16 port = nbtest::freePort();
    Child server;
    server.process()->setProcessChannelMode(QProcess::MergedChannels);
    server.start(QStringLiteral("iperf3"), {QStringLiteral("-s"), QStringLiteral("-p"), QString::number(port),
                                            QStringLiteral("--rsa-private-key-path"), m_private,
                                            QStringLiteral("--authorized-users-path"), m_users});
    QVERIFY2(server.waitStarted(), qPrintable(server.describe()));
    QVERIFY2(nbtest::waitListening(port), qPrintable(server.describe()));
    const QStringList args{QStringLiteral("-c"),
                           nbtest::kLoopback,
                           QStringLiteral("-p"),
                           QString::number(port),
                           QStringLiteral("-t"),
                           QString::number(DurationSecs),
                           QStringLiteral("--username"),
                           kUser,
                           QStringLiteral("--rsa-public-key-path"),
                           m_public};
    {
        Child client;
        client.process()->setProcessEnvironment(withPassword(QStringLiteral("wrong")));
        client.start(nbtest::cliPath(), args);
        QVERIFY2(client.waitFinished(15000), qPrintable(client.describe()));
        QVERIFY2(client.exitCode() != 0, qPrintable(client.describe()));
        QVERIFY2(client.err().contains("test authorization failed"), qPrintable(client.describe()));
    }
    {
        Child client;
        client.process()->setProcessEnvironment(withPassword(kPassword));
        client.start(nbtest::cliPath(), QStringList(args) << QStringLiteral("-J"));
        QVERIFY2(client.waitFinished((DurationSecs + 15) * 1000), qPrintable(client.describe()));
        QVERIFY2(client.exitCode() == 0, qPrintable(client.describe()));
        const QJsonObject end = client.outJson().value(QStringLiteral("end")).toObject();
        QVERIFY2(end.value(QStringLiteral("sum_received")).toObject().value(QStringLiteral("bytes")).toDouble() > 0,
                 qPrintable(client.describe()));
    }
}

// No IPERF3_PASSWORD and standard input not a terminal: one clear line, before connecting.
void TestAuth::cliWithoutPasswordOrTerminal()
{
    requireAuth();
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QLatin1String(auth::PasswordVariable));
    p.setProcessEnvironment(env);
    p.start(nbtest::cliPath(),
            {QStringLiteral("-c"), nbtest::kLoopback, QStringLiteral("-p"), QStringLiteral("9"),
             QStringLiteral("--username"), kUser, QStringLiteral("--rsa-public-key-path"), m_public});
    QVERIFY(p.waitForStarted(5000));
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished(10000));
    QVERIFY(p.exitCode() != 0);
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(err.contains("set IPERF3_PASSWORD"), err.constData());
    QVERIFY2(!err.contains("Connecting") && !p.readAllStandardOutput().contains("Connecting"), err.constData());
}

QTEST_GUILESS_MAIN(TestAuth)
#include "tst_auth.moc"
