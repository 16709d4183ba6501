// SPDX-License-Identifier: GPL-3.0-or-later
// iperf3-compatible authentication (protocol/auth.h, test/authoptions.h) without a network:
// the token's wire form checked with the openssl command line, the users-file hash against
// the iperf3 man page's example, the server's checks one by one (time skew, replay, users
// file forms, OAEP), key files, and the command line's rules. A build without OpenSSL
// checks that the options are refused with one clear line. tst_authinterop runs clients
// and servers, ours and stock iperf3's.
#include "authfixtures.h"

#include "session/commandline.h"

#include <QDateTime>
#include <QTest>

using namespace nbtest;

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
    void usersFileWarnings();
    void tokenFromBeforeTheStartRefused();
    void keyFiles();
    void commandLineRules_data();
    void commandLineRules();

private:
    AuthFiles m_files;
};

void TestAuth::initTestCase()
{
    if (!authSkipReason()) {
        const QString why = m_files.make();
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
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
    NBTEST_REQUIRE_AUTH();
    const QString t = m_files.token(kUser, kPassword, 1796317256);
    QVERIFY(!t.isEmpty());
    const QString cipher = m_files.dir.filePath(QStringLiteral("token.bin"));
    QFile f(cipher);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromBase64(t.toLatin1()));
    f.close();
    QByteArray plain;
    QString why;
    QVERIFY2(
        runTool(QStringLiteral("openssl"),
                {QStringLiteral("pkeyutl"), QStringLiteral("-decrypt"), QStringLiteral("-inkey"), m_files.privateKey,
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
    NBTEST_REQUIRE_AUTH();
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(int, offset);
    QFETCH(int, form);
    QFETCH(bool, accepted);
    QFETCH(QString, reason);
    auth::Authenticator a;
    QString error, warning;
    QVERIFY2(a.load(m_files.privateKey, m_files.users, auth::DefaultSkewSeconds, &error, &warning), qPrintable(error));
    QVERIFY2(warning.isEmpty(), qPrintable(warning));
    const qint64 now = 1800000000;
    QJsonValue value;
    switch (form) {
    case 0:
        value = m_files.token(user, password, now + offset);
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
        value = m_files.token(user, password, now + offset, m_files.otherPublicKey);
        break;
    case 5: {
        QByteArray cipher;
        QVERIFY2(runTool(QStringLiteral("openssl"),
                         {QStringLiteral("pkeyutl"), QStringLiteral("-encrypt"), QStringLiteral("-pubin"),
                          QStringLiteral("-inkey"), m_files.publicKey, QStringLiteral("-pkeyopt"),
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
    NBTEST_REQUIRE_AUTH();
    auth::Authenticator a;
    QString error, warning, who, why;
    QVERIFY2(a.load(m_files.privateKey, m_files.users, auth::DefaultSkewSeconds, &error, &warning), qPrintable(error));
    const qint64 now = 1800000000;
    const QString t = m_files.token(kUser, kPassword, now);
    QVERIFY(a.check(t, now, &who, &why));
    QVERIFY(!a.check(t, now + 1, &who, &why));
    QVERIFY2(why.contains(QStringLiteral("replay")), qPrintable(why));
    // A fresh token of the same second is another ciphertext (random padding): accepted.
    QVERIFY2(a.check(m_files.token(kUser, kPassword, now), now + 1, &who, &why), qPrintable(why));
}

// CRLF line ends, upper-case hashes, blank lines and comments, a blank in a password; an
// edited file applies at once, a removed one refuses everyone.
void TestAuth::usersFileForms()
{
    NBTEST_REQUIRE_AUTH();
    const QString path = m_files.dir.filePath(QStringLiteral("users-crlf.csv"));
    auto write = [&path](const QByteArray &text) {
        QFile f(path);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
    };
    const QString spaced = QStringLiteral("two words");
    QVERIFY(write("# users\r\n\r\n  alice , " + auth::passwordHash(kUser, kPassword).toUpper().toLatin1() +
                  "\r\ncarol," + auth::passwordHash(QStringLiteral("carol"), spaced).toLatin1() + "\r\n"));
    auth::Authenticator a;
    QString error, warning, who, why;
    QVERIFY2(a.load(m_files.privateKey, path, auth::DefaultSkewSeconds, &error, &warning), qPrintable(error));
    const qint64 now = 1800000000;
    QVERIFY2(a.check(m_files.token(kUser, kPassword, now), now, &who, &why), qPrintable(why));
    // A blank in the password (iperf3 3.12's server would cut it there).
    QVERIFY2(a.check(m_files.token(QStringLiteral("carol"), spaced, now), now, &who, &why), qPrintable(why));
    QCOMPARE(who, QStringLiteral("carol"));
    QVERIFY(write("# alice removed\n"));
    QVERIFY(!a.check(m_files.token(kUser, kPassword, now), now, &who, &why));
    QVERIFY2(why.contains(QStringLiteral("unknown user")), qPrintable(why));
    QVERIFY(QFile::remove(path));
    QVERIFY(!a.check(m_files.token(kUser, kPassword, now), now, &who, &why));
    QVERIFY2(why.contains(QStringLiteral("cannot read")), qPrintable(why));
}

// Review minor: a users file with a byte order mark or malformed lines loaded without a
// word (and the BOM made the first user unknown). Now the server warns at start, naming the
// lines, and the first user is found.
void TestAuth::usersFileWarnings()
{
    NBTEST_REQUIRE_AUTH();
    const QString path = m_files.dir.filePath(QStringLiteral("users-bom.csv"));
    QFile f(path);
    const QByteArray text = "\xEF\xBB\xBF" + kUser.toLatin1() + "," + auth::passwordHash(kUser, kPassword).toLatin1() +
                            "\nbob\ncarol,not-a-hash\n# fine\n";
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
    f.close();
    auth::Authenticator a;
    QString error, warning, who, why;
    QVERIFY2(a.load(m_files.privateKey, path, auth::DefaultSkewSeconds, &error, &warning), qPrintable(error));
    QVERIFY2(warning.contains(QLatin1String("byte order mark")), qPrintable(warning));
    QVERIFY2(warning.contains(QLatin1String("lines 2, 3 are not USER,SHA256HEX")), qPrintable(warning));
    const qint64 now = 1800000000;
    QVERIFY2(a.check(m_files.token(kUser, kPassword, now), now, &who, &why), qPrintable(why));
    auth::Authenticator clean;
    QVERIFY(clean.load(m_files.privateKey, m_files.users, auth::DefaultSkewSeconds, &error, &warning));
    QVERIFY2(!warning.contains(QLatin1String("users file")), qPrintable(warning));
}

// Review minor: the record of tokens seen dies with the server, so a token captured just
// before a restart could be replayed after it, within the time window. A token made before
// this server started is refused.
void TestAuth::tokenFromBeforeTheStartRefused()
{
    NBTEST_REQUIRE_AUTH();
    auth::Authenticator a;
    QString error, warning, who, why;
    QVERIFY2(a.load(m_files.privateKey, m_files.users, auth::DefaultSkewSeconds, &error, &warning), qPrintable(error));
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    QVERIFY(!a.check(m_files.token(kUser, kPassword, now - 5), now, &who, &why));
    QVERIFY2(why.contains(QLatin1String("before this server started")), qPrintable(why));
    QVERIFY2(a.check(m_files.token(kUser, kPassword, now + 1), now + 1, &who, &why), qPrintable(why));
}

void TestAuth::keyFiles()
{
    NBTEST_REQUIRE_AUTH();
    auth::Authenticator a;
    QString error, warning;
    // Readable by others: loads, with a warning.
    const QString open = m_files.dir.filePath(QStringLiteral("open.pem"));
    QVERIFY(QFile::copy(m_files.privateKey, open));
    QVERIFY(QFile::setPermissions(open, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
    QVERIFY2(a.load(open, m_files.users, 10, &error, &warning), qPrintable(error));
    QVERIFY2(warning.contains(QStringLiteral("can be read by other users")), qPrintable(warning));
    // A passphrase-protected key is refused, not prompted for.
    const QString locked = m_files.dir.filePath(QStringLiteral("locked.pem"));
    QString why;
    QVERIFY2(runTool(QStringLiteral("openssl"),
                     {QStringLiteral("rsa"), QStringLiteral("-in"), m_files.privateKey, QStringLiteral("-aes128"),
                      QStringLiteral("-passout"), QStringLiteral("pass:secret"), QStringLiteral("-out"), locked},
                     &why),
             qPrintable(why));
    auth::Authenticator b;
    QVERIFY(!b.load(locked, m_files.users, 10, &error, &warning));
    QVERIFY2(error.contains(QStringLiteral("without a passphrase")), qPrintable(error));
    // The public key where the private one belongs, a missing file, a missing users file.
    QVERIFY(!b.load(m_files.publicKey, m_files.users, 10, &error, &warning));
    QVERIFY2(error.contains(QStringLiteral("no RSA private key")), qPrintable(error));
    QVERIFY(!b.load(m_files.dir.filePath(QStringLiteral("none.pem")), m_files.users, 10, &error, &warning));
    QVERIFY2(error.contains(QStringLiteral("cannot read")), qPrintable(error));
    QVERIFY(!b.load(m_files.privateKey, m_files.dir.filePath(QStringLiteral("none.csv")), 10, &error, &warning));
    QVERIFY2(error.contains(QStringLiteral("authorized users file")), qPrintable(error));
    QVERIFY(!b.enabled());
    // The client: the private key where the public one belongs.
    QVERIFY(auth::makeToken(kUser, kPassword, m_files.privateKey, 0, &error).isEmpty());
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

QTEST_GUILESS_MAIN(TestAuth)
#include "tst_auth.moc"
