// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/authoptions.h"

#include "platform/terminal.h"

#include <QDateTime>

namespace nb {

namespace {

namespace auth = proto::auth;

QString passwordFromEnvironment(bool *given)
{
    *given = qEnvironmentVariableIsSet(auth::PasswordVariable);
    return qEnvironmentVariable(auth::PasswordVariable);
}

} // namespace

QString checkAuthOptions(const TestParams &client, const ServerOptions &server)
{
    const bool clientAuth = !client.username.isEmpty() || !client.rsaPublicKeyPath.isEmpty();
    const bool serverAuth = !server.rsaPrivateKeyPath.isEmpty() || !server.authorizedUsersPath.isEmpty();
    if ((clientAuth || serverAuth) && !auth::available())
        return QStringLiteral("%1: %2").arg(clientAuth ? QStringLiteral("--username")
                                                       : QStringLiteral("--rsa-private-key-path"),
                                            auth::noAuthMessage());
    if (client.username.isEmpty() != client.rsaPublicKeyPath.isEmpty())
        return QStringLiteral("--username and --rsa-public-key-path go together");
    if (server.rsaPrivateKeyPath.isEmpty() != server.authorizedUsersPath.isEmpty())
        return QStringLiteral("--rsa-private-key-path and --authorized-users-path go together");
    return {};
}

bool obtainPassword(TestParams *params, QString *error)
{
    if (params->username.isEmpty() || !params->password.isEmpty())
        return true;
    bool given = false;
    params->password = passwordFromEnvironment(&given);
    if (given)
        return true;
    if (!platform::stdinIsTerminal()) {
        *error = QStringLiteral("--username needs a password: set %1 (standard input is no terminal to ask on)")
                     .arg(QLatin1String(auth::PasswordVariable));
        return false;
    }
    return platform::readSecretLine(QStringLiteral("Password: "), int(auth::MaxCredentialSize), &params->password,
                                    error);
}

bool addAuthToken(const QString &user, const QString &publicKeyPath, const QString &password, QJsonObject *iperfParams,
                  QString *error)
{
    if (user.isEmpty())
        return true;
    bool given = !password.isEmpty();
    const QString pass = given ? password : passwordFromEnvironment(&given);
    if (!given) {
        *error = QStringLiteral("--username needs a password: set %1").arg(QLatin1String(auth::PasswordVariable));
        return false;
    }
    QString err;
    const QString token = auth::makeToken(user, pass, publicKeyPath, QDateTime::currentSecsSinceEpoch(), &err);
    if (token.isEmpty()) {
        *error = QStringLiteral("cannot make the credentials: %1").arg(err);
        return false;
    }
    iperfParams->insert(QStringLiteral("authtoken"), token);
    return true;
}

QString authRefusalHint(const QString &username)
{
    return username.isEmpty() ? QStringLiteral(" (the server requires --username and --rsa-public-key-path)")
                              : QString();
}

bool authorizeClient(const auth::Authenticator &authenticator, const QJsonObject &iperfParams, QString *user,
                     QString *message)
{
    user->clear();
    if (!authenticator.enabled())
        return true;
    QString name, reason;
    if (authenticator.check(iperfParams.value(QStringLiteral("authtoken")), QDateTime::currentSecsSinceEpoch(), &name,
                            &reason)) {
        *user = name;
        return true;
    }
    *message = name.isEmpty() ? QStringLiteral("authentication failed: %1").arg(reason)
                              : QStringLiteral("authentication failed for user '%1': %2").arg(name, reason);
    return false;
}

} // namespace nb
