// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// iperf3-compatible authentication (--username, --rsa-public-key-path on the client;
// --rsa-private-key-path, --authorized-users-path, --time-skew-threshold on the server).
// The client puts an "authtoken" in the parameter JSON: base64 of the RSA encryption
// (PKCS#1 v1.5 padding, as iperf3 3.12 uses) of "user: U\npwd:  P\nts:   SECONDS". The
// server decrypts it, checks the time against its clock and the password against
// sha256("{U}P") in the users file. docs/protocol.md §1 "Authentication" has the facts and
// README.md "Server security" what it protects against and what it does not.
//
// The OpenSSL calls live in auth.cpp only. A build without libcrypto (the mingw cross
// build) compiles the same interface: available() is false and every call fails with
// noAuthMessage().

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <memory>

namespace nb::proto::auth {

// iperf3's --time-skew-threshold default: the token's time may differ from the server's
// clock by this many seconds either way.
constexpr int DefaultSkewSeconds = 10;
// What the client reads the password from, as iperf3 does.
constexpr const char *PasswordVariable = "IPERF3_PASSWORD";
// Bounds on what a peer or a file can make us read or hold.
constexpr qsizetype MaxTokenSize = 8 * 1024;        // base64; a 16384-bit key gives 2732
constexpr qsizetype MaxUsersFileSize = 1024 * 1024; // bytes
constexpr qsizetype MaxKeyFileSize = 64 * 1024;     // bytes
constexpr qsizetype MaxCredentialSize = 1024;       // user name or password, in bytes of UTF-8

// True when this build has OpenSSL's libcrypto and so can authenticate.
bool available();
// "this build has no authentication (built without OpenSSL)".
QString noAuthMessage();

// The hash the users file holds: lower-case hex of sha256("{user}password").
QString passwordHash(const QString &user, const QString &password);

// The plain text the token carries (exposed for tests).
QByteArray credentialsText(const QString &user, const QString &password, std::int64_t unixSeconds);

// Client side: the authtoken for the parameter JSON, made with the PEM public key in
// publicKeyPath (SubjectPublicKeyInfo, "BEGIN PUBLIC KEY"). Empty with *error set when the
// key cannot be read or the credentials do not fit in one RSA block.
QString makeToken(const QString &user, const QString &password, const QString &publicKeyPath, std::int64_t unixSeconds,
                  QString *error);

// Server side. Holds the private key and the users file's path; check() reads the users
// file each time, so an edited file applies to the next client without a restart (as in
// iperf3). Not copyable; share it by reference.
class Authenticator {
public:
    Authenticator();
    ~Authenticator();
    Authenticator(const Authenticator &) = delete;
    Authenticator &operator=(const Authenticator &) = delete;

    // Loads the private key (PEM, no passphrase) and checks that the users file reads.
    // *warning is set (and true returned) when the key file is readable by group or others.
    bool load(const QString &privateKeyPath, const QString &usersPath, int skewSeconds, QString *error,
              QString *warning);
    bool enabled() const;

    // Checks the "authtoken" value of a parameter JSON at the server's time now. True with
    // *user set when the token decrypts, its time lies within the skew, it was not seen
    // before and the user's hash matches; else false with *reason for the server's log
    // (the client only ever learns "test authorization failed").
    bool check(const QJsonValue &token, std::int64_t unixSeconds, QString *user, QString *reason) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace nb::proto::auth
