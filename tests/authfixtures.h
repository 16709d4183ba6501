// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What tst_auth and tst_authinterop share: keys and a users file made in a temporary folder
// with the openssl command line (`openssl genrsa`, `openssl rsa -pubout`) and sha256sum, as
// the iperf3 man page describes them, and running such tools with a bounded wait.

#include "integrationhelpers.h"

#include "protocol/auth.h"

#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace nbtest {

namespace auth = nb::proto::auth;

inline const QString kUser = QStringLiteral("alice");
// No blanks: iperf3 3.12's server reads the password up to the first one (ours reads the line).
inline const QString kPassword = QStringLiteral("correct-horse");

// Runs a program to its end (at most 30 s); false with *why on failure.
inline bool runTool(const QString &program, const QStringList &args, QString *why, const QByteArray &input = {},
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

inline QProcessEnvironment withPassword(const QString &password)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QLatin1String(auth::PasswordVariable), password);
    return env;
}

// Why the authentication cases cannot run here, or nullptr when they can.
inline const char *authSkipReason()
{
    if (!auth::available())
        return "this build has no authentication (configured without OpenSSL's libcrypto)";
    if (!haveTool(QStringLiteral("openssl")) || !haveTool(QStringLiteral("sha256sum")))
        return "the openssl or sha256sum command is not in PATH (install the Debian packages openssl, coreutils)";
    return nullptr;
}

// Skips the calling test function (QSKIP returns from the function it is written in).
#define NBTEST_REQUIRE_AUTH()                                                                                          \
    do {                                                                                                               \
        if (const char *why = nbtest::authSkipReason())                                                                \
            QSKIP(why);                                                                                                \
    } while (false)

// A server key pair, a second public key (another server's) and a users file listing
// kUser (hash by sha256sum) and bob, in a temporary folder removed with this object.
struct AuthFiles {
    QTemporaryDir dir;
    QString privateKey, publicKey, otherPublicKey, users;

    // Empty on success, else what failed.
    QString make()
    {
        if (!dir.isValid())
            return QStringLiteral("no temporary folder");
        privateKey = dir.filePath(QStringLiteral("server.pem"));
        publicKey = dir.filePath(QStringLiteral("public.pem"));
        otherPublicKey = dir.filePath(QStringLiteral("other-public.pem"));
        const QString otherPrivate = dir.filePath(QStringLiteral("other.pem"));
        QString why;
        for (const QStringList &args :
             {QStringList{QStringLiteral("genrsa"), QStringLiteral("-out"), privateKey, QStringLiteral("2048")},
              QStringList{QStringLiteral("rsa"), QStringLiteral("-in"), privateKey, QStringLiteral("-pubout"),
                          QStringLiteral("-out"), publicKey},
              QStringList{QStringLiteral("genrsa"), QStringLiteral("-out"), otherPrivate, QStringLiteral("2048")},
              QStringList{QStringLiteral("rsa"), QStringLiteral("-in"), otherPrivate, QStringLiteral("-pubout"),
                          QStringLiteral("-out"), otherPublicKey}})
            if (!runTool(QStringLiteral("openssl"), args, &why))
                return why;
        if (!QFile::setPermissions(privateKey, QFile::ReadOwner | QFile::WriteOwner))
            return QStringLiteral("cannot chmod 600 the key");
        QByteArray hash;
        if (!runTool(QStringLiteral("sha256sum"), {}, &why, QStringLiteral("{%1}%2").arg(kUser, kPassword).toUtf8(),
                     &hash))
            return why;
        users = dir.filePath(QStringLiteral("users.csv"));
        QFile f(users);
        if (!f.open(QIODevice::WriteOnly))
            return QStringLiteral("cannot write %1").arg(users);
        f.write("# file format: username,sha256\n");
        f.write("bob," + auth::passwordHash(QStringLiteral("bob"), QStringLiteral("other")).toLatin1() + "\n");
        f.write(kUser.toUtf8() + ',' + hash.left(64) + "\n");
        return {};
    }

    QString token(const QString &user, const QString &password, qint64 ts, const QString &key = {}) const
    {
        QString error;
        const QString t = auth::makeToken(user, password, key.isEmpty() ? publicKey : key, ts, &error);
        if (t.isEmpty())
            qWarning("makeToken: %s", qPrintable(error));
        return t;
    }
};

} // namespace nbtest
