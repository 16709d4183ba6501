// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The glue between the authentication options and protocol/auth.h: the command line's
// rules, the client's password and token, the server's check of a parameter JSON. Kept
// apart so the client and server scripts each need one line for it.

#include "model/testparams.h"
#include "protocol/auth.h"
#include "session/server.h"

#include <QJsonObject>
#include <QString>

namespace nb {

// The command line's rules for the authentication options (either path alone, a build
// without OpenSSL): a one-line message, or empty when they are fine.
QString checkAuthOptions(const TestParams &client, const ServerOptions &server);

// Client, before connecting: fills params->password when --username is given and it is
// empty: IPERF3_PASSWORD, else a prompt without echo when standard input is a terminal,
// else false with a message saying how to give it.
bool obtainPassword(TestParams *params, QString *error);

// Client: adds "authtoken" to an iperf3 parameter JSON when user is set (the password:
// the one given, else IPERF3_PASSWORD). False with *error when it cannot be made.
bool addAuthToken(const QString &user, const QString &publicKeyPath, const QString &password, QJsonObject *iperfParams,
                  QString *error);

// Client: what to add to "test authorization failed": how to give credentials when none
// were given, else nothing (a wrong password or key says no more than iperf3 does).
QString authRefusalHint(const QString &username);

// Server: true when authentication is off or the parameters carry valid credentials; else
// false and *message is the line for the log (the client is to get IEAUTHTEST only).
// *user is the authenticated user's name (empty when authentication is off).
bool authorizeClient(const proto::auth::Authenticator &auth, const QJsonObject &iperfParams, QString *user,
                     QString *message);

} // namespace nb
